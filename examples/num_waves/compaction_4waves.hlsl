// hlsl-specs proposal 0054, "Improved Memory Coherency Example": stream compaction with one atomic per group.
// Four waves; each lane looks at one pixel, the group's selected pixels are written contiguously, in lane order
// within a wave and wave order within a group. Wave 0 sums the waves' counts, takes the group's range of the output
// with one InterlockedAdd and hands each wave its offset through groupshared arrays sized by GetGroupNumWaves().
// A tile is 16 pixels wide and (wave size / 16) * 4 rows high: the dispatch depends on the committed wave size,
// (width / 16, height / (4 * wave size / 16), 1) groups.
// Unlike the proposal's text no wave returns before a barrier (undefined behaviour in Vulkan).
// Resources: u0 the image (width x height uints), u1 the output count (uint, starts at 0), u2 the output (packed
// x | y << 16), b0 the image width and the value selected pixels have.
#define TILE_WIDTH 16

RWStructuredBuffer<uint> GBuffer : register(u0);
RWStructuredBuffer<uint> CountBuffer : register(u1);
RWStructuredBuffer<uint> DataBuffer : register(u2);
cbuffer Params : register(b0) {
  uint width;
  uint selected;
};

// Waves 1..3: their counts, then their write offsets. (The proposal reuses one array for both; two keep wave 0's
// lanes from reading an entry another lane of it has already overwritten.)
groupshared uint g_waveCount[GetGroupNumWaves() - 1];
groupshared uint g_waveOffset[GetGroupNumWaves() - 1];

[numWaves(4)]
[WaveSize(16, 64)]
void main(uint2 tile : SV_GroupID) {
  uint waveHeight = WaveGetLaneCount() / TILE_WIDTH;
  uint tileHeight = waveHeight * GroupGetWaveCount();
  uint2 coord = tile * uint2(TILE_WIDTH, tileHeight);
  coord.y += GroupGetWaveIndex() * waveHeight;
  coord += uint2(WaveGetLaneIndex() % TILE_WIDTH, WaveGetLaneIndex() / TILE_WIDTH);

  bool exportData = GBuffer[coord.y * width + coord.x] == selected;
  uint count = WaveActiveCountBits(exportData);
  if (GroupGetWaveIndex() != 0) g_waveCount[GroupGetWaveIndex() - 1] = count;
  GroupMemoryBarrierWithGroupSync();

  uint waveWriteOffset = 0;
  if (GroupGetWaveIndex() == 0) {
    uint threadGroupSum = count;
    for (uint j = 0; j < GetGroupNumWaves() - 1; ++j) threadGroupSum += g_waveCount[j];
    if (WaveIsFirstLane()) InterlockedAdd(CountBuffer[0], threadGroupSum, waveWriteOffset);
    waveWriteOffset = WaveReadLaneFirst(waveWriteOffset);
    uint next = waveWriteOffset + count;  // wave 0's part comes first
    if (WaveIsFirstLane()) {
      for (uint k = 0; k < GetGroupNumWaves() - 1; ++k) {
        g_waveOffset[k] = next;
        next += g_waveCount[k];
      }
    }
  }
  GroupMemoryBarrierWithGroupSync();
  if (GroupGetWaveIndex() != 0) waveWriteOffset = g_waveOffset[GroupGetWaveIndex() - 1];

  uint threadWriteIndex = waveWriteOffset + WavePrefixCountBits(exportData);
  if (exportData) DataBuffer[threadWriteIndex] = (coord.x & 0xffff) | (coord.y << 16);
}
