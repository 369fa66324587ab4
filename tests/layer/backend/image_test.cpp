// Images (image.hpp) and the stream's transfers on them (command_stream_images.cpp): creation checked against the
// device, uploads and readbacks of regions, mip levels and layers, clears, image copies, the hazard barrier between
// transfers on one image, deferred destruction, and the errors. Expected texels are computed here from what was
// uploaded, never read from the code under test. Every case runs under the validation layer; the only message accepted
// is its performance note on transfers in the GENERAL layout, which images use by design (backend_fixture.hpp).
#include <algorithm>
#include <cstring>

#include "backend_fixture.hpp"
#include "bismuth/backend/image.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_stream;
using bismuth::test::ValidatedVulkan;

namespace {

const DeviceOptions kStrategies[] = {{.memory = MemoryStrategy::HostVisible},
                                     {.memory = MemoryStrategy::DeviceLocalWithStaging}};

std::shared_ptr<Image> make_image(Device& device, const ImageDesc& desc) {
  auto image = Image::create(device, desc);
  if (!image) FAIL(image.error().message);
  return *image;
}

// `count` bytes of a pattern that differs per `seed`, every byte given (no two neighbours alike).
std::vector<std::byte> pattern(size_t count, uint32_t seed) {
  std::vector<std::byte> bytes(count);
  uint32_t x = seed * 2654435761u + 12345u;
  for (auto& b : bytes) {
    x = x * 1664525u + 1013904223u;
    b = std::byte(x >> 24);
  }
  return bytes;
}

template <class T>
std::vector<std::byte> bytes_of_values(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<std::byte> read_region(CommandStream& stream, Image& image, const ImageRegion& region, uint32_t texel) {
  std::vector<std::byte> out(size_t(region.extent.width) * region.extent.height * region.extent.depth *
                             region.layer_count * texel);
  REQUIRE_OK(stream.readback_image(image, region, out));
  return out;
}

// The texels of one format class, chosen so that no value is a NaN or infinity (a float copy is then bit-exact by
// any reading of the spec).
std::vector<std::byte> texels_for(VkFormat format, size_t texels, uint32_t seed) {
  switch (format) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: {
      std::vector<float> v(texels * 4);
      for (size_t i = 0; i < v.size(); ++i) v[i] = float(i) * 0.5f - 3.25f + float(seed);
      return bytes_of_values(v);
    }
    case VK_FORMAT_R16G16_SFLOAT: {
      std::vector<uint16_t> v(texels * 2);
      // Exponent below 31 (the top exponent bit clear): finite halves.
      for (size_t i = 0; i < v.size(); ++i) v[i] = uint16_t((i * 37u + seed * 101u) & 0xBBFFu);
      return bytes_of_values(v);
    }
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: {
      std::vector<uint32_t> v(texels);
      // The top exponent bit of each field clear (bits 10, 21, 31): finite values.
      const uint32_t finite = ~((1u << 10) | (1u << 21) | (1u << 31));
      for (size_t i = 0; i < v.size(); ++i) v[i] = (uint32_t(i) * 2654435761u + seed) & finite;
      return bytes_of_values(v);
    }
    default: return pattern(texels * texel_bytes(format), seed);
  }
}

}  // namespace

// Vulkan 1.3 §20.4 "Copying Data Between Buffers and Images": with bufferRowLength and bufferImageHeight zero the
// buffer memory is tightly packed according to imageExtent, and texels are copied without format conversion.
TEST_CASE("Images round-trip every format class through upload and readback", "[vulkan][image]") {
  const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_UINT, VK_FORMAT_R32G32B32A32_SFLOAT,
                              VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_B10G11R11_UFLOAT_PACK32};
  for (const DeviceOptions& options : kStrategies) {
    for (RecordingMode mode : {RecordingMode::Inline, RecordingMode::Thread}) {
      ValidatedVulkan vk;
      {
        auto device = test::make_device(vk, options);
        auto cache = test::make_cache(*device);
        auto stream = make_stream(*device, *cache, {.recording = mode});
        for (VkFormat format : formats) {
          INFO("format " << format);
          auto image = make_image(*device, {.format = format, .extent = {13, 7, 1}});
          const auto texels = texels_for(format, 13 * 7, uint32_t(format));
          REQUIRE_OK(stream->upload_image(*image, whole_level(*image), texels));
          CHECK(read_region(*stream, *image, whole_level(*image), texel_bytes(format)) == texels);
        }
      }
      REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
    }
  }
}

