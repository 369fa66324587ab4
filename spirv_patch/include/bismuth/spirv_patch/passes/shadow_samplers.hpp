// Shadow samplers on images a device cannot compare. GL's depth textures may be stored in a colour format
// (R16_UNORM / R32_SFLOAT on a compute-only queue, docs/gl_shim.md "Depth textures"), and a device need not support a
// depth comparison (Vulkan's SAMPLED_IMAGE_DEPTH_COMPARISON) on those formats: NVIDIA's does not. This pass makes the
// shader do the comparison of GL 4.6 §8.23.1 itself, for the combined image-sampler variables the caller names:
//   * their image type becomes a non-depth sampled image (`Depth 0`; merged with an identical type when one exists);
//   * every OpImageSampleDref{Implicit,Explicit}Lod and OpImageSampleProjDref{Implicit,Explicit}Lod on them becomes
//     lookups of single texels (coordinates and reference divided by q first for the Proj forms) compared with the
//     reference in the shader, filtered as GL 4.6 §8.14 filters texels: λ from the lookup (Lod; Grad; an implicit
//     lookup's derivatives where the stage has them, else 0), the texture's LOD bias plus the Bias operand (clamped to
//     ±MAX_TEXTURE_LOD_BIAS) and the MIN/MAX_LOD clamps; λ <= 0 magnifies; the mipmap level(s) of §8.14.3 (NEAREST:
//     ⌈λ + ½⌉ − 1, LINEAR: ⌊λ⌋ and ⌊λ⌋ + 1 blended by frac(λ)); at each level NEAREST compares the nearest texel,
//     LINEAR the 2x2 (1D: 2) footprint, each texel looked up at its centre (so that the sampler's wrap modes and border
//     still apply) and the results averaged with the bilinear weights (§8.23.1: "a weighted average of the results").
//     Cube maps filter seamlessly (§8.13.1): footprint texels past a face edge come from the neighbouring face, a
//     corner texel's comparison is the average of the other three's; with kShadowStateCubeNonSeamless (desktop GL's
//     TEXTURE_CUBE_MAP_SEAMLESS disabled) the face is sampled as a 2D texture: the NEAREST texel's and the footprint's
//     indices go through the wrap function of the binding's TEXTURE_WRAP_S/T (kShadowLodWrapS/T, GL 4.6 table 8.20),
//     and a CLAMP_TO_BORDER index outside the face reads the border depth (kShadowLodBorder), compared like a texel;
//   * every OpImageDrefGather becomes an OpImageGather of component 0 compared per texel (no filtering).
// The comparison state is not known when the module is made and changes without a relink, so each named binding gets
// one specialization constant, the *state word* (kShadowState* bits below), which the caller sets per pipeline. A
// driver folds the selections on it away after specialization; the lookups of the unused filter are then dead code.
// The LOD and wrap parameters (kShadowLod*: floats that take many values) are not specialized where they fit in push
// constants: two vec4 per named binding, in binding order, from push-constant offset 0
// (report.lod_push_constant_bytes), where the module has no push-constant variable of its own and 32 bytes per binding
// fit in max_push_constant_bytes; else kShadowLodCount float spec constants per binding (report.lod_spec_ids).
//
// The sampler bound with a lowered binding must not compare (compareEnable off), must filter NEAREST (min, mag and
// mipmap mode), and must neither bias nor clamp the LOD (mipLodBias 0, minLod -1000, maxLod 1000): the shader
// picks the level and filters. The OpImageSparse*Dref* forms are lowered alike; their
// residency code is that of the lookup as written (on the sampler without bias), the filtered texels are read without
// residency.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// The state word. Bits 0-2: the compare function as its GL enum minus GL_NEVER (= VkCompareOp): bit 0 passes when
// ref < texel, bit 1 when ref == texel, bit 2 when ref > texel (NEVER 0, LESS 1, EQUAL 2, LEQUAL 3, GREATER 4,
// NOTEQUAL 5, GEQUAL 6, ALWAYS 7).
inline constexpr uint32_t kShadowStateCompareMask = 7;
inline constexpr uint32_t kShadowStateMagLinear = 1u << 3;  // TEXTURE_MAG_FILTER LINEAR
inline constexpr uint32_t kShadowStateMinLinear = 1u << 4;  // TEXTURE_MIN_FILTER LINEAR or LINEAR_MIPMAP_*
inline constexpr uint32_t kShadowStateMipmapped = 1u << 5;  // a mipmap min filter: the Lod operand picks the level
inline constexpr uint32_t kShadowStateClampRef = 1u << 6;   // a fixed-point depth format: D_ref, D_t in [0, 1]
inline constexpr uint32_t kShadowStateMipLinear = 1u << 7;  // TEXTURE_MIN_FILTER *_MIPMAP_LINEAR: blend two levels
// Cube maps: TEXTURE_CUBE_MAP_SEAMLESS disabled (desktop GL's initial state): the LINEAR footprint stays in the face.
inline constexpr uint32_t kShadowStateCubeNonSeamless = 1u << 8;
inline constexpr uint32_t kShadowStateDefault = 3;          // LEQUAL (GL's default), NEAREST, no clamp

