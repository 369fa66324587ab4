#include "resource_bindings.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kBlockPrefix = "gl_AtomicCounterBlock_";

}  // namespace

Status assign_resource_bindings(std::vector<uint32_t>& words, uint32_t atomic_counter_base,
                                const std::unordered_map<uint32_t, uint32_t>& compact) {
  auto module = spirv_patch::Module::parse(words);
  if (!module) return module.error();

  std::unordered_map<uint32_t, uint32_t> block_type_binding;  // struct type id -> GL binding
  for (spirv_patch::InstructionHandle h : module->instructions(spirv_patch::Section::Debug)) {
    if (module->opcode(h) != spv::Op::OpName) continue;
    std::string_view name = module->string_operand(h, 2);
    if (!name.starts_with(kBlockPrefix)) continue;
    name.remove_prefix(kBlockPrefix.size());
    uint32_t binding = 0;
    auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), binding);
    if (ec == std::errc() && ptr == name.data() + name.size()) block_type_binding[module->words(h)[1]] = binding;
  }

  std::unordered_map<uint32_t, uint32_t> variable_binding;  // variable id -> GL binding
  for (spirv_patch::InstructionHandle h : module->instructions(spirv_patch::Section::Global)) {
    if (module->opcode(h) != spv::Op::OpVariable) continue;
    auto pointer = module->definition(module->words(h)[1]);
    if (!pointer || module->opcode(*pointer) != spv::Op::OpTypePointer) continue;
    auto block = block_type_binding.find(module->words(*pointer)[3]);
    if (block != block_type_binding.end()) variable_binding[module->words(h)[2]] = block->second;
  }
  std::unordered_map<uint32_t, uint32_t> inactive;
  uint32_t next_inactive = 0;
  for (const auto& [from, to] : compact) next_inactive = std::max(next_inactive, to + 1);
  for (spirv_patch::InstructionHandle h : module->instructions(spirv_patch::Section::Annotation)) {
    const auto w = module->words(h);
    if (module->opcode(h) != spv::Op::OpDecorate || w.size() != 4 ||
        static_cast<spv::Decoration>(w[2]) != spv::Decoration::Binding) {
      continue;
    }
    auto atomic = variable_binding.find(w[1]);
    const uint32_t namespace_binding = atomic != variable_binding.end() ? atomic_counter_base + atomic->second : w[3];
    auto final_binding = compact.find(namespace_binding);
    if (final_binding == compact.end()) {
      // Declared but inactive (not statically used, so not reflected): it needs no descriptor, only a binding
      // number that collides with no active resource.
      final_binding = inactive.try_emplace(namespace_binding, next_inactive).first;
      if (final_binding->second == next_inactive) ++next_inactive;
    }
    const uint32_t operands[] = {w[1], w[2], final_binding->second};
    module->replace(h, spv::Op::OpDecorate, operands);
  }
  words = module->serialize();
  return {};
}

}  // namespace bismuth::translator