// §20.4: the copy writes only the texels of imageOffset/imageExtent in the subresource.
TEST_CASE("An upload to a sub-region leaves the rest of the image intact", "[vulkan][image]") {
  for (const DeviceOptions& options : kStrategies) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk, options);
      auto cache = test::make_cache(*device);
      auto stream = make_stream(*device, *cache);
      constexpr uint32_t w = 16, h = 12;
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {w, h, 1}});
      auto base = pattern(w * h * 4, 1);
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), base));
      ImageRegion box{.x = 3, .y = 5, .extent = {6, 4, 1}};
      auto patch = pattern(6 * 4 * 4, 2);
      REQUIRE_OK(stream->upload_image(*image, box, patch));
      std::vector<std::byte> expected = base;
      for (uint32_t y = 0; y < 4; ++y) {
        std::memcpy(&expected[((box.y + y) * w + box.x) * 4], &patch[y * 6 * 4], 6 * 4);
      }
      CHECK(read_region(*stream, *image, whole_level(*image), 4) == expected);
      // Reading the box alone gives the patch back, tightly packed.
      CHECK(read_region(*stream, *image, box, 4) == patch);
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// §12.3 "Images": each mip level is half the size of the previous one, at least 1; each array layer is a separate
// subresource (VkImageSubresourceLayers selects one level and a range of layers).
TEST_CASE("Mip levels and array layers are addressed separately", "[vulkan][image]") {
  for (const DeviceOptions& options : kStrategies) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk, options);
      auto cache = test::make_cache(*device);
      auto stream = make_stream(*device, *cache);
      auto image = make_image(
          *device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {20, 10, 1}, .mip_levels = 4, .array_layers = 3});
      const uint32_t widths[] = {20, 10, 5, 2}, heights[] = {10, 5, 2, 1};
      for (uint32_t level = 0; level < 4; ++level) {
        CHECK(image->extent(level) == ImageExtent{widths[level], heights[level], 1});
        for (uint32_t layer = 0; layer < 3; ++layer) {
          ImageRegion one{.mip_level = level, .base_layer = layer, .extent = {widths[level], heights[level], 1}};
          REQUIRE_OK(stream->upload_image(*image, one, pattern(widths[level] * heights[level] * 4, level * 3 + layer)));
        }
      }
      for (uint32_t level = 0; level < 4; ++level) {
        // All three layers at once: layer after layer, each the level's size.
        ImageRegion all{.mip_level = level, .base_layer = 0, .layer_count = 3, .extent = image->extent(level)};
        std::vector<std::byte> expected;
        for (uint32_t layer = 0; layer < 3; ++layer) {
          auto p = pattern(widths[level] * heights[level] * 4, level * 3 + layer);
          expected.insert(expected.end(), p.begin(), p.end());
        }
        INFO("level " << level);
        CHECK(read_region(*stream, *image, all, 4) == expected);
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// §20.4: for 3D images imageOffset.z / imageExtent.depth select slices, packed one after another.
TEST_CASE("A 3D image is written whole and read back as a box of slices", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    constexpr uint32_t w = 8, h = 6, d = 5;
    auto image = make_image(*device, {.type = ImageType::Image3D,
                                      .format = VK_FORMAT_R16G16_SFLOAT,
                                      .extent = {w, h, d},
                                      .usage = kImageStorage | kImageSampled});
    const auto all = texels_for(VK_FORMAT_R16G16_SFLOAT, w * h * d, 7);
    REQUIRE_OK(stream->upload_image(*image, whole_level(*image), all));
    ImageRegion box{.x = 1, .y = 2, .z = 3, .extent = {5, 3, 2}};
    std::vector<std::byte> expected;
    for (uint32_t z = box.z; z < box.z + 2; ++z) {
      for (uint32_t y = box.y; y < box.y + 3; ++y) {
        const size_t at = ((size_t(z) * h + y) * w + box.x) * 4;
        expected.insert(expected.end(), all.begin() + at, all.begin() + at + 5 * 4);
      }
    }
    CHECK(read_region(*stream, *image, box, 4) == expected);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

TEST_CASE("A 1D array image keeps its layers apart", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto image = make_image(
        *device,
        {.type = ImageType::Image1D, .format = VK_FORMAT_R32G32B32A32_SFLOAT, .extent = {9, 1, 1}, .array_layers = 4});
    std::vector<std::byte> expected;
    for (uint32_t layer = 0; layer < 4; ++layer) {
      auto texels = texels_for(VK_FORMAT_R32G32B32A32_SFLOAT, 9, 10 * layer);
      REQUIRE_OK(stream->upload_image(*image, {.base_layer = layer, .extent = {9, 1, 1}}, texels));
      expected.insert(expected.end(), texels.begin(), texels.end());
    }
    CHECK(read_region(*stream, *image, whole_level(*image), 16) == expected);
    // Layers 1..2, texels 3..7.
    std::vector<std::byte> middle;
    for (uint32_t layer = 1; layer < 3; ++layer) {
      middle.insert(middle.end(), expected.begin() + (layer * 9 + 3) * 16, expected.begin() + (layer * 9 + 8) * 16);
    }
    CHECK(read_region(*stream, *image, {.base_layer = 1, .layer_count = 2, .x = 3, .extent = {5, 1, 1}}, 16) == middle);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// §20.1 "Clearing Color Images": vkCmdClearColorImage sets every texel of the given levels and layers; the
// VkClearColorValue is read as float32 for normalized formats (converted per §3.9.4, 0.2 x 255 = 51), as uint32 for
// UINT formats.
TEST_CASE("Clearing levels and layers, then reading back", "[vulkan][image]") {
  for (const DeviceOptions& options : kStrategies) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk, options);
      auto cache = test::make_cache(*device);
      auto stream = make_stream(*device, *cache);
      auto ints =
          make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {8, 8, 1}, .mip_levels = 2, .array_layers = 2});
      const auto level0 = pattern(8 * 8 * 4 * 2, 3);
      REQUIRE_OK(stream->upload_image(*ints, whole_level(*ints, 0), level0));
      VkClearColorValue value{};
      value.uint32[0] = 0xDEADBEEFu;
      REQUIRE_OK(stream->clear_image(*ints, {.base_mip = 1, .mip_count = 1, .base_layer = 1, .layer_count = 1}, value));
      value.uint32[0] = 7;
      REQUIRE_OK(stream->clear_image(*ints, {.base_mip = 1, .mip_count = 1, .base_layer = 0, .layer_count = 1}, value));
      CHECK(read_region(*stream, *ints, whole_level(*ints, 0), 4) == level0);  // level 0 untouched
      std::vector<uint32_t> expected(4 * 4 * 2, 7u);
      std::fill(expected.begin() + 16, expected.end(), 0xDEADBEEFu);
      CHECK(read_region(*stream, *ints, whole_level(*ints, 1), 4) == bytes_of_values(expected));

      auto colors = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {5, 3, 1}});
      VkClearColorValue color{};
      color.float32[0] = 1.0f;
      color.float32[1] = 0.0f;
      color.float32[2] = 0.2f;
      color.float32[3] = 1.0f;
      REQUIRE_OK(stream->clear_image(*colors, {}, color));
      std::vector<std::byte> rgba;
      for (int i = 0; i < 15; ++i) {
        for (int c : {255, 0, 51, 255}) rgba.push_back(std::byte(c));
      }
      CHECK(read_region(*stream, *colors, whole_level(*colors), 4) == rgba);
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// §20.3 "Copying Data Between Images": formats of one compatibility class (both 32-bit here, RGBA8_UINT and
// R32_UINT) copy bit for bit; only the destination region changes.
TEST_CASE("copy_image copies a region between images of compatible formats", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto a = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UINT, .extent = {8, 8, 1}});
    auto b = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {16, 16, 1}});
    const auto source = pattern(8 * 8 * 4, 5);
    REQUIRE_OK(stream->upload_image(*a, whole_level(*a), source));
    REQUIRE_OK(stream->clear_image(*b, {}, VkClearColorValue{}));
    REQUIRE_OK(
        stream->copy_image(*a, {.x = 2, .y = 2, .extent = {4, 4, 1}}, *b, {.x = 10, .y = 3, .extent = {4, 4, 1}}));
    std::vector<std::byte> expected(16 * 16 * 4, std::byte{0});
    for (uint32_t y = 0; y < 4; ++y) {
      std::memcpy(&expected[((3 + y) * 16 + 10) * 4], &source[((2 + y) * 8 + 2) * 4], 4 * 4);
    }
    CHECK(read_region(*stream, *b, whole_level(*b), 4) == expected);
    // Within one image: the disjoint halves of a.
    REQUIRE_OK(stream->copy_image(*a, {.extent = {4, 8, 1}}, *a, {.x = 4, .extent = {4, 8, 1}}));
    std::vector<std::byte> halves = source;
    for (uint32_t y = 0; y < 8; ++y) std::memcpy(&halves[(y * 8 + 4) * 4], &source[(y * 8) * 4], 4 * 4);
    CHECK(read_region(*stream, *a, whole_level(*a), 4) == halves);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// Vulkan 1.3 §7.1 "Execution and Memory Dependencies": two transfer writes to the same memory in one submission are
