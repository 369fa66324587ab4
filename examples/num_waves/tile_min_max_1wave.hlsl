// hlsl-specs proposal 0054, "Single Wave Example": the min/max depth of each 8x8 tile, one wave per group, so no
// atomics and no groupshared memory. Every wave size from 8 to 64 works: a wave of w lanes walks the tile in
// 64 / w steps of w / 8 rows.
// Resources: u0 depth (width x height floats, row-major), u1 one uint per tile (f16 max << 16 | f16 min, tiles
// row-major), b0 the image width in pixels (a multiple of 8). Dispatch (width / 8, height / 8, 1) groups.
#define TILE_SIZE 8
#define FLT_MAX 3.402823466e+38f

RWStructuredBuffer<float> Depth : register(u0);
RWStructuredBuffer<uint> TileMinMaxDepth : register(u1);
cbuffer Image : register(b0) { uint width; };

[numWaves(1)]
[WaveSize(8, 64)]
void ComputeMinMaxZ(uint2 tile : SV_GroupID) {
  float minZ = FLT_MAX, maxZ = -FLT_MAX;
  uint laneIdx = WaveGetLaneIndex();
  uint2 coord = tile * TILE_SIZE + uint2(laneIdx % TILE_SIZE, laneIdx / TILE_SIZE);
  uint numIterations = (TILE_SIZE * TILE_SIZE) / WaveGetLaneCount();
  for (uint i = 0; i < numIterations; ++i) {
    float z = Depth[coord.y * width + coord.x];
    minZ = min(minZ, WaveActiveMin(z));
    maxZ = max(maxZ, WaveActiveMax(z));
    coord.y += WaveGetLaneCount() / TILE_SIZE;
  }
  if (WaveIsFirstLane()) {
    TileMinMaxDepth[tile.y * (width / TILE_SIZE) + tile.x] = (f32tof16(maxZ) << 16) | f32tof16(minZ);
  }
}
