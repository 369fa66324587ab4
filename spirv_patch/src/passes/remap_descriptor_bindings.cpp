#include "bismuth/spirv_patch/passes/remap_descriptor_bindings.hpp"

#include <algorithm>
#include <string>

namespace bismuth::spirv_patch {

Status remap_descriptor_bindings(Module& module, const DescriptorBindingRemap& remap) {
  std::unordered_map<uint32_t, uint32_t> by_variable(remap.by_variable.begin(), remap.by_variable.end());
  uint32_t next_unmapped = 0;
  for (const auto& [from, to] : remap.by_binding) next_unmapped = std::max(next_unmapped, to + 1);
  for (const auto& [variable, to] : remap.by_variable) next_unmapped = std::max(next_unmapped, to + 1);
  std::unordered_map<uint32_t, uint32_t> unmapped;  // old binding -> number after the mapped ones

  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) != spv::Op::OpDecorate || w.size() != 4) continue;
    const auto decoration = static_cast<spv::Decoration>(w[2]);
    const uint32_t target = w[1];
    if (decoration == spv::Decoration::DescriptorSet) {
      if (remap.descriptor_set && by_variable.count(target)) {
        const uint32_t operands[] = {target, w[2], *remap.descriptor_set};
        module.replace(h, spv::Op::OpDecorate, operands);
      }
      continue;
    }
    if (decoration != spv::Decoration::Binding) continue;
    uint32_t binding = 0;
    if (auto v = by_variable.find(target); v != by_variable.end()) {
      binding = v->second;
    } else {
      const uint32_t old = w[3];
      if (auto b = remap.by_binding.find(old); b != remap.by_binding.end()) {
        binding = b->second;
      } else if (remap.unmapped == DescriptorBindingRemap::Unmapped::NumberAfter) {
        auto [it, added] = unmapped.try_emplace(old, next_unmapped);
        if (added) ++next_unmapped;
        binding = it->second;
      } else if (remap.unmapped == DescriptorBindingRemap::Unmapped::Error) {
        return fail("binding " + std::to_string(old) + " of %" + std::to_string(target) +
                    " is not in the program's binding layout");
      } else {
        continue;
      }
    }
    const uint32_t operands[] = {target, w[2], binding};
    module.replace(h, spv::Op::OpDecorate, operands);
  }
  if (remap.descriptor_set) {
    for (const auto& [variable, to] : remap.by_variable) {
      if (module.decoration_literal(variable, spv::Decoration::DescriptorSet)) continue;
      const uint32_t set[] = {*remap.descriptor_set};
      module.add_decoration(variable, spv::Decoration::DescriptorSet, set);
    }
  }
  return {};
}

}  // namespace bismuth::spirv_patch