// a write-after-write hazard unless a memory dependency orders them; the stream must record one (and only one)
// barrier between the two uploads, in both barrier models.
TEST_CASE("Two uploads to one region in one batch are ordered by a barrier", "[vulkan][image]") {
  for (BarrierModel model : {BarrierModel::Automatic, BarrierModel::Gl}) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
      auto cache = test::make_cache(*device);
      auto stream = make_stream(*device, *cache, {.barriers = model});
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {32, 32, 1}});
      auto other = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {32, 32, 1}});
      const auto first = pattern(32 * 32 * 4, 1), second = pattern(32 * 32 * 4, 2);
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), first));
      REQUIRE_OK(stream->upload_image(*other, whole_level(*other), first));  // another image: no hazard
      CHECK(stream->stats().automatic_barriers == 0);
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), second));
      CHECK(stream->stats().automatic_barriers == 1);
      CHECK(stream->stats().submissions == 0);  // all in one batch so far
      CHECK(read_region(*stream, *image, whole_level(*image), 4) == second);
      CHECK(read_region(*stream, *other, whole_level(*other), 4) == first);
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

TEST_CASE("An image dropped while its batch is in flight is destroyed after completion", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 256);
    auto image = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {64, 64, 1}});
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t iterations = 3000000;
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .groups = {4, 1, 1},
                                 .bindings = {&binding, 1},
                                 .push_constants = test::bytes_of(iterations)}));
    REQUIRE_OK(stream->clear_image(*image, {}, VkClearColorValue{}));
    auto value = stream->flush();
    REQUIRE(value);
    CHECK(image->last_use() == *value);
    image.reset();
    if (!device->is_complete(*value)) CHECK(device->deferred_count() >= 1);
    REQUIRE_OK(stream->finish());
    CHECK(device->deferred_count() == 0);
  }
  // Destroying the image while in use would be VUID-vkDestroyImage-image-01000.
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// Vulkan 1.3 §12.4 "Image Layouts": an image's layout at submission must match the layout its commands name; a
// transition recorded in a discarded batch never happened, so the next command must record it again.
TEST_CASE("A discarded first use leaves the image to be transitioned again", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {4, 4, 1}});
    VkClearColorValue value{};
    value.uint32[0] = 9;
    REQUIRE_OK(stream->clear_image(*image, {}, value));
    stream->discard();
    value.uint32[0] = 11;
    REQUIRE_OK(stream->clear_image(*image, {}, value));
    CHECK(read_region(*stream, *image, whole_level(*image), 4) == bytes_of_values(std::vector<uint32_t>(16, 11u)));
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

