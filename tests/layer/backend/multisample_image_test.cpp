// Multisample images (ImageDesc::samples; GL's 2D_MULTISAMPLE(_ARRAY) textures): creation only where the device
// reports the sample count, per-sample stores and fetches through storage and sampled descriptors, clears and
// copies, and the commands Vulkan forbids on them (buffer <-> image copies, copies between different counts)
// refused as Errors. Expected values are computed here from the Vulkan and GLSL rules, under the validation layer.
#include <string>

#include "image_binding_support.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_image;
using bismuth::test::make_layout_shader;
using bismuth::test::ValidatedVulkan;

namespace {

// dst(x, y, layer, sample) = ms_value(...) for every sample of every texel of an r32ui image2DMSArray;
// out[0] = imageSamples(dst) (GL_ARB_shader_texture_image_samples).
constexpr const char* kStoreSamplesShader = R"(#version 450
#extension GL_ARB_shader_texture_image_samples : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0, r32ui) uniform writeonly uimage2DMSArray dst;
layout(std430, binding = 1) writeonly buffer Out { uint samples_seen; };
void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  ivec3 size = imageSize(dst);
  if (any(greaterThanEqual(p, size))) return;
  int n = imageSamples(dst);
  if (p == ivec3(0)) samples_seen = uint(n);
  for (int s = 0; s < n; ++s) {
    imageStore(dst, p, s, uvec4(uint(p.x) * 100000u + uint(p.y) * 1000u + uint(p.z) * 100u + uint(s) * 7u + 1u));
  }
}
)";
uint32_t ms_value(uint32_t x, uint32_t y, uint32_t layer, uint32_t sample) {
  return x * 100000u + y * 1000u + layer * 100u + sample * 7u + 1u;
}

// texels[((layer * height + y) * width + x) * samples + s] = texelFetch(tex, (x, y, layer), s).r;
// texels[count] = textureSamples(tex), texels[count + 1..3] = textureSize(tex).
constexpr const char* kFetchSamplesShader = R"(#version 450
#extension GL_ARB_shader_texture_image_samples : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0) uniform usampler2DMSArray tex;
layout(std430, binding = 1) writeonly buffer Out { uint texels[]; };
void main() {
  ivec3 size = textureSize(tex);
  int n = textureSamples(tex);
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p == ivec3(0)) {
    uint count = uint(size.x * size.y * size.z * n);
    texels[count] = uint(n);
    texels[count + 1u] = uint(size.x);
    texels[count + 2u] = uint(size.y);
    texels[count + 3u] = uint(size.z);
  }
  if (any(greaterThanEqual(p, size))) return;
  for (int s = 0; s < n; ++s) {
    texels[((p.z * size.y + p.y) * size.x + p.x) * n + s] = texelFetch(tex, p, s).r;
  }
}
)";

