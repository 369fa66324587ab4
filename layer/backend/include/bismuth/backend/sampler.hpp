// Samplers (issue 18): GL's sampler state as a value, and the device's deduplicated VkSamplers for it
// (Device::sampler). A GL program may name thousands of sampler objects and texture parameter sets, but only a
// handful of distinct values; Vulkan caps the samplers a device may hold at once (maxSamplerAllocationCount, 4000 on
// many drivers), so the backend creates one VkSampler per distinct value and keeps it until the device goes.
//
// Border colours: GL's border colour is any RGBA value. With VK_EXT_custom_border_color (customBorderColors and
// customBorderColorWithoutFormat) a custom colour is passed as is; without it the sampler gets the nearest built-in
// colour (transparent black, opaque black, opaque white: the smallest squared distance over RGBA;
// nearest_builtin_border), so a GL program that asks for another colour samples the nearest one there.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

struct SamplerDesc {
  VkFilter mag_filter = VK_FILTER_NEAREST;
  VkFilter min_filter = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address_u = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  VkSamplerAddressMode address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  VkSamplerAddressMode address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  float mip_lod_bias = 0;
  float min_lod = 0;
  float max_lod = VK_LOD_CLAMP_NONE;
  // A built-in colour, or VK_BORDER_COLOR_FLOAT_CUSTOM_EXT / VK_BORDER_COLOR_INT_CUSTOM_EXT with
  // `custom_border_color` (float32 or int32 components respectively).
  VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  VkClearColorValue custom_border_color{};
  // The component mapping of the image views this sampler meets, for a border colour that is swizzled like a
  // texel (VK_EXT_border_color_swizzle: VkSamplerBorderColorComponentMappingCreateInfoEXT where the device does not
  // take it from the view); `border_srgb`: those views have an sRGB format. Identity: nothing to say.
  std::array<VkComponentSwizzle, 4> border_swizzle{VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                                                   VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};
  bool border_srgb = false;
  bool compare_enable = false;
  VkCompareOp compare_op = VK_COMPARE_OP_LESS_OR_EQUAL;
  // GL rectangle textures: texel coordinates. Vulkan then wants min == mag filter, NEAREST mipmaps, LOD 0,
  // CLAMP_TO_EDGE or CLAMP_TO_BORDER, no anisotropy and no compare (Device::sampler refuses anything else).
  bool unnormalized_coordinates = false;
  float max_anisotropy = 0;  // 0: off; else 1..maxSamplerAnisotropy (needs the samplerAnisotropy feature)
  // Cube maps filtered face by face, each face wrapped at its own edges
  // (VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT: desktop GL with TEXTURE_CUBE_MAP_SEAMLESS disabled). Set only
  // where DeviceFeatures::non_seamless_cube_map is; Device::sampler refuses it elsewhere.
  bool non_seamless_cube = false;

  // By bit pattern (floats included), so that equal values hash alike and -0.0 / NaN cannot split or merge keys.
  friend bool operator==(const SamplerDesc& a, const SamplerDesc& b) {
    auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    return a.mag_filter == b.mag_filter && a.min_filter == b.min_filter && a.mipmap_mode == b.mipmap_mode &&
           a.address_u == b.address_u && a.address_v == b.address_v && a.address_w == b.address_w &&
           bits(a.mip_lod_bias) == bits(b.mip_lod_bias) && bits(a.min_lod) == bits(b.min_lod) &&
           bits(a.max_lod) == bits(b.max_lod) && a.border_color == b.border_color &&
           std::memcmp(&a.custom_border_color, &b.custom_border_color, sizeof(VkClearColorValue)) == 0 &&
           a.border_swizzle == b.border_swizzle && a.border_srgb == b.border_srgb &&
           a.compare_enable == b.compare_enable && a.compare_op == b.compare_op &&
           a.unnormalized_coordinates == b.unnormalized_coordinates &&
           bits(a.max_anisotropy) == bits(b.max_anisotropy) && a.non_seamless_cube == b.non_seamless_cube;
  }
};

struct SamplerDescHash {
  size_t operator()(const SamplerDesc& desc) const;
};

// Whether `border` is one of the custom colours (VK_EXT_custom_border_color).
inline bool is_custom_border(VkBorderColor border) {
  return border == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT || border == VK_BORDER_COLOR_INT_CUSTOM_EXT;
}

// The built-in colour nearest to a custom one (what a device without VK_EXT_custom_border_color samples).
VkBorderColor nearest_builtin_border(VkBorderColor custom, const VkClearColorValue& color);

}  // namespace bismuth::backend
