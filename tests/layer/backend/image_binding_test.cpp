// Dispatches that bind images, samplers and texel buffers (DispatchInfo::images): imageStore, imageLoad and
// imageAtomicAdd on storage images, texelFetch and filtered sampling through combined image samplers, buffer
// textures through uniform and storage texel buffers, views of another format and of single mip levels, and every
// binding the device cannot take refused as an Error. Each runs with both recording modes and with push
// descriptors and pool-allocated sets, under the validation layer (only its note on the GENERAL layout, which
// images use by design, is accepted). Expected values are computed here from what was uploaded and from the
// Vulkan spec's rules, never read from the code under test.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "image_binding_support.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::BindingConfig;
using bismuth::test::kFetchLayout;
using bismuth::test::kFetchShader;
using bismuth::test::kStoreLayout;
using bismuth::test::kStoreShader;
using bismuth::test::kTexelBufferLayout;
using bismuth::test::kTexelBufferShader;
using bismuth::test::make_image;
using bismuth::test::make_layout_shader;
using bismuth::test::stored_value;
using bismuth::test::ValidatedVulkan;

namespace {

constexpr const char* kLoadShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0, rgba32f) uniform readonly image2D src;
layout(std430, binding = 1) writeonly buffer Out { vec4 texels[]; };
void main() {
  ivec2 size = imageSize(src);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, size))) return;
  texels[p.y * size.x + p.x] = imageLoad(src, p) * 2.0 + vec4(1.0);
}
)";

constexpr const char* kAtomicShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0, r32ui) uniform coherent uimage2D counters;
layout(std430, binding = 1) writeonly buffer Old { uint old[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  old[i] = imageAtomicAdd(counters, ivec2(int(i % 4u), 0), 1u);
}
)";

constexpr const char* kSampleShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0) uniform sampler2D tex;
layout(std430, binding = 1) readonly buffer Coords { vec2 uv[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 texels[]; };
layout(push_constant) uniform Push { uint count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) texels[i] = textureLod(tex, uv[i], 0.0);
}
)";