// The LOD and wrap parameters of a binding, in this order (GL 4.6 §8.14.1): TEXTURE_LOD_BIAS (bias_texobj),
// MAX_TEXTURE_LOD_BIAS (bias_max: bias_texobj + bias_shader is clamped to ±bias_max), TEXTURE_MIN_LOD,
// TEXTURE_MAX_LOD; then (read by non-seamless cube maps only, whose faces are sampled as 2D textures by the shader)
// TEXTURE_WRAP_S and TEXTURE_WRAP_T as a kShadowWrap* value (a float: 0.0, 1.0, ...), the border texel's depth
// (§8.14.2: "the first component of TEXTURE_BORDER_COLOR is interpreted as a depth value") and an unused float.
// Spec-constant defaults: 0, 1000, -1000, 1000, 0 (CLAMP_TO_EDGE), 0, 0, 0.
inline constexpr uint32_t kShadowLodBias = 0;
inline constexpr uint32_t kShadowLodBiasMax = 1;
inline constexpr uint32_t kShadowLodMin = 2;
inline constexpr uint32_t kShadowLodMax = 3;
inline constexpr uint32_t kShadowLodWrapS = 4;
inline constexpr uint32_t kShadowLodWrapT = 5;
inline constexpr uint32_t kShadowLodBorder = 6;
inline constexpr uint32_t kShadowLodCount = 8;

// The wrap modes of kShadowLodWrapS/T (GL 4.6 table 8.20's wrap functions on a texel index).
inline constexpr float kShadowWrapClampToEdge = 0.0f;
inline constexpr float kShadowWrapRepeat = 1.0f;
inline constexpr float kShadowWrapMirroredRepeat = 2.0f;
inline constexpr float kShadowWrapClampToBorder = 3.0f;
inline constexpr float kShadowWrapMirrorClampToEdge = 4.0f;

struct ShadowSamplerBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
};

struct ShadowSamplerOptions {
  std::vector<ShadowSamplerBinding> bindings;  // combined image-sampler variables of a depth image type
  // The state words' SpecIds: from first_spec_id, and past every SpecId the module uses (callers pass the ones they
  // specialize without a decoration, such as a backend's group-size SpecIds).
  uint32_t first_spec_id = 0;
  // The device's maxPushConstantsSize for the LOD parameters' push constants (0: always spec constants).
  uint32_t max_push_constant_bytes = 0;
};

struct ShadowSamplerReport {
  std::vector<uint32_t> spec_ids;  // the state word's SpecId of each named binding, in the order given
  uint32_t lowered = 0;            // Dref instructions rewritten
  uint32_t retyped = 0;            // image types made non-depth
  // Where the LOD and wrap parameters went (neither when no lookup was lowered): push-constant bytes from offset 0
  // (binding i's two vec4 at 32 * i), or the SpecIds of each named binding's kShadowLodCount float parameters (IEEE
  // bits as the value).
  uint32_t lod_push_constant_bytes = 0;
  std::vector<std::array<uint32_t, kShadowLodCount>> lod_spec_ids;
};

// Rewrites `module` in place. A named binding that no variable has still gets its spec constant (an unused one). The
// refusals, each naming the instruction or variable, come before the first edit: a named variable that is not a
// sampler of a depth image; a variable the caller did not name that shares such an image type; a Dref lookup whose
// sampler cannot be traced to one variable (through loads, access chains, copies and the function parameters of
// every call site); image operands other than Bias, Lod, Grad, ConstOffset, Offset, MinLod.
Expected<ShadowSamplerReport> lower_shadow_samplers(Module& module, const ShadowSamplerOptions& options);

struct ShadowSamplerPatch {
  std::vector<uint32_t> words;
  ShadowSamplerReport report;
};
Expected<ShadowSamplerPatch> lower_shadow_samplers(std::span<const uint32_t> words,
                                                   const ShadowSamplerOptions& options);

}  // namespace bismuth::spirv_patch