const BindingLayout kStoreSamplesLayout{{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
const BindingLayout kFetchSamplesLayout{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};

// The sample counts the device reports for a 2D optimal-tiling image of `format` with `usage`
// (VkImageFormatProperties::sampleCounts), 0 when the combination is unsupported.
VkSampleCountFlags device_sample_counts(Device& device, VkFormat format, VkImageUsageFlags usage) {
  VkImageFormatProperties properties{};
  const VkResult result = device.vki().vkGetPhysicalDeviceImageFormatProperties(
      device.physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
      usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
      &properties);
  return result == VK_SUCCESS ? properties.sampleCounts : 0;
}

// The largest count above 1 in `counts`, 0 when none.
uint32_t largest_multisample(VkSampleCountFlags counts) {
  for (uint32_t n = 64; n > 1; n >>= 1) {
    if (counts & n) return n;
  }
  return 0;
}

template <class T>
void require_error(const Expected<T>& result, const std::string& needle) {
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  CHECK(result.error().message.find(needle) != std::string::npos);
}

struct Setup {
  std::unique_ptr<Device> device;
  std::unique_ptr<PipelineCache> cache;
  std::unique_ptr<CommandStream> stream;
};

Setup setup(ValidatedVulkan& vk) {
  Setup s;
  s.device = test::make_device(vk);
  s.cache = test::make_cache(*s.device);
  s.stream = test::make_stream(*s.device, *s.cache, {});
  return s;
}

std::shared_ptr<Buffer> make_words(Device& device, size_t words) {
  auto buffer = Buffer::create(device, words * 4);
  if (!buffer) FAIL(buffer.error().message);
  return *buffer;
}

// Fetches every sample of `image` (an R32_UINT multisample 2D array view of all its layers) into a vector laid out
// as kFetchSamplesShader writes it.
std::vector<uint32_t> fetch_samples(Setup& s, Image& image) {
  const ImageDesc& d = image.desc();
  const size_t count = size_t(d.extent.width) * d.extent.height * d.array_layers * d.samples;
  auto out = make_words(*s.device, count + 4);
  auto shader = make_layout_shader(*s.device, kFetchSamplesShader, kFetchSamplesLayout, "fetch_samples");
  VkSampler sampler = test::make_sampler(*s.device, {});
  const ImageBinding images[] = {{.image = &image,
                                  .view = {.type = VK_IMAGE_VIEW_TYPE_2D_ARRAY, .layer_count = d.array_layers},
                                  .sampler = sampler}};
  const BufferBinding buffers[] = {{out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
  REQUIRE_OK(s.stream->dispatch({.shader = shader.get(),
                                 .size = {4, 4, 1},
                                 .groups = {(d.extent.width + 3) / 4, (d.extent.height + 3) / 4, d.array_layers},
                                 .bindings = buffers,
                                 .images = images}));
  return test::read_values<uint32_t>(*s.stream, *out, count + 4);
}

}  // namespace

// VUID-VkImageCreateInfo-samples-02258 ("samples must be a bit value that is set in
// VkImageFormatProperties::sampleCounts") and -02257 (samples other than 1: 2D, one mip level, no cube
// compatibility); VUID-VkImageCreateInfo-usage-00968 (storage usage with more than one sample needs
// shaderStorageImageMultisample). Each is an Error before vkCreateImage.
TEST_CASE("Multisample images are made only with a sample count the device reports", "[vulkan][image][multisample]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const VkSampleCountFlags counts =
        device_sample_counts(*device, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT);
    INFO("sampleCounts 0x" << std::hex << counts);
    const ImageDesc base{.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {8, 8, 1}, .usage = kImageSampled};
    for (uint32_t n = 2; n <= 64; n <<= 1) {
      ImageDesc desc = base;
      desc.samples = n;
      auto image = Image::create(*device, desc);
      INFO(n << " samples");
      if (counts & n) {
        REQUIRE_OK(image);
        CHECK((*image)->desc().samples == n);
        REQUIRE_OK((*image)->view({.type = VK_IMAGE_VIEW_TYPE_2D}));
      } else {
        require_error(image, "samples are not supported");
      }
    }
    ImageDesc three = base;
    three.samples = 3;
    require_error(Image::create(*device, three), "power of two");
    const uint32_t ms = largest_multisample(counts);
    if (ms != 0) {
      ImageDesc mipped = base;
      mipped.samples = ms;
      mipped.mip_levels = 2;
      require_error(Image::create(*device, mipped), "one mip level");
      ImageDesc volume = base;
      volume.samples = ms;
      volume.type = ImageType::Image3D;
      volume.extent.depth = 2;
      require_error(Image::create(*device, volume), "is 2D");
      ImageDesc storage = base;
      storage.samples = ms;
      storage.format = VK_FORMAT_R32_UINT;
      storage.usage = kImageStorage;
      auto made = Image::create(*device, storage);
      const VkSampleCountFlags storage_counts =
          device_sample_counts(*device, VK_FORMAT_R32_UINT, VK_IMAGE_USAGE_STORAGE_BIT);
      if (!device->features().storage_image_multisample) {
        require_error(made, "shaderStorageImageMultisample");
      } else if (storage_counts & ms) {
        REQUIRE_OK(made);
      }
    } else {
      WARN("the device has no multisample R8G8B8A8_UNORM images");
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// GLSL 4.60 §8.12 (imageStore with a sample argument writes that sample) and §8.9.3 (texelFetch of a
// sampler2DMSArray returns the named sample); ARB_shader_texture_image_samples: imageSamples / textureSamples
// return the image's sample count. Each sample holds its own value: nothing resolves or merges them.
TEST_CASE("imageStore writes each sample and texelFetch reads each back", "[vulkan][image_binding][multisample]") {
  ValidatedVulkan vk;
  {
    Setup s = setup(vk);
    const uint32_t ms = largest_multisample(
        device_sample_counts(*s.device, VK_FORMAT_R32_UINT, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    if (ms == 0 || !s.device->features().storage_image_multisample) {
      WARN("no multisample R32_UINT storage images on this device: skipped");
      return;
    }
    constexpr uint32_t w = 5, h = 3, layers = 2;
    auto image = make_image(*s.device, {.format = VK_FORMAT_R32_UINT,
                                        .extent = {w, h, 1},
                                        .array_layers = layers,
                                        .usage = kImageStorage | kImageSampled,
                                        .samples = ms});
    auto seen = make_words(*s.device, 1);
    auto store = make_layout_shader(*s.device, kStoreSamplesShader, kStoreSamplesLayout, "store_samples");
    const ImageBinding images[] = {{.image = image.get(),
                                    .view = {.type = VK_IMAGE_VIEW_TYPE_2D_ARRAY, .layer_count = layers},
                                    .access = Access::Write}};
    const BufferBinding buffers[] = {{seen.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    REQUIRE_OK(s.stream->dispatch({.shader = store.get(),
                                   .size = {4, 4, 1},
                                   .groups = {(w + 3) / 4, (h + 3) / 4, layers},
                                   .bindings = buffers,
                                   .images = images}));
    CHECK(test::read_values<uint32_t>(*s.stream, *seen, 1)[0] == ms);
    const auto texels = fetch_samples(s, *image);
    const size_t count = size_t(w) * h * layers * ms;
    CHECK(texels[count] == ms);
    CHECK(texels[count + 1] == w);
    CHECK(texels[count + 2] == h);
    CHECK(texels[count + 3] == layers);
    for (uint32_t layer = 0; layer < layers; ++layer) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          for (uint32_t sample = 0; sample < ms; ++sample) {
            INFO("texel " << x << "," << y << " layer " << layer << " sample " << sample);
            REQUIRE(texels[((layer * h + y) * w + x) * ms + sample] == ms_value(x, y, layer, sample));
          }
        }
      }
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// Vulkan 1.3 §19.1 "Clearing Color Images": vkCmdClearColorImage sets every sample of the range; §20.3 "Copying
// Data Between Images": vkCmdCopyImage copies every sample ("The sample count of srcImage and dstImage must
// match", VUID-vkCmdCopyImage-srcImage-00136); buffer copies need one sample (VUID-vkCmdCopyBufferToImage-
// dstImage-07973).
TEST_CASE("Multisample images clear and copy every sample, buffer copies are refused",
          "[vulkan][image_binding][multisample]") {
  ValidatedVulkan vk;
  {
    Setup s = setup(vk);
    const uint32_t ms =
        largest_multisample(device_sample_counts(*s.device, VK_FORMAT_R32_UINT, VK_IMAGE_USAGE_SAMPLED_BIT));
    if (ms == 0) {
      WARN("no multisample R32_UINT sampled images on this device: skipped");
      return;
    }
    constexpr uint32_t w = 4, h = 4, layers = 3;
    const ImageDesc desc{.format = VK_FORMAT_R32_UINT,
                         .extent = {w, h, 1},
                         .array_layers = layers,
                         .usage = kImageSampled,
                         .samples = ms};
    auto a = make_image(*s.device, desc);
    auto b = make_image(*s.device, desc);
    // Layer l of a: 10 + l; b cleared to 99, then a's layers 0..1 copied into b's layers 1..2 in the box (1,1) 2x2.
    for (uint32_t layer = 0; layer < layers; ++layer) {
      VkClearColorValue color{};
      color.uint32[0] = 10 + layer;
      REQUIRE_OK(s.stream->clear_image(*a, {.base_layer = layer, .layer_count = 1}, color));
    }
    VkClearColorValue ninety_nine{};
    ninety_nine.uint32[0] = 99;
    REQUIRE_OK(s.stream->clear_image(*b, {.layer_count = layers}, ninety_nine));
    ImageRegion from{.base_layer = 0, .layer_count = 2, .x = 1, .y = 1, .extent = {2, 2, 1}};
    ImageRegion to = from;
    to.base_layer = 1;
    REQUIRE_OK(s.stream->copy_image(*a, from, *b, to));
    const auto ta = fetch_samples(s, *a);
    const auto tb = fetch_samples(s, *b);
    for (uint32_t layer = 0; layer < layers; ++layer) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          const bool copied = layer >= 1 && x >= 1 && x < 3 && y >= 1 && y < 3;
          for (uint32_t sample = 0; sample < ms; ++sample) {
            INFO("texel " << x << "," << y << " layer " << layer << " sample " << sample);
            const size_t i = ((layer * h + y) * w + x) * ms + sample;
            REQUIRE(ta[i] == 10 + layer);
            REQUIRE(tb[i] == (copied ? 10 + (layer - 1) : 99u));
          }
        }
      }
    }
    std::vector<uint32_t> bytes(w * h * layers);
    const Status upload = s.stream->upload_image(*a, whole_level(*a), test::value_bytes(bytes));
    REQUIRE_FALSE(upload);
    CHECK(upload.error().message.find("single-sample") != std::string::npos);
    auto single = make_image(*s.device, {.format = VK_FORMAT_R32_UINT, .extent = {w, h, 1}, .usage = kImageSampled});
    const Status mixed = s.stream->copy_image(*a, whole_level(*single), *single, whole_level(*single));
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().message.find("sample count") != std::string::npos);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}
