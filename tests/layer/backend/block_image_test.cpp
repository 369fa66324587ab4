// Images of block-compressed formats (image.hpp: is_block_format, block_extent; GL's natively stored compressed
// textures): Vulkan 1.3 §20.4's buffer-image copies of a block format move whole 4x4 blocks ("bufferRowLength ...
// and bufferImageHeight ... must be a multiple of the compressed texel block width / height" — zero, tightly packed,
// here), their offsets lie on block boundaries and their extents are whole blocks unless they end at the level's
// edge (VUID-vkCmdCopyBufferToImage-pRegions-07274 .. -07279), so a level smaller than a block is one block. The
// blocks read back are the blocks uploaded, byte for byte (no decoding in a copy). Runs where the device has
// textureCompressionBC with BC1/BC7 transfer and sampled features (lavapipe, every desktop GPU).
#include <cstring>

#include "backend_fixture.hpp"
#include "bismuth/backend/image.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_stream;
using bismuth::test::ValidatedVulkan;

namespace {

bool block_format_usable(Device& device, VkFormat format) {
  VkFormatProperties properties{};
  device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), format, &properties);
  constexpr VkFormatFeatureFlags kNeeded =
      VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  return device.features().texture_compression_bc && (properties.optimalTilingFeatures & kNeeded) == kNeeded;
}

std::vector<std::byte> pattern(size_t count, uint32_t seed) {
  std::vector<std::byte> bytes(count);
  uint32_t x = seed * 2654435761u + 977u;
  for (auto& b : bytes) {
    x = x * 1664525u + 1013904223u;
    b = std::byte(x >> 24);
  }
  return bytes;
}

}  // namespace

TEST_CASE("Block-compressed images: whole blocks per region, partial edge blocks, levels below a block",
          "[vulkan][image][compressed]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    CHECK(is_block_format(VK_FORMAT_BC7_UNORM_BLOCK));
    CHECK_FALSE(is_block_format(VK_FORMAT_R32G32B32A32_UINT));
    CHECK(block_extent(VK_FORMAT_BC1_RGB_UNORM_BLOCK) == ImageExtent{4, 4, 1});
    CHECK(block_extent(VK_FORMAT_R8G8B8A8_UNORM) == ImageExtent{1, 1, 1});
    CHECK(texel_bytes(VK_FORMAT_BC1_RGB_UNORM_BLOCK) == 8);
    CHECK(texel_bytes(VK_FORMAT_BC7_UNORM_BLOCK) == 16);
    for (VkFormat format : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC7_UNORM_BLOCK}) {
      INFO(format_name(format));
      if (!block_format_usable(*device, format)) {
        WARN("no textureCompressionBC / " << format_name(format) << " features on this device: skipped");
        continue;
      }
      const uint32_t block = texel_bytes(format);
      // 10x6: 3x2 blocks with a partial column and row; level 1 5x3: 2x1 blocks; level 2 2x1: one block.
      auto made = Image::create(
          *device,
          {.format = format, .extent = {10, 6, 1}, .mip_levels = 3, .array_layers = 2, .usage = kImageSampled});
      REQUIRE(made);
      Image& image = **made;
      const uint32_t blocks_per_level[] = {3 * 2, 2 * 1, 1};
      std::vector<std::vector<std::byte>> uploaded;
      for (uint32_t level = 0; level < 3; ++level) {
        const ImageRegion region = whole_level(image, level);
        CHECK(region_bytes(image, region) == uint64_t{blocks_per_level[level]} * 2 * block);
        uploaded.push_back(pattern(region_bytes(image, region), level + format));
        REQUIRE_OK(stream->upload_image(image, region, uploaded.back()));
      }
      for (uint32_t level = 0; level < 3; ++level) {
        std::vector<std::byte> back(uploaded[level].size());
        REQUIRE_OK(stream->readback_image(image, whole_level(image, level), back));
        CHECK(back == uploaded[level]);
      }
      // A sub-region of whole blocks (the second block column, both rows, layer 1) and one ending in the partial
      // column at the edge (x 8, width 2).
      const auto patch = pattern(2 * block, 99);
      REQUIRE_OK(stream->upload_image(image, {.base_layer = 1, .x = 4, .extent = {4, 6, 1}}, patch));
      const auto edge = pattern(2 * block, 98);
      REQUIRE_OK(stream->upload_image(image, {.base_layer = 1, .x = 8, .extent = {2, 6, 1}}, edge));
      std::vector<std::byte> layer1(6 * block);
      REQUIRE_OK(stream->readback_image(image, {.base_layer = 1, .extent = {10, 6, 1}}, layer1));
      std::vector<std::byte> expected(uploaded[0].begin() + 6 * block, uploaded[0].end());
      for (uint32_t row = 0; row < 2; ++row) {
        std::memcpy(&expected[(row * 3 + 1) * block], &patch[row * block], block);
        std::memcpy(&expected[(row * 3 + 2) * block], &edge[row * block], block);
      }
      CHECK(layer1 == expected);
      // Off a block boundary, or a width that is not whole blocks and does not reach the edge: refused.
      std::vector<std::byte> one(block);
      CHECK_FALSE(stream->upload_image(image, {.x = 2, .extent = {4, 4, 1}}, one));
      CHECK_FALSE(stream->upload_image(image, {.extent = {3, 4, 1}}, one));
      // No clears of a block format (VUID-vkCmdClearColorImage-image-01993), no views as an uncompressed format of
      // the block's size (that needs BLOCK_TEXEL_VIEW_COMPATIBLE), no copies with an uncompressed image.
      CHECK_FALSE(stream->clear_image(image, {}, VkClearColorValue{}));
      const VkFormat same_size = block == 8 ? VK_FORMAT_R32G32_UINT : VK_FORMAT_R32G32B32A32_UINT;
      CHECK_FALSE(image.view({.type = VK_IMAGE_VIEW_TYPE_2D, .format = same_size}));
      auto plain = Image::create(*device, {.format = same_size, .extent = {10, 6, 1}});
      REQUIRE(plain);
      CHECK_FALSE(stream->copy_image(image, {.extent = {4, 4, 1}}, **plain, {.extent = {4, 4, 1}}));
      // A sampled view in its own format, and a copy between two images of the format (whole levels).
      CHECK(image.view({.type = VK_IMAGE_VIEW_TYPE_2D_ARRAY, .mip_count = 3, .layer_count = 2}));
      auto twin = Image::create(*device, {.format = format, .extent = {10, 6, 1}, .mip_levels = 3});
      REQUIRE(twin);
      REQUIRE_OK(stream->copy_image(image, {.mip_level = 1, .extent = {5, 3, 1}}, **twin,
                                    {.mip_level = 1, .extent = {5, 3, 1}}));
      std::vector<std::byte> copied(2 * block);
      REQUIRE_OK(stream->readback_image(**twin, whole_level(**twin, 1), copied));
      CHECK(copied == std::vector<std::byte>(uploaded[1].begin(), uploaded[1].begin() + 2 * block));
      CHECK((**made).memory_bytes() >= uint64_t{6 + 2 + 1} * 2 * block);
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}
