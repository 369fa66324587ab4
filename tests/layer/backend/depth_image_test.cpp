// Depth images (image.hpp: D16_UNORM, X8_D24_UNORM_PACK32, D32_SFLOAT, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT, through
// their depth aspect): round trips of the depth aspect, clears, texelFetch of depth, and shadow comparisons — what
// the GL shim's depth textures and shadow samplers need. Under the validation layer (the GENERAL-layout note aside).
// Formats a device does not support are skipped with a warning; D16_UNORM and D32_SFLOAT sampling is required by
// Vulkan (D16 always, D32_SFLOAT or X8_D24 for depth attachments), so at least one of them always runs.
#include <string>

#include "image_binding_support.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_image;
using bismuth::test::make_layout_shader;
using bismuth::test::ValidatedVulkan;

namespace {

constexpr const char* kDepthFetchShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0) uniform sampler2D depth;
layout(std430, binding = 1) writeonly buffer Out { float texels[]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = textureSize(depth, 0);
  if (all(lessThan(p, size))) texels[p.y * size.x + p.x] = texelFetch(depth, p, 0).r;
}
)";

constexpr const char* kShadowShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0) uniform sampler2DShadow depth;
layout(std430, binding = 1) writeonly buffer Out { float results[]; };
layout(push_constant) uniform Push { float reference; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = textureSize(depth, 0);
  if (all(lessThan(p, size))) {
    vec2 uv = (vec2(p) + 0.5) / vec2(size);
    results[p.y * size.x + p.x] = textureLod(depth, vec3(uv, reference), 0.0);
  }
}
)";

