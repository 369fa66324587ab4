// hlsl-specs proposal 0054, "Two Wave Example": the min/max depth of each 8x8 tile with two waves per group and
// wave specialisation: wave 0 takes the top half of the tile, wave 1 the bottom half; wave 1 leaves its result
// in groupshared memory and wave 0 collates and writes. No atomics.
// Unlike the proposal's text both waves reach the barrier (a barrier only some invocations of a group reach is
// undefined behaviour in Vulkan), and each wave starts at its own half (coord.y +=, not =).
// Resources and dispatch as tile_min_max_1wave.hlsl; wave sizes 8 to 32.
#define TILE_SIZE 8
#define FLT_MAX 3.402823466e+38f

RWStructuredBuffer<float> Depth : register(u0);
RWStructuredBuffer<uint> TileMinMaxDepth : register(u1);
cbuffer Image : register(b0) { uint width; };

groupshared float g_wave1minZ;
groupshared float g_wave1maxZ;

[numWaves(2)]
[WaveSize(8, 32)]
void ComputeMinMaxZ(uint2 tile : SV_GroupID) {
  float minZ = FLT_MAX, maxZ = -FLT_MAX;
  uint laneIdx = WaveGetLaneIndex();
  uint2 coord = tile * TILE_SIZE + uint2(laneIdx % TILE_SIZE, laneIdx / TILE_SIZE);
  coord.y += GetGroupWaveIndex() * (TILE_SIZE / GetGroupNumWaves());  // this wave's half of the tile
  uint numIterations = (TILE_SIZE * TILE_SIZE) / GetGroupNumWaves();  // folded: GetGroupNumWaves() is 2
  numIterations /= WaveGetLaneCount();
  for (uint i = 0; i < numIterations; ++i) {
    float z = Depth[coord.y * width + coord.x];
    minZ = min(minZ, WaveActiveMin(z));
    maxZ = max(maxZ, WaveActiveMax(z));
    coord.y += WaveGetLaneCount() / TILE_SIZE;
  }
  if (GetGroupWaveIndex() == 1) {
    g_wave1minZ = minZ;
    g_wave1maxZ = maxZ;
  }
  GroupMemoryBarrierWithGroupSync();
  if (GetGroupWaveIndex() == 0 && WaveIsFirstLane()) {
    minZ = min(minZ, g_wave1minZ);
    maxZ = max(maxZ, g_wave1maxZ);
    TileMinMaxDepth[tile.y * (width / TILE_SIZE) + tile.x] = (f32tof16(maxZ) << 16) | f32tof16(minZ);
  }
}
