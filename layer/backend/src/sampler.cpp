// Device::sampler (sampler.hpp): one VkSampler per distinct SamplerDesc, for the device's lifetime.
#include "bismuth/backend/sampler.hpp"

#include <xxhash.h>

#include <array>
#include <cmath>
#include <mutex>
#include <unordered_map>

#include "sampler_cache.hpp"

namespace bismuth::backend {

size_t SamplerDescHash::operator()(const SamplerDesc& d) const {
  // Field by field (the struct has padding): the same bits operator== compares.
  const uint32_t words[] = {uint32_t(d.mag_filter),
                            uint32_t(d.min_filter),
                            uint32_t(d.mipmap_mode),
                            uint32_t(d.address_u),
                            uint32_t(d.address_v),
                            uint32_t(d.address_w),
                            std::bit_cast<uint32_t>(d.mip_lod_bias),
                            std::bit_cast<uint32_t>(d.min_lod),
                            std::bit_cast<uint32_t>(d.max_lod),
                            uint32_t(d.border_color),
                            d.custom_border_color.uint32[0],
                            d.custom_border_color.uint32[1],
                            d.custom_border_color.uint32[2],
                            d.custom_border_color.uint32[3],
                            uint32_t(d.border_swizzle[0]),
                            uint32_t(d.border_swizzle[1]),
                            uint32_t(d.border_swizzle[2]),
                            uint32_t(d.border_swizzle[3]),
                            uint32_t(d.border_srgb),
                            uint32_t(d.compare_enable),
                            uint32_t(d.compare_op),
                            uint32_t(d.unnormalized_coordinates),
                            std::bit_cast<uint32_t>(d.max_anisotropy),
                            uint32_t(d.non_seamless_cube)};
  return static_cast<size_t>(XXH3_64bits(words, sizeof words));
}

VkBorderColor nearest_builtin_border(VkBorderColor custom, const VkClearColorValue& color) {
  const bool is_int = custom == VK_BORDER_COLOR_INT_CUSTOM_EXT;
  struct Builtin {
    VkBorderColor float_color, int_color;
    std::array<double, 4> rgba;
  };
  constexpr Builtin kBuiltins[] = {
      {VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, VK_BORDER_COLOR_INT_TRANSPARENT_BLACK, {0, 0, 0, 0}},
      {VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK, VK_BORDER_COLOR_INT_OPAQUE_BLACK, {0, 0, 0, 1}},
      {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, VK_BORDER_COLOR_INT_OPAQUE_WHITE, {1, 1, 1, 1}},
  };
  const Builtin* best = &kBuiltins[0];
  double best_distance = INFINITY;
  for (const Builtin& b : kBuiltins) {
    double distance = 0;
    for (int i = 0; i < 4; ++i) {
      const double c = is_int ? double(color.int32[i]) : double(color.float32[i]);
      const double d = std::isnan(c) ? 1 : c - b.rgba[i];
      distance += d * d;
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = &b;
    }
  }
  return is_int ? best->int_color : best->float_color;
}

namespace {

bool clamps(VkSamplerAddressMode mode) {
  return mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE || mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
}

// The description against Vulkan's valid usage for VkSamplerCreateInfo and the device's limits.
Status check_sampler(const Device& device, const SamplerDesc& d) {
  auto refuse = [](const std::string& why) { return fail("Device::sampler: " + why); };
  const DeviceInfo& info = device.info();
  if (!(d.min_lod <= d.max_lod)) return refuse("min_lod exceeds max_lod (or is NaN)");
  if (!(std::fabs(d.mip_lod_bias) <= info.max_sampler_lod_bias)) {
    return refuse("mip_lod_bias " + std::to_string(d.mip_lod_bias) + " exceeds maxSamplerLodBias " +
                  std::to_string(info.max_sampler_lod_bias));
  }
  if (d.max_anisotropy != 0) {
    if (!device.features().sampler_anisotropy) return refuse("anisotropic filtering is not supported by the device");
    if (!(d.max_anisotropy >= 1 && d.max_anisotropy <= info.max_sampler_anisotropy)) {
      return refuse("max_anisotropy " + std::to_string(d.max_anisotropy) + " outside 1.." +
                    std::to_string(info.max_sampler_anisotropy));
    }
  }
  if (d.non_seamless_cube && !device.features().non_seamless_cube_map) {
    return refuse("non-seamless cube map filtering is not supported by the device (VK_EXT_non_seamless_cube_map)");
  }
  if (d.unnormalized_coordinates &&
      (d.min_filter != d.mag_filter || d.mipmap_mode != VK_SAMPLER_MIPMAP_MODE_NEAREST || d.min_lod != 0 ||
       d.max_lod != 0 || !clamps(d.address_u) || !clamps(d.address_v) || d.max_anisotropy != 0 || d.compare_enable)) {
    return refuse(
        "unnormalized coordinates need min_filter == mag_filter, NEAREST mipmaps, min_lod = max_lod = 0, "
        "CLAMP_TO_EDGE or CLAMP_TO_BORDER on u and v, no anisotropy and no compare");
  }
  return {};
}

}  // namespace

Expected<VkSampler> Device::sampler(const SamplerDesc& desc) {
  if (Status ok = alive(); !ok) return ok.error();
  SamplerCache& cache = *samplers_;
  std::lock_guard lock(cache.mutex);
  if (auto it = cache.by_desc.find(desc); it != cache.by_desc.end()) return it->second;
  if (Status ok = check_sampler(*this, desc); !ok) return ok.error();
  if (cache.by_desc.size() >= info_.max_sampler_allocation_count) {
    return fail("Device::sampler: " + std::to_string(cache.by_desc.size()) +
                " distinct samplers already exist, the device's maxSamplerAllocationCount");
  }
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = desc.mag_filter;
  info.minFilter = desc.min_filter;
  info.mipmapMode = desc.mipmap_mode;
  // MIRROR_CLAMP_TO_EDGE needs VK_KHR_sampler_mirror_clamp_to_edge; without it the nearest mode there is
  // MIRRORED_REPEAT, which mirrors the same way within [-1, 2] (DeviceFeatures::sampler_mirror_clamp_to_edge).
  auto address = [&](VkSamplerAddressMode mode) {
    return mode == VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE && !features_.sampler_mirror_clamp_to_edge
               ? VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT
               : mode;
  };
  info.addressModeU = address(desc.address_u);
  info.addressModeV = address(desc.address_v);
  info.addressModeW = address(desc.address_w);
  info.mipLodBias = desc.mip_lod_bias;
  info.anisotropyEnable = desc.max_anisotropy != 0 ? VK_TRUE : VK_FALSE;
  info.maxAnisotropy = desc.max_anisotropy != 0 ? desc.max_anisotropy : 1.0f;
  info.compareEnable = desc.compare_enable ? VK_TRUE : VK_FALSE;
  info.compareOp = desc.compare_op;
  info.minLod = desc.min_lod;
  info.maxLod = desc.max_lod;
  info.borderColor = desc.border_color;
  info.unnormalizedCoordinates = desc.unnormalized_coordinates ? VK_TRUE : VK_FALSE;
  if (desc.non_seamless_cube) info.flags |= VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT;
  VkSamplerCustomBorderColorCreateInfoEXT custom{VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
  if (is_custom_border(desc.border_color)) {
    if (features_.custom_border_color) {
      custom.customBorderColor = desc.custom_border_color;
      custom.format = VK_FORMAT_UNDEFINED;  // customBorderColorWithoutFormat
      info.pNext = &custom;
    } else {
      info.borderColor = nearest_builtin_border(desc.border_color, desc.custom_border_color);
    }
  }
  // VK_EXT_border_color_swizzle: custom and opaque-black border colours with a swizzled view are defined only with
  // borderColorSwizzle and, unless the device takes the mapping from the view, the mapping named here.
  VkSamplerBorderColorComponentMappingCreateInfoEXT mapping{
      VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT};
  const bool swizzled_border =
      is_custom_border(info.borderColor) || info.borderColor == VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK ||
      info.borderColor == VK_BORDER_COLOR_INT_OPAQUE_BLACK;
  const bool identity =
      desc.border_swizzle == std::array<VkComponentSwizzle, 4>{VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                                                               VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};
  if (swizzled_border && !identity && features_.border_color_swizzle && !features_.border_color_swizzle_from_image) {
    mapping.components = {desc.border_swizzle[0], desc.border_swizzle[1], desc.border_swizzle[2],
                          desc.border_swizzle[3]};
    mapping.srgb = desc.border_srgb ? VK_TRUE : VK_FALSE;
    mapping.pNext = info.pNext;
    info.pNext = &mapping;
  }
  VkSampler sampler = VK_NULL_HANDLE;
  if (Status ok = call("vkCreateSampler", vk_.vkCreateSampler, device_, &info, nullptr, &sampler); !ok) {
    return ok.error();
  }
  cache.by_desc.emplace(desc, sampler);
  cache.by_handle.emplace(sampler, desc);
  return sampler;
}

bool Device::sampler_desc(VkSampler sampler, SamplerDesc* out) const {
  SamplerCache& cache = *samplers_;
  std::lock_guard lock(cache.mutex);
  auto it = cache.by_handle.find(sampler);
  if (it == cache.by_handle.end()) return false;
  *out = it->second;
  return true;
}

size_t Device::sampler_count() const {
  std::lock_guard lock(samplers_->mutex);
  return samplers_->by_desc.size();
}

void SamplerCache::destroy_all(const DeviceFunctions& vk, VkDevice device) {
  std::lock_guard lock(mutex);
  for (auto& [desc, sampler] : by_desc) vk.vkDestroySampler(device, sampler, nullptr);
  by_desc.clear();
  by_handle.clear();
}

}  // namespace bismuth::backend