const BindingLayout kDepthLayout{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
const BindingLayout kShadowLayout{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 4};

constexpr uint32_t kW = 8, kH = 4;

// Depth values in [0, 1] (outside it a depth image's contents are undefined without
// VK_EXT_depth_range_unrestricted), spread so that neighbours differ.
std::vector<float> depths() {
  std::vector<float> d;
  for (uint32_t i = 0; i < kW * kH; ++i) d.push_back(float((i * 7) % (kW * kH)) / float(kW * kH - 1));
  return d;
}

// The bytes a depth-aspect copy of `format` holds for `values` (Vulkan 1.3 §20.4: D16 as 16-bit UNORM, D24 as the
// low 24 bits of a 32-bit word, D32 as a float), and the mask of the bits that are defined in each texel.
std::vector<uint32_t> encode(VkFormat format, const std::vector<float>& values) {
  std::vector<uint32_t> words;
  for (float v : values) {
    if (format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D32_SFLOAT_S8_UINT) {
      words.push_back(std::bit_cast<uint32_t>(v));
    } else if (format == VK_FORMAT_D16_UNORM) {
      words.push_back(uint32_t(std::lround(v * 65535.0f)));
    } else {
      words.push_back(uint32_t(std::lround(double(v) * 16777215.0)));
    }
  }
  return words;
}

std::vector<std::byte> pack(VkFormat format, const std::vector<uint32_t>& words) {
  std::vector<std::byte> bytes;
  const size_t per = texel_bytes(format);
  for (uint32_t w : words) {
    for (size_t b = 0; b < per; ++b) bytes.push_back(std::byte(w >> (8 * b)));
  }
  return bytes;
}

std::vector<uint32_t> unpack(VkFormat format, const std::vector<std::byte>& bytes) {
  std::vector<uint32_t> words;
  const size_t per = texel_bytes(format);
  const uint32_t mask =
      format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D24_UNORM_S8_UINT ? 0xFFFFFFu : 0xFFFFFFFFu;
  for (size_t i = 0; i < bytes.size(); i += per) {
    uint32_t w = 0;
    for (size_t b = 0; b < per; ++b) w |= uint32_t(bytes[i + b]) << (8 * b);
    words.push_back(w & mask);
  }
  return words;
}

constexpr VkFormat kDepthFormats[] = {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT,
                                      VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};

bool samplable(Device& device, VkFormat format) {
  const VkFormatFeatureFlags f = test::optimal_features(device, format);
  return (f & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) && (f & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT) &&
         (f & VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
}

}  // namespace

// Vulkan 1.3 §20.4 "Copying Data Between Buffers and Images", depth/stencil formats: a copy of the depth aspect moves
// D16 as 2-byte values, D24 in 4-byte words (the top 8 bits undefined), D32 as 4-byte floats, without conversion.
TEST_CASE("Depth images round-trip their depth aspect and clear to a depth value", "[vulkan][depth]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = test::make_stream(*device, *cache);
    // Depth copies and clears need a queue with graphics (CommandStream refuses them on a compute-only queue).
    if (!device->graphics_queue()) {
      WARN(device->info().name << "'s queue is compute-only: depth transfers are an Error there");
      return;
    }
    int ran = 0;
    for (VkFormat format : kDepthFormats) {
      INFO("format " << format_name(format));
      if (!samplable(*device, format)) {
        WARN(format_name(format) + " is not a sampled transfer format on this device: skipped");
        continue;
      }
      ++ran;
      auto image = make_image(*device, {.format = format, .extent = {kW, kH, 1}, .usage = kImageSampled});
      const auto words = encode(format, depths());
      REQUIRE_OK(stream->upload_image(*image, whole_level(*image), pack(format, words)));
      std::vector<std::byte> back(kW * kH * texel_bytes(format));
      REQUIRE_OK(stream->readback_image(*image, whole_level(*image), back));
      CHECK(unpack(format, back) == words);
      // vkCmdClearDepthStencilImage: every texel of the depth aspect takes the value (0.5 is exact in every format's
      // encoding after rounding: D16 32768 / 65535 rounds back to 32768).
      REQUIRE_OK(stream->clear_image(*image, {}, VkClearColorValue{{0.5f, 0, 0, 0}}));
      REQUIRE_OK(stream->readback_image(*image, whole_level(*image), back));
      CHECK(unpack(format, back) == encode(format, std::vector<float>(kW * kH, 0.5f)));
    }
    CHECK(ran > 0);
    // A depth image is viewed only in its own format; it cannot be a storage image.
    if (samplable(*device, VK_FORMAT_D32_SFLOAT)) {
      auto image = make_image(*device, {.format = VK_FORMAT_D32_SFLOAT, .extent = {kW, kH, 1}, .usage = kImageSampled});
      auto view = image->view({.format = VK_FORMAT_R32_SFLOAT});
      REQUIRE_FALSE(view);
      CHECK(view.error().message.find("own format") != std::string::npos);
    }
    CHECK_FALSE(Image::create(*device, {.format = VK_FORMAT_D16_UNORM, .extent = {4, 4, 1}, .usage = kImageStorage}));
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// GLSL 4.60 §8.9: a depth texture sampled through a non-shadow sampler returns the depth in r (Vulkan §16.1: depth
// formats read as (D, 0, 0, 1)); GL 4.6 §8.23.1 / Vulkan §16.8.3 "Depth Compare Operation": with comparison on,
// LEQUAL returns 1.0 when the reference is <= the texel's depth, else 0.0.
TEST_CASE("Depth textures fetch their depth and compare in shadow samplers", "[vulkan][depth]") {
  for (RecordingMode recording : {RecordingMode::Inline, RecordingMode::Thread}) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk);
      auto cache = test::make_cache(*device);
      auto stream = test::make_stream(*device, *cache, {.recording = recording});
      if (!device->graphics_queue()) {
        WARN(device->info().name << "'s queue is compute-only: depth uploads are an Error there");
        continue;
      }
      auto fetch = make_layout_shader(*device, kDepthFetchShader, kDepthLayout, "depth fetch");
      auto shadow = make_layout_shader(*device, kShadowShader, kShadowLayout, "shadow");
      auto out = test::make_buffer(*device, kW * kH);
      const VkSampler nearest = test::make_sampler(*device, {.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                                             .address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE});
      const VkSampler compare = test::make_sampler(*device, {.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                                             .address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                                             .compare_enable = true,
                                                             .compare_op = VK_COMPARE_OP_LESS_OR_EQUAL});
      for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT}) {
        if (!samplable(*device, format)) continue;
        INFO("format " << format_name(format));
        auto image = make_image(*device, {.format = format, .extent = {kW, kH, 1}, .usage = kImageSampled});
        const auto values = depths();
        REQUIRE_OK(stream->upload_image(*image, whole_level(*image), pack(format, encode(format, values))));
        const BufferBinding buffers[] = {{out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
        const ImageBinding plain[] = {{.image = image.get(), .sampler = nearest}};
        REQUIRE_OK(stream->dispatch({.shader = fetch.get(), .size = {8, 4, 1}, .bindings = buffers, .images = plain}));
        const auto fetched = test::read_values<float>(*stream, *out, kW * kH);
        for (uint32_t i = 0; i < kW * kH; ++i) {
          const float expected =
              format == VK_FORMAT_D16_UNORM ? float(encode(format, {values[i]})[0]) / 65535.0f : values[i];
          REQUIRE(std::fabs(fetched[i] - expected) <= 1e-6f);
        }
        // References between representable depths, so that no comparison is an exact tie.
        for (float reference : {0.2f + 0.5f / 31, 0.6f + 0.5f / 31}) {
          const ImageBinding shadowed[] = {{.image = image.get(), .sampler = compare}};
          REQUIRE_OK(stream->dispatch({.shader = shadow.get(),
                                       .size = {8, 4, 1},
                                       .bindings = buffers,
                                       .images = shadowed,
                                       .push_constants = test::bytes_of(reference)}));
          const auto results = test::read_values<float>(*stream, *out, kW * kH);
          for (uint32_t i = 0; i < kW * kH; ++i) {
            INFO("texel " << i << " depth " << values[i] << " reference " << reference);
            REQUIRE(results[i] == (reference <= values[i] ? 1.0f : 0.0f));
          }
        }
      }
    }
    REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
  }
}

// vkCmdDispatch valid usage: "If a VkImageView is sampled with depth comparison, the image view's format features
// must contain VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT" (which color formats never have): a shadow
// sampler on a color texture is an Error naming the binding, never a validation message.
TEST_CASE("A shadow sampler on a color image is refused", "[vulkan][depth]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = test::make_stream(*device, *cache);
    auto shadow = make_layout_shader(*device, kShadowShader, kShadowLayout, "shadow");
    auto out = test::make_buffer(*device, kW * kH);
    auto color = make_image(*device, {.format = VK_FORMAT_R32_SFLOAT, .extent = {kW, kH, 1}, .usage = kImageSampled});
    const VkSampler compare =
        test::make_sampler(*device, {.compare_enable = true, .compare_op = VK_COMPARE_OP_LESS_OR_EQUAL});
    const BufferBinding buffers[] = {{out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const ImageBinding images[] = {{.image = color.get(), .sampler = compare}};
    const float reference = 0.5f;
    const Status status = stream->dispatch({.shader = shadow.get(),
                                            .size = {8, 4, 1},
                                            .bindings = buffers,
                                            .images = images,
                                            .push_constants = test::bytes_of(reference)});
    REQUIRE_FALSE(status);
    CHECK(status.error().message.find("SAMPLED_IMAGE_DEPTH_COMPARISON") != std::string::npos);
    CHECK(status.error().message.find("image binding 0") != std::string::npos);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}
