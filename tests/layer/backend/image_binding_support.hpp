// Shared by the image-binding tests (image_view_sampler_test.cpp, image_binding_test.cpp, image_hazard_test.cpp):
// images and shaders made or the test fails, the stream configurations every binding test runs under, and
// element-wise reads of a buffer.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "backend_fixture.hpp"
#include "bismuth/backend/image.hpp"
#include "bismuth/backend/sampler.hpp"

namespace bismuth::test {

// dst(x, y) = stored_value(x, y) for every texel of the bound R32UI storage image.
inline constexpr const char* kStoreShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0, r32ui) uniform writeonly uimage2D dst;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(dst)))) return;
  imageStore(dst, p, uvec4(uint(p.x) * 1000u + uint(p.y) * 7u + 3u));
}
)";
inline uint32_t stored_value(uint32_t x, uint32_t y) {
  return x * 1000u + y * 7u + 3u;
}

inline const backend::BindingLayout kStoreLayout{{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}};

// texels[y * width + x] = texelFetch(tex, (x, y), lod).r of a usampler2D; push constants width, height, lod.
inline constexpr const char* kFetchShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0) uniform usampler2D tex;
layout(std430, binding = 1) writeonly buffer Out { uint texels[]; };
layout(push_constant) uniform Push { int width; int height; int lod; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < width && p.y < height) texels[p.y * width + p.x] = texelFetch(tex, p, lod).r;
}
)";

inline const backend::BindingLayout kFetchLayout{
    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 12};

// dst[i] = src[i] * 3 + 1 for i < count, src a usamplerBuffer (uniform texel buffer), dst an r32ui imageBuffer
// (storage texel buffer); push constant count.
inline constexpr const char* kTexelBufferShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0) uniform usamplerBuffer src;
layout(binding = 1, r32ui) uniform writeonly uimageBuffer dst;
layout(push_constant) uniform Push { uint count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) imageStore(dst, int(i), texelFetch(src, int(i)) * 3u + 1u);
}
)";
inline const backend::BindingLayout kTexelBufferLayout{
    {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER}, 4};

inline std::shared_ptr<backend::Image> make_image(backend::Device& device, const backend::ImageDesc& desc) {
  auto image = backend::Image::create(device, desc);
  if (!image) FAIL(image.error().message);
  return *image;
}

inline std::shared_ptr<backend::Shader> make_layout_shader(backend::Device& device, const char* source,
                                                           backend::BindingLayout layout, const char* name) {
  backend::ShaderDesc desc;
  desc.spirv = spirv_of(source);
  desc.layout = std::move(layout);
  desc.name = name;
  auto shader = backend::Shader::create(device, desc);
  if (!shader) FAIL(shader.error().message);
  return *shader;
}

inline VkSampler make_sampler(backend::Device& device, const backend::SamplerDesc& desc) {
  auto sampler = device.sampler(desc);
  if (!sampler) FAIL(sampler.error().message);
  return *sampler;
}

// Who records and how descriptors are bound: both recording modes, push descriptors and pool-allocated sets.
struct BindingConfig {
  backend::RecordingMode recording;
  bool push_descriptors;
};
inline constexpr BindingConfig kBindingConfigs[] = {{backend::RecordingMode::Inline, true},
                                                    {backend::RecordingMode::Thread, true},
                                                    {backend::RecordingMode::Inline, false},
                                                    {backend::RecordingMode::Thread, false}};

// The first `count` elements of `buffer` after every earlier command of `stream`.
template <class T>
std::vector<T> read_values(backend::CommandStream& stream, backend::Buffer& buffer, size_t count) {
  std::vector<T> values(count);
  auto status = stream.readback(buffer, 0, std::as_writable_bytes(std::span<T>(values)));
  if (!status) FAIL(status.error().message);
  return values;
}

template <class T>
std::span<const std::byte> value_bytes(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

inline VkFormatFeatureFlags optimal_features(backend::Device& device, VkFormat format) {
  VkFormatProperties properties{};
  device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), format, &properties);
  return properties.optimalTilingFeatures;
}

}  // namespace bismuth::test
