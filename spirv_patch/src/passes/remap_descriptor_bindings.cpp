#include "bismuth/spirv_patch/passes/remap_descriptor_bindings.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>

namespace bismuth::spirv_patch {

namespace {

constexpr std::string_view kAtomicCounterBlockPrefix = "gl_AtomicCounterBlock_";

// Variable id -> the GL atomic-counter binding of its "gl_AtomicCounterBlock_<b>" block.
std::unordered_map<uint32_t, uint32_t> atomic_counter_variables(const Module& module) {
  std::unordered_map<uint32_t, uint32_t> block_type_binding;  // struct type id -> GL binding
  for (InstructionHandle h : module.instructions(Section::Debug)) {
    if (module.opcode(h) != spv::Op::OpName) continue;
    std::string_view name = module.string_operand(h, 2);
    if (!name.starts_with(kAtomicCounterBlockPrefix)) continue;
    name.remove_prefix(kAtomicCounterBlockPrefix.size());
    uint32_t binding = 0;
    auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), binding);
    if (ec == std::errc() && ptr == name.data() + name.size()) block_type_binding[module.words(h)[1]] = binding;
  }
  std::unordered_map<uint32_t, uint32_t> variable_binding;
  if (block_type_binding.empty()) return variable_binding;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    if (module.opcode(h) != spv::Op::OpVariable) continue;
    auto pointer = module.definition(module.words(h)[1]);
    if (!pointer || module.opcode(*pointer) != spv::Op::OpTypePointer) continue;
    auto block = block_type_binding.find(module.words(*pointer)[3]);
    if (block != block_type_binding.end()) variable_binding[module.words(h)[2]] = block->second;
  }
  return variable_binding;
}

}  // namespace

Status remap_descriptor_bindings(Module& module, const DescriptorBindingRemap& remap) {
  const auto atomic_counters = remap.atomic_counter_block_base ? atomic_counter_variables(module)
                                                               : std::unordered_map<uint32_t, uint32_t>{};
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
      auto atomic = atomic_counters.find(target);
      const uint32_t old = atomic != atomic_counters.end() ? *remap.atomic_counter_block_base + atomic->second : w[3];
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
