// Image bindings in the stream's barrier models (command_stream.hpp, "Barriers"), and generate_mipmaps. Automatic:
// a dispatch that samples an image another dispatch stored to gets the hazard barrier by itself. Gl (GL 4.6
// §7.13.2): it gets none unless glMemoryBarrier's TEXTURE_FETCH target asks, while transfers on the image stay
// ordered with dispatches in both. Under the validation layer (the GENERAL-layout note aside), both recording modes.
#include <string>

#include "image_binding_support.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_image;
using bismuth::test::make_layout_shader;
using bismuth::test::stored_value;
using bismuth::test::ValidatedVulkan;

namespace {

struct Pipeline {
  std::unique_ptr<Device> device;
  std::unique_ptr<PipelineCache> cache;
  std::unique_ptr<CommandStream> stream;
  std::shared_ptr<Image> image;
  std::shared_ptr<Shader> store, fetch;
  std::shared_ptr<Buffer> out;
  VkSampler sampler = VK_NULL_HANDLE;
};

constexpr uint32_t kSize = 16;

Pipeline make_pipeline(ValidatedVulkan& vk, RecordingMode recording, BarrierModel barriers) {
  Pipeline p;
  p.device = test::make_device(vk);
  p.cache = test::make_cache(*p.device);
  p.stream = test::make_stream(*p.device, *p.cache, {.recording = recording, .barriers = barriers});
  p.image = make_image(
      *p.device, {.format = VK_FORMAT_R32_UINT, .extent = {kSize, kSize, 1}, .usage = kImageStorage | kImageSampled});
  p.store = make_layout_shader(*p.device, test::kStoreShader, test::kStoreLayout, "store");
  p.fetch = make_layout_shader(*p.device, test::kFetchShader, test::kFetchLayout, "fetch");
  auto out = Buffer::create(*p.device, kSize * kSize * 4);
  if (!out) FAIL(out.error().message);
  p.out = *out;
  p.sampler = test::make_sampler(*p.device, {});
  return p;
}

Status store(Pipeline& p) {
  const ImageBinding images[] = {{.image = p.image.get(), .access = Access::Write}};
  return p.stream->dispatch({.shader = p.store.get(), .size = {8, 8, 1}, .groups = {2, 2, 1}, .images = images});
}

Status fetch(Pipeline& p) {
  const ImageBinding images[] = {{.image = p.image.get(), .sampler = p.sampler}};
  const BufferBinding buffers[] = {{p.out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
  const int32_t push[3] = {int32_t(kSize), int32_t(kSize), 0};
  return p.stream->dispatch({.shader = p.fetch.get(),
                             .size = {8, 8, 1},
                             .groups = {2, 2, 1},
                             .bindings = buffers,
                             .images = images,
                             .push_constants = std::as_bytes(std::span(push))});
}

std::vector<uint32_t> stored_texels() {
  std::vector<uint32_t> texels;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) texels.push_back(stored_value(x, y));
  }
  return texels;
}

}  // namespace

