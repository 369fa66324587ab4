// Which combined image-sampler variable an image instruction reads, for the passes that rewrite the lookups of
// named samplers (shadow_samplers.cpp, swizzle_lookups.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// (DescriptorSet, Binding) of every decorated id.
struct BindingDecorations {
  std::map<uint32_t, uint32_t> set, binding;
};
BindingDecorations binding_decorations(const Module& m);

// The variables a pass's options name by (set, binding): variable id -> index into `bindings` (any type with `set` and
// `binding` members; a variable named twice maps to its last entry).
template <class NamedBinding>
std::map<uint32_t, uint32_t> variables_at(const Module& m, const std::vector<NamedBinding>& bindings) {
  std::map<uint32_t, uint32_t> variables;
  if (bindings.empty()) return variables;
  const BindingDecorations decorations = binding_decorations(m);
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (m.opcode(h) != spv::Op::OpVariable) continue;
    const uint32_t v = m.words(h)[2];
    auto set = decorations.set.find(v);
    auto binding = decorations.binding.find(v);
    if (set == decorations.set.end() || binding == decorations.binding.end()) continue;
    for (uint32_t k = 0; k < bindings.size(); ++k) {
      if (bindings[k].set == set->second && bindings[k].binding == binding->second) variables[v] = k;
    }
  }
  return variables;
}

// The variable a sampled image, an image taken from one (OpImage), or a pointer to either comes from: through loads,
// access chains and copies, and through a function parameter the one variable every call site passes. 0: none, or
// several.
uint32_t trace_variable(const Module& m, uint32_t id);

}  // namespace bismuth::spirv_patch
