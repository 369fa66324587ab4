// The numWaves proposal's single-wave example (hlsl-specs 0054, "Single Wave Example"): the min/max depth of each
// 8x8 tile with one wave per thread group. Depth is a structured buffer here (Bismuth's GL shim has no textures
// yet); the result is packed as in the proposal: (f16(max) << 16) | f16(min).
#define TILE_SIZE 8
#define DEPTH_WIDTH 64
#define FLT_MAX 3.402823466e+38

RWStructuredBuffer<float> Depth : register(u0);
RWStructuredBuffer<uint> TileMinMaxDepthUAV : register(u1);

[numWaves(1)]
[WaveSize(8, 64)]  // ranged size [8, 16, 32 or 64]
void ComputeMinMaxZ(uint2 tile : SV_GroupID) {
  float minZ = FLT_MAX, maxZ = -FLT_MAX;
  uint laneIdx = WaveGetLaneIndex();
  uint2 coord = tile.xy * TILE_SIZE + uint2(laneIdx % TILE_SIZE, laneIdx / TILE_SIZE);
  // numIterations will be w8(8), w16(4), w32(2), w64(1)
  uint numIterations = (TILE_SIZE * TILE_SIZE) / WaveGetLaneCount();
  for (uint i = 0; i < numIterations; ++i) {
    float z = Depth[coord.y * DEPTH_WIDTH + coord.x];
    minZ = min(minZ, WaveActiveMin(z));
    maxZ = max(maxZ, WaveActiveMax(z));
    coord.y += WaveGetLaneCount() / TILE_SIZE;
  }
  if (WaveIsFirstLane()) TileMinMaxDepthUAV[tile.y * (DEPTH_WIDTH / TILE_SIZE) + tile.x] = (f32tof16(maxZ) << 16) | f32tof16(minZ);
}
