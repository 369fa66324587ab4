// Instruction statements: the opcode's row of the opcode table, its modifiers, then its operands (destination,
// source operands, memory references, condition tests), and the IF / REP block structure they must respect.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ast.hpp"
#include "declarations.hpp"
#include "opcode_table.hpp"

namespace bismuth::nvasm::detail {

// A CAL whose label is resolved once every label is known.
struct PendingCall {
  size_t subroutine;
  size_t instruction;
  std::string label;
  size_t offset;
};

class InstructionParser : public DeclarationParser {
 public:
  using DeclarationParser::DeclarationParser;

 protected:
  // An instruction statement; the current token is the opcode.
  bool instruction();

  struct Block {
    Op op;
    size_t offset;
    bool has_else;
  };
  std::vector<Block> open_blocks_;  // IF and REP blocks not closed yet, innermost last
  std::vector<PendingCall> calls_;
  // CALI instructions (subroutine, instruction, offset): checked once every label and type is known.
  std::vector<PendingCall> indirect_calls_;

 private:
  bool modifiers(const OpcodeInfo& info, Instruction& inst, std::string_view opname);
  bool check_memory_modifiers(const OpcodeInfo& info, const Instruction& inst, std::string_view opname, int types);
  bool swizzle(std::array<uint8_t, 4>& swz, uint8_t* count, bool mask_form, uint8_t* mask);
  bool cond_test(CondTest& test);
  bool temp_index(uint32_t temp, uint32_t& element, bool& relative, uint32_t& rel_temp, uint8_t& rel_comp,
                  uint32_t limit, bool array, const std::string& name, size_t at);
  bool index_register(uint32_t& temp, uint8_t& comp);
  bool dest(Dest& d);
  bool operand(Operand& o);
  bool primary(Operand& o);
  bool operand_swizzle(Operand& o);
  bool memory_ref(MemoryRef& m);
  bool memory_instruction(const OpcodeInfo& info, Instruction& inst);
  bool flow(Instruction& inst);
  bool extended_swizzle(Instruction& inst);
  // instructions_texture.cpp: texture and image instructions
  bool texture_instruction(const OpcodeInfo& info, Instruction& inst);
  bool image_instruction(const OpcodeInfo& info, Instruction& inst);
  bool starts_texture_ref(bool image);
  bool texture_ref(TextureAccess& t, bool image);
  bool target_name(TextureAccess& t, bool image);
  bool texel_offset(TextureAccess& t, const Instruction& inst, Operand& reg);
  bool check_texture_use(const Instruction& inst);
  bool optional_condition(Instruction& inst);
  // instructions_counter.cpp: ATOMCTR / ATOMCTROP (NV_shader_atomic_counters)
  bool counter_allowed(const OpcodeInfo& info, size_t at);
  bool counter_modifier_word(const OpcodeInfo& info, Instruction& inst, std::string_view m, std::string_view upper,
                             int& types);
  bool counter_instruction(const OpcodeInfo& info, Instruction& inst);
  bool counter_ref(CounterRef& c);

  size_t instruction_count_ = 0;
  struct UnitUse {
    TexTarget target;
    size_t position;
  };
  std::map<uint32_t, UnitUse> texture_units_, image_units_;  // the target each unit is used with, first use
};

}  // namespace bismuth::nvasm::detail
