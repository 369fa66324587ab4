// Instruction statements. The opcode table says which modifiers an opcode takes and how its operands are written;
// the code here reads them and checks the operands against the declarations.
#include "instructions.hpp"

#include <algorithm>

namespace bismuth::nvasm::detail {
namespace {

// Deeper nesting than any real program keeps SPIRV-Tools' structured-CFG analyses far from deep recursion.
constexpr size_t kMaxNesting = 64;
constexpr size_t kMaxInstructions = size_t{1} << 17;

}  // namespace

bool InstructionParser::instruction() {
  const Token& op_token = next();
  std::string_view opname = op_token.text;
  const OpcodeInfo* found = find_opcode(opname);
  // ARB_vertex_program / ARB_fragment_program spell saturation as an opcode suffix (ADD_SAT); NV_gpu_program4
  // programs still use it, and NV_gpu_program4 adds the signed form (_SSAT). Same as the .SAT / .SSAT modifiers.
  bool suffix_sat = false, suffix_ssat = false;
  if (!found) {
    for (std::string_view suffix : {std::string_view("_SAT"), std::string_view("_SSAT")}) {
      if (opname.size() > suffix.size() && opname.substr(opname.size() - suffix.size()) == suffix) {
        found = find_opcode(opname.substr(0, opname.size() - suffix.size()));
        if (found) {
          (suffix == "_SAT" ? suffix_sat : suffix_ssat) = true;
          opname = found->name;
          break;
        }
      }
    }
  }
  if (!found) {
    if (const char* stage = other_stage_opcode(opname)) {
      return error(op_token.offset, std::string(opname) + " is a " + stage +
                                        "-program instruction; a compute program (!!NVcp5.0) cannot use it");
    }
    return error(op_token.offset, "unknown opcode '" + std::string(op_token.text) + "'");
  }
  seen_declaration_ = true;
  const OpcodeInfo& info = *found;
  if (info.family == Family::Counter && !counter_allowed(info, op_token.offset)) return false;
  if ((suffix_sat || suffix_ssat) && !(info.modifiers & kSaturate)) {
    return error(op_token.offset, "invalid opcode suffix in '" + std::string(op_token.text) + "'");
  }
  Instruction inst;
  inst.op = info.op;
  inst.offset = op_token.offset;
  inst.saturate = suffix_sat;
  inst.signed_saturate = suffix_ssat;
  if (!modifiers(info, inst, opname)) return false;
  if (info.family == Family::ThreadGroup) note_thread_group(op_token.offset);
  switch (info.form) {
    case OperandForm::Flow:
      if (!flow(inst)) return false;
      break;
    case OperandForm::None:
      break;
    case OperandForm::Load:
    case OperandForm::Store:
    case OperandForm::Atomic:
      if (!memory_instruction(info, inst)) return false;
      break;
    case OperandForm::Texture:
      if (!texture_instruction(info, inst)) return false;
      break;
    case OperandForm::ImageLoad:
    case OperandForm::ImageStore:
    case OperandForm::ImageAtomic:
      if (!image_instruction(info, inst)) return false;
      break;
    case OperandForm::Counter:
      if (!counter_instruction(info, inst)) return false;
      break;
    case OperandForm::DestSources:
      if (!dest(inst.dest)) return false;
      inst.has_dest = true;
      for (int i = 0; i < info.sources; ++i) {
        if (!expect(',')) return false;
        Operand o;
        if (!operand(o)) return false;
        if (info.scalar) o.swizzle = {o.swizzle[0], o.swizzle[0], o.swizzle[0], o.swizzle[0]};
        if (inst.op == Op::CVT && (o.negate || o.absolute)) {
          // NV_gpu_program5, CVT: "Negation and absolute value operators are not supported on the source
          // operand; a program using such operators will fail to compile."
          return error(o.offset, "CVT does not take negation or absolute value on its operand");
        }
        inst.sources.push_back(o);
      }
      if (inst.op == Op::SWZ && !extended_swizzle(inst)) return false;
      break;
  }
  if (!end_statement()) return false;
  if (++instruction_count_ > kMaxInstructions) {
    return error(inst.offset, "program too long (more than " + std::to_string(kMaxInstructions) + " instructions)");
  }
  out_.subroutines.back().body.push_back(std::move(inst));
  return true;
}

// The modifiers after the opcode, each checked against the opcode's row: the other modifiers it takes and its
// type rule.
bool InstructionParser::modifiers(const OpcodeInfo& info, Instruction& inst, std::string_view opname) {
  int types = 0;
  while (is_punct('.')) {
    next();
    const size_t at = peek().offset;
    std::string_view m;
    if (!expect_ident(m, "an opcode modifier")) return false;
    auto bad = [&]() { return error(at, "invalid modifier '" + std::string(m) + "' for " + std::string(opname)); };
    // Emitters spell the component count in lower case (yuzu's `ATOMB.ADD.F16x2`); the data type and storage
    // modifiers are matched without regard to case.
    std::string upper_text(m);
    for (char& c : upper_text) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    const std::string_view upper = upper_text;
    if (info.family == Family::Counter) {
      if (!counter_modifier_word(info, inst, m, upper, types)) return bad();
      continue;
    }
    if (m == "CC" || m == "CC0" || m == "CC1") {
      if (!(info.modifiers & kCondCode)) return bad();
      inst.update_cc = true;
      inst.cc_register = m == "CC1" ? 1 : 0;
      continue;
    }
    if (m == "SAT" || m == "SSAT") {
      if (!(info.modifiers & kSaturate)) return bad();
      (m == "SAT" ? inst.saturate : inst.signed_saturate) = true;
      continue;
    }
    if (m == "PREC") {
      if (!(info.modifiers & kPrecise) || inst.precise) return bad();
      inst.precise = true;
      continue;
    }
    if (m == "ROUND" || m == "TRUNC" || m == "FLR" || m == "CEIL") {
      if (!(info.modifiers & kRounding) || inst.rounding != Instruction::Rounding::None) return bad();
      inst.rounding = m == "ROUND"   ? Instruction::Rounding::Round
                      : m == "TRUNC" ? Instruction::Rounding::Trunc
                      : m == "FLR"   ? Instruction::Rounding::Floor
                                     : Instruction::Rounding::Ceil;
      continue;
    }
    if (m == "HI") {
      if (!(info.modifiers & kHigh)) return bad();
      inst.high = true;
      continue;
    }
    if (m == "CTA") {
      if (!(info.modifiers & kCta)) return bad();
      inst.cta = true;
      continue;
    }
    if (m == "SPARSE") {
      if (!(info.modifiers & kSparse) || inst.sparse) return bad();
      inst.sparse = true;
      continue;
    }
    if (m == "LODCLAMP") {
      if (!(info.modifiers & kLodClamp) || inst.lod_clamp) return bad();
      inst.lod_clamp = true;
      continue;
    }
    if (info.modifiers & kImageFormat) {
      if (auto f = image_format_modifier(m)) {
        if (inst.texture) return bad();
        inst.texture.emplace();
        inst.texture->format = *f;
        continue;
      }
    }
    switch (info.types) {
      case TypeRule::None:
        return bad();
      case TypeRule::Storage:
        if ((info.modifiers & kCache) && (m == "COH" || m == "VOL")) continue;
        if ((info.modifiers & kAtomicOp) && inst.atomic == AtomicOp::None) {
          if (auto a = atomic_modifier(m)) {
            inst.atomic = *a;
            continue;
          }
          return bad();
        }
        if (info.family == Family::Image && inst.atomic == AtomicOp::None && types == 0 &&
            (upper == "F" || upper == "S" || upper == "U")) {
          // LOADIM.F / STOREIM.U: all four components of the texel, in that type.
          inst.type = *type_modifier(upper);
          inst.format = {inst.type, 32, 4};
          ++types;
          continue;
        }
        if (info.family == Family::Memory && (info.modifiers & kAtomicOp) && types == 0 &&
            (upper == "F16X2" || upper == "F16X4")) {
          // NV_shader_atomic_fp16_vector: two (four) halves in memory, floats in the register components.
          inst.format = {DataType::F32, 16, static_cast<uint8_t>(upper == "F16X2" ? 2 : 4)};
          inst.type = DataType::F32;
          ++types;
          continue;
        }
        if (auto f = storage_modifier(upper); f && types == 0) {
          // The packed and F16 forms of NV_gpu_program5_mem_extended: LDB STB LDS STS LDC, and LOADIM / STOREIM
          // (image_instruction gives those their texel format).
          inst.format = *f;
          inst.type = f->type;
          ++types;
          continue;
        }
        return bad();
      case TypeRule::LoopCount:
        if ((upper == "S" || upper == "U" || upper == "F" || upper == "S32" || upper == "U32" || upper == "F32") &&
            types == 0) {
          inst.type = *type_modifier(upper);
          ++types;
          continue;
        }
        return bad();
      default:
        break;
    }
    if (info.types == TypeRule::Pair) {
      // CVT: F16 F32 F64 S8 S16 S32 S64 U8 U16 U32 U64 (NV_gpu_program5), the result's type, then the operand's.
      uint8_t bits = 0;
      auto type = type_modifier(upper);
      if (!type) {
        if (upper == "F16") type = DataType::F32, bits = 16;
        else if (upper == "S8") type = DataType::S32, bits = 8;
        else if (upper == "S16") type = DataType::S32, bits = 16;
        else if (upper == "U8") type = DataType::U32, bits = 8;
        else if (upper == "U16") type = DataType::U32, bits = 16;
        else return bad();
      }
      if (types == 0) inst.type = *type, inst.dst_bits = bits;
      else if (types == 1) inst.src_type = *type, inst.src_bits = bits;
      else return bad();
      ++types;
      continue;
    }
    auto type = type_modifier(upper);
    if (!type) return bad();
    if (types != 0) return bad();
    if (info.types == TypeRule::Float && !is_float(*type)) return bad();
    if (info.types == TypeRule::Integer && is_float(*type)) return bad();
    if (info.types == TypeRule::Texel && is_64(*type)) return bad();
    if (inst.high && is_float(*type)) return bad();
    inst.type = *type;
    ++types;
  }
  if (info.types == TypeRule::Pair && types != 2) {
    return error(inst.offset, std::string(opname) + " needs a destination and a source type (CVT.F64.U32)");
  }
  if (info.types == TypeRule::Storage && !check_memory_modifiers(info, inst, opname, types)) return false;
  if (info.family == Family::Counter && inst.counter_op == CounterOp::None) {
    return error(inst.offset, std::string(opname) + (info.op == Op::ATOMCTR
                                                         ? " needs an operation modifier (INCR, DECR or GET)"
                                                         : " needs an operation modifier (ADD, SUB, MIN, MAX, AND, "
                                                           "OR, XOR, EXCH or CSWAP)"));
  }
  if (inst.type == DataType::None) inst.type = default_type(info.types);
  return true;
}

// The modifiers a memory instruction needs, and the atomic operations each storage modifier allows.
bool InstructionParser::check_memory_modifiers(const OpcodeInfo& info, const Instruction& inst,
                                               std::string_view opname, int types) {
  if ((info.modifiers & kAtomicOp) && inst.atomic == AtomicOp::None) {
    return error(inst.offset, std::string(opname) + " needs an atomic operation modifier (ADD, MIN, ...)");
  }
  if (types == 0) return error(inst.offset, std::string(opname) + " needs a storage modifier (U32, F32, ...)");
  if (inst.atomic != AtomicOp::None) {
    const auto& f = inst.format;
    const bool int32 = f.count == 1 && f.bits == 32 && !is_float(f.type);
    // NV_shader_atomic_float: F32 with ADD and EXCH (its only operations; CSWAP, MIN, MAX stay integer-only).
    const bool f32add = f.count == 1 && f.type == DataType::F32 && f.bits == 32 &&
                        (inst.atomic == AtomicOp::Add || inst.atomic == AtomicOp::Exch);
    // NV_shader_atomic_int64: U64 / S64 with every operation but IWRAP and DWRAP (whether the device can run
    // them is checked at emission).
    const bool int64 = f.count == 1 && f.bits == 64 && !is_float(f.type) && inst.atomic != AtomicOp::IWrap &&
                       inst.atomic != AtomicOp::DWrap;
    // NV_shader_atomic_float64: F64 with ADD and EXCH.
    const bool f64 =
        f.count == 1 && f.type == DataType::F64 && (inst.atomic == AtomicOp::Add || inst.atomic == AtomicOp::Exch);
    // NV_shader_atomic_fp16_vector: F16X2 and F16X4 with ADD, MIN, MAX and EXCH.
    const bool f16 = f.type == DataType::F32 && f.bits == 16 && (f.count == 2 || f.count == 4) &&
                     (inst.atomic == AtomicOp::Add || inst.atomic == AtomicOp::Min || inst.atomic == AtomicOp::Max ||
                      inst.atomic == AtomicOp::Exch);
    if (!int32 && !f32add && !int64 && !f64 && !f16) {
      return error(inst.offset, std::string(opname) +
                                    ": atomic operation not supported with this storage "
                                    "modifier (supported: 32-bit integers, F32 and F64 with "
                                    "ADD/EXCH, U64/S64 without IWRAP/DWRAP, F16X2/F16X4 with "
                                    "ADD/MIN/MAX/EXCH)");
    }
  }
  return true;
}

bool InstructionParser::swizzle(std::array<uint8_t, 4>& swz, uint8_t* count, bool mask_form, uint8_t* mask) {
  const size_t at = peek().offset;
  std::string_view s;
  if (!expect_ident(s, mask_form ? "a write mask" : "a swizzle")) return false;
  if (s.empty() || s.size() > 4) return error(at, "invalid swizzle '" + std::string(s) + "'");
  auto component = [](char c) -> int {
    switch (c) {
      case 'x': case 'r': return 0;
      case 'y': case 'g': return 1;
      case 'z': case 'b': return 2;
      case 'w': case 'a': return 3;
      default: return -1;
    }
  };
  if (mask_form) {
    uint8_t m = 0;
    int last = -1;
    for (char c : s) {
      const int k = component(c);
      if (k < 0 || k <= last) return error(at, "invalid write mask '" + std::string(s) + "'");
      last = k;
      m |= uint8_t(1u << k);
    }
    *mask = m;
    return true;
  }
  if (s.size() != 1 && s.size() != 4) return error(at, "invalid swizzle '" + std::string(s) + "'");
  for (size_t i = 0; i < 4; ++i) {
    const int k = component(s[std::min(i, s.size() - 1)]);
    if (k < 0) return error(at, "invalid swizzle '" + std::string(s) + "'");
    swz[i] = static_cast<uint8_t>(k);
  }
  if (count) *count = static_cast<uint8_t>(s.size());
  return true;
}

bool InstructionParser::cond_test(CondTest& test) {
  const size_t at = peek().offset;
  std::string_view word;
  if (!expect_ident(word, "a condition code test")) return false;
  uint8_t cc = 0;
  auto rule = cond_rule(word, cc);
  if (!rule) return error(at, "invalid condition code test '" + std::string(word) + "'");
  test.rule = *rule;
  test.cc = cc;
  if (accept('.')) {
    if (!swizzle(test.swizzle, &test.swizzle_count, false, nullptr)) return false;
  }
  return true;
}

// temp or temp[index] (index: constant, or temp.c [+/- constant])
bool InstructionParser::temp_index(uint32_t temp, uint32_t& element, bool& relative, uint32_t& rel_temp,
                                   uint8_t& rel_comp, uint32_t limit, bool array, const std::string& name, size_t at) {
  element = 0;
  relative = false;
  if (!is_punct('[')) {
    if (array) return error(at, "array '" + name + "' needs an index");
    return true;
  }
  if (!array) return error(peek().offset, "'" + name + "' is not an array");
  next();
  (void)temp;
  if (peek().kind == Tok::Int) {
    const size_t iat = peek().offset;
    const uint64_t v = next().int_value;
    if (v >= limit) return error(iat, "index " + std::to_string(v) + " is out of bounds for '" + name + "'");
    element = static_cast<uint32_t>(v);
    return expect(']');
  }
  if (!index_register(rel_temp, rel_comp)) return false;
  relative = true;
  if (is_punct('+') || is_punct('-')) {
    const bool minus = next().punct == '-';
    const size_t iat = peek().offset;
    uint64_t v = 0;
    if (!expect_uint(v, "an index offset")) return false;
    if (v >= limit) return error(iat, "index offset out of bounds for '" + name + "'");
    // A negative offset wraps; the emitted index is clamped into the array either way.
    element = minus ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
  }
  return expect(']');
}

bool InstructionParser::index_register(uint32_t& temp, uint8_t& comp) {
  const size_t at = peek().offset;
  std::string_view name;
  if (!expect_ident(name, "an address register")) return false;
  auto it = symbols_.find(std::string(name));
  if (it == symbols_.end() || it->second.kind != Symbol::Kind::Temp || out_.temps[it->second.id].count) {
    return error(at, "'" + std::string(name) + "' is not a TEMP variable usable as an index");
  }
  temp = it->second.id;
  if (!expect('.')) return false;
  std::array<uint8_t, 4> swz{};
  uint8_t count = 0;
  const size_t sat = peek().offset;
  if (!swizzle(swz, &count, false, nullptr)) return false;
  if (count != 1) return error(sat, "an index needs a single component");
  comp = swz[0];
  return true;
}

bool InstructionParser::dest(Dest& d) {
  const size_t at = peek().offset;
  d.offset = at;
  std::string_view name;
  if (!expect_ident(name, "a destination register")) return false;
  auto it = symbols_.find(std::string(name));
  if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(name) + "'");
  if (it->second.kind != Symbol::Kind::Temp) {
    return error(at, "'" + std::string(name) + "' is not a writable TEMP variable");
  }
  d.temp = it->second.id;
  const Temp& t = out_.temps[d.temp];
  if (!temp_index(d.temp, d.element, d.relative, d.rel_temp, d.rel_component, t.count, t.count != 0, t.name, at)) {
    return false;
  }
  if (accept('.')) {
    std::array<uint8_t, 4> unused{};
    if (!swizzle(unused, nullptr, true, &d.mask)) return false;
  }
  if (accept('(')) {
    CondTest test;
    if (!cond_test(test)) return false;
    d.predicate = test;
    if (!expect(')')) return false;
  }
  return true;
}

