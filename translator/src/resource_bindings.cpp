#include "atomic_counter_bindings.hpp"

#include <charconv>
#include <string_view>
#include <unordered_map>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kBlockPrefix = "gl_AtomicCounterBlock_";

}  // namespace

Status move_atomic_counter_blocks(std::vector<uint32_t>& words, uint32_t binding_base) {
  auto module = spirv::Module::parse(words);
  if (!module) return module.error();

  std::unordered_map<uint32_t, uint32_t> block_type_binding;  // struct type id -> GL binding
  for (spirv::InstructionHandle h : module->instructions(spirv::Section::Debug)) {
    if (module->opcode(h) != spv::Op::OpName) continue;
    std::string_view name = module->string_operand(h, 2);
    if (!name.starts_with(kBlockPrefix)) continue;
    name.remove_prefix(kBlockPrefix.size());
    uint32_t binding = 0;
    auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), binding);
    if (ec == std::errc() && ptr == name.data() + name.size()) block_type_binding[module->words(h)[1]] = binding;
  }
  if (block_type_binding.empty()) return {};

  std::unordered_map<uint32_t, uint32_t> variable_binding;  // variable id -> GL binding
  for (spirv::InstructionHandle h : module->instructions(spirv::Section::Global)) {
    if (module->opcode(h) != spv::Op::OpVariable) continue;
    auto pointer = module->definition(module->words(h)[1]);
    if (!pointer || module->opcode(*pointer) != spv::Op::OpTypePointer) continue;
    auto block = block_type_binding.find(module->words(*pointer)[3]);
    if (block != block_type_binding.end()) variable_binding[module->words(h)[2]] = block->second;
  }
  for (spirv::InstructionHandle h : module->instructions(spirv::Section::Annotation)) {
    const auto w = module->words(h);
    if (module->opcode(h) != spv::Op::OpDecorate || w.size() != 4 ||
        static_cast<spv::Decoration>(w[2]) != spv::Decoration::Binding) {
      continue;
    }
    auto variable = variable_binding.find(w[1]);
    if (variable == variable_binding.end()) continue;
    const uint32_t operands[] = {w[1], w[2], binding_base + variable->second};
    module->replace(h, spv::Op::OpDecorate, operands);
  }
  words = module->serialize();
  return {};
}

}  // namespace bismuth::translator
