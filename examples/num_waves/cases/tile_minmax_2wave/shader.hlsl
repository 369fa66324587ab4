// The numWaves proposal's two-wave example (hlsl-specs 0054, "Two Wave Example"): wave specialisation, wave 1
// leaves its half-tile result in groupshared memory, wave 0 collates and writes. The proposal's listing assigns
// the wave's first row with `=`; it is an offset within the tile, so here it is added to the tile's origin.
#define TILE_SIZE 8
#define DEPTH_WIDTH 64
#define FLT_MAX 3.402823466e+38

// The case's input words (u0) are depths in 1/1024 steps: exact in binary16, so the packed result is the same
// on every device and wave size.
RWStructuredBuffer<uint> Depth : register(u0);
RWStructuredBuffer<uint> TileMinMaxDepthUAV : register(u1);

groupshared float g_wave1minZ;
groupshared float g_wave1maxZ;

[numWaves(2)]
[WaveSize(8, 32)]  // ranged size [8, 16 or 32]
void ComputeMinMaxZ(uint2 tile : SV_GroupID) {
  float minZ = FLT_MAX, maxZ = -FLT_MAX;
  uint laneIdx = WaveGetLaneIndex();
  uint2 coord = tile.xy * TILE_SIZE + uint2(laneIdx % TILE_SIZE, laneIdx / TILE_SIZE);
  // first wave does top half, second wave does bottom half
  coord.y += GetGroupWaveIndex() * (TILE_SIZE / GetGroupNumWaves());
  // numIterations will be w8(4), w16(2), w32(1); GetGroupNumWaves is known to the front end
  uint numIterations = (TILE_SIZE * TILE_SIZE) / GetGroupNumWaves();
  numIterations /= WaveGetLaneCount();
  for (uint i = 0; i < numIterations; ++i) {
    float z = float(Depth[coord.y * DEPTH_WIDTH + coord.x] & 1023) / 1024.0;
    minZ = min(minZ, WaveActiveMin(z));
    maxZ = max(maxZ, WaveActiveMax(z));
    coord.y += WaveGetLaneCount() / TILE_SIZE;
  }
  // wave1 stores to LDS, wave0 collates the result and does the write. Every wave reaches the barrier: SPIR-V's
  // OpControlBarrier must be executed by all invocations of the group.
  if (GetGroupWaveIndex() != 0 && WaveIsFirstLane()) {
    g_wave1minZ = minZ;
    g_wave1maxZ = maxZ;
  }
  GroupMemoryBarrierWithGroupSync();
  if (GetGroupWaveIndex() != 0) return;
  minZ = min(minZ, g_wave1minZ);
  maxZ = max(maxZ, g_wave1maxZ);
  if (WaveIsFirstLane()) TileMinMaxDepthUAV[tile.y * (DEPTH_WIDTH / TILE_SIZE) + tile.x] = (f32tof16(maxZ) << 16) | f32tof16(minZ);
}