bool InstructionParser::operand(Operand& o) {
  o.offset = peek().offset;
  if (accept('-')) o.negate = true;
  else accept('+');
  if (accept('|')) {
    o.absolute = true;
    if (!primary(o)) return false;
    return expect('|');
  }
  return primary(o);
}

bool InstructionParser::primary(Operand& o) {
  const Token& t = peek();
  const size_t at = t.offset;
  if (is_punct('{')) {
    o.kind = Operand::Kind::Literal;
    if (!constant_vector(o.literal)) return false;
    return operand_swizzle(o);
  }
  if (t.kind == Tok::Int || t.kind == Tok::Float) {
    o.kind = Operand::Kind::Literal;
    Literal lit;
    if (!literal(lit)) return false;
    o.literal = {lit, lit, lit, lit};
    return true;
  }
  if (t.kind != Tok::Ident) return error(at, "unexpected " + describe(t) + ", expected an operand");
  if (t.text == "invocation" || t.text == "state") {
    o.kind = Operand::Kind::Builtin;
    if (!builtin_binding(o.builtin)) return false;
    return operand_swizzle(o);
  }
  if (t.text == "program") {
    std::vector<ParamElement> elements;
    if (!param_item(elements)) return false;
    if (elements.size() != 1) return error(at, "an operand binds a single parameter vector");
    Param p;
    p.name = "program";
    p.elements = elements;
    o.kind = Operand::Kind::Param;
    o.id = static_cast<uint32_t>(out_.params.size());
    out_.params.push_back(std::move(p));
    return operand_swizzle(o);
  }
  next();
  auto it = symbols_.find(std::string(t.text));
  if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(t.text) + "'");
  const Symbol& s = it->second;
  switch (s.kind) {
    case Symbol::Kind::Temp: {
      o.kind = Operand::Kind::Temp;
      o.id = s.id;
      const Temp& temp = out_.temps[s.id];
      if (!temp_index(s.id, o.element, o.relative, o.rel_temp, o.rel_component, temp.count, temp.count != 0,
                      temp.name, at)) {
        return false;
      }
      break;
    }
    case Symbol::Kind::Param: {
      o.kind = Operand::Kind::Param;
      o.id = s.id;
      const Param& p = out_.params[s.id];
      if (!temp_index(s.id, o.element, o.relative, o.rel_temp, o.rel_component,
                      static_cast<uint32_t>(p.elements.size()), p.is_array, p.name, at)) {
        return false;
      }
      break;
    }
    case Symbol::Kind::Builtin:
      o.kind = Operand::Kind::Builtin;
      o.builtin = s.builtin;
      if (is_thread_group_builtin(s.builtin)) note_thread_group(at);
      break;
    case Symbol::Kind::Buffer: {
      const BufferDecl& b = out_.buffers[s.id];
      if (b.kind == BufferDecl::Kind::Bytes) {
        return error(at, "'" + b.name + "' is a CBUFFER: read it with LDC");
      }
      o.kind = Operand::Kind::Buffer;
      o.id = s.id;
      if (!temp_index(s.id, o.element, o.relative, o.rel_temp, o.rel_component, b.count, b.is_array, b.name, at)) {
        return false;
      }
      break;
    }
    default:
      return error(at, "'" + std::string(t.text) + "' is a memory declaration, not a register operand");
  }
  return operand_swizzle(o);
}

