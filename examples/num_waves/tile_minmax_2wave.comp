#version 450
// The numWaves proposal's two-wave example (hlsl-specs 0054, "Two Wave Example"), in GLSL with
// GL_BISMUTH_num_waves: wave specialisation: wave 1 leaves its half-tile result in shared memory and retires,
// wave 0 collates and writes. The proposal's listing assigns the wave's first row with `=`; it is an offset
// within the tile, so here it is added to the tile's origin.
#extension GL_BISMUTH_num_waves : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#define TILE_SIZE 8u
#define DEPTH_WIDTH 64u

layout(num_waves = 2) in;
layout(wave_size_min = 8, wave_size_max = 32) in;

layout(std430, binding = 0) readonly buffer Depth { float depth[]; };
layout(std430, binding = 1) writeonly buffer TileMinMax { uint tile_min_max[]; };

shared float wave1_min_z;
shared float wave1_max_z;

void main() {
  float min_z = 3.402823466e+38, max_z = -3.402823466e+38;
  uvec2 tile = gl_WorkGroupID.xy;
  uint lane = gl_WaveLaneIndex;
  uvec2 coord = tile * TILE_SIZE + uvec2(lane % TILE_SIZE, lane / TILE_SIZE);
  // The first wave does the top half, the second the bottom half.
  coord.y += gl_WaveIndex * (TILE_SIZE / gl_NumWaves);
  // gl_NumWaves is a constant: the first division folds; 4 iterations at wave size 8, 1 at 32.
  uint iterations = (TILE_SIZE * TILE_SIZE) / gl_NumWaves;
  iterations /= gl_WaveSize;
  for (uint i = 0u; i < iterations; ++i) {
    float z = depth[coord.y * DEPTH_WIDTH + coord.x];
    min_z = min(min_z, subgroupMin(z));
    max_z = max(max_z, subgroupMax(z));
    coord.y += gl_WaveSize / TILE_SIZE;
  }
  if (gl_WaveIndex != 0u) {
    if (subgroupElect()) {
      wave1_min_z = min_z;
      wave1_max_z = max_z;
    }
  }
  // GLSL requires barrier() in uniform control flow, so wave 1 reaches it before retiring (the HLSL original
  // returns first and relies on GroupMemoryBarrierWithGroupSync counting only live waves).
  barrier();
  if (gl_WaveIndex != 0u) return;
  min_z = min(min_z, wave1_min_z);
  max_z = max(max_z, wave1_max_z);
  if (subgroupElect()) tile_min_max[tile.y * gl_NumWorkGroups.x + tile.x] = packHalf2x16(vec2(min_z, max_z));
}
