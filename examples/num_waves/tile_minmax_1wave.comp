#version 450
// The numWaves proposal's single-wave example (hlsl-specs 0054, "Single Wave Example"), in GLSL with
// GL_BISMUTH_num_waves: the min/max depth of each 8x8 tile with one wave per work group, so no atomics and no
// cross-wave communication. Each lane covers WAVE_ROWS = wave size / 8 rows per iteration.
#extension GL_BISMUTH_num_waves : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#define TILE_SIZE 8u
#define DEPTH_WIDTH 64u

layout(num_waves = 1) in;
layout(wave_size_min = 8, wave_size_max = 64) in;

layout(std430, binding = 0) readonly buffer Depth { float depth[]; };
layout(std430, binding = 1) writeonly buffer TileMinMax { uint tile_min_max[]; };

void main() {
  float min_z = 3.402823466e+38, max_z = -3.402823466e+38;
  uvec2 tile = gl_WorkGroupID.xy;
  uint lane = gl_WaveLaneIndex;
  uvec2 coord = tile * TILE_SIZE + uvec2(lane % TILE_SIZE, lane / TILE_SIZE);
  // 8 iterations at wave size 8, 2 at 32, 1 at 64.
  uint iterations = (TILE_SIZE * TILE_SIZE) / gl_WaveSize;
  for (uint i = 0u; i < iterations; ++i) {
    float z = depth[coord.y * DEPTH_WIDTH + coord.x];
    min_z = min(min_z, subgroupMin(z));
    max_z = max(max_z, subgroupMax(z));
    coord.y += gl_WaveSize / TILE_SIZE;
  }
  if (subgroupElect()) tile_min_max[tile.y * gl_NumWorkGroups.x + tile.x] = packHalf2x16(vec2(min_z, max_z));
}
