// The SPIR-V grammar as tables: for each opcode, its operands; for each enum kind, its enumerants and their
// parameters. Generated at build time from SPIRV-Headers' spirv.core.grammar.json (generator/).
#pragma once

#include <cstdint>
#include <span>

namespace bismuth::spirv_patch::grammar {

enum class OperandClass : uint8_t {
  Id,             // IdRef, IdScope, IdMemorySemantics
  TypeId,         // IdResultType
  ResultId,       // IdResult
  Literal,        // one word
  String,         // nul-terminated, padded to words
  Rest,           // every remaining word, not interpreted (context-dependent literals, OpExtInst operands, ...)
  PairIdLiteral,  // two words
  PairIdId,       // two words
  ValueEnum,      // one word naming an enumerant, then that enumerant's parameters
  BitEnum,        // one mask word, then the parameters of each set bit, lowest bit first
};

enum class Quantifier : uint8_t { One, Optional, Many };

struct Operand {
  OperandClass cls;
  Quantifier quantifier;
  uint16_t enum_kind;  // index into enum_kinds() for ValueEnum / BitEnum
};

struct InstructionInfo {
  uint32_t opcode;
  const char* name;
  uint32_t first_operand;
  uint32_t operand_count;
};

struct Enumerant {
  uint32_t value;
  uint32_t first_parameter;
  uint32_t parameter_count;
};

struct EnumKind {
  const char* name;
  bool is_bits;
  uint32_t first_enumerant;
  uint32_t enumerant_count;
};

// nullptr for an opcode the grammar does not define.
const InstructionInfo* find_instruction(uint32_t opcode);
std::span<const Operand> operands(const InstructionInfo& info);
const EnumKind& enum_kind(uint16_t index);
// nullptr for a value the enum does not define.
const Enumerant* find_enumerant(const EnumKind& kind, uint32_t value);
std::span<const Operand> parameters(const Enumerant& enumerant);

}  // namespace bismuth::spirv_patch::grammar
