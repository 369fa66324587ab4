// SPIR-V emission for parsed !!NVcp5.0 programs.
//
// Registers are untyped: a TEMP is four 32-bit words (LONG TEMP: four 64-bit words), held in a Private variable
// so that subroutines share them. Each instruction loads its operands as raw words, converts them to the opcode's
// data type (bitcast when the widths agree; a value conversion between a 32-bit register and a 64-bit type, as
// NV_gpu_program_fp64 defines), computes on four components, converts back and stores under the write mask and
// the condition-code predicate. Condition codes CC0/CC1 are Private uvec4s with SF, ZF, OF, CF as bits 0..3.
// The optimizer turns all of this into SSA afterwards.
#include "codegen.hpp"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "spirv_builder.hpp"

namespace bismuth::nvasm::detail {
namespace {

using spv::Op;  // SPIR-V opcodes; the assembler's own opcodes are detail::Op, spelled out below
using AsmOp = ::bismuth::nvasm::detail::Op;

constexpr uint32_t kScopeDevice = 1, kScopeWorkgroup = 2, kScopeSubgroup = 3;
constexpr uint32_t kSemAcqRel = 0x8, kSemUniform = 0x40, kSemWorkgroup = 0x100;
constexpr uint32_t kFlagSF = 1, kFlagZF = 2, kFlagOF = 4, kFlagCF = 8;

// double -> float without relying on out-of-range conversions (inf for values past the float range).
float narrow(double v) {
  if (std::isnan(v)) return std::numeric_limits<float>::quiet_NaN();
  if (v > std::numeric_limits<float>::max()) return std::numeric_limits<float>::infinity();
  if (v < -std::numeric_limits<float>::max()) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

struct Val {
  uint32_t id = 0;
  DataType type = DataType::U32;
};

class Codegen {
 public:
  Codegen(const ParsedProgram& p, const AssembleOptions& o, ProgramInfo& info, Failure& f)
      : p_(p), options_(o), info_(info), failure_(f) {}

  bool run(std::vector<uint32_t>& words) {
    glsl_ = b_.id();
    size_t instructions = 0;
    for (const auto& sub : p_.subroutines) instructions += sub.body.size();
    b_.body.reserve(instructions * 64);
    b_.functions.reserve(instructions * 64);
    setup_globals();
    // Subroutines: one function each, then the entry point calling the entry subroutine.
    fn_ids_.resize(p_.subroutines.size());
    for (auto& id : fn_ids_) id = b_.id();
    for (size_t i = 0; i < p_.subroutines.size(); ++i) {
      if (!function(i)) return false;
    }
    const uint32_t main_id = b_.id();
    begin_function(main_id);
    b_.op(Op::OpFunctionCall, t_void(), {fn_ids_[p_.entry]});
    b_.inst(Op::OpReturn, {});
    end_function();
    finish_module(main_id);
    words = b_.finish();
    return true;
  }

 private:
  // ---------------------------------------------------------------- types and constants
  // Memoized: the emitter asks for the same few types and constants for every instruction.
  uint32_t memo(uint32_t& slot, spv::Op op, std::vector<uint32_t> operands) {
    if (!slot) slot = b_.global(op, std::move(operands), false);
    return slot;
  }
  uint32_t t_void() { return memo(void_, Op::OpTypeVoid, {}); }
  uint32_t t_bool() { return memo(bool_, Op::OpTypeBool, {}); }
  uint32_t t_int(uint32_t width, bool sign) {
    if (width == 64) uses_int64_ = true;
    return b_.global(Op::OpTypeInt, {width, sign ? 1u : 0u}, false);
  }
  uint32_t t_float(uint32_t width) {
    if (width == 64) uses_float64_ = true;
    return b_.global(Op::OpTypeFloat, {width}, false);
  }
  uint32_t t_vec(uint32_t component, uint32_t n) { return b_.global(Op::OpTypeVector, {component, n}, false); }
  uint32_t t_u32() { return u32_ ? u32_ : (u32_ = t_int(32, false)); }
  uint32_t t_i32() { return i32_ ? i32_ : (i32_ = t_int(32, true)); }
  uint32_t t_u64() { return t_int(64, false); }
  uint32_t t_bvec4() { return bvec4_ ? bvec4_ : (bvec4_ = t_vec(t_bool(), 4)); }
  uint32_t t_uvec4() { return uvec4_ ? uvec4_ : (uvec4_ = t_vec(t_u32(), 4)); }
  uint32_t t_uvec3() { return uvec3_ ? uvec3_ : (uvec3_ = t_vec(t_u32(), 3)); }
  uint32_t t_ptr(spv::StorageClass sc, uint32_t type) {
    const uint64_t key = (uint64_t(sc) << 32) | type;
    auto it = ptr_cache_.find(key);
    if (it != ptr_cache_.end()) return it->second;
    const uint32_t id = b_.global(Op::OpTypePointer, {static_cast<uint32_t>(sc), type}, false);
    ptr_cache_.emplace(key, id);
    return id;
  }
  uint32_t scalar_type(DataType t) {
    uint32_t& slot = scalar_cache_[static_cast<size_t>(t)];
    if (!slot) slot = scalar_type_uncached(t);
    return slot;
  }
  uint32_t scalar_type_uncached(DataType t) {
    switch (t) {
      case DataType::F32: return t_float(32);
      case DataType::F64: return t_float(64);
      case DataType::S32: return t_i32();
      case DataType::S64: return t_int(64, true);
      case DataType::U64: return t_u64();
      default: return t_u32();
    }
  }
  uint32_t vec_type(DataType t) {
    uint32_t& slot = vec_cache_[static_cast<size_t>(t)];
    if (!slot) slot = t_vec(scalar_type(t), 4);
    return slot;
  }
  uint32_t raw_scalar(bool wide) { return wide ? t_u64() : t_u32(); }
  uint32_t raw_vec(bool wide) { return t_vec(raw_scalar(wide), 4); }

  uint32_t c_u32(uint32_t v) {
    auto it = u32_constants_.find(v);
    if (it != u32_constants_.end()) return it->second;
    const uint32_t id = b_.global(Op::OpConstant, {t_u32(), v}, true);
    u32_constants_.emplace(v, id);
    return id;
  }
  uint32_t c_i32(int32_t v) { return b_.global(Op::OpConstant, {t_i32(), static_cast<uint32_t>(v)}, true); }
  uint32_t c_bool(bool v) { return b_.global(v ? Op::OpConstantTrue : Op::OpConstantFalse, {t_bool()}, true); }
  uint32_t c_scalar(DataType t, double f, int64_t i, bool from_float) {
    uint32_t type = scalar_type(t);
    switch (t) {
      case DataType::F32: {
        const float v = narrow(from_float ? f : static_cast<double>(i));
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return b_.global(Op::OpConstant, {type, bits}, true);
      }
      case DataType::F64: {
        const double v = from_float ? f : static_cast<double>(i);
        uint64_t bits;
        std::memcpy(&bits, &v, 8);
        return b_.global(Op::OpConstant, {type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)}, true);
      }
      case DataType::S32:
      case DataType::U32: {
        uint32_t bits = static_cast<uint32_t>(i);
        if (from_float) bits = float_to_int_bits32(f, t == DataType::S32);
        return b_.global(Op::OpConstant, {type, bits}, true);
      }
      default: {
        uint64_t bits = static_cast<uint64_t>(i);
        if (from_float) bits = float_to_int_bits64(f, t == DataType::S64);
        return b_.global(Op::OpConstant, {type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)}, true);
      }
    }
  }
  static uint32_t float_to_int_bits32(double f, bool sign) {
    if (std::isnan(f)) return 0;
    if (sign) return static_cast<uint32_t>(static_cast<int32_t>(std::clamp(std::trunc(f), -2147483648.0, 2147483647.0)));
    return static_cast<uint32_t>(std::clamp(std::trunc(f), 0.0, 4294967295.0));
  }
  static uint64_t float_to_int_bits64(double f, bool sign) {
    if (std::isnan(f)) return 0;
    if (sign) return static_cast<uint64_t>(static_cast<int64_t>(std::clamp(std::trunc(f), -9.2233720368547e18, 9.2233720368547e18)));
    return static_cast<uint64_t>(std::clamp(std::trunc(f), 0.0, 1.8446744073709e19));
  }
  uint32_t c_splat(DataType t, double f, int64_t i) {
    const uint32_t s = is_float(t) ? c_scalar(t, f, 0, true) : c_scalar(t, 0, i, false);
    return b_.global(Op::OpConstantComposite, {vec_type(t), s, s, s, s}, true);
  }
  uint32_t c_literal(const Literal& lit, DataType t) { return c_scalar(t, lit.f, lit.i, lit.is_float); }
  uint32_t c_uvec4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    if (a == b && b == c && c == d) {
      auto it = uvec4_splats_.find(a);
      if (it != uvec4_splats_.end()) return it->second;
      const uint32_t id = b_.global(Op::OpConstantComposite, {t_uvec4(), c_u32(a), c_u32(a), c_u32(a), c_u32(a)}, true);
      uvec4_splats_.emplace(a, id);
      return id;
    }
    return b_.global(Op::OpConstantComposite, {t_uvec4(), c_u32(a), c_u32(b), c_u32(c), c_u32(d)}, true);
  }
  uint32_t c_bvec4(uint8_t mask) {
    return b_.global(Op::OpConstantComposite,
                     {t_bvec4(), c_bool(mask & 1), c_bool(mask & 2), c_bool(mask & 4), c_bool(mask & 8)}, true);
  }
  uint32_t variable(uint32_t ptr_type, spv::StorageClass sc, uint32_t init = 0) {
    const uint32_t v = b_.id();
    if (init) SpirvBuilder::put(b_.globals, Op::OpVariable, {ptr_type, v, static_cast<uint32_t>(sc), init});
    else SpirvBuilder::put(b_.globals, Op::OpVariable, {ptr_type, v, static_cast<uint32_t>(sc)});
    return v;
  }
  void decorate(uint32_t target, spv::Decoration d, std::initializer_list<uint32_t> extra = {}) {
    std::vector<uint32_t> ops = {target, static_cast<uint32_t>(d)};
    ops.insert(ops.end(), extra.begin(), extra.end());
    SpirvBuilder::put(b_.annotations, Op::OpDecorate, ops);
  }
  void member_decorate(uint32_t type, uint32_t member, spv::Decoration d, std::initializer_list<uint32_t> extra = {}) {
    std::vector<uint32_t> ops = {type, member, static_cast<uint32_t>(d)};
    ops.insert(ops.end(), extra.begin(), extra.end());
    SpirvBuilder::put(b_.annotations, Op::OpMemberDecorate, ops);
  }