const BindingLayout kLoadLayout{{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
const BindingLayout kSampleLayout{
    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
    4};

struct Setup {
  std::unique_ptr<Device> device;
  std::unique_ptr<PipelineCache> cache;
  std::unique_ptr<CommandStream> stream;
};

Setup setup(ValidatedVulkan& vk, const BindingConfig& config, BarrierModel barriers = BarrierModel::Automatic) {
  Setup s;
  s.device = test::make_device(vk, {.use_push_descriptors = config.push_descriptors});
  s.cache = test::make_cache(*s.device);
  s.stream = test::make_stream(*s.device, *s.cache, {.recording = config.recording, .barriers = barriers});
  return s;
}

std::array<uint32_t, 3> groups_for(uint32_t width, uint32_t height) {
  return {(width + 7) / 8, (height + 7) / 8, 1};
}

std::shared_ptr<Buffer> make_words(Device& device, size_t bytes) {
  auto buffer = Buffer::create(device, bytes);
  if (!buffer) FAIL(buffer.error().message);
  return *buffer;
}

}  // namespace

// GL 4.6 §8.26 "Texture Image Loads and Stores" / GLSL 4.60 §8.12: imageStore writes the texel at the given
// coordinates; Vulkan 1.3 §20.4: a copy to a buffer returns the texels unconverted.
TEST_CASE("imageStore writes a storage image that reads back texel for texel", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      constexpr uint32_t w = 21, h = 13;
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {w, h, 1}, .usage = kImageStorage});
      auto shader = make_layout_shader(*device, kStoreShader, kStoreLayout, "store");
      const ImageBinding images[] = {{.image = image.get(), .access = Access::Write}};
      REQUIRE_OK(
          stream->dispatch({.shader = shader.get(), .size = {8, 8, 1}, .groups = groups_for(w, h), .images = images}));
      std::vector<uint32_t> out(w * h);
      REQUIRE_OK(stream->readback_image(*image, whole_level(*image), std::as_writable_bytes(std::span(out))));
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          INFO("texel " << x << "," << y);
          REQUIRE(out[y * w + x] == stored_value(x, y));
        }
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// GLSL 4.60 §8.12: imageLoad returns the texel at the coordinates; rgba32f images hold the uploaded floats exactly.
TEST_CASE("imageLoad reads an uploaded image next to a storage buffer binding", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      constexpr uint32_t w = 9, h = 10;
      auto image =
          make_image(*device, {.format = VK_FORMAT_R32G32B32A32_SFLOAT, .extent = {w, h, 1}, .usage = kImageStorage});
      std::vector<float> texels(w * h * 4);
      for (size_t i = 0; i < texels.size(); ++i) texels[i] = float(i) * 0.25f - 7.0f;
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), test::value_bytes(texels)));
      auto out = make_words(*device, texels.size() * 4);
      auto shader = make_layout_shader(*device, kLoadShader, kLoadLayout, "load");
      const ImageBinding images[] = {{.image = image.get(), .access = Access::Read}};
      const BufferBinding buffers[] = {{out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {8, 8, 1},
                                   .groups = groups_for(w, h),
                                   .bindings = buffers,
                                   .images = images}));
      const auto result = test::read_values<float>(*stream, *out, texels.size());
      for (size_t i = 0; i < texels.size(); ++i) {
        INFO("component " << i);
        REQUIRE(result[i] == texels[i] * 2.0f + 1.0f);
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// GLSL 4.60 §8.12: "imageAtomicAdd ... Computes a new value by adding the value of data to the contents of the
// selected texel ... returns the original value"; atomic operations on one texel are serialised, so 4096
// invocations adding 1 to four texels leave each at its start + 1024 and hand out every intermediate value once.
TEST_CASE("imageAtomicAdd on an R32UI image counts every invocation under contention", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      constexpr uint32_t n = 4096;
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {4, 1, 1}, .usage = kImageStorage});
      const std::vector<uint32_t> start = {5, 100, 0, 77777};
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), test::value_bytes(start)));
      auto old = make_words(*device, n * 4);
      auto shader = make_layout_shader(*device, kAtomicShader, kLoadLayout, "atomic");
      const ImageBinding images[] = {{.image = image.get(), .access = Access::ReadWrite}};
      const BufferBinding buffers[] = {{old.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {n / 64, 1, 1},
                                   .bindings = buffers,
                                   .images = images}));
      std::vector<uint32_t> counters(4);
      REQUIRE_OK(stream->readback_image(*image, whole_level(*image), std::as_writable_bytes(std::span(counters))));
      const auto returned = test::read_values<uint32_t>(*stream, *old, n);
      for (uint32_t t = 0; t < 4; ++t) {
        INFO("texel " << t);
        CHECK(counters[t] == start[t] + n / 4);
        std::vector<uint32_t> seen;
        for (uint32_t i = t; i < n; i += 4) seen.push_back(returned[i]);
        std::sort(seen.begin(), seen.end());
        for (uint32_t k = 0; k < n / 4; ++k) REQUIRE(seen[k] == start[t] + k);
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

namespace {

// Vulkan 1.3 §16.6 "Wrapping Operation" on an integer texel coordinate: REPEAT takes it modulo the size,
// CLAMP_TO_EDGE clamps it into the image, CLAMP_TO_BORDER marks it outside (-1 = the border colour).
int wrap(int i, int size, VkSamplerAddressMode mode) {
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: return ((i % size) + size) % size;
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return std::clamp(i, 0, size - 1);
    default: return i < 0 || i >= size ? -1 : i;
  }
}

struct Rgba {
  float c[4];
};

// Vulkan 1.3 §16.7 "Texel Filtering" for a 2D image at normalized (s, t): NEAREST takes the texel at
// floor(s * width), floor(t * height); LINEAR weights the four texels around (s * width - 0.5, t * height - 0.5)
// by the fractions. UNORM texels read as byte / 255 (§3.9.1 "Conversion from Normalized Fixed-Point").
Rgba reference_sample(const std::vector<uint8_t>& texels, int w, int h, float s, float t, VkFilter filter,
                      VkSamplerAddressMode mode, const Rgba& border) {
  auto texel = [&](int x, int y) {
    const int wx = wrap(x, w, mode), wy = wrap(y, h, mode);
    if (wx < 0 || wy < 0) return border;
    Rgba r;
    for (int c = 0; c < 4; ++c) r.c[c] = texels[(size_t(wy) * w + wx) * 4 + c] / 255.0f;
    return r;
  };
  if (filter == VK_FILTER_NEAREST) return texel(int(std::floor(s * w)), int(std::floor(t * h)));
  const float u = s * w - 0.5f, v = t * h - 0.5f;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  const Rgba t00 = texel(i0, j0), t10 = texel(i0 + 1, j0), t01 = texel(i0, j0 + 1), t11 = texel(i0 + 1, j0 + 1);
  Rgba r;
  for (int c = 0; c < 4; ++c) {
    r.c[c] = (1 - a) * (1 - b) * t00.c[c] + a * (1 - b) * t10.c[c] + (1 - a) * b * t01.c[c] + a * b * t11.c[c];
  }
  return r;
}

}  // namespace