bool InstructionParser::operand_swizzle(Operand& o) {
  if (!is_punct('.')) return true;
  next();
  return swizzle(o.swizzle, nullptr, false, nullptr);
}

bool InstructionParser::memory_ref(MemoryRef& m) {
  const size_t at = peek().offset;
  m.position = at;
  std::string_view name;
  if (!expect_ident(name, "a storage buffer or shared memory name")) return false;
  auto it = symbols_.find(std::string(name));
  if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(name) + "'");
  const std::vector<uint32_t>* list = nullptr;
  std::string decl_name;
  bool two_dimensional = false;
  const SharedDecl* shared = nullptr;
  if (it->second.kind == Symbol::Kind::Shared) {
    m.shared = true;
    shared = &out_.shareds[it->second.id];
    if (!shared->is_array) {
      m.offset = shared->base;  // SHARED s = program.sharedmem[a]: the location itself
      return true;
    }
  } else if (it->second.kind == Symbol::Kind::Storage) {
    list = &out_.storages[it->second.id].program_storage;
    decl_name = out_.storages[it->second.id].name;
    two_dimensional = out_.storages[it->second.id].two_dimensional;
  } else if (it->second.kind == Symbol::Kind::Buffer && out_.buffers[it->second.id].kind == BufferDecl::Kind::Bytes) {
    m.constant = true;
    list = &out_.buffers[it->second.id].program_buffer;
    decl_name = out_.buffers[it->second.id].name;
    two_dimensional = out_.buffers[it->second.id].two_dimensional;
  } else {
    return error(at, "'" + std::string(name) + "' is not a STORAGE, CBUFFER or SHARED declaration");
  }
  if (list) {
    m.buffer = (*list)[0];
    if (list->size() > 1 || two_dimensional) {
      // s[k][address] or s[R0.x + k][address]: the buffer index first.
      if (!expect('[')) return false;
      const size_t kat = peek().offset;
      if (peek().kind == Tok::Int) {
        const uint64_t k = next().int_value;
        if (k >= list->size()) return error(kat, "buffer index out of bounds for '" + decl_name + "'");
        m.buffer = (*list)[k];
      } else {
        m.dynamic_buffer = true;
        m.buffers = *list;
        if (!index_register(m.buffer_temp, m.buffer_component)) return false;
        if (is_punct('+') || is_punct('-')) {
          const bool minus = next().punct == '-';
          const size_t oat = peek().offset;
          uint64_t v = 0;
          if (!expect_uint(v, "a buffer index offset")) return false;
          if (v >= list->size()) return error(oat, "buffer index offset out of bounds for '" + decl_name + "'");
          // A negative offset wraps; the emitted index is clamped into the array either way.
          m.buffer_element = minus ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
        }
      }
      if (!expect(']')) return false;
    }
  }
  if (!expect('[')) return false;
  const int64_t base = shared ? shared->base : 0;
  if (peek().kind == Tok::Int) {
    const size_t vat = peek().offset;
    const uint64_t v = next().int_value;
    if (v > 0xFFFFFFFFull) return error(at, "address out of range");
    if (shared && shared->last != UINT32_MAX && v > uint64_t(shared->last) - shared->base) {
      return error(vat, "address " + std::to_string(v) + " is out of bounds for '" + shared->name + "' (" +
                            std::to_string(uint64_t(shared->last) - shared->base + 1) + " bytes)");
    }
    m.offset = static_cast<int64_t>(v) + base;
    return expect(']');
  }
  m.has_register = true;
  if (!index_register(m.temp, m.component)) return false;
  if (is_punct('+') || is_punct('-')) {
    const bool minus = next().punct == '-';
    uint64_t v = 0;
    const size_t oat = peek().offset;
    if (!expect_uint(v, "an address offset")) return false;
    if (v > 0xFFFFFFFFull) return error(oat, "address offset out of range");
    m.offset = minus ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  }
  m.offset += base;
  return expect(']');
}

