#version 450
// The baseline the numWaves compaction example is measured against (bench/gl/bench_num_waves.cpp): the same
// filter and output, written the usual way with a fixed local_size_x and one atomic per wave, so items of a
// work group land wherever each wave's atomic put them. A work group covers an 8 x (128 / 8) pixel tile.
#extension GL_KHR_shader_subgroup_ballot : require

#define TILE_WIDTH 8u
#define GROUP_INVOCATIONS 128u

layout(local_size_x = 128) in;

layout(std430, binding = 0) readonly buffer GBuffer { uint gbuffer[]; };
layout(std430, binding = 1) buffer Count { uint count_total; };
layout(std430, binding = 2) writeonly buffer Data { uint data[]; };

uniform uint image_width;

void main() {
  uvec2 coord = gl_WorkGroupID.xy * uvec2(TILE_WIDTH, GROUP_INVOCATIONS / TILE_WIDTH);
  coord += uvec2(gl_LocalInvocationIndex % TILE_WIDTH, gl_LocalInvocationIndex / TILE_WIDTH);
  bool export_data = (gbuffer[coord.y * image_width + coord.x] & 1u) != 0u;
  uvec4 ballot = subgroupBallot(export_data);
  uint write_offset = 0u;
  if (subgroupElect()) write_offset = atomicAdd(count_total, subgroupBallotBitCount(ballot));
  write_offset = subgroupBroadcastFirst(write_offset);
  uint index = write_offset + subgroupBallotExclusiveBitCount(ballot);
  if (export_data) data[index] = (coord.x & 0xffffu) | (coord.y << 16);
}
