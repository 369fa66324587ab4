// Texture swizzle done in the shader. GL applies TEXTURE_SWIZZLE_R/G/B/A to the result of every lookup (GL 4.6
// §15.2.1), the border colour of CLAMP_TO_BORDER included (§8.14.2: the border colour takes the place of a texel).
// Vulkan swizzles through the image view's component mapping, but defines custom and opaque-black border colours
// through a non-identity mapping only with VK_EXT_border_color_swizzle; where a device lacks it, the GL shim binds an
// identity view and this pass applies the swizzle to the lookups' results instead, which is right for the texels and
// the border alike.
//
// For the combined image-sampler variables the caller names, every OpImageSample{Implicit,Explicit}Lod, the Proj
// forms, OpImageFetch (of OpImage of the sampler), OpImageGather and their OpImageSparse* forms get their vec4 result
// swizzled by the binding's *swizzle word*, a specialization constant (the swizzle is texture state that changes
// without a relink): component c of the result is bits 3c..3c+2 of the word — 0..3 the lookup's R, G, B or A,
// kSwizzleZero 0, kSwizzleOne 1 (of the result's component type). OpImageGather gathers the component the swizzle
// names (an OpSpecConstantOp) and gives 0 or 1 for ZERO and ONE. Dref lookups are not swizzled (a shadow lookup's
// result is the comparison).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

inline constexpr uint32_t kSwizzleZero = 4;
inline constexpr uint32_t kSwizzleOne = 5;
// R, G, B, A from themselves.
inline constexpr uint32_t kSwizzleIdentity = 0u | 1u << 3 | 2u << 6 | 3u << 9;

// The word for the result components' sources (each 0..3, kSwizzleZero or kSwizzleOne).
constexpr uint32_t swizzle_word(const std::array<uint32_t, 4>& sources) {
  return sources[0] | sources[1] << 3 | sources[2] << 6 | sources[3] << 9;
}

struct SwizzleLookupBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
};

struct SwizzleLookupOptions {
  std::vector<SwizzleLookupBinding> bindings;  // combined image-sampler variables
  // The swizzle words' SpecIds: from first_spec_id, and past every SpecId the module uses.
  uint32_t first_spec_id = 0;
};

struct SwizzleLookupReport {
  std::vector<uint32_t> spec_ids;  // the swizzle word's SpecId of each named binding, in the order given
  uint32_t swizzled = 0;           // lookups swizzled
};

// Rewrites `module` in place. A named binding that no variable has still gets its spec constant. Refused before the
// first edit, with the instruction named: a lookup whose image cannot be traced to one variable (through loads,
// access chains, copies, OpImage and the function parameters of every call site) where a named variable exists.
Expected<SwizzleLookupReport> swizzle_lookups(Module& module, const SwizzleLookupOptions& options);

}  // namespace bismuth::spirv_patch