// texture / textureLod (GLSL 4.60 §8.9.2) through a combined image sampler, NEAREST and LINEAR, with REPEAT,
// CLAMP_TO_EDGE and CLAMP_TO_BORDER, at coordinates inside and outside [0, 1]. The coordinates put the filter's
// fractions on quarters, which the minimum subTexelPrecisionBits (4) represents exactly, and keep NEAREST away from
// texel edges; the tolerance covers UNORM8 filtering arithmetic (2 / 255).
TEST_CASE("Sampling filters and wraps as the Vulkan spec's texel filtering says", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      constexpr int w = 8, h = 4;
      auto image =
          make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {w, h, 1}, .usage = kImageSampled});
      std::vector<uint8_t> texels(w * h * 4);
      for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t((i * 73 + 11) % 256);
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), std::as_bytes(std::span(texels))));
      auto shader = make_layout_shader(*device, kSampleShader, kSampleLayout, "sample");
      const Rgba border_white{{1, 1, 1, 1}};
      for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
        for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                          VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER}) {
          INFO("filter " << filter << " address mode " << mode);
          std::vector<float> uv;
          const std::vector<float> fractions =
              filter == VK_FILTER_NEAREST ? std::vector<float>{0.0f, 0.25f} : std::vector<float>{0, 0.25f, 0.5f, 0.75f};
          for (int k = -3; k < w + 3; ++k) {
            for (float f : fractions) {
              const float s = (float(k) + 0.5f + f) / w;
              const float t = (float((k * 5) % (h + 4)) - 2.0f + 0.5f + f) / h;
              uv.push_back(s);
              uv.push_back(t);
            }
          }
          const uint32_t count = uint32_t(uv.size() / 2);
          auto coords = make_words(*device, uv.size() * 4);
          auto out = make_words(*device, count * 16);
          REQUIRE_OK(stream->upload(*coords, 0, test::value_bytes(uv)));
          const VkSampler sampler = test::make_sampler(*device, {.mag_filter = filter,
                                                                 .min_filter = filter,
                                                                 .address_u = mode,
                                                                 .address_v = mode,
                                                                 .address_w = mode,
                                                                 .border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE});
          const ImageBinding images[] = {{.image = image.get(), .sampler = sampler}};
          const BufferBinding buffers[] = {{coords.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                           {out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
          REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                       .size = {64, 1, 1},
                                       .groups = {(count + 63) / 64, 1, 1},
                                       .bindings = buffers,
                                       .images = images,
                                       .push_constants = test::bytes_of(count)}));
          const auto result = test::read_values<float>(*stream, *out, count * 4);
          for (uint32_t i = 0; i < count; ++i) {
            const Rgba expected = reference_sample(texels, w, h, uv[2 * i], uv[2 * i + 1], filter, mode, border_white);
            for (int c = 0; c < 4; ++c) {
              INFO("sample " << i << " at (" << uv[2 * i] << ", " << uv[2 * i + 1] << ") component " << c);
              REQUIRE(std::fabs(result[i * 4 + c] - expected.c[c]) <= 2.0f / 255.0f);
            }
          }
        }
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// GL 4.6 §8.14.2 / Vulkan §16.6: CLAMP_TO_BORDER outside the image returns the border colour; with
// VK_EXT_custom_border_color that is the sampler's own colour, otherwise the nearest built-in one (sampler.hpp).
TEST_CASE("A custom border colour is what sampling outside the image returns", "[vulkan][image_binding]") {
  ValidatedVulkan vk;
  {
    auto [device, cache, stream] = setup(vk, test::kBindingConfigs[0]);
    auto image = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {4, 4, 1}, .usage = kImageSampled});
    REQUIRE_OK(stream->clear_image(*image, {}, VkClearColorValue{{0.0f, 0.0f, 0.0f, 0.0f}}));
    SamplerDesc desc{.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                     .address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                     .border_color = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT};
    desc.custom_border_color.float32[0] = 0.25f;
    desc.custom_border_color.float32[1] = 0.5f;
    desc.custom_border_color.float32[2] = 0.75f;
    desc.custom_border_color.float32[3] = 0.875f;
    const VkSampler sampler = test::make_sampler(*device, desc);
    auto shader = make_layout_shader(*device, kSampleShader, kSampleLayout, "sample");
    const std::vector<float> uv = {-0.5f, 0.5f, 1.5f, 1.5f};
    auto coords = make_words(*device, uv.size() * 4);
    auto out = make_words(*device, 2 * 16);
    REQUIRE_OK(stream->upload(*coords, 0, test::value_bytes(uv)));
    const ImageBinding images[] = {{.image = image.get(), .sampler = sampler}};
    const BufferBinding buffers[] = {{coords.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                     {out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const uint32_t count = 2;
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .bindings = buffers,
                                 .images = images,
                                 .push_constants = test::bytes_of(count)}));
    const auto result = test::read_values<float>(*stream, *out, 8);
    float expected[4] = {0.25f, 0.5f, 0.75f, 0.875f};
    if (!device->features().custom_border_color) {
      CHECK(nearest_builtin_border(desc.border_color, desc.custom_border_color) == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE);
      std::fill(std::begin(expected), std::end(expected), 1.0f);
    }
    // The colour may come back in the image format's precision (NVIDIA returns 64/255 for 0.25 on RGBA8).
    for (int i = 0; i < 8; ++i) CHECK(std::fabs(result[i] - expected[i % 4]) <= 1.0f / 255.0f);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// GLSL 4.60 §8.9.2 texelFetch: the texel at integer coordinates of the given level of the view (no filtering);