// Automatic model (command_stream.hpp): "Every hazard between any two commands gets a barrier" — a sampled read
// of an image written by the previous dispatch is a read after write.
TEST_CASE("Automatic barriers order a texture fetch after an image store", "[vulkan][image_hazard]") {
  for (RecordingMode recording : {RecordingMode::Inline, RecordingMode::Thread}) {
    ValidatedVulkan vk;
    {
      Pipeline p = make_pipeline(vk, recording, BarrierModel::Automatic);
      REQUIRE_OK(store(p));
      const uint64_t before = p.stream->stats().automatic_barriers;
      REQUIRE_OK(fetch(p));
      CHECK(p.stream->stats().automatic_barriers == before + 1);
      CHECK(test::read_values<uint32_t>(*p.stream, *p.out, kSize * kSize) == stored_texels());
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// GL 4.6 §7.13.2: image stores by one dispatch are visible to texture fetches of a later one only after
// glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT) ("Texture fetches from shaders ... after the barrier will reflect
// data written by shaders prior to the barrier"); without it GL orders nothing, so the stream records no barrier.
TEST_CASE("GL model: a texture fetch after an image store needs the TEXTURE_FETCH barrier", "[vulkan][image_hazard]") {
  for (RecordingMode recording : {RecordingMode::Inline, RecordingMode::Thread}) {
    ValidatedVulkan vk;
    {
      Pipeline p = make_pipeline(vk, recording, BarrierModel::Gl);
      REQUIRE_OK(store(p));
      const StreamStats before = p.stream->stats();
      REQUIRE_OK(fetch(p));
      CHECK(p.stream->stats().automatic_barriers == before.automatic_barriers);
      CHECK(p.stream->stats().barrier_commands == before.barrier_commands);
      REQUIRE_OK(p.stream->finish());

      REQUIRE_OK(p.stream->clear_image(*p.image, {}, VkClearColorValue{}));
      REQUIRE_OK(store(p));
      const StreamStats requested = p.stream->stats();
      REQUIRE_OK(p.stream->memory_barrier(kBarrierTextureFetch));
      REQUIRE_OK(fetch(p));
      CHECK(p.stream->stats().barrier_commands == requested.barrier_commands + 1);
      CHECK(test::read_values<uint32_t>(*p.stream, *p.out, kSize * kSize) == stored_texels());
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// GL 4.6 §7.13.2 orders texture updates (TexSubImage*, ClearTexImage) and read-backs (GetTexImage) with earlier
// shader accesses only through TEXTURE_UPDATE / FRAMEBUFFER barriers; the backend's Gl model keeps every transfer
// ordered with every dispatch anyway (command_stream.hpp), so an upload after a fetch of the same image never
// changes what the fetch read (write after read) and a read-back after a store sees it.
TEST_CASE("Image transfers stay ordered with dispatches that bind the image", "[vulkan][image_hazard]") {
  for (BarrierModel model : {BarrierModel::Automatic, BarrierModel::Gl}) {
    ValidatedVulkan vk;
    {
      Pipeline p = make_pipeline(vk, RecordingMode::Inline, model);
      REQUIRE_OK(store(p));
      REQUIRE_OK(p.stream->memory_barrier(kBarrierTextureFetch));
      REQUIRE_OK(fetch(p));
      const uint64_t before = p.stream->stats().automatic_barriers;
      std::vector<uint32_t> zeros(kSize * kSize, 0);
      REQUIRE_OK(p.stream->upload_image(*p.image, whole_level(*p.image), test::value_bytes(zeros)));
      CHECK(p.stream->stats().automatic_barriers == before + 1);
      CHECK(test::read_values<uint32_t>(*p.stream, *p.out, kSize * kSize) == stored_texels());
      REQUIRE_OK(store(p));
      std::vector<uint32_t> back(kSize * kSize);
      REQUIRE_OK(p.stream->readback_image(*p.image, whole_level(*p.image), std::as_writable_bytes(std::span(back))));
      CHECK(back == stored_texels());
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// Texel buffers join the tracking by their range (command_stream.hpp): a uniform texel buffer read of a range the
// previous dispatch wrote through a storage texel buffer is a read after write (Automatic: the barrier by itself;
// GL 4.6 §7.13.2: TEXTURE_FETCH covers buffer textures, "Texture fetches from shaders, including fetches from buffer
// object memory via buffer textures").
TEST_CASE("A buffer texture read after a storage texel buffer write is ordered", "[vulkan][image_hazard]") {
  for (BarrierModel model : {BarrierModel::Automatic, BarrierModel::Gl}) {
    for (RecordingMode recording : {RecordingMode::Inline, RecordingMode::Thread}) {
      ValidatedVulkan vk;
      {
        auto device = test::make_device(vk);
        auto cache = test::make_cache(*device);
        auto stream = test::make_stream(*device, *cache, {.recording = recording, .barriers = model});
        auto shader = make_layout_shader(*device, test::kTexelBufferShader, test::kTexelBufferLayout, "texel buffers");
        constexpr uint32_t count = 256;
        auto a = test::make_buffer(*device, count), b = test::make_buffer(*device, count),
             c = test::make_buffer(*device, count);
        std::vector<uint32_t> values(count);
        for (uint32_t i = 0; i < count; ++i) values[i] = i * 5 + 2;
        REQUIRE_OK(stream->upload(*a, 0, test::value_bytes(values)));
        auto pass = [&](Buffer& from, Buffer& to) {
          const ImageBinding images[] = {
              {.texel_buffer = &from, .texel_format = VK_FORMAT_R32_UINT},
              {.texel_buffer = &to, .texel_format = VK_FORMAT_R32_UINT, .access = Access::Write}};
          return stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {count / 64, 1, 1},
                                   .images = images,
                                   .push_constants = test::bytes_of(count)});
        };
        REQUIRE_OK(pass(*a, *b));
        const StreamStats before = stream->stats();
        if (model == BarrierModel::Gl) REQUIRE_OK(stream->memory_barrier(kBarrierTextureFetch));
        REQUIRE_OK(pass(*b, *c));
        if (model == BarrierModel::Automatic) {
          CHECK(stream->stats().automatic_barriers == before.automatic_barriers + 1);
        } else {
          CHECK(stream->stats().automatic_barriers == before.automatic_barriers);
          CHECK(stream->stats().barrier_commands == before.barrier_commands + 1);
        }
        const auto out = test::read_words(*stream, *c, count);
        for (uint32_t i = 0; i < count; ++i) REQUIRE(out[i] == (values[i] * 3 + 1) * 3 + 1);
      }
      REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
    }
  }
}

// GL 4.6 §8.14.4 "Manual Mipmap Generation": GenerateMipmap computes each level from the one above; Vulkan 1.3
// §20.5 vkCmdBlitImage with VK_FILTER_LINEAR at an exact 2:1 reduction samples each destination texel's centre,
// halfway between two source texels in each dimension, so every texel is the mean of its 2x2 source block (UNORM8:
// within one step of rounding).
TEST_CASE("generate_mipmaps fills each level with the 2x2 mean of the level above", "[vulkan][image_hazard]") {
  for (RecordingMode recording : {RecordingMode::Inline, RecordingMode::Thread}) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk);
      auto cache = test::make_cache(*device);
      auto stream = test::make_stream(*device, *cache, {.recording = recording});
      // Blits need a queue with graphics (CommandStream::generate_mipmaps refuses them on a compute-only queue).
      if (!device->graphics_queue()) {
        WARN(device->info().name << "'s queue is compute-only: generate_mipmaps is an Error there");
        auto image = make_image(
            *device,
            {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {4, 4, 1}, .mip_levels = 2, .usage = kImageSampled});
        CHECK_FALSE(stream->generate_mipmaps(*image, 0, 0, 1));
        continue;
      }
      auto image = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                        .extent = {16, 8, 1},
                                        .mip_levels = 4,
                                        .array_layers = 2,
                                        .usage = kImageSampled});
      for (uint32_t layer = 0; layer < 2; ++layer) {
        std::vector<uint8_t> base(16 * 8 * 4);
        for (size_t i = 0; i < base.size(); ++i) base[i] = uint8_t((i * 37 + layer * 101) % 251);
        ImageRegion region = whole_level(*image);
        region.base_layer = layer;
        region.layer_count = 1;
        REQUIRE_OK(stream->upload_image(*image, region, std::as_bytes(std::span(base))));
      }
      REQUIRE_OK(stream->generate_mipmaps(*image, 0, 0, 2));
      for (uint32_t level = 1; level < 4; ++level) {
        for (uint32_t layer = 0; layer < 2; ++layer) {
          auto read = [&](uint32_t l) {
            ImageRegion region = whole_level(*image, l);
            region.base_layer = layer;
            region.layer_count = 1;
            std::vector<uint8_t> texels(size_t(region.extent.width) * region.extent.height * 4);
            REQUIRE_OK(stream->readback_image(*image, region, std::as_writable_bytes(std::span(texels))));
            return texels;
          };
          const auto above = read(level - 1), here = read(level);
          const ImageExtent e = image->extent(level), a = image->extent(level - 1);
          for (uint32_t y = 0; y < e.height; ++y) {
            for (uint32_t x = 0; x < e.width; ++x) {
              for (uint32_t c = 0; c < 4; ++c) {
                auto at = [&](uint32_t sx, uint32_t sy) { return double(above[(sy * a.width + sx) * 4 + c]); };
                // A level of height 1 above a level of height 1 (none here: 16x8 keeps both dimensions >= 1 by
                // halving) would average one row.
                const uint32_t y1 = std::min(2 * y + 1, a.height - 1);
                const double mean = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, y1) + at(2 * x + 1, y1)) / 4;
                INFO("level " << level << " layer " << layer << " texel " << x << "," << y << " component " << c);
                REQUIRE(std::abs(double(here[(y * e.width + x) * 4 + c]) - mean) <= 1.0);
              }
            }
          }
        }
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// vkCmdBlitImage valid usage: "The format features of srcImage must contain VK_FORMAT_FEATURE_BLIT_SRC_BIT",
// dstImage BLIT_DST, and "If filter is VK_FILTER_LINEAR, then the format features of srcImage must contain
// VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT"; levels and layers inside the image.
TEST_CASE("generate_mipmaps refuses formats without linear blits and ranges outside the image",
          "[vulkan][image_hazard]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = test::make_stream(*device, *cache);
    if (!device->graphics_queue()) {
      WARN(device->info().name << "'s queue is compute-only: every generate_mipmaps is an Error there");
      return;
    }
    auto image = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {8, 8, 1}, .mip_levels = 3});
    CHECK_FALSE(stream->generate_mipmaps(*image, 3, 0, 1));
    CHECK_FALSE(stream->generate_mipmaps(*image, 0, 1, 1));
    CHECK_FALSE(stream->generate_mipmaps(*image, 0, 0, 0));
    REQUIRE_OK(stream->generate_mipmaps(*image, 2, 0, 1));  // the last level: nothing to generate
    CHECK_FALSE(stream->generate_mipmaps(*image, 0, 0, 1, 3));  // last_level outside the image
    // last_level (GL's q = MAX_LEVEL): levels above it keep their texels. Level 2 holds a sentinel; levels 0..1 a
    // pattern whose level-1 mean differs from it.
    REQUIRE_OK(stream->clear_image(*image, {2, 1, 0, 1}, VkClearColorValue{.float32 = {1, 1, 1, 1}}));
    REQUIRE_OK(stream->clear_image(*image, {0, 1, 0, 1}, VkClearColorValue{.float32 = {0, 0, 0, 0}}));
    REQUIRE_OK(stream->generate_mipmaps(*image, 0, 0, 1, 1));
    std::vector<uint8_t> level1(4 * 4 * 4), level2(2 * 2 * 4);
    REQUIRE_OK(stream->readback_image(*image, whole_level(*image, 1), std::as_writable_bytes(std::span(level1))));
    REQUIRE_OK(stream->readback_image(*image, whole_level(*image, 2), std::as_writable_bytes(std::span(level2))));
    for (uint8_t v : level1) CHECK(v == 0);
    for (uint8_t v : level2) CHECK(v == 255);
    const VkFormat integer = VK_FORMAT_R32G32B32A32_UINT;
    if (!(test::optimal_features(*device, integer) & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)) {
      auto ints = make_image(*device, {.format = integer, .extent = {8, 8, 1}, .mip_levels = 2});
      const Status status = stream->generate_mipmaps(*ints, 0, 0, 1);
      REQUIRE_FALSE(status);
      CHECK(status.error().message.find("SAMPLED_IMAGE_FILTER_LINEAR") != std::string::npos);
    } else {
      WARN("the device filters R32G32B32A32_UINT linearly: no format without linear blits to check");
    }
    REQUIRE_OK(stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}