bool InstructionParser::memory_instruction(const OpcodeInfo& info, Instruction& inst) {
  const bool shared_op = info.space == MemorySpace::Shared;
  const bool constant_op = info.space == MemorySpace::Constant;
  MemoryRef m;
  if (info.form == OperandForm::Load) {
    if (!dest(inst.dest)) return false;
    inst.has_dest = true;
    if (!expect(',')) return false;
  } else if (info.form == OperandForm::Atomic) {
    if (!dest(inst.dest)) return false;
    inst.has_dest = true;
    if (!expect(',')) return false;
    Operand o;
    if (!operand(o)) return false;
    inst.sources.push_back(o);
    if (!expect(',')) return false;
  } else {
    Operand o;
    if (!operand(o)) return false;
    inst.sources.push_back(o);
    if (!expect(',')) return false;
  }
  if (info.space == MemorySpace::Global) {
    // LOAD / STORE / ATOM (NV_shader_buffer_load, NV_shader_buffer_store): the last operand is the address, a
    // scalar integer operand ("LOAD.U32 R0.x, R1.x;"), not a memory reference.
    m.global = true;
    m.position = peek().offset;
    if (!operand(m.address)) return false;
    if (m.address.kind == Operand::Kind::Literal && m.address.literal[m.address.swizzle[0]].is_float) {
      return error(m.position, "the address of " + std::string(info.name) + " is an integer operand");
    }
    inst.memory = m;
    return true;
  }
  // LDC's operand is a vector operand (NV_gpu_program5, LDC: "applying swizzle, negation, and absolute value
  // operand modifiers"); the other memory instructions take a plain memory reference.
  const size_t modifier_at = peek().offset;
  if (info.form == OperandForm::Load) {
    if (accept('-')) m.negate = true;
    else accept('+');
    m.absolute = accept('|');
  }
  if (!memory_ref(m)) return false;
  // NV_gpu_program4's <instOperandAbsV> ::= <operandAbsNeg> "|" <instOperandBaseV> "|": the swizzle is inside the
  // bars (-|c[0].wzyx|), as NVIDIA's driver reads it.
  if (info.form == OperandForm::Load && is_punct('.')) {
    next();
    if (!swizzle(m.swizzle, nullptr, false, nullptr)) return false;
    m.has_swizzle = true;
  }
  if (m.absolute && !expect('|')) return false;
  if (m.shared != shared_op || m.constant != constant_op) {
    return error(m.position, shared_op     ? "this instruction accesses shared memory (a SHARED declaration)"
                             : constant_op ? "LDC reads a parameter buffer (a CBUFFER declaration)"
                                           : "this instruction accesses a storage buffer (a STORAGE declaration)");
  }
  if (!constant_op && (m.negate || m.absolute || m.has_swizzle)) {
    return error(modifier_at, "only LDC takes swizzle, negation and absolute value on its memory operand");
  }
  inst.memory = m;
  return true;
}

