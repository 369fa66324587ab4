// ATOMCTR (NV_shader_atomic_counters) and ATOMCTROP, the form NVIDIA's GLSL compiler writes under OPTION NV_internal
// for ARB_shader_atomic_counter_ops:
//   <ATOMCTRop_instruction> ::= <ATOMCTRop> <opModifiers> <instResult> "," <counterUseV>
//   ATOMCTR.INCR.U R0.x, c[3];   ATOMCTROP.CSWAP.U R2.x, c[R0.y + 2], {1030, 9, 0, 0};
// The optional `.U` (or `.U32`) is the counters' type, the only one: NVIDIA's compiler writes it.
#include "instructions.hpp"

namespace bismuth::nvasm::detail {

// NVIDIA's driver 580 answers "invalid statement" for both without their options (tests/data/nv_reference).
bool InstructionParser::counter_allowed(const OpcodeInfo& info, size_t at) {
  if (!has_option("NV_shader_atomic_counters")) {
    return error(at, std::string(info.name) + " needs OPTION NV_shader_atomic_counters");
  }
  if (info.op == Op::ATOMCTROP && !has_option("NV_internal")) {
    return error(at,
                 "ATOMCTROP is NVIDIA's internal form for ARB_shader_atomic_counter_ops and needs OPTION "
                 "NV_internal (NVIDIA's driver refuses it otherwise too)");
  }
  return true;
}

bool InstructionParser::counter_modifier_word(const OpcodeInfo& info, Instruction& inst, std::string_view m,
                                              std::string_view upper, int& types) {
  if (inst.counter_op == CounterOp::None) {
    if (auto op = counter_modifier(info.op, m)) {
      inst.counter_op = *op;
      return true;
    }
  }
  if (inst.counter_op != CounterOp::None && types == 0 && (upper == "U" || upper == "U32")) {
    ++types;
    return true;
  }
  return false;
}

bool InstructionParser::counter_ref(CounterRef& c) {
  const size_t at = peek().offset;
  c.position = at;
  std::string_view name;
  if (!expect_ident(name, "a COUNTER variable")) return false;
  auto it = symbols_.find(std::string(name));
  if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(name) + "'");
  if (it->second.kind != Symbol::Kind::Counter) {
    return error(at, "'" + std::string(name) + "' is not a COUNTER variable");
  }
  c.decl = it->second.id;
  const CounterDecl& d = out_.counters[c.decl];
  // A whole binding is indexed by counter, unbounded as storage buffer addresses are; a list by its elements.
  const uint32_t limit = d.whole ? (1u << 28) : static_cast<uint32_t>(d.words.size());
  return temp_index(0, c.element, c.relative, c.rel_temp, c.rel_component, limit, d.is_array, d.name, at);
}

bool InstructionParser::counter_instruction(const OpcodeInfo& info, Instruction& inst) {
  inst.type = DataType::U32;
  if (!dest(inst.dest)) return false;
  inst.has_dest = true;
  if (!expect(',')) return false;
  CounterRef c;
  if (!counter_ref(c)) return false;
  inst.counter = c;
  for (int i = 0; i < info.sources; ++i) {
    if (!expect(',')) return false;
    Operand o;
    if (!operand(o)) return false;
    inst.sources.push_back(o);
  }
  return true;
}

}  // namespace bismuth::nvasm::detail
