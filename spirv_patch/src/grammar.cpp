#include "grammar.hpp"

#include <algorithm>
#include <array>
#include <memory>

namespace bismuth::spirv_patch::grammar {

namespace {

#include "grammar_tables.inc"

// Opcode -> index + 1 into kInstructions (0: unknown). Opcodes are 16-bit.
const std::array<uint16_t, 65536>& opcode_index() {
  static const auto table = [] {
    auto t = std::make_unique<std::array<uint16_t, 65536>>();
    t->fill(0);
    for (size_t i = 0; i < std::size(kInstructions); ++i) {
      (*t)[kInstructions[i].opcode & 0xffff] = static_cast<uint16_t>(i + 1);
    }
    return t;
  }();
  return *table;
}

}  // namespace

const InstructionInfo* find_instruction(uint32_t opcode) {
  if (opcode > 0xffff) return nullptr;
  const uint16_t index = opcode_index()[opcode];
  return index == 0 ? nullptr : &kInstructions[index - 1];
}

std::span<const Operand> operands(const InstructionInfo& info) {
  return std::span<const Operand>(kOperands).subspan(info.first_operand, info.operand_count);
}

const EnumKind& enum_kind(uint16_t index) { return kEnumKinds[index]; }

const Enumerant* find_enumerant(const EnumKind& kind, uint32_t value) {
  const auto all = std::span<const Enumerant>(kEnumerants).subspan(kind.first_enumerant, kind.enumerant_count);
  auto it = std::lower_bound(all.begin(), all.end(), value,
                             [](const Enumerant& e, uint32_t v) { return e.value < v; });
  return it != all.end() && it->value == value ? &*it : nullptr;
}

std::span<const Operand> parameters(const Enumerant& enumerant) {
  return std::span<const Operand>(kOperands).subspan(enumerant.first_parameter, enumerant.parameter_count);
}

}  // namespace bismuth::spirv_patch::grammar