// Vulkan §12.5: a view's baseMipLevel is its level 0. imageStore through a view of one level writes that level
// only (§20.4 read-backs of each level).
TEST_CASE("Views of single mip levels fetch and store the level they name", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT,
                                        .extent = {16, 16, 1},
                                        .mip_levels = 5,
                                        .usage = kImageStorage | kImageSampled});
      std::vector<std::vector<uint32_t>> levels(5);
      for (uint32_t level = 0; level < 5; ++level) {
        const ImageExtent e = image->extent(level);
        for (uint32_t i = 0; i < e.width * e.height; ++i) levels[level].push_back((level + 1) * 100000 + i);
        REQUIRE_OK(stream->upload_image(*image, whole_level(*image, level), test::value_bytes(levels[level])));
      }
      const VkSampler nearest = test::make_sampler(*device, {});
      auto fetch = make_layout_shader(*device, kFetchShader, kFetchLayout, "fetch");
      auto fetch_level = [&](const ImageViewDesc& view, int lod, uint32_t width, uint32_t height) {
        auto out = make_words(*device, width * height * 4);
        const ImageBinding images[] = {{.image = image.get(), .view = view, .sampler = nearest}};
        const BufferBinding buffers[] = {{out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
        const int32_t push[3] = {int32_t(width), int32_t(height), lod};
        REQUIRE_OK(stream->dispatch({.shader = fetch.get(),
                                     .size = {8, 8, 1},
                                     .groups = groups_for(width, height),
                                     .bindings = buffers,
                                     .images = images,
                                     .push_constants = std::as_bytes(std::span(push))}));
        return test::read_values<uint32_t>(*stream, *out, width * height);
      };
      CHECK(fetch_level({.base_mip = 1}, 0, 8, 8) == levels[1]);
      CHECK(fetch_level({.base_mip = 0, .mip_count = 5}, 3, 2, 2) == levels[3]);

      auto store = make_layout_shader(*device, kStoreShader, kStoreLayout, "store");
      const ImageBinding images[] = {{.image = image.get(), .view = {.base_mip = 2}, .access = Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = store.get(), .size = {8, 8, 1}, .groups = {1, 1, 1}, .images = images}));
      for (uint32_t level = 1; level < 4; ++level) {
        const ImageExtent e = image->extent(level);
        std::vector<uint32_t> out(e.width * e.height);
        REQUIRE_OK(stream->readback_image(*image, whole_level(*image, level), std::as_writable_bytes(std::span(out))));
        std::vector<uint32_t> expected = levels[level];
        if (level == 2) {
          for (uint32_t y = 0; y < e.height; ++y) {
            for (uint32_t x = 0; x < e.width; ++x) expected[y * e.width + x] = stored_value(x, y);
          }
        }
        INFO("level " << level);
        CHECK(out == expected);
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// Vulkan 1.3 §12.5: with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT a view may have another format of the same
// compatibility class, whose texels are the image's bits reinterpreted (GL 4.6 §8.26: glBindImageTexture's format
// "is used to interpret the texels"). An R32UI store through a view of an RGBA8 image writes the word's four bytes.
TEST_CASE("A storage view of another format writes the image's bits as that format", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      constexpr uint32_t w = 5, h = 3;
      auto image = make_image(
          *device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {w, h, 1}, .usage = kImageStorage | kImageSampled});
      auto shader = make_layout_shader(*device, kStoreShader, kStoreLayout, "store");
      const ImageBinding images[] = {
          {.image = image.get(), .view = {.format = VK_FORMAT_R32_UINT}, .access = Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(), .size = {8, 8, 1}, .groups = {1, 1, 1}, .images = images}));
      std::vector<uint8_t> bytes(w * h * 4);
      REQUIRE_OK(stream->readback_image(*image, whole_level(*image), std::as_writable_bytes(std::span(bytes))));
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          const uint32_t v = stored_value(x, y);
          for (uint32_t b = 0; b < 4; ++b) REQUIRE(bytes[(y * w + x) * 4 + b] == uint8_t(v >> (8 * b)));
        }
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// GL 4.6 §8.9 "Buffer Textures": texelFetch on a samplerBuffer reads texel i of the buffer range (TexBufferRange's
// offset is texel 0); §8.26 imageStore to an imageBuffer writes texel i. Texels past the bound range stay untouched.
TEST_CASE("Buffer textures read a uniform texel buffer and write a storage texel buffer", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      constexpr uint32_t count = 300;
      const VkDeviceSize offset = std::max<VkDeviceSize>(device->info().min_texel_buffer_offset_alignment, 4);
      auto src = make_words(*device, offset + count * 4);
      auto dst = make_words(*device, (count + 16) * 4);
      std::vector<uint32_t> values(count);
      for (uint32_t i = 0; i < count; ++i) values[i] = i * 31 + 7;
      REQUIRE_OK(stream->fill(*src, 0, VK_WHOLE_SIZE, 0xFFFFFFFFu));
      REQUIRE_OK(stream->upload(*src, offset, test::value_bytes(values)));
      REQUIRE_OK(stream->fill(*dst, 0, VK_WHOLE_SIZE, 0xDEADBEEFu));
      auto shader = make_layout_shader(*device, kTexelBufferShader, kTexelBufferLayout, "texel buffers");
      const ImageBinding images[] = {
          {.texel_buffer = src.get(), .offset = offset, .range = count * 4, .texel_format = VK_FORMAT_R32_UINT},
          {.texel_buffer = dst.get(), .range = count * 4, .texel_format = VK_FORMAT_R32_UINT, .access = Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {(count + 63) / 64, 1, 1},
                                   .images = images,
                                   .push_constants = test::bytes_of(count)}));
      const auto out = test::read_values<uint32_t>(*stream, *dst, count + 16);
      for (uint32_t i = 0; i < count; ++i) REQUIRE(out[i] == values[i] * 3 + 1);
      for (uint32_t i = count; i < count + 16; ++i) REQUIRE(out[i] == 0xDEADBEEFu);
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

