#version 450
// The numWaves proposal's memory-coherency example (hlsl-specs 0054, "Improved Memory Coherency Example"), in
// GLSL with GL_BISMUTH_num_waves: every exported item of a work group is written contiguously, in a deterministic
// order, with one atomic per work group (wave 0 sums the waves' counts). Shared memory is sized by the wave count.
// The proposal's tile is 16 pixels wide with wave sizes 16..64; this port uses 8-pixel-wide tiles so that
// 8-wide waves (lavapipe) run it too. A wave covers wave size / 8 rows, a work group 4 waves of rows, so the
// application sizes its dispatch from the committed wave size (GL_COMPUTE_WAVE_SIZE_BISMUTH).
#extension GL_BISMUTH_num_waves : require
#extension GL_KHR_shader_subgroup_ballot : require

#define TILE_WIDTH 8u

layout(num_waves = 4) in;
layout(wave_size_min = 8, wave_size_max = 64) in;

layout(std430, binding = 0) readonly buffer GBuffer { uint gbuffer[]; };
layout(std430, binding = 1) buffer Count { uint count_total; };
layout(std430, binding = 2) writeonly buffer Data { uint data[]; };

uniform uint image_width;

// First the number of outputs of each wave but wave 0, then each such wave's write offset.
shared uint wave_store[gl_NumWaves - 1];

void main() {
  uint wave_height = gl_WaveSize / TILE_WIDTH;
  uint tile_height = wave_height * gl_NumWaves;
  uvec2 coord = gl_WorkGroupID.xy * uvec2(TILE_WIDTH, tile_height);
  coord.y += gl_WaveIndex * wave_height;
  coord += uvec2(gl_WaveLaneIndex % TILE_WIDTH, gl_WaveLaneIndex / TILE_WIDTH);

  // The filter: any condition; here the low bit of the G-buffer word.
  bool export_data = (gbuffer[coord.y * image_width + coord.x] & 1u) != 0u;
  uvec4 ballot = subgroupBallot(export_data);
  uint count = subgroupBallotBitCount(ballot);

  if (gl_WaveIndex != 0u && subgroupElect()) wave_store[gl_WaveIndex - 1u] = count;
  barrier();

  // Wave 0 sums the counts, issues the work group's one atomic and turns the counts into write offsets.
  uint write_offset = 0u;
  if (gl_WaveIndex == 0u) {
    if (subgroupElect()) {
      uint group_sum = count;
      for (uint j = 0u; j < gl_NumWaves - 1u; ++j) group_sum += wave_store[j];
      write_offset = atomicAdd(count_total, group_sum);
      uint next = write_offset + count;
      for (uint j = 0u; j < gl_NumWaves - 1u; ++j) {
        uint wave_count = wave_store[j];
        wave_store[j] = next;
        next += wave_count;
      }
    }
    write_offset = subgroupBroadcastFirst(write_offset);
  }
  barrier();
  if (gl_WaveIndex != 0u) write_offset = wave_store[gl_WaveIndex - 1u];

  uint index = write_offset + subgroupBallotExclusiveBitCount(ballot);
  if (export_data) data[index] = (coord.x & 0xffffu) | (coord.y << 16);
}
