// GLSL port of tile_min_max_2waves.hlsl (hlsl-specs proposal 0054, "Two Wave Example"): two waves per group, wave 0
// the top half of the 8x8 tile, wave 1 the bottom half; wave 1 leaves its result in shared memory, wave 0 collates.
// Bindings and dispatch as tile_min_max_1wave.comp; wave sizes 8 to 32.
#version 450
#extension GL_BISMUTH_num_waves : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(num_waves = 2) in;
layout(wave_size_min = 8, wave_size_max = 32) in;

layout(std430, binding = 0) readonly buffer Depth { float depth[]; };
layout(std430, binding = 1) writeonly buffer Tiles { uint tile_min_max[]; };
layout(std140, binding = 0) uniform Image { uint width; };

const uint kTileSize = 8u;
shared float wave1_min_z;
shared float wave1_max_z;

void main() {
  const uvec2 tile = gl_WorkGroupID.xy;
  float min_z = 3.402823466e+38, max_z = -3.402823466e+38;
  uvec2 coord = tile * kTileSize + uvec2(gl_WaveLaneIndex % kTileSize, gl_WaveLaneIndex / kTileSize);
  coord.y += gl_WaveIndex * (kTileSize / gl_NumWaves);
  const uint iterations = kTileSize * kTileSize / gl_NumWaves / gl_WaveSize;
  for (uint i = 0u; i < iterations; ++i) {
    const float z = depth[coord.y * width + coord.x];
    min_z = min(min_z, subgroupMin(z));
    max_z = max(max_z, subgroupMax(z));
    coord.y += gl_WaveSize / kTileSize;
  }
  if (gl_WaveIndex == 1u) {
    wave1_min_z = min_z;
    wave1_max_z = max_z;
  }
  barrier();
  if (gl_WaveIndex == 0u && subgroupElect()) {
    tile_min_max[tile.y * (width / kTileSize) + tile.x] =
        packHalf2x16(vec2(min(min_z, wave1_min_z), max(max_z, wave1_max_z)));
  }
}
