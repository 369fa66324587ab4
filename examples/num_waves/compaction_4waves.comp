// GLSL port of compaction_4waves.hlsl (hlsl-specs proposal 0054, "Improved Memory Coherency Example"): stream
// compaction with one atomic per group; the group's output is contiguous, in lane order within a wave and wave order
// within the group. Shared arrays sized by gl_NumWaves. A tile is 16 pixels wide and (wave size / 16) * 4 rows high:
// dispatch (width / 16, height / (4 * wave size / 16), 1). Bindings: shader storage 0 the image, 1 the output count,
// 2 the output (x | y << 16); uniform block 0 the width and the selected value.
#version 450
#extension GL_BISMUTH_num_waves : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(num_waves = 4, wave_size_min = 16, wave_size_max = 64) in;

layout(std430, binding = 0) readonly buffer Image { uint pixels[]; };
layout(std430, binding = 1) buffer Count { uint output_count; };
layout(std430, binding = 2) writeonly buffer Data { uint data[]; };
layout(std140, binding = 0) uniform Params {
  uint width;
  uint selected;
};

const uint kTileWidth = 16u;
shared uint wave_count[gl_NumWaves - 1u];   // waves 1..3
shared uint wave_offset[gl_NumWaves - 1u];

void main() {
  const uint wave_height = gl_WaveSize / kTileWidth;
  uvec2 coord = gl_WorkGroupID.xy * uvec2(kTileWidth, wave_height * gl_NumWaves);
  coord.y += gl_WaveIndex * wave_height;
  coord += uvec2(gl_WaveLaneIndex % kTileWidth, gl_WaveLaneIndex / kTileWidth);

  const bool export_data = pixels[coord.y * width + coord.x] == selected;
  const uvec4 ballot = subgroupBallot(export_data);
  const uint count = subgroupBallotBitCount(ballot);
  if (gl_WaveIndex != 0u) wave_count[gl_WaveIndex - 1u] = count;
  barrier();

  uint offset = 0u;
  if (gl_WaveIndex == 0u) {
    uint group_sum = count;
    for (uint j = 0u; j < gl_NumWaves - 1u; ++j) group_sum += wave_count[j];
    if (subgroupElect()) offset = atomicAdd(output_count, group_sum);
    offset = subgroupBroadcastFirst(offset);
    if (subgroupElect()) {
      uint next = offset + count;  // wave 0's part comes first
      for (uint k = 0u; k < gl_NumWaves - 1u; ++k) {
        wave_offset[k] = next;
        next += wave_count[k];
      }
    }
  }
  barrier();
  if (gl_WaveIndex != 0u) offset = wave_offset[gl_WaveIndex - 1u];
  if (export_data) data[offset + subgroupBallotExclusiveBitCount(ballot)] = (coord.x & 0xffffu) | (coord.y << 16);
}
