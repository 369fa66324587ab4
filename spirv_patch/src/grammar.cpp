#include "grammar.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

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

// Enumerant values below this have a direct entry per enum kind: the values modules use most (storage classes,
// decorations, built-ins of compute shaders, execution modes, the low capabilities, mask bits 1 to 32). Every module
// parse and every pass's operand walk looks up each enum operand.
constexpr uint32_t kDirectValues = 64;

// [kind][value] -> index + 1 into kEnumerants of the first enumerant with that value (0: none), as the binary
// search of find_enumerant finds it.
const std::vector<std::array<uint16_t, kDirectValues>>& direct_enumerants() {
  static const auto table = [] {
    std::vector<std::array<uint16_t, kDirectValues>> t(std::size(kEnumKinds));
    for (size_t k = 0; k < std::size(kEnumKinds); ++k) {
      t[k].fill(0);
      const EnumKind& kind = kEnumKinds[k];
      for (uint32_t e = kind.first_enumerant; e < kind.first_enumerant + kind.enumerant_count; ++e) {
        const uint32_t value = kEnumerants[e].value;
        if (value < kDirectValues && t[k][value] == 0) t[k][value] = static_cast<uint16_t>(e + 1);
      }
    }
    return t;
  }();
  return table;
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
  // enum_kind() hands out the table's entries; the range check keeps a kind from elsewhere on the search below.
  if (value < kDirectValues && &kind >= std::begin(kEnumKinds) && &kind < std::end(kEnumKinds)) {
    const auto k = static_cast<size_t>(&kind - std::begin(kEnumKinds));
    const uint16_t index = direct_enumerants()[k][value];
    return index == 0 ? nullptr : &kEnumerants[index - 1];
  }
  const auto all = std::span<const Enumerant>(kEnumerants).subspan(kind.first_enumerant, kind.enumerant_count);
  auto it = std::lower_bound(all.begin(), all.end(), value,
                             [](const Enumerant& e, uint32_t v) { return e.value < v; });
  return it != all.end() && it->value == value ? &*it : nullptr;
}

std::span<const Operand> parameters(const Enumerant& enumerant) {
  return std::span<const Operand>(kOperands).subspan(enumerant.first_parameter, enumerant.parameter_count);
}

}  // namespace bismuth::spirv_patch::grammar