bool InstructionParser::flow(Instruction& inst) {
  switch (inst.op) {
    case Op::IF: {
      CondTest test;
      if (!cond_test(test)) return false;
      inst.condition = test;
      open_blocks_.push_back({Op::IF, inst.offset, false});
      if (open_blocks_.size() > kMaxNesting) return error(inst.offset, "IF and REP blocks nested too deeply");
      return true;
    }
    case Op::ELSE:
      if (open_blocks_.empty() || open_blocks_.back().op != Op::IF || open_blocks_.back().has_else) {
        return error(inst.offset, "ELSE without a matching IF");
      }
      open_blocks_.back().has_else = true;
      return true;
    case Op::ENDIF:
      if (open_blocks_.empty() || open_blocks_.back().op != Op::IF) {
        return error(inst.offset, "ENDIF without a matching IF");
      }
      open_blocks_.pop_back();
      return true;
    case Op::REP:
      if (!is_punct(';')) {
        Operand o;
        if (!operand(o)) return false;
        inst.sources.push_back(o);
      }
      open_blocks_.push_back({Op::REP, inst.offset, false});
      if (open_blocks_.size() > kMaxNesting) return error(inst.offset, "IF and REP blocks nested too deeply");
      return true;
    case Op::ENDREP:
      if (open_blocks_.empty() || open_blocks_.back().op != Op::REP) {
        return error(inst.offset, "ENDREP without a matching REP");
      }
      open_blocks_.pop_back();
      return true;
    case Op::BRK:
    case Op::CONT: {
      const bool in_loop =
          std::any_of(open_blocks_.begin(), open_blocks_.end(), [](const Block& b) { return b.op == Op::REP; });
      if (!in_loop) {
        return error(inst.offset, std::string(inst.op == Op::BRK ? "BRK" : "CONT") + " outside a REP block");
      }
      return optional_condition(inst);
    }
    case Op::RET:
      return optional_condition(inst);
    case Op::CAL: {
      const size_t at = peek().offset;
      std::string_view label;
      if (!expect_ident(label, "a label")) return false;
      calls_.push_back({out_.subroutines.size() - 1, out_.subroutines.back().body.size(), std::string(label), at});
      return optional_condition(inst);
    }
    case Op::CALI: {
      // <CALI_instruction> ::= <CALIop> <opModifiers> <subroutineVarName> <optArrayMem> <optBranchCond>
      const size_t at = peek().offset;
      std::string_view name;
      if (!expect_ident(name, "a SUBROUTINE variable")) return false;
      auto it = symbols_.find(std::string(name));
      if (it == symbols_.end() || it->second.kind != Symbol::Kind::SubroutineVar) {
        return error(at, "'" + std::string(name) + "' is not a SUBROUTINE variable (CALI calls through one)");
      }
      const SubroutineVar& var = out_.subroutine_vars[it->second.id];
      inst.label = it->second.id;
      if (!temp_index(0, inst.call_element, inst.call_relative, inst.call_rel_temp, inst.call_rel_component,
                      static_cast<uint32_t>(var.params.size()), var.is_array, var.name, at)) {
        return false;
      }
      indirect_calls_.push_back({out_.subroutines.size() - 1, out_.subroutines.back().body.size(), var.name, at});
      return optional_condition(inst);
    }
    default:
      return true;
  }
}