namespace {

// The first 4-byte color format the device can sample but not store (VK_FORMAT_UNDEFINED when every one can).
VkFormat sampled_not_storage_format(Device& device) {
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
                     VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_R16G16_SNORM}) {
    const VkFormatFeatureFlags features = test::optimal_features(device, f);
    if ((features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) && !(features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
      return f;
    }
  }
  return VK_FORMAT_UNDEFINED;
}

void require_dispatch_error(CommandStream& stream, const DispatchInfo& info, const std::string& needle) {
  const Status status = stream.dispatch(info);
  REQUIRE_FALSE(status);
  INFO(status.error().message);
  CHECK(status.error().message.find(needle) != std::string::npos);
}

}  // namespace

// Vulkan valid usage the backend checks for the GL shim, so that a bad binding is an Error naming it and never a
// validation message: VkWriteDescriptorSet "If descriptorType is VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, the imageView
// ... must have been created with VK_IMAGE_USAGE_STORAGE_BIT" (SAMPLED_IMAGE / COMBINED_IMAGE_SAMPLER: SAMPLED_BIT);
// vkCmdDispatch "If a VkImageView is accessed using OpImageWrite ... the image view's format features must contain
// VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT", "If a VkSampler created with magFilter or minFilter equal to
// VK_FILTER_LINEAR ... is used to sample a VkImageView ..., the image view's format features must contain
// VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT"; VkBufferViewCreateInfo "offset must be a multiple of
// minTexelBufferOffsetAlignment"; VkImageViewCreateInfo ranges inside the image.
TEST_CASE("Bindings the device cannot take are Errors naming the binding", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      auto sampled_only =
          make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {8, 8, 1}, .usage = kImageSampled});
      auto storage_only =
          make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {8, 8, 1}, .usage = kImageStorage});
      auto store = make_layout_shader(*device, kStoreShader, kStoreLayout, "store");
      auto fetch = make_layout_shader(*device, kFetchShader, kFetchLayout, "fetch");
      auto out = make_words(*device, 256);
      const BufferBinding out_binding[] = {{out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      const int32_t push[3] = {8, 8, 0};
      auto fetch_info = [&](std::span<const ImageBinding> images) {
        return DispatchInfo{.shader = fetch.get(),
                            .size = {8, 8, 1},
                            .bindings = out_binding,
                            .images = images,
                            .push_constants = std::as_bytes(std::span(push))};
      };
      auto store_info = [&](std::span<const ImageBinding> images) {
        return DispatchInfo{.shader = store.get(), .size = {8, 8, 1}, .images = images};
      };
      const VkSampler nearest = test::make_sampler(*device, {});
      const VkSampler linear =
          test::make_sampler(*device, {.mag_filter = VK_FILTER_LINEAR, .min_filter = VK_FILTER_LINEAR});

      const ImageBinding no_storage[] = {{.image = sampled_only.get(), .access = Access::Write}};
      require_dispatch_error(*stream, store_info(no_storage), "kImageStorage");
      const ImageBinding no_sampled[] = {{.image = storage_only.get(), .sampler = nearest}};
      require_dispatch_error(*stream, fetch_info(no_sampled), "kImageSampled");
      const ImageBinding written_texture[] = {
          {.image = sampled_only.get(), .sampler = nearest, .access = Access::ReadWrite}};
      require_dispatch_error(*stream, fetch_info(written_texture), "read-only");
      const ImageBinding no_sampler[] = {{.image = sampled_only.get()}};
      require_dispatch_error(*stream, fetch_info(no_sampler), "Device::sampler");
      const ImageBinding out_of_range[] = {{.image = sampled_only.get(), .view = {.base_mip = 1}, .sampler = nearest}};
      require_dispatch_error(*stream, fetch_info(out_of_range), "mip levels");
      const ImageBinding wrong_type[] = {
          {.image = sampled_only.get(), .view = {.type = VK_IMAGE_VIEW_TYPE_3D}, .sampler = nearest}};
      require_dispatch_error(*stream, fetch_info(wrong_type), "3D");
      require_dispatch_error(*stream, fetch_info({}), "images bound");
      // VkWriteDescriptorSet: "If descriptorType is VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ..., the imageView member of
      // each element of pImageInfo must have been created with the identity swizzle".
      ImageBinding swizzled_storage[] = {{.image = storage_only.get(), .access = Access::Write}};
      swizzled_storage[0].view.components[0] = VK_COMPONENT_SWIZZLE_ZERO;
      require_dispatch_error(*stream, store_info(swizzled_storage), "component mapping");

      if (!(test::optimal_features(*device, VK_FORMAT_R32_UINT) & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)) {
        const ImageBinding linear_integer[] = {{.image = sampled_only.get(), .sampler = linear}};
        require_dispatch_error(*stream, fetch_info(linear_integer), "SAMPLED_IMAGE_FILTER_LINEAR");
      } else {
        WARN("the device filters R32_UINT linearly: no unsupported LINEAR case to check");
      }
      if (const VkFormat f = sampled_not_storage_format(*device); f != VK_FORMAT_UNDEFINED) {
        auto both = make_image(
            *device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {8, 8, 1}, .usage = kImageStorage | kImageSampled});
        const ImageBinding unsupported[] = {{.image = both.get(), .view = {.format = f}, .access = Access::Write}};
        require_dispatch_error(*stream, store_info(unsupported), "STORAGE_IMAGE");
      } else {
        WARN("every candidate format supports storage images here: no unsupported storage format to check");
      }

      const VkDeviceSize alignment = device->info().min_texel_buffer_offset_alignment;
      auto texels = make_words(*device, 1024);
      auto tb_shader = make_layout_shader(*device, kTexelBufferShader, kTexelBufferLayout, "texel buffers");
      if (alignment > 1) {
        const ImageBinding misaligned[] = {
            {.texel_buffer = texels.get(), .offset = alignment / 2, .range = 64, .texel_format = VK_FORMAT_R32_UINT},
            {.texel_buffer = texels.get(), .texel_format = VK_FORMAT_R32_UINT, .access = Access::Write}};
        const uint32_t count = 16;
        require_dispatch_error(*stream,
                               {.shader = tb_shader.get(),
                                .size = {64, 1, 1},
                                .images = misaligned,
                                .push_constants = test::bytes_of(count)},
                               "minTexelBufferOffsetAlignment");
      } else {
        WARN("minTexelBufferOffsetAlignment is 1: no misaligned offset exists on this device");
      }
      const ImageBinding written_uniform[] = {
          {.texel_buffer = texels.get(), .texel_format = VK_FORMAT_R32_UINT, .access = Access::Write},
          {.texel_buffer = texels.get(), .texel_format = VK_FORMAT_R32_UINT, .access = Access::Write}};
      const uint32_t count = 16;
      require_dispatch_error(*stream,
                             {.shader = tb_shader.get(),
                              .size = {64, 1, 1},
                              .images = written_uniform,
                              .push_constants = test::bytes_of(count)},
                             "read-only");

      // The stream still works after the refusals.
      const ImageBinding good[] = {{.image = storage_only.get(), .access = Access::Write}};
      REQUIRE_OK(stream->dispatch(store_info(good)));
      REQUIRE_OK(stream->finish());
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// Vulkan 1.3 §14.2.3 "Allocation of Descriptor Sets": a set comes from a pool with room for its descriptors; the
// stream's pools hold every type it binds, so buffer-only and image shaders alternating for more sets than one pool
// holds (256) keep working, and each dispatch still sees its own bindings.
TEST_CASE("Buffer-only and image dispatches alternate across descriptor pools", "[vulkan][image_binding]") {
  for (RecordingMode recording : {RecordingMode::Inline, RecordingMode::Thread}) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, {recording, false});
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {8, 8, 1}, .usage = kImageStorage});
      auto store = make_layout_shader(*device, kStoreShader, kStoreLayout, "store");
      auto add = test::make_add_shader(*device);
      constexpr uint32_t n = 64, rounds = 300;
      auto a = test::make_buffer(*device, n);
      auto b = test::make_buffer(*device, n);
      REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 0));
      const ImageBinding images[] = {{.image = image.get(), .access = Access::Write}};
      for (uint32_t r = 0; r < rounds; ++r) {
        // a -> b -> a, adding 1 each time: the buffers swap roles, so every dispatch binds anew.
        const bool even = r % 2 == 0;
        const BufferBinding buffers[] = {{(even ? a : b).get(), 0, VK_WHOLE_SIZE, Access::Read},
                                         {(even ? b : a).get(), 0, VK_WHOLE_SIZE, Access::Write}};
        const uint32_t push[2] = {n, 1};
        REQUIRE_OK(stream->dispatch({.shader = add.get(),
                                     .size = {64, 1, 1},
                                     .bindings = buffers,
                                     .push_constants = std::as_bytes(std::span(push))}));
        REQUIRE_OK(stream->dispatch({.shader = store.get(), .size = {8, 8, 1}, .images = images}));
      }
      const auto words = test::read_words(*stream, *a, n);
      for (uint32_t i = 0; i < n; ++i) REQUIRE(words[i] == rounds);
      std::vector<uint32_t> out(64);
      REQUIRE_OK(stream->readback_image(*image, whole_level(*image), std::as_writable_bytes(std::span(out))));
      for (uint32_t y = 0; y < 8; ++y) {
        for (uint32_t x = 0; x < 8; ++x) REQUIRE(out[y * 8 + x] == stored_value(x, y));
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// Images enter a pipeline only through its layout (command_stream.hpp), so a runtime-group-size variant (one pipeline
// per invocation count, the logical size in push constants) binds them like the exact pipelines: every shape of 64
// invocations stores the whole image. GLSL 4.60 §7.1.3: gl_GlobalInvocationID = gl_WorkGroupID * gl_WorkGroupSize +
// gl_LocalInvocationID for the size the dispatch asked for.
TEST_CASE("Runtime-size variants and the front table bind images like exact pipelines", "[vulkan][image_binding]") {
  for (const BindingConfig& config : test::kBindingConfigs) {
    ValidatedVulkan vk;
    {
      auto [device, cache, stream] = setup(vk, config);
      const std::vector<uint32_t>& spirv = test::spirv_of(kStoreShader);
      auto patched = spirv_patch::workgroup_size_to_runtime(spirv, {});
      if (!patched) FAIL(patched.error().message);
      ShaderDesc desc;
      desc.spirv = spirv;
      desc.layout = kStoreLayout;
      desc.name = "store, runtime size";
      desc.runtime_group_size = ShaderDesc::RuntimeGroupSize{patched->words, patched->report.push_constant_offset,
                                                             patched->report.exact_only};
      auto shader = Shader::create(*device, desc);
      REQUIRE_OK(shader);
      REQUIRE((*shader)->runtime_variant() != nullptr);
      constexpr uint32_t w = 32, h = 16;
      auto image = make_image(*device, {.format = VK_FORMAT_R32_UINT, .extent = {w, h, 1}, .usage = kImageStorage});
      const ImageBinding images[] = {{.image = image.get(), .access = Access::Write}};
      for (GroupSize size : {GroupSize{8, 8, 1}, GroupSize{16, 4, 1}, GroupSize{4, 16, 1}, GroupSize{8, 8, 1}}) {
        INFO("size " << size.x << "x" << size.y);
        REQUIRE_OK(stream->clear_image(*image, {}, VkClearColorValue{}));
        REQUIRE_OK(stream->dispatch(
            {.shader = shader->get(), .size = size, .groups = {w / size.x, h / size.y, 1}, .images = images}));
        std::vector<uint32_t> out(w * h);
        REQUIRE_OK(stream->readback_image(*image, whole_level(*image), std::as_writable_bytes(std::span(out))));
        for (uint32_t y = 0; y < h; ++y) {
          for (uint32_t x = 0; x < w; ++x) REQUIRE(out[y * w + x] == stored_value(x, y));
        }
      }
      CHECK(stream->stats().runtime_size_dispatches > 0);
      CHECK(stream->stats().front_table_hits > 0);
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}