TEST_CASE("Formats the backend does not handle are refused by name", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    struct Case {
      VkFormat format;
      const char* words;
    };
    for (Case c : {Case{VK_FORMAT_S8_UINT, "stencil"}, Case{VK_FORMAT_ASTC_4x4_UNORM_BLOCK, "compressed"},
                   Case{VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, "multi-planar"}, Case{VK_FORMAT_R8G8B8_UNORM, "color"}}) {
      auto image = Image::create(*device, {.format = c.format, .extent = {4, 4, 1}});
      REQUIRE_FALSE(image);
      CHECK_THAT(image.error().message, Catch::Contains(c.words));
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// Vulkan 1.3 §12.3, VUID-VkImageCreateInfo-usage-00932 / vkGetPhysicalDeviceFormatProperties: an image with
// VK_IMAGE_USAGE_STORAGE_BIT needs VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT in the format's optimal-tiling features.
TEST_CASE("Storage on a format without STORAGE_IMAGE is refused before Vulkan sees it", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const VkFormat candidates[] = {VK_FORMAT_R8G8B8A8_SRGB,
                                   VK_FORMAT_B8G8R8A8_UNORM,
                                   VK_FORMAT_R8_SRGB,
                                   VK_FORMAT_R8G8_SRGB,
                                   VK_FORMAT_R16G16_SNORM,
                                   VK_FORMAT_A2B10G10R10_UINT_PACK32,
                                   VK_FORMAT_B10G11R11_UFLOAT_PACK32};
    VkFormat lacking = VK_FORMAT_UNDEFINED;
    for (VkFormat format : candidates) {
      VkFormatProperties properties{};
      device->vki().vkGetPhysicalDeviceFormatProperties(device->physical_device(), format, &properties);
      if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
        lacking = format;
        break;
      }
    }
    if (lacking == VK_FORMAT_UNDEFINED) {
      WARN("every candidate format supports storage images on this device: nothing to refuse");
    } else {
      auto image = Image::create(*device, {.format = lacking, .extent = {4, 4, 1}, .usage = kImageStorage});
      REQUIRE_FALSE(image);
      CHECK_THAT(image.error().message, Catch::Contains("STORAGE_IMAGE"));
      CHECK_THAT(image.error().message, Catch::Contains("VK_FORMAT_"));
      // Without storage the same format is fine.
      CHECK(Image::create(*device, {.format = lacking, .extent = {4, 4, 1}, .usage = kImageSampled}));
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// VUID-VkImageCreateInfo-extent-02252 / mipLevels-02255 / arrayLayers-02256: extent, mip levels and layers within
// vkGetPhysicalDeviceImageFormatProperties' limits; VUID-VkImageCreateInfo-mipLevels-00958: at most the full chain.
TEST_CASE("Extents, levels and layers beyond the device's limits are refused", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto too_wide = Image::create(*device, {.format = VK_FORMAT_R8_UNORM, .extent = {1u << 30, 1, 1}});
    REQUIRE_FALSE(too_wide);
    CHECK_THAT(too_wide.error().message, Catch::Contains("exceeds"));
    auto too_many_levels = Image::create(*device, {.format = VK_FORMAT_R8_UNORM, .extent = {8, 8, 1}, .mip_levels = 5});
    REQUIRE_FALSE(too_many_levels);
    CHECK_THAT(too_many_levels.error().message, Catch::Contains("full chain of 4"));
    CHECK(Image::create(*device, {.format = VK_FORMAT_R8_UNORM, .extent = {8, 8, 1}, .mip_levels = 4}));
    auto too_many_layers =
        Image::create(*device, {.format = VK_FORMAT_R8_UNORM, .extent = {8, 8, 1}, .array_layers = 1u << 20});
    REQUIRE_FALSE(too_many_layers);
    CHECK_THAT(too_many_layers.error().message, Catch::Contains("array layers exceed"));
    auto cube = Image::create(
        *device, {.format = VK_FORMAT_R8_UNORM, .extent = {8, 4, 1}, .array_layers = 6, .cube_compatible = true});
    REQUIRE_FALSE(cube);
    CHECK(Image::create(
        *device, {.format = VK_FORMAT_R8_UNORM, .extent = {8, 8, 1}, .array_layers = 6, .cube_compatible = true}));
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// VUID-vkCmdCopyBufferToImage-pRegions-06218 (and its ImageToBuffer, CopyImage and ClearColorImage siblings): every
// region lies inside the subresource; the stream answers an Error instead of recording anything.
TEST_CASE("Regions outside the image and wrong sizes are errors", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto image =
        make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {8, 8, 1}, .mip_levels = 2, .array_layers = 2});
    std::vector<std::byte> bytes(8 * 8 * 4);
    const ImageRegion bad[] = {
        {.x = 1, .extent = {8, 8, 1}},           // past the right edge
        {.mip_level = 1, .extent = {8, 8, 1}},   // level 1 is 4x4
        {.mip_level = 2, .extent = {1, 1, 1}},   // no level 2
        {.base_layer = 2, .extent = {1, 1, 1}},  // no layer 2
        {.base_layer = 1, .layer_count = 2, .extent = {1, 1, 1}},
        {.x = 0xFFFFFFFFu, .extent = {2, 1, 1}},  // wraps in 32 bits
        {.extent = {0, 1, 1}},                    // empty
        {.z = 1, .extent = {1, 1, 1}},            // a 2D image has one slice
    };
    for (const ImageRegion& region : bad) {
      const size_t n =
          size_t(region.extent.width) * region.extent.height * region.extent.depth * region.layer_count * 4;
      std::vector<std::byte> data(n);
      CHECK_FALSE(stream->upload_image(*image, region, data));
      CHECK_FALSE(stream->readback_image(*image, region, data));
      CHECK_FALSE(stream->copy_image(*image, region, *image, region));
    }
    // Sizes: one texel short, one texel over.
    CHECK_FALSE(stream->upload_image(*image, whole_level(*image), std::span(bytes).first(bytes.size() - 4)));
    std::vector<std::byte> over(8 * 8 * 4 * 2 + 4);
    CHECK_FALSE(stream->readback_image(*image, whole_level(*image), over));
    std::vector<std::byte> short_out(8 * 8 * 4 * 2 - 4);
    auto mismatch = stream->readback_image(*image, whole_level(*image), short_out);
    REQUIRE_FALSE(mismatch);
    CHECK_THAT(mismatch.error().message, Catch::Contains("bytes given"));
    CHECK_FALSE(stream->clear_image(*image, {.base_mip = 1, .mip_count = 2}, VkClearColorValue{}));
    CHECK_FALSE(stream->clear_image(*image, {.base_layer = 0, .layer_count = 3}, VkClearColorValue{}));
    // Overlapping regions of one image, and incompatible texel sizes.
    CHECK_FALSE(stream->copy_image(*image, {.extent = {4, 4, 1}}, *image, {.x = 2, .extent = {4, 4, 1}}));
    auto wide = make_image(*device, {.format = VK_FORMAT_R32G32_UINT, .extent = {8, 8, 1}});
    CHECK_FALSE(stream->copy_image(*image, {.extent = {4, 4, 1}}, *wide, {.extent = {4, 4, 1}}));
    CHECK(stream->stats().submissions == 0);  // nothing was recorded
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}
