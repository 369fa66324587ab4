// The numWaves proposal's memory-coherency example (hlsl-specs 0054, "Improved Memory Coherency Example"): all
// writes of a thread group contiguous and in a deterministic order, one atomic per thread group, groupshared
// memory sized by the wave count. Tiles are 8 pixels wide here (16 in the proposal) so that 8-wide waves run it.
#define TILE_WIDTH 8

RWStructuredBuffer<uint> GBuffer : register(u0);
RWStructuredBuffer<uint> CountBufferUAV : register(u1);
RWStructuredBuffer<uint> DataBufferUAV : register(u2);
// b3, not b0: glslang gives register(uN) and register(bN) the same Vulkan binding N, and Vulkan needs them apart.
cbuffer Params : register(b3) { uint image_width; };

// used first to sum the number of outputs per wave, then as the per wave write offset
groupshared uint g_waveStore[GetGroupNumWaves() - 1];

[numWaves(4)]
[WaveSize(8, 64)]
void Main(uint2 tile : SV_GroupID) {
  // height processed by a wave and by a thread group (constant to the compiler)
  uint waveHeight = WaveGetLaneCount() / TILE_WIDTH;
  uint tileHeight = waveHeight * GroupGetWaveCount();
  uint2 coord = tile.xy * uint2(TILE_WIDTH, tileHeight);
  coord.y += GroupGetWaveIndex() * waveHeight;
  coord += uint2(WaveGetLaneIndex() % TILE_WIDTH, WaveGetLaneIndex() / TILE_WIDTH);

  bool exportData = (GBuffer[coord.y * image_width + coord.x] & 1) != 0;
  uint count = WaveActiveCountBits(exportData);

  if (GroupGetWaveIndex() != 0 && WaveIsFirstLane()) g_waveStore[GroupGetWaveIndex() - 1] = count;
  GroupMemoryBarrierWithGroupSync();

  // wave0 sums the per-wave counts and does a single atomic add for the whole thread group
  uint waveWriteOffset = 0;
  if (GroupGetWaveIndex() == 0) {
    if (WaveIsFirstLane()) {
      uint threadGroupSum = count;
      for (uint j = 0; j < GetGroupNumWaves() - 1; ++j) threadGroupSum += g_waveStore[j];
      InterlockedAdd(CountBufferUAV[0], threadGroupSum, waveWriteOffset);
      uint waveWriteOffsetItr = waveWriteOffset + count;  // wave0's section of the write buffer
      for (uint k = 0; k < GetGroupNumWaves() - 1; ++k) {
        uint waveCount = g_waveStore[k];
        g_waveStore[k] = waveWriteOffsetItr;
        waveWriteOffsetItr += waveCount;
      }
    }
    waveWriteOffset = WaveReadLaneFirst(waveWriteOffset);
  }
  GroupMemoryBarrierWithGroupSync();
  // all waves > 0 retrieve their write offset
  if (GroupGetWaveIndex() != 0) waveWriteOffset = g_waveStore[GroupGetWaveIndex() - 1];

  uint threadWriteIndex = waveWriteOffset + WavePrefixCountBits(exportData);
  if (exportData) DataBufferUAV[threadWriteIndex] = (coord.x & 0xffff) | (coord.y << 16);
}
