// Which combined image-sampler variable an image instruction reads, for the passes that rewrite the lookups of
// named samplers (shadow_samplers.cpp, swizzle_lookups.cpp).
#pragma once

#include <cstdint>
#include <map>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// (DescriptorSet, Binding) of every decorated id.
struct BindingDecorations {
  std::map<uint32_t, uint32_t> set, binding;
};
BindingDecorations binding_decorations(const Module& m);

// The variable a sampled image, an image taken from one (OpImage), or a pointer to either comes from: through loads,
// access chains and copies, and through a function parameter the one variable every call site passes. 0: none, or
// several.
uint32_t trace_variable(const Module& m, uint32_t id);

}  // namespace bismuth::spirv_patch