// SWZ's four extended swizzle selectors (ARB_vertex_program, kept by NV_gpu_program4):
//   <extSwizComp> ::= <optionalSign> <extSwizSel>;  <extSwizSel> ::= "0" | "1" | x y z w | r g b a
bool InstructionParser::extended_swizzle(Instruction& inst) {
  for (uint32_t c = 0; c < 4; ++c) {
    if (!expect(',')) return false;
    if (accept('-')) inst.ext_negate |= uint8_t(1u << c);
    else accept('+');
    const Token& t = peek();
    if (t.kind == Tok::Int && (t.int_value == 0 || t.int_value == 1) && t.text.size() == 1) {
      inst.ext_swizzle[c] = t.int_value == 0 ? 4 : 5;
      next();
      continue;
    }
    static constexpr std::string_view kNames = "xyzwrgba";
    if (t.kind == Tok::Ident && t.text.size() == 1 && kNames.find(t.text[0]) != std::string_view::npos) {
      inst.ext_swizzle[c] = static_cast<uint8_t>(kNames.find(t.text[0]) % 4);
      next();
      continue;
    }
    return error(t.offset, "invalid extended swizzle selector " + describe(t) + " (0, 1, x, y, z, w, r, g, b or a)");
  }
  return true;
}

bool InstructionParser::optional_condition(Instruction& inst) {
  if (!accept('(')) return true;
  CondTest test;
  if (!cond_test(test)) return false;
  inst.condition = test;
  return expect(')');
}

}  // namespace bismuth::nvasm::detail