  // ---------------------------------------------------------------- module-level objects
  void setup_globals() {
    // Registers.
    for (const Temp& t : p_.temps) {
      uint32_t type = raw_vec(t.is_long);
      if (t.count) type = b_.global(Op::OpTypeArray, {type, c_u32(t.count)}, false);
      // Zero-initialized, so a program that reads a register before writing it is at least deterministic.
      const uint32_t zero = b_.global(Op::OpConstantNull, {type}, true);
      temp_vars_.push_back(variable(t_ptr(spv::StorageClass::Private, type), spv::StorageClass::Private, zero));
    }
    for (auto& cc : cc_vars_) {
      cc = variable(t_ptr(spv::StorageClass::Private, t_uvec4()), spv::StorageClass::Private, c_uvec4(0, 0, 0, 0));
    }
    // Storage buffers: one block variable per program.storage index a STORAGE declaration binds.
    std::vector<uint32_t> indices;
    for (const auto& s : p_.storages) indices.insert(indices.end(), s.program_storage.begin(), s.program_storage.end());
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    if (!indices.empty()) {
      const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {t_u32()}, false);
      const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
      decorate(rt, spv::Decoration::ArrayStride, {4});
      decorate(block, spv::Decoration::Block);
      member_decorate(block, 0, spv::Decoration::Offset, {0});
      const uint32_t ptr = t_ptr(spv::StorageClass::StorageBuffer, block);
      for (uint32_t index : indices) {
        const uint32_t binding = index < options_.storage_bindings.size() ? options_.storage_bindings[index] : index;
        const uint32_t var = variable(ptr, spv::StorageClass::StorageBuffer);
        decorate(var, spv::Decoration::DescriptorSet, {0});
        decorate(var, spv::Decoration::Binding, {binding});
        storage_vars_[index] = var;
        info_.storage_buffers.push_back({index, binding});
        interface_.push_back(var);
      }
    }
    if (p_.has_shared_memory_decl || p_.shared_memory) {
      const uint32_t words = std::max<uint32_t>(1, (p_.shared_memory + 3) / 4);
      shared_words_ = words;
      const uint32_t arr = b_.global(Op::OpTypeArray, {t_u32(), c_u32(words)}, false);
      shared_var_ = variable(t_ptr(spv::StorageClass::Workgroup, arr), spv::StorageClass::Workgroup);
      interface_.push_back(shared_var_);
    }
    // Parameter buffers: one uniform block per program.buffer index a BUFFER, BUFFER4 or CBUFFER declaration binds.
    std::vector<uint32_t> buffers;
    for (const auto& b : p_.buffers) buffers.insert(buffers.end(), b.program_buffer.begin(), b.program_buffer.end());
    std::sort(buffers.begin(), buffers.end());
    buffers.erase(std::unique(buffers.begin(), buffers.end()), buffers.end());
    for (uint32_t index : buffers) {
      const uint32_t binding = index < options_.parameter_buffer_bindings.size() ? options_.parameter_buffer_bindings[index]
                                                                                 : kParameterBufferBindingBase + index;
      parameter_vars_[index] = uniform_block(kParameterBufferBytes / 16, binding);
      info_.parameter_buffers.push_back({index, binding});
    }
    if (p_.local_count) local_var_ = uniform_block(p_.local_count, kLocalParameterBinding);
    if (p_.env_count) env_var_ = uniform_block(p_.env_count, kEnvParameterBinding);
    info_.local_parameter_count = p_.local_count;
    info_.env_parameter_count = p_.env_count;
    // Group size.
    if (p_.variable_group_size) {
      std::array<uint32_t, 3> ids{};
      for (int i = 0; i < 3; ++i) {
        ids[i] = b_.id();
        SpirvBuilder::put(b_.globals, Op::OpSpecConstant, {t_u32(), ids[i], 1});
        decorate(ids[i], spv::Decoration::SpecId, {kGroupSizeSpecIds[i]});
      }
      group_size_ = b_.id();
      SpirvBuilder::put(b_.globals, Op::OpSpecConstantComposite, {t_uvec3(), group_size_, ids[0], ids[1], ids[2]});
      decorate(group_size_, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)});
    } else {
      const auto& s = *p_.group_size;
      group_size_ = b_.global(Op::OpConstantComposite, {t_uvec3(), c_u32(s[0]), c_u32(s[1]), c_u32(s[2])}, true);
    }
  }

  uint32_t uniform_block(uint32_t count, uint32_t binding) {
    // Distinct array lengths make distinct types; the same length shares one block type, which is fine.
    const uint32_t arr = b_.global(Op::OpTypeArray, {t_uvec4(), c_u32(count)}, false);
    const uint32_t block = b_.global(Op::OpTypeStruct, {arr}, false);
    if (decorated_ubo_types_.insert(block).second) {
      decorate(arr, spv::Decoration::ArrayStride, {16});
      decorate(block, spv::Decoration::Block);
      member_decorate(block, 0, spv::Decoration::Offset, {0});
    }
    const uint32_t var = variable(t_ptr(spv::StorageClass::Uniform, block), spv::StorageClass::Uniform);
    decorate(var, spv::Decoration::DescriptorSet, {0});
    decorate(var, spv::Decoration::Binding, {binding});
    interface_.push_back(var);
    return var;
  }

  uint32_t builtin_var(spv::BuiltIn which, uint32_t type) {
    auto it = builtin_vars_.find(static_cast<uint32_t>(which));
    if (it != builtin_vars_.end()) return it->second;
    const uint32_t var = variable(t_ptr(spv::StorageClass::Input, type), spv::StorageClass::Input);
    decorate(var, spv::Decoration::BuiltIn, {static_cast<uint32_t>(which)});
    builtin_vars_[static_cast<uint32_t>(which)] = var;
    interface_.push_back(var);
    return var;
  }

  void finish_module(uint32_t main_id) {
    auto cap = [&](spv::Capability c) { SpirvBuilder::put(b_.capabilities, Op::OpCapability, {static_cast<uint32_t>(c)}); };
    cap(spv::Capability::Shader);
    if (uses_int64_) cap(spv::Capability::Int64);
    if (uses_int64_atomics_) cap(spv::Capability::Int64Atomics);
    if (uses_storage8_) {
      cap(spv::Capability::StorageBuffer8BitAccess);
      std::vector<uint32_t> name;
      SpirvBuilder::put_string(name, "SPV_KHR_8bit_storage");
      SpirvBuilder::put(b_.extensions, Op::OpExtension, name);
    }
    if (uses_storage16_) cap(spv::Capability::StorageBuffer16BitAccess);
    if (uses_float64_) cap(spv::Capability::Float64);
    if (uses_subgroup_) cap(spv::Capability::GroupNonUniform);
    if (uses_ballot_) cap(spv::Capability::GroupNonUniformBallot);
    if (uses_vote_) cap(spv::Capability::GroupNonUniformVote);
    if (uses_shuffle_) cap(spv::Capability::GroupNonUniformShuffle);
    std::vector<uint32_t> import = {glsl_};
    SpirvBuilder::put_string(import, "GLSL.std.450");
    SpirvBuilder::put(b_.imports, Op::OpExtInstImport, import);
    SpirvBuilder::put(b_.memory_model, Op::OpMemoryModel,
                      {static_cast<uint32_t>(spv::AddressingModel::Logical), static_cast<uint32_t>(spv::MemoryModel::GLSL450)});
    std::vector<uint32_t> entry = {static_cast<uint32_t>(spv::ExecutionModel::GLCompute), main_id};
    SpirvBuilder::put_string(entry, "main");
    // SPIR-V 1.3: the interface lists Input and Output variables only.
    for (const auto& [builtin, var] : builtin_vars_) entry.push_back(var);
    SpirvBuilder::put(b_.entry_points, Op::OpEntryPoint, entry);
    const auto size = p_.variable_group_size ? std::array<uint32_t, 3>{1, 1, 1} : *p_.group_size;
    SpirvBuilder::put(b_.modes, Op::OpExecutionMode,
                      {main_id, static_cast<uint32_t>(spv::ExecutionMode::LocalSize), size[0], size[1], size[2]});
    info_.uses_int64 = uses_int64_;
    info_.uses_int64_atomics = uses_int64_atomics_;
    info_.uses_storage_buffer_8bit = uses_storage8_;
    info_.uses_storage_buffer_16bit = uses_storage16_;
    info_.uses_float64 = uses_float64_;
    info_.uses_subgroup_basic = uses_subgroup_;
    info_.uses_subgroup_ballot = uses_ballot_;
    info_.uses_subgroup_vote = uses_vote_;
    info_.uses_subgroup_shuffle = uses_shuffle_;
  }

  // ---------------------------------------------------------------- functions and blocks
  void begin_function(uint32_t id) {
    b_.body.clear();
    function_vars_.clear();
    const uint32_t fn_type = b_.global(Op::OpTypeFunction, {t_void()}, false);
    SpirvBuilder::put(b_.functions, Op::OpFunction, {t_void(), id, 0, fn_type});
    SpirvBuilder::put(b_.functions, Op::OpLabel, {b_.id()});
  }
  void end_function() {
    b_.functions.insert(b_.functions.end(), function_vars_.begin(), function_vars_.end());
    b_.functions.insert(b_.functions.end(), b_.body.begin(), b_.body.end());
    SpirvBuilder::put(b_.functions, Op::OpFunctionEnd, {});
    b_.body.clear();
  }
  uint32_t function_var(uint32_t type) {
    const uint32_t v = b_.id();
    SpirvBuilder::put(function_vars_, Op::OpVariable,
                      {t_ptr(spv::StorageClass::Function, type), v, static_cast<uint32_t>(spv::StorageClass::Function)});
    return v;
  }
  void label(uint32_t id) { b_.inst(Op::OpLabel, {id}); }
  void branch(uint32_t target) { b_.inst(Op::OpBranch, {target}); }
  // After a terminator in the middle of straight-line code: the rest goes into an unreachable block.
  void dead_block() { label(b_.id()); }

  struct Construct {
    AsmOp kind;
    uint32_t merge = 0;
    uint32_t else_label = 0;
    uint32_t cont = 0;
    uint32_t counter = 0;  // REP with a count: Function variable
    bool else_seen = false;
  };

  bool function(size_t index) {
    const Subroutine& sub = p_.subroutines[index];
    begin_function(fn_ids_[index]);
    constructs_.clear();
    for (const Instruction& inst : sub.body) {
      if (!instruction(inst)) return false;
    }
    b_.inst(Op::OpReturn, {});
    end_function();
    return true;
  }

  uint32_t innermost_loop(bool continue_target) {
    for (auto it = constructs_.rbegin(); it != constructs_.rend(); ++it) {
      if (it->kind == AsmOp::REP) return continue_target ? it->cont : it->merge;
    }
    return 0;
  }

  // if (cond) { <branch to target or return> } — a selection construct around an exit.
  void conditional_exit(uint32_t cond, uint32_t target) {
    const uint32_t then_label = b_.id(), after = b_.id();
    b_.inst(Op::OpSelectionMerge, {after, 0});
    b_.inst(Op::OpBranchConditional, {cond, then_label, after});
    label(then_label);
    if (target) branch(target);
    else b_.inst(Op::OpReturn, {});
    label(after);
  }

  bool flow(const Instruction& inst) {
    switch (inst.op) {
      case AsmOp::IF: {
        Construct c{AsmOp::IF};
        c.merge = b_.id();
        c.else_label = b_.id();
        const uint32_t then_label = b_.id();
        const uint32_t cond = condition_scalar(*inst.condition);
        b_.inst(Op::OpSelectionMerge, {c.merge, 0});
        b_.inst(Op::OpBranchConditional, {cond, then_label, c.else_label});
        label(then_label);
        constructs_.push_back(c);
        return true;
      }
      case AsmOp::ELSE: {
        Construct& c = constructs_.back();
        branch(c.merge);
        label(c.else_label);
        c.else_seen = true;
        return true;
      }
      case AsmOp::ENDIF: {
        Construct c = constructs_.back();
        constructs_.pop_back();
        branch(c.merge);
        if (!c.else_seen) {
          label(c.else_label);
          branch(c.merge);
        }
        label(c.merge);
        return true;
      }
      case AsmOp::REP: {
        Construct c{AsmOp::REP};
        c.merge = b_.id();
        c.cont = b_.id();
        const uint32_t header = b_.id(), body = b_.id();
        if (!inst.sources.empty()) {
          // The count is evaluated once, at REP (NV_gpu_program4: "loop count").
          c.counter = function_var(t_i32());
          uint32_t count;
          if (is_float(inst.type)) {
            Val v = load_operand(inst.sources[0], DataType::F32);
            uint32_t x = b_.op(Op::OpCompositeExtract, t_float(32), {v.id, 0});
            x = ext(GLSLstd450Floor, t_float(32), {x});
            x = ext(GLSLstd450FClamp, t_float(32), {x, c_scalar(DataType::F32, 0.0, 0, true),
                                                    c_scalar(DataType::F32, 2147483647.0, 0, true)});
            count = b_.op(Op::OpConvertFToS, t_i32(), {x});
          } else {
            Val v = load_operand(inst.sources[0], DataType::S32);
            count = b_.op(Op::OpCompositeExtract, t_i32(), {v.id, 0});
          }
          b_.inst(Op::OpStore, {c.counter, count});
        }
        branch(header);
        label(header);
        loop_headers_.push_back(header);
        b_.inst(Op::OpLoopMerge, {c.merge, c.cont, 0});
        if (c.counter) {
          // OpLoopMerge must be second to last in the header: the count test gets its own block (a break).
          const uint32_t check = b_.id();
          branch(check);
          label(check);
          const uint32_t n = b_.op(Op::OpLoad, t_i32(), {c.counter});
          const uint32_t go = b_.op(Op::OpSGreaterThan, t_bool(), {n, c_i32(0)});
          b_.inst(Op::OpBranchConditional, {go, body, c.merge});
        } else {
          branch(body);
        }
        label(body);
        constructs_.push_back(c);
        return true;
      }
      case AsmOp::ENDREP: {
        Construct c = constructs_.back();
        constructs_.pop_back();
        branch(c.cont);
        label(c.cont);
        if (c.counter) {
          const uint32_t n = b_.op(Op::OpLoad, t_i32(), {c.counter});
          b_.inst(Op::OpStore, {c.counter, b_.op(Op::OpISub, t_i32(), {n, c_i32(1)})});
        }
        branch(loop_headers_.back());
        loop_headers_.pop_back();
        label(c.merge);
        return true;
      }
      case AsmOp::BRK:
      case AsmOp::CONT: {
        const uint32_t target = innermost_loop(inst.op == AsmOp::CONT);
        if (inst.condition) {
          conditional_exit(condition_scalar(*inst.condition), target);
        } else {
          branch(target);
          dead_block();
        }
        return true;
      }
      case AsmOp::RET:
        if (inst.condition) {
          conditional_exit(condition_scalar(*inst.condition), 0);
        } else {
          b_.inst(Op::OpReturn, {});
          dead_block();
        }
        return true;
      case AsmOp::CAL: {
        if (inst.condition) {
          const uint32_t cond = condition_scalar(*inst.condition);
          const uint32_t then_label = b_.id(), after = b_.id();
          b_.inst(Op::OpSelectionMerge, {after, 0});
          b_.inst(Op::OpBranchConditional, {cond, then_label, after});
          label(then_label);
          b_.op(Op::OpFunctionCall, t_void(), {fn_ids_[inst.label]});
          branch(after);
          label(after);
        } else {
          b_.op(Op::OpFunctionCall, t_void(), {fn_ids_[inst.label]});
        }
        return true;
      }
      default:
        return true;
    }
  }

  // ---------------------------------------------------------------- conversions
  uint32_t ext(GLSLstd450 which, uint32_t type, std::initializer_list<uint32_t> args) {
    std::vector<uint32_t> ops = {glsl_, static_cast<uint32_t>(which)};
    ops.insert(ops.end(), args.begin(), args.end());
    return b_.op(Op::OpExtInst, type, ops);
  }

  // Raw register words (u32 or u64 x4) -> a value of type t.
  uint32_t from_raw(uint32_t raw, bool wide, DataType t) {
    if (wide == is_64(t)) {
      if (t == DataType::U32 || t == DataType::U64) return raw;
      return b_.op(Op::OpBitcast, vec_type(t), {raw});
    }
    if (!wide) {  // 32-bit register, 64-bit type: convert the 32-bit value of the same kind
      switch (t) {
        case DataType::U64: return b_.op(Op::OpUConvert, vec_type(t), {raw});
        case DataType::S64: return b_.op(Op::OpSConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::S32), {raw})});
        default: return b_.op(Op::OpFConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::F32), {raw})});
      }
    }
    switch (t) {  // 64-bit register, 32-bit type
      case DataType::U32: return b_.op(Op::OpUConvert, vec_type(t), {raw});
      case DataType::S32: return b_.op(Op::OpSConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::S64), {raw})});
      default: return b_.op(Op::OpFConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::F64), {raw})});
    }
  }
  uint32_t to_raw(Val v, bool wide) {
    const DataType t = v.type;
    if (wide == is_64(t)) {
      if (t == DataType::U32 || t == DataType::U64) return v.id;
      return b_.op(Op::OpBitcast, raw_vec(wide), {v.id});
    }
    if (wide) {  // 32-bit value into a 64-bit register
      switch (t) {
        case DataType::U32: return b_.op(Op::OpUConvert, raw_vec(true), {v.id});
        case DataType::S32: return b_.op(Op::OpBitcast, raw_vec(true), {b_.op(Op::OpSConvert, vec_type(DataType::S64), {v.id})});
        default: return b_.op(Op::OpBitcast, raw_vec(true), {b_.op(Op::OpFConvert, vec_type(DataType::F64), {v.id})});
      }
    }
    switch (t) {  // 64-bit value into a 32-bit register
      case DataType::U64: return b_.op(Op::OpUConvert, raw_vec(false), {v.id});
      case DataType::S64: return b_.op(Op::OpBitcast, raw_vec(false), {b_.op(Op::OpSConvert, vec_type(DataType::S32), {v.id})});
      default: return b_.op(Op::OpBitcast, raw_vec(false), {b_.op(Op::OpFConvert, vec_type(DataType::F32), {v.id})});
    }
  }
  // Any type to any type, by value (CVT, and I2F / round-to-integer results).
  Val convert(Val v, DataType to) {
    if (v.type == to) return v;
    const bool ff = is_float(v.type), tf = is_float(to);
    Op op;
    if (ff && tf) op = Op::OpFConvert;
    else if (ff) op = is_signed(to) ? Op::OpConvertFToS : Op::OpConvertFToU;
    else if (tf) op = is_signed(v.type) ? Op::OpConvertSToF : Op::OpConvertUToF;
    else if (is_64(v.type) == is_64(to)) op = Op::OpBitcast;
    else op = is_signed(v.type) ? Op::OpSConvert : Op::OpUConvert;
    if (op == Op::OpSConvert || op == Op::OpUConvert) {
      // Width change first in the source's signedness, then reinterpret.
      const DataType mid = is_64(to) ? (is_signed(v.type) ? DataType::S64 : DataType::U64)
                                     : (is_signed(v.type) ? DataType::S32 : DataType::U32);
      uint32_t r = b_.op(op, vec_type(mid), {v.id});
      if (mid != to) r = b_.op(Op::OpBitcast, vec_type(to), {r});
      return {r, to};
    }
    if (ff && !tf) {
      // Float to integer: out-of-range values are undefined in SPIR-V; clamp to the target range first.
      const DataType ft = v.type;
      double lo = 0, hi = 0;
      if (to == DataType::S32) lo = -2147483648.0, hi = 2147483520.0;
      else if (to == DataType::U32) lo = 0.0, hi = 4294967040.0;
      else if (to == DataType::S64) lo = -9.2233720368547758e18, hi = 9.2233714e18;
      else lo = 0.0, hi = 1.8446742e19;
      const uint32_t clamped = ext(GLSLstd450FClamp, vec_type(ft), {v.id, c_splat(ft, lo, 0), c_splat(ft, hi, 0)});
      const uint32_t nan = b_.op(Op::OpIsNan, t_bvec4(), {v.id});
      const uint32_t safe = b_.op(Op::OpSelect, vec_type(ft), {nan, c_splat(ft, 0.0, 0), clamped});
      return {b_.op(op, vec_type(to), {safe}), to};
    }
    return {b_.op(op, vec_type(to), {v.id}), to};
  }

  uint32_t swizzle(uint32_t vec, uint32_t type, const std::array<uint8_t, 4>& s) {
    if (s[0] == 0 && s[1] == 1 && s[2] == 2 && s[3] == 3) return vec;
    return b_.op(Op::OpVectorShuffle, type, {vec, vec, s[0], s[1], s[2], s[3]});
  }

  // ---------------------------------------------------------------- operands
  // A dynamic index: element + temps[rel].c, clamped into [0, limit).
  uint32_t dynamic_index(uint32_t element, uint32_t rel_temp, uint8_t comp, uint32_t limit) {
    const uint32_t raw = load_temp_raw(rel_temp, 0, false, 0, 0);
    const bool wide = p_.temps[rel_temp].is_long;
    uint32_t c = b_.op(Op::OpCompositeExtract, raw_scalar(wide), {raw, comp});
    if (wide) c = b_.op(Op::OpUConvert, t_u32(), {c});
    const uint32_t sum = b_.op(Op::OpIAdd, t_u32(), {c, c_u32(element)});
    return b_.op(Op::OpExtInst, t_u32(), {glsl_, GLSLstd450UMin, sum, c_u32(limit - 1)});
  }

  uint32_t temp_pointer(uint32_t temp, uint32_t element, bool relative, uint32_t rel_temp, uint8_t rel_comp) {
    const Temp& t = p_.temps[temp];
    if (!t.count) return temp_vars_[temp];
    const uint32_t index = relative ? dynamic_index(element, rel_temp, rel_comp, t.count) : c_u32(element);
    return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, raw_vec(t.is_long)), {temp_vars_[temp], index});
  }
  uint32_t load_temp_raw(uint32_t temp, uint32_t element, bool relative, uint32_t rel_temp, uint8_t rel_comp) {
    const uint32_t ptr = temp_pointer(temp, element, relative, rel_temp, rel_comp);
    return b_.op(Op::OpLoad, raw_vec(p_.temps[temp].is_long), {ptr});
  }

  uint32_t builtin_raw(Builtin which) {
    auto vec3 = [&](spv::BuiltIn bi) {
      const uint32_t v = b_.op(Op::OpLoad, t_uvec3(), {builtin_var(bi, t_uvec3())});
      const uint32_t zero3 = b_.global(Op::OpConstantComposite, {t_uvec3(), c_u32(0), c_u32(0), c_u32(0)}, true);
      return b_.op(Op::OpVectorShuffle, t_uvec4(), {v, zero3, 0, 1, 2, 3});
    };
    auto splat = [&](uint32_t s) { return b_.op(Op::OpCompositeConstruct, t_uvec4(), {s, s, s, s}); };
    auto scalar = [&](spv::BuiltIn bi) { return splat(b_.op(Op::OpLoad, t_u32(), {builtin_var(bi, t_u32())})); };
    auto mask = [&](spv::BuiltIn bi) {
      uses_subgroup_ = uses_ballot_ = true;
      const uint32_t m = b_.op(Op::OpLoad, t_uvec4(), {builtin_var(bi, t_uvec4())});
      return splat(b_.op(Op::OpCompositeExtract, t_u32(), {m, 0}));
    };
    switch (which) {
      case Builtin::LocalId: return vec3(spv::BuiltIn::LocalInvocationId);
      case Builtin::GlobalId: return vec3(spv::BuiltIn::GlobalInvocationId);
      case Builtin::GroupId: return vec3(spv::BuiltIn::WorkgroupId);
      case Builtin::GroupCount: return vec3(spv::BuiltIn::NumWorkgroups);
      case Builtin::GroupSize: {
        const uint32_t zero3 = b_.global(Op::OpConstantComposite, {t_uvec3(), c_u32(0), c_u32(0), c_u32(0)}, true);
        return b_.op(Op::OpVectorShuffle, t_uvec4(), {group_size_, zero3, 0, 1, 2, 3});
      }
      case Builtin::LocalIndex: return scalar(spv::BuiltIn::LocalInvocationIndex);
      case Builtin::ThreadId:
        uses_subgroup_ = true;
        return scalar(spv::BuiltIn::SubgroupLocalInvocationId);
      case Builtin::WarpSize:
        uses_subgroup_ = true;
        return scalar(spv::BuiltIn::SubgroupSize);
      case Builtin::ThreadEqMask: return mask(spv::BuiltIn::SubgroupEqMask);
      case Builtin::ThreadGeMask: return mask(spv::BuiltIn::SubgroupGeMask);
      case Builtin::ThreadGtMask: return mask(spv::BuiltIn::SubgroupGtMask);
      case Builtin::ThreadLeMask: return mask(spv::BuiltIn::SubgroupLeMask);
      case Builtin::ThreadLtMask: return mask(spv::BuiltIn::SubgroupLtMask);
    }
    return c_uvec4(0, 0, 0, 0);
  }

  // A parameter vector as raw 32-bit words, or nullopt for a constant (typed by the instruction instead).
  uint32_t param_raw(const Operand& o) {
    const Param& p = p_.params[o.id];
    if (!o.relative) {
      const ParamElement& e = p.elements[o.element];
      return param_element_raw(e);
    }
    // Relative addressing: contiguous program.local / program.env ranges index the uniform buffer directly;
    // other arrays go through a Private copy of their raw words.
    const ParamElement& first = p.elements[0];
    bool contiguous = first.kind != ParamElement::Kind::Constant;
    for (size_t i = 0; contiguous && i < p.elements.size(); ++i) {
      contiguous = p.elements[i].kind == first.kind && p.elements[i].index == first.index + i;
    }
    const uint32_t count = static_cast<uint32_t>(p.elements.size());
    const uint32_t index = dynamic_index(o.element, o.rel_temp, o.rel_component, count);
    if (contiguous) {
      const uint32_t var = first.kind == ParamElement::Kind::Local ? local_var_ : env_var_;
      const uint32_t at = b_.op(Op::OpIAdd, t_u32(), {index, c_u32(first.index)});
      const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {var, c_u32(0), at});
      return b_.op(Op::OpLoad, t_uvec4(), {ptr});
    }
    auto it = param_arrays_.find(o.id);
    uint32_t var;
    if (it == param_arrays_.end()) {
      const uint32_t arr = b_.global(Op::OpTypeArray, {t_uvec4(), c_u32(count)}, false);
      var = variable(t_ptr(spv::StorageClass::Private, arr), spv::StorageClass::Private);
      param_arrays_[o.id] = var;
      // Filled at the start of the entry point? Simpler: filled here on every use (the optimizer folds it).
    } else {
      var = it->second;
    }
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, t_uvec4()), {var, c_u32(i)});
      b_.inst(Op::OpStore, {ptr, param_element_raw(p.elements[i])});
    }
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, t_uvec4()), {var, index});
    return b_.op(Op::OpLoad, t_uvec4(), {ptr});
  }
  uint32_t param_element_raw(const ParamElement& e) {
    if (e.kind == ParamElement::Kind::Constant) {
      // Untyped context (relative addressing): float literals as float bits, integers as integer bits.
      std::array<uint32_t, 4> words{};
      for (int i = 0; i < 4; ++i) {
        if (e.values[i].is_float) {
          const float f = narrow(e.values[i].f);
          std::memcpy(&words[i], &f, 4);
        } else {
          words[i] = static_cast<uint32_t>(e.values[i].i);
        }
      }
      return c_uvec4(words[0], words[1], words[2], words[3]);
    }
    const uint32_t var = e.kind == ParamElement::Kind::Local ? local_var_ : env_var_;
    const uint32_t ptr =
        b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {var, c_u32(0), c_u32(e.index)});
    return b_.op(Op::OpLoad, t_uvec4(), {ptr});
  }

  // A BUFFER (one word, replicated) or BUFFER4 (a vector) element as raw words; the index is clamped into the
  // declared elements.
  uint32_t buffer_raw(const Operand& o) {
    const BufferDecl& b = p_.buffers[o.id];
    const uint32_t element =
        o.relative ? dynamic_index(o.element, o.rel_temp, o.rel_component, b.count) : c_u32(o.element);
    const uint32_t at = b_.op(Op::OpIAdd, t_u32(), {element, c_u32(b.first)});
    const uint32_t var = parameter_vars_.at(b.program_buffer[0]);
    if (b.kind == BufferDecl::Kind::Vec4) {
      const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {var, c_u32(0), at});
      return b_.op(Op::OpLoad, t_uvec4(), {ptr});
    }
    const uint32_t w = b_.op(Op::OpLoad, t_u32(), {parameter_word_pointer(b.program_buffer[0], at)});
    return b_.op(Op::OpCompositeConstruct, t_uvec4(), {w, w, w, w});
  }

  Val load_operand(const Operand& o, DataType t) {
    uint32_t value = 0;
    const std::array<Literal, 4>* literal = nullptr;
    if (o.kind == Operand::Kind::Literal) literal = &o.literal;
    if (o.kind == Operand::Kind::Param && !o.relative && p_.params[o.id].elements[o.element].kind == ParamElement::Kind::Constant) {
      literal = &p_.params[o.id].elements[o.element].values;
    }
    if (literal) {
      const auto& l = *literal;
      value = b_.global(Op::OpConstantComposite,
                        {vec_type(t), c_literal(l[o.swizzle[0]], t), c_literal(l[o.swizzle[1]], t),
                         c_literal(l[o.swizzle[2]], t), c_literal(l[o.swizzle[3]], t)},
                        true);
    } else {
      uint32_t raw = 0;
      bool wide = false;
      switch (o.kind) {
        case Operand::Kind::Temp:
          raw = load_temp_raw(o.id, o.element, o.relative, o.rel_temp, o.rel_component);
          wide = p_.temps[o.id].is_long;
          break;
        case Operand::Kind::Param: raw = param_raw(o); break;
        case Operand::Kind::Builtin: raw = builtin_raw(o.builtin); break;
        case Operand::Kind::Buffer: raw = buffer_raw(o); break;
        default: break;
      }
      raw = swizzle(raw, raw_vec(wide), o.swizzle);
      value = from_raw(raw, wide, t);
    }
    if (o.absolute) value = is_float(t) ? ext(GLSLstd450FAbs, vec_type(t), {value}) : ext(GLSLstd450SAbs, vec_type(t), {value});
    if (o.negate) value = b_.op(is_float(t) ? Op::OpFNegate : Op::OpSNegate, vec_type(t), {value});
    return {value, t};
  }

  uint32_t component(Val v, uint32_t c) { return b_.op(Op::OpCompositeExtract, scalar_type(v.type), {v.id, c}); }
  Val splat(Val v, uint32_t c) {
    const uint32_t s = component(v, c);
    return {b_.op(Op::OpCompositeConstruct, vec_type(v.type), {s, s, s, s}), v.type};
  }
  Val splat_scalar(uint32_t s, DataType t) { return {b_.op(Op::OpCompositeConstruct, vec_type(t), {s, s, s, s}), t}; }

  // ---------------------------------------------------------------- condition codes
  uint32_t condition_vector(const CondTest& test) {
    const uint32_t cc = b_.op(Op::OpLoad, t_uvec4(), {cc_vars_[test.cc]});
    const uint32_t f = swizzle(cc, t_uvec4(), test.swizzle);
    auto flag = [&](uint32_t bit) {
      const uint32_t masked = b_.op(Op::OpBitwiseAnd, t_uvec4(), {f, c_uvec4(bit, bit, bit, bit)});
      return b_.op(Op::OpINotEqual, t_bvec4(), {masked, c_uvec4(0, 0, 0, 0)});
    };
    auto and_ = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpLogicalAnd, t_bvec4(), {a, b}); };
    auto or_ = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpLogicalOr, t_bvec4(), {a, b}); };
    auto not_ = [&](uint32_t a) { return b_.op(Op::OpLogicalNot, t_bvec4(), {a}); };
    auto ne = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpLogicalNotEqual, t_bvec4(), {a, b}); };
    // NV_gpu_program4, condition code tests (table "Condition code tests").
    switch (test.rule) {
      case CondRule::TR: return c_bvec4(0xF);
      case CondRule::FL: return c_bvec4(0);
      case CondRule::EQ: return and_(not_(flag(kFlagSF)), flag(kFlagZF));
      case CondRule::NE: return or_(flag(kFlagSF), not_(flag(kFlagZF)));
      case CondRule::LT: return and_(ne(flag(kFlagSF), flag(kFlagOF)), not_(flag(kFlagZF)));
      case CondRule::GE: return not_(ne(flag(kFlagSF), flag(kFlagOF)));
      case CondRule::GT: return and_(not_(ne(flag(kFlagSF), flag(kFlagOF))), not_(flag(kFlagZF)));
      case CondRule::LE: return or_(ne(flag(kFlagSF), flag(kFlagOF)), and_(flag(kFlagZF), not_(flag(kFlagSF))));
      case CondRule::NAN_: return and_(flag(kFlagSF), flag(kFlagZF));
      case CondRule::LEG: return or_(not_(flag(kFlagSF)), not_(flag(kFlagZF)));
      case CondRule::CF: return flag(kFlagCF);
      case CondRule::NCF: return not_(flag(kFlagCF));
      case CondRule::OF: return flag(kFlagOF);
      case CondRule::NOF: return not_(flag(kFlagOF));
      case CondRule::AB: return and_(flag(kFlagCF), not_(flag(kFlagZF)));
      case CondRule::BLE: return or_(not_(flag(kFlagCF)), flag(kFlagZF));
      case CondRule::SF: return flag(kFlagSF);
      case CondRule::NSF: return not_(flag(kFlagSF));
      case CondRule::ZF: return flag(kFlagZF);
      case CondRule::NZF: return not_(flag(kFlagZF));
    }
    return c_bvec4(0xF);
  }
  // Branch conditions: true when the test passes for any of the selected components.
  uint32_t condition_scalar(const CondTest& test) {
    const uint32_t v = condition_vector(test);
    if (test.swizzle_count == 1) return b_.op(Op::OpCompositeExtract, t_bool(), {v, 0});
    return b_.op(Op::OpAny, t_bool(), {v});
  }

  uint32_t flags_of(Val v) {
    uint32_t sf, zf;
    if (is_float(v.type)) {
      const uint32_t nan = b_.op(Op::OpIsNan, t_bvec4(), {v.id});
      const uint32_t zero = c_splat(v.type, 0.0, 0);
      sf = b_.op(Op::OpLogicalOr, t_bvec4(), {b_.op(Op::OpFOrdLessThan, t_bvec4(), {v.id, zero}), nan});
      zf = b_.op(Op::OpLogicalOr, t_bvec4(), {b_.op(Op::OpFOrdEqual, t_bvec4(), {v.id, zero}), nan});
    } else {
      const DataType st = is_64(v.type) ? DataType::S64 : DataType::S32;
      const uint32_t s = v.type == st ? v.id : b_.op(Op::OpBitcast, vec_type(st), {v.id});
      sf = b_.op(Op::OpSLessThan, t_bvec4(), {s, c_splat(st, 0, 0)});
      zf = b_.op(Op::OpIEqual, t_bvec4(), {s, c_splat(st, 0, 0)});
    }
    const uint32_t a = b_.op(Op::OpSelect, t_uvec4(), {sf, c_uvec4(kFlagSF, kFlagSF, kFlagSF, kFlagSF), c_uvec4(0, 0, 0, 0)});
    const uint32_t z = b_.op(Op::OpSelect, t_uvec4(), {zf, c_uvec4(kFlagZF, kFlagZF, kFlagZF, kFlagZF), c_uvec4(0, 0, 0, 0)});
    return b_.op(Op::OpBitwiseOr, t_uvec4(), {a, z});
  }

  // ---------------------------------------------------------------- results
  // OF and CF of an integer ADD or SUB (NV_gpu_program4: "overflow" and "carry" flags). CF is the carry out of
  // an addition and "no borrow" (a >= b unsigned) for a subtraction, as the AB / BLE tests expect.
  uint32_t add_sub_flags(AsmOp op, Val a, Val b, Val r) {
    const DataType ut = is_64(a.type) ? DataType::U64 : DataType::U32;
    const uint32_t uv = vec_type(ut);
    auto u = [&](Val x) { return x.type == ut ? x.id : b_.op(Op::OpBitcast, uv, {x.id}); };
    const uint32_t ua = u(a), ub = u(b), ur = u(r);
    const uint32_t x1 = b_.op(Op::OpBitwiseXor, uv, {ua, ur});
    const uint32_t x2 = b_.op(Op::OpBitwiseXor, uv, {op == AsmOp::ADD ? ub : ua, op == AsmOp::ADD ? ur : ub});
    const uint32_t both = b_.op(Op::OpBitwiseAnd, uv, {x1, x2});
    const DataType st = is_64(a.type) ? DataType::S64 : DataType::S32;
    const uint32_t of = b_.op(Op::OpSLessThan, t_bvec4(), {b_.op(Op::OpBitcast, vec_type(st), {both}), c_splat(st, 0, 0)});
    const uint32_t cf = op == AsmOp::ADD ? b_.op(Op::OpULessThan, t_bvec4(), {ur, ua})
                                         : b_.op(Op::OpUGreaterThanEqual, t_bvec4(), {ua, ub});
    const uint32_t o = b_.op(Op::OpSelect, t_uvec4(), {of, c_uvec4(kFlagOF, kFlagOF, kFlagOF, kFlagOF), c_uvec4(0, 0, 0, 0)});
    const uint32_t c = b_.op(Op::OpSelect, t_uvec4(), {cf, c_uvec4(kFlagCF, kFlagCF, kFlagCF, kFlagCF), c_uvec4(0, 0, 0, 0)});
    return b_.op(Op::OpBitwiseOr, t_uvec4(), {o, c});
  }

  void write_dest(const Instruction& inst, Val v, uint32_t extra_flags = 0) {
    const Dest& d = inst.dest;
    if (is_float(v.type) && (inst.saturate || inst.signed_saturate)) {
      const double lo = inst.saturate ? 0.0 : -1.0;
      v.id = ext(GLSLstd450FClamp, vec_type(v.type), {v.id, c_splat(v.type, lo, 0), c_splat(v.type, 1.0, 0)});
    }
    const bool wide = p_.temps[d.temp].is_long;
    const uint32_t raw = to_raw(v, wide);
    const uint32_t ptr = temp_pointer(d.temp, d.element, d.relative, d.rel_temp, d.rel_component);
    const uint32_t old = b_.op(Op::OpLoad, raw_vec(wide), {ptr});
    uint32_t select_mask = 0;
    if (d.predicate) {
      select_mask = b_.op(Op::OpLogicalAnd, t_bvec4(), {condition_vector(*d.predicate), c_bvec4(d.mask)});
    }
    auto merge = [&](uint32_t type, uint32_t old_value, uint32_t new_value) {
      if (select_mask) return b_.op(Op::OpSelect, type, {select_mask, new_value, old_value});
      if (d.mask == 0xF) return new_value;
      std::vector<uint32_t> ops = {old_value, new_value};
      for (uint32_t c = 0; c < 4; ++c) ops.push_back((d.mask >> c) & 1 ? 4 + c : c);
      return b_.op(Op::OpVectorShuffle, type, ops);
    };
    b_.inst(Op::OpStore, {ptr, merge(raw_vec(wide), old, raw)});
    if (inst.update_cc) {
      uint32_t flags = flags_of(v);
      if (extra_flags) flags = b_.op(Op::OpBitwiseOr, t_uvec4(), {flags, extra_flags});
      const uint32_t cc_old = b_.op(Op::OpLoad, t_uvec4(), {cc_vars_[inst.cc_register]});
      b_.inst(Op::OpStore, {cc_vars_[inst.cc_register], merge(t_uvec4(), cc_old, flags)});
    }
  }

  Val bool_result(uint32_t bvec, DataType t) {
    // Set-on instructions: 1.0 / 0.0 for floats, all ones / 0 for integers.
    const uint32_t one = is_float(t) ? c_splat(t, 1.0, 0) : c_splat(t, 0, -1);
    return {b_.op(Op::OpSelect, vec_type(t), {bvec, one, c_splat(t, 0.0, 0)}), t};
  }

  bool fail(const Instruction& inst, std::string text) {
    failure_ = {inst.offset, std::move(text)};
    return false;
  }

  // ---------------------------------------------------------------- instructions
  bool instruction(const Instruction& inst) {
    switch (inst.op) {
      case AsmOp::IF: case AsmOp::ELSE: case AsmOp::ENDIF: case AsmOp::REP: case AsmOp::ENDREP:
      case AsmOp::BRK: case AsmOp::CONT: case AsmOp::CAL: case AsmOp::RET:
        return flow(inst);
      case AsmOp::BAR:
        b_.inst(Op::OpControlBarrier, {c_u32(kScopeWorkgroup), c_u32(kScopeWorkgroup), c_u32(kSemAcqRel | kSemWorkgroup)});
        return true;
      case AsmOp::MEMBAR:
        b_.inst(Op::OpMemoryBarrier, {c_u32(inst.cta ? kScopeWorkgroup : kScopeDevice),
                                      c_u32(kSemAcqRel | kSemUniform | kSemWorkgroup)});
        return true;
      case AsmOp::LDB: case AsmOp::LDS: case AsmOp::LDC: case AsmOp::STB: case AsmOp::STS: case AsmOp::ATOMB:
      case AsmOp::ATOMS:
        return memory(inst);
      default: return arithmetic(inst);
    }
  }

  bool memory_access(const Instruction& inst) {
    switch (inst.op) {
      case AsmOp::LDB: case AsmOp::LDS: case AsmOp::LDC: return load(inst);
      case AsmOp::STB: case AsmOp::STS: return store(inst);
      default: return atomic(inst);
    }
  }
  // A buffer array indexed with a register (`s[R0.x + k][address]`): a switch over the array's buffers, each case
  // the access with that buffer (the index clamped into the array, as register-array indices are). Each buffer is
  // its own descriptor, so no descriptor indexing feature is needed.
  bool memory(const Instruction& inst) {
    const MemoryRef& m = *inst.memory;
    if (!m.dynamic_buffer) return memory_access(inst);
    const uint32_t count = static_cast<uint32_t>(m.buffers.size());
    const uint32_t index = dynamic_index(m.buffer_element, m.buffer_temp, m.buffer_component, count);
    const uint32_t merge = b_.id();
    std::vector<uint32_t> labels(count);
    for (auto& l : labels) l = b_.id();
    std::vector<uint32_t> operands = {index, labels[count - 1]};
    for (uint32_t k = 0; k + 1 < count; ++k) {
      operands.push_back(k);
      operands.push_back(labels[k]);
    }
    b_.inst(Op::OpSelectionMerge, {merge, 0});
    SpirvBuilder::put(b_.body, Op::OpSwitch, operands);
    for (uint32_t k = 0; k < count; ++k) {
      label(labels[k]);
      Instruction one = inst;
      one.memory->dynamic_buffer = false;
      one.memory->buffer = m.buffers[k];
      if (!memory_access(one)) return false;
      branch(merge);
    }
    label(merge);
    return true;
  }

  // Byte address -> word index in the buffer or shared array.
  uint32_t byte_address(const MemoryRef& m) {
    uint32_t addr = c_u32(static_cast<uint32_t>(m.offset));
    if (m.has_register) {
      const uint32_t raw = load_temp_raw(m.temp, 0, false, 0, 0);
      const bool wide = p_.temps[m.temp].is_long;
      uint32_t c = b_.op(Op::OpCompositeExtract, raw_scalar(wide), {raw, m.component});
      if (wide) c = b_.op(Op::OpUConvert, t_u32(), {c});
      addr = m.offset ? b_.op(Op::OpIAdd, t_u32(), {c, addr}) : c;
    }
    return addr;
  }
  // Word `word_index` of parameter buffer `buffer`, clamped into the declared block (the GL binding's range is
  // the application's to respect, as for uniform blocks).
  uint32_t parameter_word_pointer(uint32_t buffer, uint32_t word_index) {
    const uint32_t w = b_.op(Op::OpExtInst, t_u32(), {glsl_, GLSLstd450UMin, word_index, c_u32(kParameterBufferBytes / 4 - 1)});
    const uint32_t vec = b_.op(Op::OpShiftRightLogical, t_u32(), {w, c_u32(2)});
    const uint32_t comp = b_.op(Op::OpBitwiseAnd, t_u32(), {w, c_u32(3)});
    return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_u32()),
                 {parameter_vars_.at(buffer), c_u32(0), vec, comp});
  }
  uint32_t word_pointer(const MemoryRef& m, uint32_t word_index) {
    if (m.constant) return parameter_word_pointer(m.buffer, word_index);
    if (m.shared) {
      // Out-of-range shared accesses are clamped into the array (the GL spec leaves them undefined).
      const uint32_t idx = b_.op(Op::OpExtInst, t_u32(), {glsl_, GLSLstd450UMin, word_index, c_u32(shared_words_ - 1)});
      return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Workgroup, t_u32()), {shared_var_, idx});
    }
    return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, t_u32()),
                 {storage_vars_.at(m.buffer), c_u32(0), word_index});
  }
  uint32_t word_index(uint32_t addr, uint32_t plus_words) {
    uint32_t w = b_.op(Op::OpShiftRightLogical, t_u32(), {addr, c_u32(2)});
    if (plus_words) w = b_.op(Op::OpIAdd, t_u32(), {w, c_u32(plus_words)});
    return w;
  }
  uint32_t scope_of(const MemoryRef& m) { return c_u32(m.shared ? kScopeWorkgroup : kScopeDevice); }

  bool load(const Instruction& inst) {
    const MemoryRef& m = *inst.memory;
    const StorageFormat f = inst.format;
    const uint32_t addr = byte_address(m);
    std::array<uint32_t, 4> elems{};
    for (uint32_t e = 0; e < f.count; ++e) {
      if (f.bits == 64) {
        const uint32_t lo = b_.op(Op::OpLoad, t_u32(), {word_pointer(m, word_index(addr, 2 * e))});
        const uint32_t hi = b_.op(Op::OpLoad, t_u32(), {word_pointer(m, word_index(addr, 2 * e + 1))});
        const uint32_t v2 = b_.op(Op::OpCompositeConstruct, t_vec(t_u32(), 2), {lo, hi});
        elems[e] = b_.op(Op::OpBitcast, scalar_type(f.type), {v2});
      } else if (f.bits == 32) {
        const uint32_t w = b_.op(Op::OpLoad, t_u32(), {word_pointer(m, word_index(addr, e))});
        elems[e] = f.type == DataType::U32 ? w : b_.op(Op::OpBitcast, scalar_type(f.type), {w});
      } else {
        const uint32_t w = b_.op(Op::OpLoad, t_u32(), {word_pointer(m, word_index(addr, 0))});
        const uint32_t shift = b_.op(Op::OpShiftLeftLogical, t_u32(),
                                     {b_.op(Op::OpBitwiseAnd, t_u32(), {addr, c_u32(3)}), c_u32(3)});
        if (f.type == DataType::S32) {
          elems[e] = b_.op(Op::OpBitFieldSExtract, t_i32(), {b_.op(Op::OpBitcast, t_i32(), {w}), shift, c_u32(f.bits)});
        } else {
          elems[e] = b_.op(Op::OpBitFieldUExtract, t_u32(), {w, shift, c_u32(f.bits)});
        }
      }
    }
    std::vector<uint32_t> parts;
    for (uint32_t c = 0; c < 4; ++c) parts.push_back(elems[f.count == 1 ? 0 : c % f.count]);
    write_dest(inst, {b_.op(Op::OpCompositeConstruct, vec_type(f.type), parts), f.type});
    return true;
  }

  bool store(const Instruction& inst) {
    const MemoryRef& m = *inst.memory;
    const StorageFormat f = inst.format;
    const Val v = load_operand(inst.sources[0], f.type);
    const uint32_t addr = byte_address(m);
    for (uint32_t e = 0; e < f.count; ++e) {
      const uint32_t s = component(v, e);
      if (f.bits == 64) {
        const uint32_t v2 = b_.op(Op::OpBitcast, t_vec(t_u32(), 2), {s});
        b_.inst(Op::OpStore, {word_pointer(m, word_index(addr, 2 * e)), b_.op(Op::OpCompositeExtract, t_u32(), {v2, 0})});
        b_.inst(Op::OpStore, {word_pointer(m, word_index(addr, 2 * e + 1)), b_.op(Op::OpCompositeExtract, t_u32(), {v2, 1})});
      } else if (f.bits == 32) {
        const uint32_t w = f.type == DataType::U32 ? s : b_.op(Op::OpBitcast, t_u32(), {s});
        b_.inst(Op::OpStore, {word_pointer(m, word_index(addr, e)), w});
      } else {
        if (!m.shared && ((f.bits == 8 && options_.storage_buffer_8bit) || (f.bits == 16 && options_.storage_buffer_16bit))) {
          // The device has 8/16-bit storage: a plain byte or half-word store on a narrow view of the buffer. A
          // memory location is a byte in Vulkan's memory model, so the neighbours are untouched.
          const uint32_t w = f.type == DataType::U32 ? s : b_.op(Op::OpBitcast, t_u32(), {s});
          const uint32_t narrow = t_int(f.bits, false);
          const uint32_t index = f.bits == 8 ? addr : b_.op(Op::OpShiftRightLogical, t_u32(), {addr, c_u32(1)});
          const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, narrow),
                                     {storage_narrow_var(m.buffer, f.bits), c_u32(0), index});
          b_.inst(Op::OpStore, {ptr, b_.op(Op::OpUConvert, narrow, {w})});
          continue;
        }
        // Sub-word store without touching the neighbouring bytes other invocations may write: a compare-and-swap
        // loop on the containing word replaces just the field. Neighbours are never lost, and concurrent stores to
        // the same byte leave one of the stored values (never a mix, which separate clear and set atomics could
        // leave). One atomic when uncontended; no 8/16-bit storage feature needed.
        const uint32_t w = f.type == DataType::U32 ? s : b_.op(Op::OpBitcast, t_u32(), {s});
        const uint32_t field = (1u << f.bits) - 1;
        const uint32_t shift = b_.op(Op::OpShiftLeftLogical, t_u32(),
                                     {b_.op(Op::OpBitwiseAnd, t_u32(), {addr, c_u32(3)}), c_u32(3)});
        const uint32_t keep = b_.op(Op::OpNot, t_u32(), {b_.op(Op::OpShiftLeftLogical, t_u32(), {c_u32(field), shift})});
        const uint32_t bits = b_.op(Op::OpShiftLeftLogical, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {w, c_u32(field)}), shift});
        const uint32_t ptr = word_pointer(m, word_index(addr, 0));
        cas_loop(ptr, scope_of(m), [&](uint32_t old) {
          return b_.op(Op::OpBitwiseOr, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {old, keep}), bits});
        });
      }
    }
    return true;
  }

  // A compare-and-swap loop computing new = f(old); returns the old value (u32).
  template <class F>
  uint32_t cas_loop(uint32_t ptr, uint32_t scope, F&& next_value) {
    const uint32_t header = b_.id(), body = b_.id(), cont = b_.id(), merge = b_.id();
    branch(header);
    label(header);
    b_.inst(Op::OpLoopMerge, {merge, cont, 0});
    branch(body);
    label(body);
    const uint32_t old = b_.op(Op::OpAtomicLoad, t_u32(), {ptr, scope, c_u32(0)});
    const uint32_t desired = next_value(old);
    const uint32_t seen = b_.op(Op::OpAtomicCompareExchange, t_u32(), {ptr, scope, c_u32(0), c_u32(0), desired, old});
    const uint32_t done = b_.op(Op::OpIEqual, t_bool(), {seen, old});
    b_.inst(Op::OpBranchConditional, {done, merge, cont});
    label(cont);
    branch(header);
    label(merge);
    return old;
  }

  // program.storage[index] as 8- or 16-bit elements (another block variable on the same binding), for sub-word
  // stores where the device has 8/16-bit storage.
  uint32_t storage_narrow_var(uint32_t index, uint32_t bits) {
    auto& vars = bits == 8 ? storage8_vars_ : storage16_vars_;
    auto it = vars.find(index);
    if (it != vars.end()) return it->second;
    (bits == 8 ? uses_storage8_ : uses_storage16_) = true;
    const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {t_int(bits, false)}, false);
    const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
    decorate(rt, spv::Decoration::ArrayStride, {bits / 8});
    decorate(block, spv::Decoration::Block);
    member_decorate(block, 0, spv::Decoration::Offset, {0});
    const uint32_t binding = index < options_.storage_bindings.size() ? options_.storage_bindings[index] : index;
    const uint32_t var = variable(t_ptr(spv::StorageClass::StorageBuffer, block), spv::StorageClass::StorageBuffer);
    decorate(var, spv::Decoration::DescriptorSet, {0});
    decorate(var, spv::Decoration::Binding, {binding});
    interface_.push_back(var);
    vars[index] = var;
    return var;
  }

  // program.storage[index] as 64-bit words: a second block variable on the same binding (descriptor aliasing),
  // for the 64-bit atomics.
  uint32_t storage64_var(uint32_t index) {
    auto it = storage64_vars_.find(index);
    if (it != storage64_vars_.end()) return it->second;
    const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {t_int(64, false)}, false);
    const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
    decorate(rt, spv::Decoration::ArrayStride, {8});
    decorate(block, spv::Decoration::Block);
    member_decorate(block, 0, spv::Decoration::Offset, {0});
    const uint32_t binding = index < options_.storage_bindings.size() ? options_.storage_bindings[index] : index;
    const uint32_t var = variable(t_ptr(spv::StorageClass::StorageBuffer, block), spv::StorageClass::StorageBuffer);
    decorate(var, spv::Decoration::DescriptorSet, {0});
    decorate(var, spv::Decoration::Binding, {binding});
    interface_.push_back(var);
    storage64_vars_[index] = var;
    return var;
  }

  // NV_shader_atomic_int64: ATOMB .U64 / .S64 on an 8-byte aligned address (shaderBufferInt64Atomics).
  bool atomic64(const Instruction& inst) {
    const MemoryRef& m = *inst.memory;
    if (m.shared) {
      return fail(inst, "64-bit ATOMS is not supported: shared memory is an array of 32-bit words, and 64-bit "
                        "atomics on it would need VK_KHR_workgroup_memory_explicit_layout");
    }
    if (!options_.int64_buffer_atomics) {
      return fail(inst, "64-bit atomics (NV_shader_atomic_int64) need the device's shaderBufferInt64Atomics feature");
    }
    uses_int64_atomics_ = true;
    const uint32_t u64 = t_int(64, false);
    const uint32_t index = b_.op(Op::OpShiftRightLogical, t_u32(), {byte_address(m), c_u32(3)});
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, u64),
                               {storage64_var(m.buffer), c_u32(0), index});
    const uint32_t scope = scope_of(m), none = c_u32(0);
    const bool sign = inst.format.type == DataType::S64;
    const Val v = load_operand(inst.sources[0], DataType::U64);
    const uint32_t a = component(v, 0);
    uint32_t old = 0;
    switch (inst.atomic) {
      case AtomicOp::Add: old = b_.op(Op::OpAtomicIAdd, u64, {ptr, scope, none, a}); break;
      case AtomicOp::Min: old = b_.op(sign ? Op::OpAtomicSMin : Op::OpAtomicUMin, u64, {ptr, scope, none, a}); break;
      case AtomicOp::Max: old = b_.op(sign ? Op::OpAtomicSMax : Op::OpAtomicUMax, u64, {ptr, scope, none, a}); break;
      case AtomicOp::And: old = b_.op(Op::OpAtomicAnd, u64, {ptr, scope, none, a}); break;
      case AtomicOp::Or: old = b_.op(Op::OpAtomicOr, u64, {ptr, scope, none, a}); break;
      case AtomicOp::Xor: old = b_.op(Op::OpAtomicXor, u64, {ptr, scope, none, a}); break;
      case AtomicOp::Exch: old = b_.op(Op::OpAtomicExchange, u64, {ptr, scope, none, a}); break;
      case AtomicOp::CSwap:
        old = b_.op(Op::OpAtomicCompareExchange, u64, {ptr, scope, none, none, component(v, 1), a});
        break;
      default: return fail(inst, "this atomic operation does not take a 64-bit storage modifier");
    }
    Val result = splat_scalar(old, DataType::U64);
    if (sign) result = {b_.op(Op::OpBitcast, vec_type(DataType::S64), {result.id}), DataType::S64};
    write_dest(inst, result);
    return true;
  }

  bool atomic(const Instruction& inst) {
    const MemoryRef& m = *inst.memory;
    const StorageFormat f = inst.format;
    if (f.bits == 64) return atomic64(inst);
    const uint32_t ptr = word_pointer(m, word_index(byte_address(m), 0));
    const uint32_t scope = scope_of(m);
    const uint32_t none = c_u32(0);
    if (f.type == DataType::F32) {
      // Float add as a CAS loop: exact on every device, no float-atomic feature needed.
      const Val v = load_operand(inst.sources[0], DataType::F32);
      const uint32_t add = component(v, 0);
      const uint32_t old = cas_loop(ptr, scope, [&](uint32_t o) {
        const uint32_t sum = b_.op(Op::OpFAdd, t_float(32), {b_.op(Op::OpBitcast, t_float(32), {o}), add});
        return b_.op(Op::OpBitcast, t_u32(), {sum});
      });
      write_dest(inst, splat_scalar(b_.op(Op::OpBitcast, t_float(32), {old}), DataType::F32));
      return true;
    }
    const bool sign = f.type == DataType::S32;
    const Val v = load_operand(inst.sources[0], DataType::U32);
    const uint32_t a = component(v, 0);
    uint32_t old = 0;
    switch (inst.atomic) {
      case AtomicOp::Add: old = b_.op(Op::OpAtomicIAdd, t_u32(), {ptr, scope, none, a}); break;
      case AtomicOp::Min:
        if (sign) {
          old = cas_loop(ptr, scope, [&](uint32_t o) {
            return b_.op(Op::OpBitcast, t_u32(), {ext(GLSLstd450SMin, t_i32(), {b_.op(Op::OpBitcast, t_i32(), {o}),
                                                                                 b_.op(Op::OpBitcast, t_i32(), {a})})});
          });
        } else {
          old = b_.op(Op::OpAtomicUMin, t_u32(), {ptr, scope, none, a});
        }
        break;
      case AtomicOp::Max:
        if (sign) {
          old = cas_loop(ptr, scope, [&](uint32_t o) {
            return b_.op(Op::OpBitcast, t_u32(), {ext(GLSLstd450SMax, t_i32(), {b_.op(Op::OpBitcast, t_i32(), {o}),
                                                                                 b_.op(Op::OpBitcast, t_i32(), {a})})});
          });
        } else {
          old = b_.op(Op::OpAtomicUMax, t_u32(), {ptr, scope, none, a});
        }
        break;
      case AtomicOp::And: old = b_.op(Op::OpAtomicAnd, t_u32(), {ptr, scope, none, a}); break;
      case AtomicOp::Or: old = b_.op(Op::OpAtomicOr, t_u32(), {ptr, scope, none, a}); break;
      case AtomicOp::Xor: old = b_.op(Op::OpAtomicXor, t_u32(), {ptr, scope, none, a}); break;
      case AtomicOp::Exch: old = b_.op(Op::OpAtomicExchange, t_u32(), {ptr, scope, none, a}); break;
      case AtomicOp::CSwap: {
        // NV_gpu_program5 ATOM.CSWAP: compare with operand.x, store operand.y on a match.
        const uint32_t desired = component(v, 1);
        old = b_.op(Op::OpAtomicCompareExchange, t_u32(), {ptr, scope, none, none, desired, a});
        break;
      }
      case AtomicOp::IWrap:
        // (old >= op) ? 0 : old + 1
        old = cas_loop(ptr, scope, [&](uint32_t o) {
          const uint32_t ge = b_.op(Op::OpUGreaterThanEqual, t_bool(), {o, a});
          return b_.op(Op::OpSelect, t_u32(), {ge, c_u32(0), b_.op(Op::OpIAdd, t_u32(), {o, c_u32(1)})});
        });
        break;
      case AtomicOp::DWrap:
        // (old == 0 || old > op) ? op : old - 1
        old = cas_loop(ptr, scope, [&](uint32_t o) {
          const uint32_t wrap = b_.op(Op::OpLogicalOr, t_bool(), {b_.op(Op::OpIEqual, t_bool(), {o, c_u32(0)}),
                                                                  b_.op(Op::OpUGreaterThan, t_bool(), {o, a})});
          return b_.op(Op::OpSelect, t_u32(), {wrap, a, b_.op(Op::OpISub, t_u32(), {o, c_u32(1)})});
        });
        break;
      case AtomicOp::None: break;
    }
    Val result = splat_scalar(old, DataType::U32);
    if (sign) result = {b_.op(Op::OpBitcast, vec_type(DataType::S32), {result.id}), DataType::S32};
    write_dest(inst, result);
    return true;
  }

  // Shift with NVIDIA's semantics for counts of the width or more (no undefined SPIR-V shifts).
  uint32_t shift(Op op, DataType t, uint32_t value, uint32_t count_u32) {
    const uint32_t width = is_64(t) ? 64 : 32;
    const uint32_t vt = vec_type(t);
    const uint32_t count = is_64(t) ? b_.op(Op::OpUConvert, vec_type(DataType::U64), {count_u32}) : count_u32;
    const DataType ct = is_64(t) ? DataType::U64 : DataType::U32;
    const uint32_t big = b_.op(Op::OpUGreaterThanEqual, t_bvec4(), {count, c_splat(ct, 0, width)});
    const uint32_t safe = b_.op(Op::OpSelect, vec_type(ct), {big, c_splat(ct, 0, 0), count});
    const uint32_t shifted = b_.op(op, vt, {value, safe});
    uint32_t fill = c_splat(t, 0, 0);
    if (op == Op::OpShiftRightArithmetic) fill = b_.op(op, vt, {value, c_splat(ct, 0, width - 1)});
    return b_.op(Op::OpSelect, vt, {big, fill, shifted});
  }

  uint32_t clamp_field(uint32_t v) { return ext(GLSLstd450UMin, t_uvec4(), {v, c_uvec4(32, 32, 32, 32)}); }

  bool arithmetic(const Instruction& inst) {
    const DataType t = inst.type;
    const uint32_t vt = vec_type(t);
    const bool fl = is_float(t);
    const bool sg = is_signed(t);
    auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
    auto bin = [&](Op f_op, Op s_op, Op u_op) {
      const Val a = src(0, t), b = src(1, t);
      return Val{b_.op(fl ? f_op : (sg ? s_op : u_op), vt, {a.id, b.id}), t};
    };
    auto unary_ext = [&](GLSLstd450 which, DataType as) {
      const Val a = src(0, as);
      return Val{ext(which, vec_type(as), {a.id}), as};
    };
    // 64-bit floats: GLSL.std.450's transcendental functions take 32-bit floats only.
    auto transcendental = [&](GLSLstd450 which, std::initializer_list<Val> args) {
      std::vector<uint32_t> ops = {glsl_, static_cast<uint32_t>(which)};
      for (Val a : args) ops.push_back(t == DataType::F64 ? convert(a, DataType::F32).id : a.id);
      Val r{b_.op(Op::OpExtInst, vec_type(DataType::F32), ops), DataType::F32};
      return t == DataType::F64 ? convert(r, DataType::F64) : r;
    };
    Val r;
    switch (inst.op) {
      case AsmOp::MOV: r = src(0, t); break;
      case AsmOp::ABS: {
        const Val a = src(0, t);
        r = {ext(fl ? GLSLstd450FAbs : GLSLstd450SAbs, vt, {a.id}), t};
        break;
      }
      case AsmOp::ADD:
      case AsmOp::SUB: {
        const Val a = src(0, t), b = src(1, t);
        const bool add = inst.op == AsmOp::ADD;
        r = {b_.op(fl ? (add ? Op::OpFAdd : Op::OpFSub) : (add ? Op::OpIAdd : Op::OpISub), vt, {a.id, b.id}), t};
        if (!fl && inst.update_cc && !inst.saturate && !inst.signed_saturate) {
          write_dest(inst, r, add_sub_flags(inst.op, a, b, r));
          return true;
        }
        break;
      }
      case AsmOp::MUL:
        if (inst.high) {
          if (is_64(t)) return fail(inst, "MUL.HI is supported on 32-bit types only");
          const Val a = src(0, t), b = src(1, t);
          const uint32_t st = b_.global(Op::OpTypeStruct, {vt, vt}, false);
          const uint32_t both = b_.op(sg ? Op::OpSMulExtended : Op::OpUMulExtended, st, {a.id, b.id});
          r = {b_.op(Op::OpCompositeExtract, vt, {both, 1}), t};
        } else {
          r = bin(Op::OpFMul, Op::OpIMul, Op::OpIMul);
        }
        break;
      case AsmOp::MAD: {
        const Val a = src(0, t), b = src(1, t), c = src(2, t);
        if (t == DataType::F32 && options_.exact_float_mad) {
          // NVIDIA's MAD.F32 is fused. Vulkan lets Fma be split into a multiply and an add (lavapipe does), so
          // compute it in double: the product of two floats is exact there, and the sum rounds once more.
          const Val ad = convert(a, DataType::F64), bd = convert(b, DataType::F64), cd = convert(c, DataType::F64);
          const uint32_t prod = b_.op(Op::OpFMul, vec_type(DataType::F64), {ad.id, bd.id});
          r = convert({b_.op(Op::OpFAdd, vec_type(DataType::F64), {prod, cd.id}), DataType::F64}, DataType::F32);
        } else if (fl) {
          r = {ext(GLSLstd450Fma, vt, {a.id, b.id, c.id}), t};
        } else {
          r = {b_.op(Op::OpIAdd, vt, {b_.op(Op::OpIMul, vt, {a.id, b.id}), c.id}), t};
        }
        break;
      }
      case AsmOp::MIN: {
        const Val a = src(0, t), b = src(1, t);
        r = {ext(fl ? GLSLstd450FMin : (sg ? GLSLstd450SMin : GLSLstd450UMin), vt, {a.id, b.id}), t};
        break;
      }
      case AsmOp::MAX: {
        const Val a = src(0, t), b = src(1, t);
        r = {ext(fl ? GLSLstd450FMax : (sg ? GLSLstd450SMax : GLSLstd450UMax), vt, {a.id, b.id}), t};
        break;
      }
      case AsmOp::DIV:
      case AsmOp::MOD: {
        // NV_gpu_program4: DIV and MOD divide each component of the first operand by the scalar second operand.
        const Val a = src(0, t);
        const Val b = splat(src(1, t), 0);
        if (fl) {
          r = {b_.op(Op::OpFDiv, vt, {a.id, b.id}), t};
        } else {
          // Integer division by zero is undefined in SPIR-V; NVIDIA returns all ones for the quotient.
          const uint32_t zero = b_.op(Op::OpIEqual, t_bvec4(), {b.id, c_splat(t, 0, 0)});
          const uint32_t safe = b_.op(Op::OpSelect, vt, {zero, c_splat(t, 0, 1), b.id});
          // MOD.S: NVIDIA computes the remainder of the operands' unsigned bit patterns (the reference corpus,
          // int_bits, shows it for negative dividends), and GLSL leaves % of negative operands undefined.
          Op op = inst.op == AsmOp::DIV ? (sg ? Op::OpSDiv : Op::OpUDiv) : Op::OpUMod;
          uint32_t q;
          if (op == Op::OpUMod && sg) {
            const DataType ut = is_64(t) ? DataType::U64 : DataType::U32;
            const uint32_t ua = b_.op(Op::OpBitcast, vec_type(ut), {a.id}), ub = b_.op(Op::OpBitcast, vec_type(ut), {safe});
            q = b_.op(Op::OpBitcast, vt, {b_.op(Op::OpUMod, vec_type(ut), {ua, ub})});
          } else {
            q = b_.op(op, vt, {a.id, safe});
          }
          const uint32_t on_zero = inst.op == AsmOp::DIV ? c_splat(t, 0, -1) : a.id;
          r = {b_.op(Op::OpSelect, vt, {zero, on_zero, q}), t};
        }
        break;
      }
      case AsmOp::SEQ: case AsmOp::SNE: case AsmOp::SLT: case AsmOp::SLE: case AsmOp::SGT: case AsmOp::SGE: {
        const Val a = src(0, t), b = src(1, t);
        Op op;
        switch (inst.op) {
          case AsmOp::SEQ: op = fl ? Op::OpFOrdEqual : Op::OpIEqual; break;
          case AsmOp::SNE: op = fl ? Op::OpFUnordNotEqual : Op::OpINotEqual; break;
          case AsmOp::SLT: op = fl ? Op::OpFOrdLessThan : (sg ? Op::OpSLessThan : Op::OpULessThan); break;
          case AsmOp::SLE: op = fl ? Op::OpFOrdLessThanEqual : (sg ? Op::OpSLessThanEqual : Op::OpULessThanEqual); break;
          case AsmOp::SGT: op = fl ? Op::OpFOrdGreaterThan : (sg ? Op::OpSGreaterThan : Op::OpUGreaterThan); break;
          default: op = fl ? Op::OpFOrdGreaterThanEqual : (sg ? Op::OpSGreaterThanEqual : Op::OpUGreaterThanEqual); break;
        }
        r = bool_result(b_.op(op, t_bvec4(), {a.id, b.id}), t);
        break;
      }
      case AsmOp::SFL: r = bool_result(c_bvec4(0), t); break;
      case AsmOp::STR: r = bool_result(c_bvec4(0xF), t); break;
      case AsmOp::SSG: {
        const Val a = src(0, t);
        if (fl) r = {ext(GLSLstd450FSign, vt, {a.id}), t};
        else if (sg) r = {ext(GLSLstd450SSign, vt, {a.id}), t};
        else r = {b_.op(Op::OpSelect, vt, {b_.op(Op::OpINotEqual, t_bvec4(), {a.id, c_splat(t, 0, 0)}), c_splat(t, 0, 1), c_splat(t, 0, 0)}), t};
        break;
      }
      case AsmOp::CMP: {
        const Val a = src(0, t), b = src(1, t), c = src(2, t);
        const uint32_t neg = fl ? b_.op(Op::OpFOrdLessThan, t_bvec4(), {a.id, c_splat(t, 0.0, 0)})
                                : b_.op(Op::OpSLessThan, t_bvec4(), {convert_bits_signed(a), c_splat(is_64(t) ? DataType::S64 : DataType::S32, 0, 0)});
        r = {b_.op(Op::OpSelect, vt, {neg, b.id, c.id}), t};
        break;
      }
      case AsmOp::AND: r = bin(Op::OpBitwiseAnd, Op::OpBitwiseAnd, Op::OpBitwiseAnd); break;
      case AsmOp::OR: r = bin(Op::OpBitwiseOr, Op::OpBitwiseOr, Op::OpBitwiseOr); break;
      case AsmOp::XOR: r = bin(Op::OpBitwiseXor, Op::OpBitwiseXor, Op::OpBitwiseXor); break;
      case AsmOp::NOT: r = {b_.op(Op::OpNot, vt, {src(0, t).id}), t}; break;
      case AsmOp::SHL:
      case AsmOp::SHR: {
        const Val a = src(0, t);
        const Val n = src(1, DataType::U32);
        const Op op = inst.op == AsmOp::SHL ? Op::OpShiftLeftLogical
                                             : (sg ? Op::OpShiftRightArithmetic : Op::OpShiftRightLogical);
        r = {shift(op, t, a.id, n.id), t};
        break;
      }
      case AsmOp::BFE:
      case AsmOp::BFI: {
        if (is_64(t)) return fail(inst, "bitfield instructions are supported on 32-bit types only");
        // Operand 0 holds the field: .x width, .y offset (NV_gpu_program5 BFE/BFI).
        const Val field = src(0, DataType::U32);
        const uint32_t width = clamp_field(splat(field, 0).id);
        const uint32_t offset = clamp_field(splat(field, 1).id);
        // Keep offset + width within 32 bits (SPIR-V leaves larger fields undefined).
        const uint32_t room = b_.op(Op::OpISub, t_uvec4(), {c_uvec4(32, 32, 32, 32), offset});
        const uint32_t count = ext(GLSLstd450UMin, t_uvec4(), {width, room});
        const uint32_t off = ext(GLSLstd450UMin, t_uvec4(), {offset, c_uvec4(31, 31, 31, 31)});
        const uint32_t cnt = b_.op(Op::OpSelect, t_uvec4(), {b_.op(Op::OpUGreaterThanEqual, t_bvec4(), {offset, c_uvec4(32, 32, 32, 32)}), c_uvec4(0, 0, 0, 0), count});
        // SPIR-V bit-field ops take scalar offset/count with vector base: do it per component.
        const Val v = src(1, t);
        std::vector<uint32_t> parts;
        const Val base = inst.op == AsmOp::BFI ? src(2, t) : Val{};
        for (uint32_t c = 0; c < 4; ++c) {
          const uint32_t o = b_.op(Op::OpCompositeExtract, t_u32(), {off, c});
          const uint32_t n = b_.op(Op::OpCompositeExtract, t_u32(), {cnt, c});
          const uint32_t x = component(v, c);
          if (inst.op == AsmOp::BFE) {
            parts.push_back(b_.op(sg ? Op::OpBitFieldSExtract : Op::OpBitFieldUExtract, scalar_type(t), {x, o, n}));
          } else {
            parts.push_back(b_.op(Op::OpBitFieldInsert, scalar_type(t), {component(base, c), x, o, n}));
          }
        }
        r = {b_.op(Op::OpCompositeConstruct, vt, parts), t};
        break;
      }
      case AsmOp::BFR:
      case AsmOp::BTC:
      case AsmOp::BTFL:
      case AsmOp::BTFM: {
        if (is_64(t)) return fail(inst, "bit-count instructions are supported on 32-bit types only");
        const Val a = src(0, t);
        uint32_t x;
        if (inst.op == AsmOp::BFR) x = b_.op(Op::OpBitReverse, vt, {a.id});
        else if (inst.op == AsmOp::BTC) x = b_.op(Op::OpBitCount, vt, {a.id});
        else if (inst.op == AsmOp::BTFL) x = ext(GLSLstd450FindILsb, vt, {a.id});
        else x = ext(sg ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, vt, {a.id});
        r = {x, t};
        break;
      }
      case AsmOp::I2F: r = convert(src(0, t), DataType::F32); break;
      case AsmOp::FLR: case AsmOp::CEIL: case AsmOp::TRUNC: case AsmOp::ROUND: {
        // The operand is floating-point; .S / .U convert the rounded value to an integer result.
        const DataType ft = t == DataType::F64 || t == DataType::S64 || t == DataType::U64 ? DataType::F64 : DataType::F32;
        const GLSLstd450 which = inst.op == AsmOp::FLR ? GLSLstd450Floor
                                 : inst.op == AsmOp::CEIL ? GLSLstd450Ceil
                                 : inst.op == AsmOp::TRUNC ? GLSLstd450Trunc : GLSLstd450RoundEven;
        r = unary_ext(which, ft);
        if (!fl) r = convert(r, t);
        break;
      }
      case AsmOp::FRC: r = unary_ext(GLSLstd450Fract, t); break;
      case AsmOp::RCP: {
        const Val a = src(0, t);
        r = {b_.op(Op::OpFDiv, vt, {c_splat(t, 1.0, 0), a.id}), t};
        break;
      }
      case AsmOp::RSQ: {
        // ARB_vertex_program RSQ: 1 / sqrt(|x|).
        const Val a = src(0, t);
        r = {ext(GLSLstd450InverseSqrt, vt, {ext(GLSLstd450FAbs, vt, {a.id})}), t};
        break;
      }
      case AsmOp::EX2: r = transcendental(GLSLstd450Exp2, {src(0, t)}); break;
      case AsmOp::LG2: r = transcendental(GLSLstd450Log2, {src(0, t)}); break;
      case AsmOp::SIN: r = transcendental(GLSLstd450Sin, {src(0, t)}); break;
      case AsmOp::COS: r = transcendental(GLSLstd450Cos, {src(0, t)}); break;
      case AsmOp::POW: r = transcendental(GLSLstd450Pow, {src(0, t), src(1, t)}); break;
      case AsmOp::DP2: case AsmOp::DP3: case AsmOp::DP4: {
        const uint32_t n = inst.op == AsmOp::DP2 ? 2 : inst.op == AsmOp::DP3 ? 3 : 4;
        const Val a = src(0, t), b = src(1, t);
        uint32_t sum = 0;
        for (uint32_t c = 0; c < n; ++c) {
          const uint32_t prod = b_.op(Op::OpFMul, scalar_type(t), {component(a, c), component(b, c)});
          sum = sum ? b_.op(Op::OpFAdd, scalar_type(t), {sum, prod}) : prod;
        }
        r = splat_scalar(sum, t);
        break;
      }
      case AsmOp::CVT: r = convert(src(0, inst.src_type), t); break;
      case AsmOp::PK64: {
        // Two 32-bit words per 64-bit component: result.x = (op.y << 32) | op.x, result.y from op.zw.
        const Val a = src(0, DataType::U32);
        const DataType wt = is_float(t) ? DataType::F64 : (sg ? DataType::S64 : DataType::U64);
        const uint32_t v2t = t_vec(t_u32(), 2);
        const uint32_t lo = b_.op(Op::OpVectorShuffle, v2t, {a.id, a.id, 0, 1});
        const uint32_t hi = b_.op(Op::OpVectorShuffle, v2t, {a.id, a.id, 2, 3});
        const uint32_t x = b_.op(Op::OpBitcast, scalar_type(wt), {lo});
        const uint32_t y = b_.op(Op::OpBitcast, scalar_type(wt), {hi});
        r = {b_.op(Op::OpCompositeConstruct, vec_type(wt), {x, y, x, y}), wt};
        break;
      }
      case AsmOp::UP64: {
        const DataType wt = is_float(t) ? DataType::F64 : (sg ? DataType::S64 : DataType::U64);
        const Val a = src(0, wt);
        const uint32_t v2t = t_vec(t_u32(), 2);
        const uint32_t x = b_.op(Op::OpBitcast, v2t, {component(a, 0)});
        const uint32_t y = b_.op(Op::OpBitcast, v2t, {component(a, 1)});
        r = {b_.op(Op::OpVectorShuffle, t_uvec4(), {x, y, 0, 1, 2, 3}), DataType::U32};
        break;
      }
      case AsmOp::TGBALLOT: case AsmOp::TGALL: case AsmOp::TGANY: case AsmOp::TGEQ:
      case AsmOp::SHFIDX: case AsmOp::SHFUP: case AsmOp::SHFDOWN: case AsmOp::SHFXOR:
        if (!thread_group(inst, r)) return false;
        break;
      default:
        return fail(inst, "instruction not supported");
    }
    write_dest(inst, r);
    return true;
  }

  uint32_t convert_bits_signed(Val v) {
    const DataType st = is_64(v.type) ? DataType::S64 : DataType::S32;
    return v.type == st ? v.id : b_.op(Op::OpBitcast, vec_type(st), {v.id});
  }

  bool thread_group(const Instruction& inst, Val& r) {
    uses_subgroup_ = true;
    const uint32_t subgroup = c_u32(kScopeSubgroup);
    const DataType t = inst.type;
    if (inst.op == AsmOp::TGBALLOT || inst.op == AsmOp::TGALL || inst.op == AsmOp::TGANY) {
      const Val a = load_operand(inst.sources[0], is_float(t) ? DataType::F32 : DataType::U32);
      const uint32_t x = component(a, 0);
      const uint32_t cond = is_float(t) ? b_.op(Op::OpFUnordNotEqual, t_bool(), {x, c_scalar(DataType::F32, 0.0, 0, true)})
                                        : b_.op(Op::OpINotEqual, t_bool(), {x, c_u32(0)});
      if (inst.op == AsmOp::TGBALLOT) {
        // NV_shader_thread_group: a 32-bit mask of the threads of the warp whose operand is non-zero.
        uses_ballot_ = true;
        const uint32_t ballot = b_.op(Op::OpGroupNonUniformBallot, t_uvec4(), {subgroup, cond});
        r = splat_scalar(b_.op(Op::OpCompositeExtract, t_u32(), {ballot, 0}), DataType::U32);
        if (t == DataType::S32) r = {b_.op(Op::OpBitcast, vec_type(DataType::S32), {r.id}), DataType::S32};
        return true;
      }
      uses_vote_ = true;
      const uint32_t vote = b_.op(inst.op == AsmOp::TGALL ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny,
                                  t_bool(), {subgroup, cond});
      const uint32_t v4 = b_.op(Op::OpCompositeConstruct, t_bvec4(), {vote, vote, vote, vote});
      r = bool_result(v4, t);
      return true;
    }
    if (inst.op == AsmOp::TGEQ) {
      uses_vote_ = true;
      const Val a = load_operand(inst.sources[0], DataType::U32);
      const uint32_t eq = b_.op(Op::OpGroupNonUniformAllEqual, t_bool(), {subgroup, component(a, 0)});
      r = bool_result(b_.op(Op::OpCompositeConstruct, t_bvec4(), {eq, eq, eq, eq}), t);
      return true;
    }
    // SHF*: operand 0 the value (.x), operand 1 the lane index or offset (.x), operand 2 the packed
    // clamp (bits 0-4) and segment mask (bits 8-12). Result .x: the source lane was valid; .y: the value.
    uses_shuffle_ = true;
    const Val value = load_operand(inst.sources[0], DataType::U32);
    const Val b = load_operand(inst.sources[1], DataType::U32);
    const Val c = load_operand(inst.sources[2], DataType::U32);
    const uint32_t u = t_u32();
    const uint32_t lane = b_.op(Op::OpLoad, u, {builtin_var(spv::BuiltIn::SubgroupLocalInvocationId, u)});
    const uint32_t cx = component(c, 0), bx = component(b, 0);
    const uint32_t clamp = b_.op(Op::OpBitwiseAnd, u, {cx, c_u32(31)});
    const uint32_t segmask = b_.op(Op::OpBitwiseAnd, u, {b_.op(Op::OpShiftRightLogical, u, {cx, c_u32(8)}), c_u32(31)});
    const uint32_t not_seg = b_.op(Op::OpNot, u, {segmask});
    const uint32_t min_lane = b_.op(Op::OpBitwiseAnd, u, {lane, segmask});
    const uint32_t max_lane = b_.op(Op::OpBitwiseOr, u, {min_lane, b_.op(Op::OpBitwiseAnd, u, {clamp, not_seg})});
    uint32_t j, valid;
    switch (inst.op) {
      case AsmOp::SHFIDX:
        j = b_.op(Op::OpBitwiseOr, u, {min_lane, b_.op(Op::OpBitwiseAnd, u, {bx, not_seg})});
        valid = b_.op(Op::OpULessThanEqual, t_bool(), {j, max_lane});
        break;
      case AsmOp::SHFUP:
        j = b_.op(Op::OpISub, u, {lane, bx});
        valid = b_.op(Op::OpSGreaterThanEqual, t_bool(),
                      {b_.op(Op::OpBitcast, t_i32(), {j}), b_.op(Op::OpBitcast, t_i32(), {max_lane})});
        break;
      case AsmOp::SHFDOWN:
        j = b_.op(Op::OpIAdd, u, {lane, bx});
        valid = b_.op(Op::OpULessThanEqual, t_bool(), {j, max_lane});
        break;
      default:
        j = b_.op(Op::OpBitwiseXor, u, {lane, bx});
        valid = b_.op(Op::OpULessThanEqual, t_bool(), {j, max_lane});
        break;
    }
    const uint32_t source = b_.op(Op::OpSelect, u, {valid, j, lane});
    const uint32_t shuffled = b_.op(Op::OpGroupNonUniformShuffle, u, {subgroup, component(value, 0), source});
    const uint32_t valid_word = b_.op(Op::OpSelect, u, {valid, c_u32(0xFFFFFFFFu), c_u32(0)});
    r = {b_.op(Op::OpCompositeConstruct, t_uvec4(), {valid_word, shuffled, valid_word, shuffled}), DataType::U32};
    if (is_float(t) || is_signed(t)) {
      // The bits move unchanged; keep the write in the instruction's own type so 64-bit registers convert right.
      r = {b_.op(Op::OpBitcast, vec_type(is_float(t) ? DataType::F32 : DataType::S32), {r.id}),
           is_float(t) ? DataType::F32 : DataType::S32};
    }
    return true;
  }

  uint32_t void_ = 0, bool_ = 0, u32_ = 0, i32_ = 0, bvec4_ = 0, uvec4_ = 0, uvec3_ = 0;
  std::array<uint32_t, 8> scalar_cache_{}, vec_cache_{};
  std::unordered_map<uint64_t, uint32_t> ptr_cache_;
  std::unordered_map<uint32_t, uint32_t> u32_constants_, uvec4_splats_;
  const ParsedProgram& p_;
  const AssembleOptions& options_;
  ProgramInfo& info_;
  Failure& failure_;
  SpirvBuilder b_;
  uint32_t glsl_ = 0;
  std::vector<uint32_t> temp_vars_;
  std::array<uint32_t, 2> cc_vars_{};
  std::map<uint32_t, uint32_t> storage_vars_;
  std::map<uint32_t, uint32_t> parameter_vars_;  // program.buffer index -> uniform block variable
  std::map<uint32_t, uint32_t> param_arrays_;
  std::map<uint32_t, uint32_t> builtin_vars_;
  std::set<uint32_t> decorated_ubo_types_;
  uint32_t shared_var_ = 0, shared_words_ = 1;
  uint32_t local_var_ = 0, env_var_ = 0;
  uint32_t group_size_ = 0;
  std::vector<uint32_t> interface_;
  std::vector<uint32_t> fn_ids_;
  std::vector<uint32_t> function_vars_;
  std::vector<Construct> constructs_;
  std::vector<uint32_t> loop_headers_;
  bool uses_int64_atomics_ = false, uses_storage8_ = false, uses_storage16_ = false;
  std::map<uint32_t, uint32_t> storage8_vars_, storage16_vars_;  // program.storage index -> its 8/16-bit view
  std::map<uint32_t, uint32_t> storage64_vars_;  // program.storage index -> its 64-bit view
  bool uses_int64_ = false, uses_float64_ = false, uses_subgroup_ = false, uses_ballot_ = false, uses_vote_ = false,
       uses_shuffle_ = false;
};

}  // namespace

bool generate_spirv(const ParsedProgram& program, const AssembleOptions& options, std::vector<uint32_t>& words,
                    ProgramInfo& info, Failure& failure) {
  Codegen gen(program, options, info, failure);
  return gen.run(words);
}

}  // namespace bismuth::nvasm::detail
