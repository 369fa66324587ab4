// GLSL port of tile_min_max_1wave.hlsl (hlsl-specs proposal 0054, "Single Wave Example") with GL_BISMUTH_num_waves:
// the min/max depth of each 8x8 tile, one wave per group. Bindings: shader storage 0 depth, 1 the tiles (packed
// f16 max << 16 | f16 min); uniform block 0 the image width (a multiple of 8). Dispatch (width / 8, height / 8, 1).
#version 450
#extension GL_BISMUTH_num_waves : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require

layout(num_waves = 1, wave_size_min = 8, wave_size_max = 64) in;

layout(std430, binding = 0) readonly buffer Depth { float depth[]; };
layout(std430, binding = 1) writeonly buffer Tiles { uint tile_min_max[]; };
layout(std140, binding = 0) uniform Image { uint width; };

const uint kTileSize = 8u;

void main() {
  const uvec2 tile = gl_WorkGroupID.xy;
  float min_z = 3.402823466e+38, max_z = -3.402823466e+38;
  uvec2 coord = tile * kTileSize + uvec2(gl_WaveLaneIndex % kTileSize, gl_WaveLaneIndex / kTileSize);
  const uint iterations = kTileSize * kTileSize / gl_WaveSize;
  for (uint i = 0u; i < iterations; ++i) {
    const float z = depth[coord.y * width + coord.x];
    min_z = min(min_z, subgroupMin(z));
    max_z = max(max_z, subgroupMax(z));
    coord.y += gl_WaveSize / kTileSize;
  }
  if (subgroupElect()) tile_min_max[tile.y * (width / kTileSize) + tile.x] = packHalf2x16(vec2(min_z, max_z));
}
