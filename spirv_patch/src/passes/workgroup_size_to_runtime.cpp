// workgroup_size_to_runtime: workgroup size -> run-time value from push constants. The rules it follows:
// - SPIR-V 1.6 section 3.21: LocalInvocationIndex = x + y*X + z*X*Y; with a physical size (L,1,1) it is the flat
//   index itself, so the logical ids come from it: (i % X, (i / X) % Y, i / (X*Y)), GlobalInvocationId =
//   WorkgroupId * (X,Y,Z) + LocalInvocationId. WorkgroupId and NumWorkgroups do not change.
// - Section 2.4 and 2.16: a new entry function (the wrapper) calls the old one; every value the old size
//   constants fed inside a function is computed again at the top of that function (after its OpVariables) from
//   the pushed size. Constants that must stay constants (array lengths, types, decorations, execution modes other
//   than LocalSizeId) cannot follow a run-time value: such modules are refused.
// - Section 2.17 / Vulkan 15.6: OpEntryPoint interfaces list Input/Output variables before SPIR-V 1.4 and every
//   global variable the entry point uses from 1.4 on.
// Everything is checked before the first edit; after that only the id bound can run out.
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"
#include "grammar.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t kVersion1_4 = 0x00010400;
constexpr uint32_t kVersion1_5 = 0x00010500;
constexpr uint32_t kScopeWorkgroup = 2;
constexpr uint32_t kScopeSubgroup = 3;
constexpr int kMaxTypeDepth = 64;

uint32_t u(auto value) {
  return static_cast<uint32_t>(value);
}

std::string id_name(uint32_t id) {
  return "%" + std::to_string(id);
}

// ---------------------------------------------------------------------------------------------------------------
// Id operands of an instruction, from the grammar tables (Module::parse has checked the instruction against them).

struct IdOperands {
  std::vector<size_t> ids;                // word indices of <id> operands (not the result type, not the result)
  std::vector<size_t> constant_required;  // word indices among `ids` that must name constant instructions
  size_t result_type = 0;                 // word index, 0 when none
  size_t result = 0;                      // word index, 0 when none
  size_t rest = 0;                        // word index where uninterpreted words begin, 0 when none
};

class IdWalker {
 public:
  explicit IdWalker(std::span<const uint32_t> words) : words_(words) {}

  IdOperands walk(std::span<const grammar::Operand> operands) {
    walk_list(operands);
    return std::move(out_);
  }

 private:
  void walk_list(std::span<const grammar::Operand> operands) {
    for (const grammar::Operand& operand : operands) {
      switch (operand.quantifier) {
        case grammar::Quantifier::One:
          if (index_ < words_.size()) take(operand);
          break;
        case grammar::Quantifier::Optional:
          if (index_ < words_.size()) take(operand);
          break;
        case grammar::Quantifier::Many:
          while (index_ < words_.size()) take(operand);
          break;
      }
    }
  }

  void take(const grammar::Operand& operand) {
    switch (operand.cls) {
      case grammar::OperandClass::Id: out_.ids.push_back(index_++); return;
      case grammar::OperandClass::TypeId: out_.result_type = index_++; return;
      case grammar::OperandClass::ResultId: out_.result = index_++; return;
      case grammar::OperandClass::Literal: ++index_; return;
      case grammar::OperandClass::String:
        for (; index_ < words_.size(); ++index_) {
          const uint32_t word = words_[index_];
          if ((word & 0xff000000u) == 0 || (word & 0xff0000u) == 0 || (word & 0xff00u) == 0 || (word & 0xffu) == 0) {
            ++index_;
            return;
          }
        }
        return;
      case grammar::OperandClass::Rest:
        if (out_.rest == 0) out_.rest = index_;
        index_ = words_.size();
        return;
      case grammar::OperandClass::PairIdLiteral:
        out_.ids.push_back(index_);
        index_ += 2;
        return;
      case grammar::OperandClass::PairIdId:
        out_.ids.push_back(index_);
        if (index_ + 1 < words_.size()) out_.ids.push_back(index_ + 1);
        index_ += 2;
        return;
      case grammar::OperandClass::ValueEnum: {
        const grammar::EnumKind& kind = grammar::enum_kind(operand.enum_kind);
        const grammar::Enumerant* enumerant = grammar::find_enumerant(kind, words_[index_++]);
        if (enumerant) walk_list(grammar::parameters(*enumerant));
        return;
      }
      case grammar::OperandClass::BitEnum: {
        const grammar::EnumKind& kind = grammar::enum_kind(operand.enum_kind);
        const uint32_t mask = words_[index_++];
        const bool image_operands = std::string_view(kind.name) == "ImageOperands";
        for (uint32_t bit = 0; bit < 32; ++bit) {
          if (!(mask & (1u << bit))) continue;
          const grammar::Enumerant* enumerant = grammar::find_enumerant(kind, 1u << bit);
          if (!enumerant) continue;
          const size_t before = out_.ids.size();
          walk_list(grammar::parameters(*enumerant));
          const uint32_t value = 1u << bit;
          if (image_operands &&
              (value == u(spv::ImageOperandsMask::ConstOffset) || value == u(spv::ImageOperandsMask::ConstOffsets))) {
            out_.constant_required.insert(out_.constant_required.end(), out_.ids.begin() + before, out_.ids.end());
          }
        }
        return;
      }
    }
  }

  std::span<const uint32_t> words_;
  size_t index_ = 1;
  IdOperands out_;
};

bool is_atomic(Op op) {
  const auto n = u(op);
  return (n >= u(Op::OpAtomicLoad) && n <= u(Op::OpAtomicXor)) || op == Op::OpAtomicFlagTestAndSet ||
         op == Op::OpAtomicFlagClear || op == Op::OpAtomicFMinEXT || op == Op::OpAtomicFMaxEXT ||
         op == Op::OpAtomicFAddEXT;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// An OpExtInst of a NonSemantic.* set (debug information): it names ids without using their values.
bool is_non_semantic(const Module& module, InstructionHandle handle) {
  const auto w = module.words(handle);
  if (module.opcode(handle) != Op::OpExtInst || w.size() < 4) return false;
  auto set = module.definition(w[3]);
  return set && module.opcode(*set) == Op::OpExtInstImport &&
         starts_with(module.string_operand(*set, 2), "NonSemantic.");
}

// The id operands of `handle`. For OpExtInst the operands after the instruction number are ids in every set
// Bismuth meets (GLSL.std.450, NonSemantic.*); for OpSpecConstantOp only the ids the named opcode takes.
IdOperands id_operands(const Module& module, InstructionHandle handle) {
  const auto w = module.words(handle);
  const Op op = module.opcode(handle);
  const grammar::InstructionInfo* info = grammar::find_instruction(u(op));
  if (!info) return {};
  IdOperands out = IdWalker(w).walk(grammar::operands(*info));
  if (op == Op::OpExtInst && out.rest != 0) {
    for (size_t i = out.rest; i < w.size(); ++i) out.ids.push_back(i);
  }
  if (op == Op::OpSpecConstantOp && w.size() >= 4) {
    const auto inner = static_cast<Op>(w[3]);
    size_t id_count = w.size() - 4;
    if (inner == Op::OpCompositeExtract) id_count = 1;
    if (inner == Op::OpCompositeInsert || inner == Op::OpVectorShuffle) id_count = 2;
    for (size_t i = 4; i < w.size() && i < 4 + id_count; ++i) out.ids.push_back(i);
  }
  // Scope and memory-semantics operands must be constants (the grammar tables keep them as plain ids).
  auto required = [&](std::initializer_list<size_t> indices) {
    for (size_t i : indices) {
      if (i < w.size()) out.constant_required.push_back(i);
    }
  };
  if (op == Op::OpControlBarrier) required({1, 2, 3});
  if (op == Op::OpMemoryBarrier) required({1, 2});
  if (op == Op::OpAtomicStore || op == Op::OpAtomicFlagClear) {
    required({2, 3});
  } else if (is_atomic(op)) {
    required({4, 5});
    if (op == Op::OpAtomicCompareExchange || op == Op::OpAtomicCompareExchangeWeak) required({6});
  }
  if (starts_with(info->name, "OpGroup") && out.result != 0) required({3});
  if (op == Op::OpGroupNonUniformQuadSwap) required({5});
  if ((op == Op::OpGroupNonUniformBroadcast || op == Op::OpGroupNonUniformQuadBroadcast) &&
      module.version() < kVersion1_5) {
    required({5});
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Functions and the call graph.

struct Function {
  uint32_t id = 0;
  uint32_t type = 0;         // OpTypeFunction
  uint32_t result_type = 0;  // return type
  InstructionHandle header = 0;
  std::vector<InstructionHandle> body;  // after OpFunction, OpFunctionEnd included
  bool has_blocks = false;
  // First instruction of the first block after its OpVariables: where per-function code goes.
  InstructionHandle insert_point = 0;
  std::vector<uint32_t> callees;
};

Expected<std::vector<Function>> collect_functions(const Module& module) {
  std::vector<Function> functions;
  Function* current = nullptr;
  bool in_first_block = false;
  for (InstructionHandle h : module.instructions(Section::Function)) {
    const Op op = module.opcode(h);
    const auto w = module.words(h);
    if (op == Op::OpFunction) {
      if (current) return fail(module.describe(h) + ": OpFunction inside a function");
      if (w.size() < 5) return fail(module.describe(h) + ": malformed OpFunction");
      functions.push_back(Function{});
      current = &functions.back();
      current->id = w[2];
      current->result_type = w[1];
      current->type = w[4];
      current->header = h;
      in_first_block = false;
      continue;
    }
    if (!current) {
      // Debug lines (and non-semantic instructions) may sit between functions.
      if (op == Op::OpLine || op == Op::OpNoLine || op == Op::OpNop || op == Op::OpExtInst) continue;
      return fail(module.describe(h) + ": instruction outside a function in the function section");
    }
    current->body.push_back(h);
    if (op == Op::OpFunctionEnd) {
      current = nullptr;
      continue;
    }
    if (op == Op::OpLabel) {
      if (!current->has_blocks) {
        current->has_blocks = true;
        in_first_block = true;
        current->insert_point = 0;
        continue;
      }
      in_first_block = false;
    }
    if (in_first_block) {
      // Handle 0 is the first capability, never a function instruction: 0 means "not found yet".
      if (op == Op::OpVariable) {
        current->insert_point = 0;
      } else if (current->insert_point == 0) {
        current->insert_point = h;
      }
    }
    if (op == Op::OpFunctionCall) {
      if (w.size() < 4) return fail(module.describe(h) + ": malformed OpFunctionCall");
      current->callees.push_back(w[3]);
    }
  }
  if (current) {
    return fail(module.describe(current->header) + ": function " + id_name(current->id) + " has no OpFunctionEnd");
  }
  for (const Function& f : functions) {
    if (f.has_blocks && f.insert_point == 0) {
      return fail(module.describe(f.header) + ": the first block of function " + id_name(f.id) +
                  " has no instruction after its variables");
    }
  }
  return functions;
}

std::set<uint32_t> reachable(const std::vector<Function>& functions, uint32_t root) {
  std::unordered_map<uint32_t, const Function*> by_id;
  for (const Function& f : functions) by_id[f.id] = &f;
  std::set<uint32_t> seen{root};
  std::vector<uint32_t> pending{root};
  while (!pending.empty()) {
    const uint32_t id = pending.back();
    pending.pop_back();
    auto it = by_id.find(id);
    if (it == by_id.end()) continue;
    for (uint32_t callee : it->second->callees) {
      if (seen.insert(callee).second) pending.push_back(callee);
    }
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------------------------
// OpSpecConstantOp opcodes that have an ordinary instruction with the same operands in a function.

enum class SpecShape { Unary, Binary, Ternary, Extract, Insert, Shuffle };

std::optional<SpecShape> spec_op_shape(Op op) {
  switch (op) {
    case Op::OpSConvert:
    case Op::OpUConvert:
    case Op::OpFConvert:
    case Op::OpSNegate:
    case Op::OpNot:
    case Op::OpLogicalNot:
    case Op::OpQuantizeToF16:
    case Op::OpBitcast:
    case Op::OpFNegate:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertFToU:
    case Op::OpConvertUToF: return SpecShape::Unary;
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod: return SpecShape::Binary;
    case Op::OpSelect: return SpecShape::Ternary;
    case Op::OpCompositeExtract: return SpecShape::Extract;
    case Op::OpCompositeInsert: return SpecShape::Insert;
    case Op::OpVectorShuffle: return SpecShape::Shuffle;
    default: return std::nullopt;
  }
}

// Checks the operand count of an OpSpecConstantOp against the opcode it names.
Status check_spec_op(const Module& module, InstructionHandle h) {
  const auto w = module.words(h);
  if (w.size() < 4) return fail(module.describe(h) + ": OpSpecConstantOp without an opcode");
  const auto inner = static_cast<Op>(w[3]);
  const auto shape = spec_op_shape(inner);
  if (!shape) {
    return fail(module.describe(h) + ": OpSpecConstantOp " + opcode_name(w[3]) +
                " over the workgroup size cannot be computed in a function: not eligible");
  }
  const size_t operands = w.size() - 4;
  bool ok = false;
  switch (*shape) {
    case SpecShape::Unary: ok = operands == 1; break;
    case SpecShape::Binary: ok = operands == 2; break;
    case SpecShape::Ternary: ok = operands == 3; break;
    case SpecShape::Extract: ok = operands >= 2; break;
    case SpecShape::Insert:
    case SpecShape::Shuffle: ok = operands >= 3; break;
  }
  if (!ok) {
    return fail(module.describe(h) + ": OpSpecConstantOp " + opcode_name(w[3]) + " has " + std::to_string(operands) +
                " operand word(s), the wrong number for that opcode");
  }
  // Module::parse does not interpret these operands: check that the ids name something.
  for (size_t i : id_operands(module, h).ids) {
    if (!module.definition(w[i])) {
      return fail(module.describe(h) + ": operand " + id_name(w[i]) + " (word " + std::to_string(i) +
                  ") is not defined");
    }
  }
  return {};
}

// What a constant-only use of the workgroup size is, for the error message.
std::string constant_use_kind(Op op) {
  switch (op) {
    case Op::OpTypeArray: return "array length";
    case Op::OpConstantComposite: return "constant composite";
    case Op::OpVariable: return "variable initializer";
    case Op::OpDecorateId: return "decoration";
    case Op::OpExecutionModeId: return "execution mode operand";
    default: break;
  }
  if (starts_with(opcode_name(u(op)), "OpType")) return "type operand";
  return "constant operand";
}

std::string_view subgroup_builtin_name(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::NumSubgroups: return "NumSubgroups";
    case spv::BuiltIn::SubgroupId: return "SubgroupId";
    case spv::BuiltIn::SubgroupLocalInvocationId: return "SubgroupLocalInvocationId";
    case spv::BuiltIn::SubgroupEqMask: return "SubgroupEqMask";
    case spv::BuiltIn::SubgroupGeMask: return "SubgroupGeMask";
    case spv::BuiltIn::SubgroupGtMask: return "SubgroupGtMask";
    case spv::BuiltIn::SubgroupLeMask: return "SubgroupLeMask";
    case spv::BuiltIn::SubgroupLtMask: return "SubgroupLtMask";
    default: return "?";
  }
}

// ---------------------------------------------------------------------------------------------------------------

// A 32-bit integer scalar (count 1) or vector of `count` components; returns its signedness.
std::optional<bool> int32_type(const Module& module, uint32_t type, uint32_t count) {
  auto def = module.definition(type);
  if (!def) return std::nullopt;
  auto w = module.words(*def);
  if (count != 1) {
    if (module.opcode(*def) != Op::OpTypeVector || w.size() != 4 || w[3] != count) return std::nullopt;
    def = module.definition(w[2]);
    if (!def) return std::nullopt;
    w = module.words(*def);
  }
  if (module.opcode(*def) != Op::OpTypeInt || w.size() != 4 || w[2] != 32) return std::nullopt;
  return w[3] != 0;
}

// (storage class, pointee) of a pointer type.
std::optional<std::pair<uint32_t, uint32_t>> pointer_type(const Module& module, uint32_t type) {
  auto def = module.definition(type);
  if (!def || module.opcode(*def) != Op::OpTypePointer) return std::nullopt;
  const auto w = module.words(*def);
  if (w.size() != 4) return std::nullopt;
  return std::pair{w[2], w[3]};
}

class Pass {
 public:
  Pass(Module& module, const RuntimeGroupSizeOptions& options) : m_(module), options_(options) {}

  Expected<RuntimeGroupSizeReport> run();

 private:
  // Analysis (no edits).
  Status find_entry();
  Status index_uses();
  Status find_size_constants();
  Status find_builtins();
  Status check_converted_uses();
  Status find_push_constant();
  void detect_exact_only();
  Expected<uint64_t> type_size(uint32_t type, std::optional<uint32_t> matrix_stride, bool row_major, int depth);

  // Edits.
  Expected<uint32_t> pointer_to(uint32_t storage_class, uint32_t pointee);
  void hoist_before(uint32_t id, InstructionHandle anchor, int depth = 0);
  Expected<uint32_t> builtin_input(spv::BuiltIn builtin, uint32_t type);
  Status add_push_constant();
  Status convert_variables();
  Status rematerialize(const Function& function);
  Status add_wrapper();
  void add_name(uint32_t id, std::string_view name);

  bool is_dependent(uint32_t id) const { return dependent_.contains(id); }
  // The instruction's words after the first one, copied: edits may move the word store under a span.
  std::vector<uint32_t> operands_of(InstructionHandle h) const {
    const auto w = m_.words(h);
    return std::vector<uint32_t>(w.begin() + 1, w.end());
  }
  const Function* function(uint32_t id) const {
    for (const Function& f : functions_) {
      if (f.id == id) return &f;
    }
    return nullptr;
  }

  Module& m_;
  const RuntimeGroupSizeOptions& options_;
  RuntimeGroupSizeReport report_;
  Module::EntryPoint entry_{};
  std::vector<Function> functions_;
  std::set<uint32_t> reachable_;                        // functions the entry point calls, itself included
  std::set<uint32_t> others_reachable_;                 // functions other entry points reach
  std::unordered_map<uint32_t, uint32_t> function_of_;  // instruction handle -> function id (function section)
  std::unordered_map<uint32_t, std::vector<InstructionHandle>> users_;  // id -> instructions using it

  // Size constants: every OpSpecConstant with one of the three SpecIds -> dimension; then every
  // OpSpecConstantOp/Composite depending on them, in module order.
  std::map<uint32_t, int> roots_;
  std::set<uint32_t> dependent_;
  std::vector<InstructionHandle> dependent_order_;
  std::set<uint32_t> functions_to_rematerialize_;

  std::vector<uint32_t> local_id_vars_, global_id_vars_;
  std::optional<uint32_t> local_index_var_, workgroup_id_var_;
  std::map<uint32_t, spv::BuiltIn> subgroup_builtin_vars_;
  std::set<uint32_t> converted_;            // LocalInvocationId / GlobalInvocationId variables
  std::vector<InstructionHandle> derived_;  // access chains / copies of them, to retype

  // Push constants.
  std::optional<uint32_t> push_variable_;  // existing block to extend
  uint32_t push_struct_ = 0;
  uint32_t push_member_ = 0;

  // Pointer types by (storage class, pointee), first declaration wins; hoisting keeps ids.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pointers_;
  bool pointers_indexed_ = false;

  // Made during the edits.
  uint32_t uint_ = 0, v3_ = 0, bool_ = 0;
  uint32_t push_var_id_ = 0, push_member_pointer_ = 0, push_member_index_ = 0, push_index_constant_ = 0;
};

Status Pass::find_entry() {
  std::string seen;
  bool found = false;
  for (auto& entry : m_.entry_points()) {
    if (entry.model == spv::ExecutionModel::GLCompute && entry.name == options_.entry_point && !found) {
      entry_ = entry;
      found = true;
    }
    seen += (seen.empty() ? "" : ", ") + ("\"" + entry.name + "\"");
  }
  if (!found) {
    return fail("no GLCompute entry point named \"" + options_.entry_point +
                "\" (entry points: " + (seen.empty() ? "none" : seen) + ")");
  }
  for (auto& entry : m_.entry_points()) {
    if (entry.handle != entry_.handle && entry.function_id == entry_.function_id) {
      return fail(m_.describe(entry.handle) + ": entry point \"" + entry.name + "\" shares the function of \"" +
                  entry_.name + "\": not eligible");
    }
  }
  auto functions = collect_functions(m_);
  if (!functions) return functions.error();
  functions_ = std::move(*functions);
  for (const Function& f : functions_) {
    function_of_[f.header] = f.id;
    for (InstructionHandle h : f.body) function_of_[h] = f.id;
  }
  const Function* main = function(entry_.function_id);
  if (!main || !main->has_blocks) {
    return fail(m_.describe(entry_.handle) + ": the entry point's function " + id_name(entry_.function_id) +
                " is not defined in the module");
  }
  auto void_def = m_.definition(main->result_type);
  auto type_def = m_.definition(main->type);
  if (!void_def || m_.opcode(*void_def) != Op::OpTypeVoid || !type_def || m_.opcode(*type_def) != Op::OpTypeFunction ||
      m_.words(*type_def).size() != 3) {
    return fail(m_.describe(main->header) + ": the entry point's function is not of type void()");
  }
  reachable_ = reachable(functions_, entry_.function_id);
  for (auto& entry : m_.entry_points()) {
    if (entry.handle == entry_.handle) continue;
    for (uint32_t id : reachable(functions_, entry.function_id)) others_reachable_.insert(id);
  }
  return {};
}

Status Pass::index_uses() {
  for (InstructionHandle h : m_.instructions()) {
    const IdOperands operands = id_operands(m_, h);
    const auto w = m_.words(h);
    for (size_t i : operands.ids) users_[w[i]].push_back(h);
    if (m_.opcode(h) == Op::OpFunctionCall && w.size() >= 4 && w[3] == entry_.function_id) {
      return fail(m_.describe(h) + ": calls the entry point's function");
    }
  }
  return {};
}

Status Pass::find_size_constants() {
  auto info = find_workgroup_size(m_, entry_);
  if (!info) return fail("entry point \"" + entry_.name + "\": " + info.error().message);
  for (int d = 0; d < 3; ++d) {
    if (!info->spec_ids[d]) {
      return fail("entry point \"" + entry_.name + "\": workgroup size dimension " + std::to_string(d) + " (" +
                  std::to_string(info->size[d]) +
                  ") is not a specialization constant with a SpecId; run workgroup_size_to_spec_constants first");
    }
    report_.spec_ids[d] = *info->spec_ids[d];
  }
  if (report_.spec_ids[0] == report_.spec_ids[1] || report_.spec_ids[0] == report_.spec_ids[2] ||
      report_.spec_ids[1] == report_.spec_ids[2]) {
    return fail("entry point \"" + entry_.name + "\": two workgroup size dimensions share a SpecId, so the size " +
                "cannot be specialized to (L,1,1)");
  }
  // Every spec constant with one of the three SpecIds takes the specialized (physical) value: glslang declares a
  // second set for gl_WorkGroupSize next to LocalSizeId in SPIR-V 1.6.
  for (InstructionHandle h : m_.instructions(Section::Annotation)) {
    const auto w = m_.words(h);
    if (m_.opcode(h) != Op::OpDecorate || w.size() != 4 || w[2] != u(spv::Decoration::SpecId)) continue;
    const auto it = std::find(report_.spec_ids.begin(), report_.spec_ids.end(), w[3]);
    if (it == report_.spec_ids.end()) continue;
    auto def = m_.definition(w[1]);
    if (!def) return fail(m_.describe(h) + ": decorates undefined id " + id_name(w[1]));
    const auto dw = m_.words(*def);
    if (m_.opcode(*def) != Op::OpSpecConstant || dw.size() != 4 || !int32_type(m_, dw[1], 1)) {
      return fail(m_.describe(h) + ": the workgroup size SpecId " + std::to_string(w[3]) + " decorates " +
                  m_.describe(*def) + "; a 32-bit integer OpSpecConstant is required");
    }
    roots_[w[1]] = static_cast<int>(it - report_.spec_ids.begin());
    dependent_.insert(w[1]);
  }

  // Module-level uses, in module order (definitions come before uses).
  for (InstructionHandle h : m_.instructions()) {
    const Section section = m_.section(h);
    if (section == Section::Function) continue;
    const Op op = m_.opcode(h);
    const auto w = m_.words(h);
    const IdOperands operands = id_operands(m_, h);
    std::optional<size_t> use;
    for (size_t i : operands.ids) {
      if (is_dependent(w[i])) {
        use = i;
        break;
      }
    }
    if (!use) continue;
    if (section == Section::Debug) continue;
    if (section == Section::Annotation) {
      // The decorated target itself is not a use of its value; id operands of OpDecorateId are.
      if (op == Op::OpDecorate || op == Op::OpGroupDecorate || op == Op::OpDecorateString) continue;
      if (op == Op::OpDecorateId && *use == 1) {
        bool other = false;
        for (size_t i : operands.ids) other |= i != 1 && is_dependent(w[i]);
        if (!other) continue;
      }
    }
    if (op == Op::OpExecutionModeId && w.size() >= 3 && w[2] == u(spv::ExecutionMode::LocalSizeId)) continue;
    if (is_non_semantic(m_, h)) continue;  // debug information names the constant, its value is not used
    if (op == Op::OpSpecConstantOp || op == Op::OpSpecConstantComposite) {
      if (op == Op::OpSpecConstantOp) {
        if (Status ok = check_spec_op(m_, h); !ok) return ok;
      }
      if (w.size() < 3) return fail(m_.describe(h) + ": malformed constant");
      dependent_.insert(w[2]);
      dependent_order_.push_back(h);
      continue;
    }
    return fail(m_.describe(h) + ": workgroup size used as a constant (" + constant_use_kind(op) + "): not eligible");
  }

  // Uses inside functions.
  for (const Function& f : functions_) {
    for (InstructionHandle h : f.body) {
      const auto w = m_.words(h);
      const IdOperands operands = id_operands(m_, h);
      bool uses = false;
      for (size_t i : operands.ids) uses |= is_dependent(w[i]);
      if (!uses) continue;
      if (!reachable_.contains(f.id)) continue;  // other entry points keep reading the constants
      if (is_non_semantic(m_, h)) continue;
      for (size_t i : operands.constant_required) {
        if (is_dependent(w[i])) {
          return fail(m_.describe(h) + ": workgroup size used as a constant (operand word " + std::to_string(i) +
                      " must be a constant instruction): not eligible");
        }
      }
      if (others_reachable_.contains(f.id)) {
        return fail(m_.describe(h) + ": function " + id_name(f.id) +
                    " reads the workgroup size and is also called from another entry point: not eligible");
      }
      functions_to_rematerialize_.insert(f.id);
    }
  }
  report_.version_before = m_.version();
  return {};
}

Status Pass::find_builtins() {
  for (InstructionHandle h : m_.instructions(Section::Annotation)) {
    const Op op = m_.opcode(h);
    const auto w = m_.words(h);
    if (op == Op::OpMemberDecorate && w.size() >= 5 && w[3] == u(spv::Decoration::BuiltIn) &&
        (w[4] == u(spv::BuiltIn::LocalInvocationId) || w[4] == u(spv::BuiltIn::GlobalInvocationId))) {
      return fail(m_.describe(h) + ": LocalInvocationId / GlobalInvocationId as a block member: not eligible");
    }
    if (op != Op::OpDecorate || w.size() != 4 || w[2] != u(spv::Decoration::BuiltIn)) continue;
    const auto builtin = static_cast<spv::BuiltIn>(w[3]);
    auto def = m_.definition(w[1]);
    if (!def) return fail(m_.describe(h) + ": decorates undefined id " + id_name(w[1]));
    const Op def_op = m_.opcode(*def);
    if (builtin == spv::BuiltIn::WorkgroupSize) {
      if (def_op == Op::OpVariable) return fail(m_.describe(h) + ": BuiltIn WorkgroupSize on a variable");
      continue;
    }
    const bool ours = builtin == spv::BuiltIn::LocalInvocationId || builtin == spv::BuiltIn::GlobalInvocationId ||
                      builtin == spv::BuiltIn::LocalInvocationIndex || builtin == spv::BuiltIn::WorkgroupId;
    if (def_op == Op::OpDecorationGroup) {
      if (ours) return fail(m_.describe(h) + ": compute built-in through a decoration group: not eligible");
      continue;
    }
    if (def_op != Op::OpVariable) continue;
    const auto dw = m_.words(*def);
    if (dw.size() < 4) return fail(m_.describe(*def) + ": malformed OpVariable");
    switch (builtin) {
      case spv::BuiltIn::NumSubgroups:
      case spv::BuiltIn::SubgroupId:
      case spv::BuiltIn::SubgroupLocalInvocationId:
      case spv::BuiltIn::SubgroupEqMask:
      case spv::BuiltIn::SubgroupGeMask:
      case spv::BuiltIn::SubgroupGtMask:
      case spv::BuiltIn::SubgroupLeMask:
      case spv::BuiltIn::SubgroupLtMask: subgroup_builtin_vars_[w[1]] = builtin; continue;
      default: break;
    }
    if (!ours) continue;
    const auto pointer = pointer_type(m_, dw[1]);
    const uint32_t count = (builtin == spv::BuiltIn::LocalInvocationIndex) ? 1u : 3u;
    if (dw[3] != u(spv::StorageClass::Input) || !pointer || pointer->first != u(spv::StorageClass::Input) ||
        !int32_type(m_, pointer->second, count)) {
      return fail(m_.describe(h) + ": the built-in variable " + id_name(w[1]) + " is not an Input " +
                  (count == 1 ? "32-bit integer" : "3-component vector of 32-bit integers"));
    }
    switch (builtin) {
      case spv::BuiltIn::LocalInvocationId: local_id_vars_.push_back(w[1]); break;
      case spv::BuiltIn::GlobalInvocationId: global_id_vars_.push_back(w[1]); break;
      case spv::BuiltIn::LocalInvocationIndex:
        if (!local_index_var_) local_index_var_ = w[1];
        break;
      case spv::BuiltIn::WorkgroupId:
        if (!workgroup_id_var_) workgroup_id_var_ = w[1];
        break;
      default: break;
    }
  }
  for (uint32_t id : local_id_vars_) converted_.insert(id);
  for (uint32_t id : global_id_vars_) converted_.insert(id);
  return {};
}

Status Pass::check_converted_uses() {
  std::vector<uint32_t> pending(converted_.begin(), converted_.end());
  std::set<uint32_t> seen(converted_.begin(), converted_.end());
  while (!pending.empty()) {
    const uint32_t id = pending.back();
    pending.pop_back();
    for (InstructionHandle h : users_[id]) {
      const Op op = m_.opcode(h);
      const auto w = m_.words(h);
      const Section section = m_.section(h);
      if (section == Section::Debug || section == Section::Annotation || is_non_semantic(m_, h)) continue;
      if (op == Op::OpEntryPoint) {
        if (h != entry_.handle) {
          return fail(m_.describe(h) + ": the LocalInvocationId / GlobalInvocationId variable " + id_name(id) +
                      " is also in the interface of another entry point: not eligible");
        }
        continue;
      }
      if (section == Section::Function) {
        auto fn = function_of_.find(h);
        if (fn != function_of_.end() && others_reachable_.contains(fn->second)) {
          return fail(m_.describe(h) + ": the LocalInvocationId / GlobalInvocationId variable " + id_name(id) +
                      " is used by a function another entry point calls: not eligible");
        }
      }
      switch (op) {
        case Op::OpLoad:
          if (w.size() >= 4 && w[3] == id) continue;
          break;
        case Op::OpCopyMemory:
        case Op::OpCopyMemorySized: continue;
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpPtrAccessChain:
        case Op::OpInBoundsPtrAccessChain:
        case Op::OpCopyObject:
          if (w.size() >= 4 && w[3] == id) {
            if (!pointer_type(m_, w[1])) return fail(m_.describe(h) + ": result type is not a pointer");
            if (seen.insert(w[2]).second) {
              derived_.push_back(h);
              pending.push_back(w[2]);
            }
            continue;
          }
          break;
        default: break;
      }
      return fail(m_.describe(h) + ": uses the LocalInvocationId / GlobalInvocationId variable " + id_name(id) +
                  " (or a pointer into it) in a way the pass cannot retarget to a Private variable " +
                  "(only loads, copies and access chains are handled): not eligible");
    }
  }
  return {};
}

Expected<uint64_t> Pass::type_size(uint32_t type, std::optional<uint32_t> matrix_stride, bool row_major, int depth) {
  if (depth > kMaxTypeDepth) return fail("push constant type nesting is too deep");
  auto def = m_.definition(type);
  if (!def) return fail("push constant member type " + id_name(type) + " is not defined");
  const auto w = m_.words(*def);
  const Op op = m_.opcode(*def);
  auto decoration = [&](uint32_t target, spv::Decoration d) { return m_.decoration_literal(target, d); };
  switch (op) {
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      if (w.size() >= 3) return uint64_t{w[2] / 8};
      break;
    case Op::OpTypePointer: return uint64_t{8};
    case Op::OpTypeVector:
      if (w.size() == 4) {
        auto component = type_size(w[2], std::nullopt, false, depth + 1);
        if (!component) return component;
        return *component * w[3];
      }
      break;
    case Op::OpTypeMatrix:
      if (w.size() == 4 && matrix_stride) {
        auto column = m_.definition(w[2]);
        if (!column || m_.opcode(*column) != Op::OpTypeVector || m_.words(*column).size() != 4) break;
        const uint64_t vectors = row_major ? m_.words(*column)[3] : w[3];
        return vectors * *matrix_stride;
      }
      break;
    case Op::OpTypeArray:
      if (w.size() == 4) {
        auto length = m_.definition(w[3]);
        auto stride = decoration(w[1], spv::Decoration::ArrayStride);
        if (!length || m_.opcode(*length) != Op::OpConstant || m_.words(*length).size() < 4 || !stride) break;
        return uint64_t{m_.words(*length)[3]} * *stride;
      }
      break;
    case Op::OpTypeStruct: {
      uint64_t end = 0;
      for (uint32_t member = 0; member + 2 < w.size(); ++member) {
        std::optional<uint32_t> offset, stride;
        bool member_row_major = false;
        for (InstructionHandle h : m_.instructions(Section::Annotation)) {
          const auto a = m_.words(h);
          if (m_.opcode(h) != Op::OpMemberDecorate || a.size() < 4 || a[1] != w[1] || a[2] != member) continue;
          if (a[3] == u(spv::Decoration::Offset) && a.size() == 5) offset = a[4];
          if (a[3] == u(spv::Decoration::MatrixStride) && a.size() == 5) stride = a[4];
          if (a[3] == u(spv::Decoration::RowMajor)) member_row_major = true;
        }
        if (!offset) break;
        auto size = type_size(w[2 + member], stride, member_row_major, depth + 1);
        if (!size) return size;
        end = std::max(end, uint64_t{*offset} + *size);
        if (member + 3 == w.size()) return end;
      }
      if (w.size() == 2) return uint64_t{0};
      break;
    }
    default: break;
  }
  return fail(m_.describe(*def) + ": cannot size this push constant member (unsupported type or missing " +
              "Offset/ArrayStride/MatrixStride)");
}

Status Pass::find_push_constant() {
  std::vector<uint32_t> candidates;
  for (InstructionHandle h : m_.instructions(Section::Global)) {
    const auto w = m_.words(h);
    if (m_.opcode(h) != Op::OpVariable || w.size() < 4 || w[3] != u(spv::StorageClass::PushConstant)) continue;
    bool used = false;
    const auto entry = m_.words(entry_.handle);
    // From SPIR-V 1.4 the interface lists every global the entry point uses.
    const size_t interface_begin = 3 + entry_.name.size() / 4 + 1;
    for (size_t i = interface_begin; i < entry.size(); ++i) used |= entry[i] == w[2];
    for (InstructionHandle user : users_[w[2]]) {
      auto fn = function_of_.find(user);
      used |= fn != function_of_.end() && reachable_.contains(fn->second);
    }
    if (used) candidates.push_back(w[2]);
  }
  if (candidates.size() > 1) {
    return fail("entry point \"" + entry_.name + "\" uses more than one push constant block (" +
                id_name(candidates[0]) + ", " + id_name(candidates[1]) + ")");
  }
  if (candidates.empty()) return {};
  const uint32_t variable = candidates[0];
  const InstructionHandle var_def = *m_.definition(variable);
  const auto pointer = pointer_type(m_, m_.words(var_def)[1]);
  auto struct_def = pointer ? m_.definition(pointer->second) : std::nullopt;
  if (!struct_def || m_.opcode(*struct_def) != Op::OpTypeStruct) {
    return fail(m_.describe(var_def) + ": the push constant variable is not a pointer to a struct");
  }
  const uint32_t pointer_id = m_.words(var_def)[1];
  const uint32_t struct_id = pointer->second;
  bool block = false;
  for (InstructionHandle h : m_.instructions(Section::Annotation)) {
    const auto a = m_.words(h);
    if (m_.opcode(h) == Op::OpDecorate && a.size() == 3 && a[1] == struct_id && a[2] == u(spv::Decoration::Block)) {
      block = true;
    }
  }
  if (!block) return fail(m_.describe(*struct_def) + ": the push constant struct is not decorated Block");
  auto only_declarations = [&](uint32_t id, InstructionHandle allowed) -> Status {
    for (InstructionHandle h : users_[id]) {
      const Section section = m_.section(h);
      if (h == allowed || section == Section::Debug || section == Section::Annotation || is_non_semantic(m_, h)) {
        continue;
      }
      return fail(m_.describe(h) + ": the push constant struct " + id_name(struct_id) +
                  " is also used by something other than the push constant variable " + id_name(variable) +
                  ", so a member cannot be appended to it");
    }
    return {};
  };
  if (Status ok = only_declarations(struct_id, *m_.definition(pointer_id)); !ok) return ok;
  // The pointer type may also be an OpFunctionParameter's or a function type's; neither may see a new member.
  for (InstructionHandle h : users_[pointer_id]) {
    const Op op = m_.opcode(h);
    if (m_.section(h) == Section::Debug || m_.section(h) == Section::Annotation) continue;
    if (op == Op::OpTypeFunction) {
      return fail(m_.describe(h) + ": the push constant struct " + id_name(struct_id) +
                  " is also used by something other than the push constant variable " + id_name(variable) +
                  ", so a member cannot be appended to it");
    }
  }
  for (InstructionHandle h : m_.instructions()) {
    const auto w = m_.words(h);
    if (h == var_def) continue;
    const IdOperands operands = id_operands(m_, h);
    if (operands.result_type != 0 && (w[operands.result_type] == struct_id || w[operands.result_type] == pointer_id)) {
      return fail(m_.describe(h) + ": the push constant struct " + id_name(struct_id) +
                  " is also used by something other than the push constant variable " + id_name(variable) +
                  ", so a member cannot be appended to it");
    }
  }
  auto size = type_size(struct_id, std::nullopt, false, 0);
  if (!size) return size.error();
  if (*size > options_.push_constant_offset) {
    return fail("push_constant_offset " + std::to_string(options_.push_constant_offset) +
                " is inside the existing push constant block " + id_name(struct_id) + " (" + std::to_string(*size) +
                " bytes); use an offset >= its size, rounded up to 16");
  }
  push_variable_ = variable;
  push_struct_ = struct_id;
  push_member_ = static_cast<uint32_t>(m_.words(*struct_def).size() - 2);
  return {};
}

void Pass::detect_exact_only() {
  for (const Function& f : functions_) {
    if (!reachable_.contains(f.id)) continue;
    for (InstructionHandle h : f.body) {
      const Op op = m_.opcode(h);
      const auto w = m_.words(h);
      std::string why;
      if (op == Op::OpControlBarrier && w.size() >= 2) {
        auto scope = m_.definition(w[1]);
        std::optional<uint32_t> value;
        if (scope && m_.opcode(*scope) == Op::OpConstant && m_.words(*scope).size() == 4) {
          value = m_.words(*scope)[3];
        }
        if (!value) {
          why = "barrier with a non-constant execution scope";
        } else if (*value == kScopeWorkgroup) {
          why = "workgroup barrier";
        } else if (*value == kScopeSubgroup) {
          why = "subgroup barrier";
        }
      } else {
        const grammar::InstructionInfo* info = grammar::find_instruction(u(op));
        const std::string_view name = info ? info->name : "";
        if (starts_with(name, "OpGroup") || starts_with(name, "OpSubgroup")) {
          why = "subgroup or workgroup collective operation";
        } else if (starts_with(name, "OpCooperativeMatrix")) {
          why = "cooperative matrix operation (subgroup scope)";
        } else {
          for (size_t i : id_operands(m_, h).ids) {
            auto it = subgroup_builtin_vars_.find(w[i]);
            if (it == subgroup_builtin_vars_.end()) continue;
            why = "reads the subgroup built-in " + std::string(subgroup_builtin_name(it->second)) +
                  ", whose value depends on the physical workgroup";
            break;
          }
        }
      }
      if (!why.empty()) {
        report_.exact_only = true;
        report_.exact_only_reason = m_.describe(h) + ": " + why;
        return;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Edits.

Expected<uint32_t> Pass::pointer_to(uint32_t storage_class, uint32_t pointee) {
  if (!pointers_indexed_) {
    for (InstructionHandle h : m_.instructions(Section::Global)) {
      const auto w = m_.words(h);
      if (m_.opcode(h) == Op::OpTypePointer && w.size() == 4) pointers_.emplace(std::pair{w[2], w[3]}, w[1]);
    }
    pointers_indexed_ = true;
  }
  if (auto it = pointers_.find({storage_class, pointee}); it != pointers_.end()) return it->second;
  auto id = m_.allocate_id();
  if (!id) return id;
  const uint32_t operands[] = {*id, storage_class, pointee};
  m_.append(Section::Global, Op::OpTypePointer, operands);
  pointers_.emplace(std::pair{storage_class, pointee}, *id);
  return *id;
}

// Moves the global definition of `id` (and, first, of the ids it uses) before `anchor` when it comes later.
void Pass::hoist_before(uint32_t id, InstructionHandle anchor, int depth) {
  if (depth > kMaxTypeDepth) return;
  auto def = m_.definition(id);
  if (!def || m_.section(*def) != Section::Global) return;
  const auto order = m_.instructions(Section::Global);
  const auto def_at = std::find(order.begin(), order.end(), *def);
  const auto anchor_at = std::find(order.begin(), order.end(), anchor);
  if (def_at < anchor_at) return;
  for (size_t i : id_operands(m_, *def).ids) hoist_before(m_.words(*def)[i], anchor, depth + 1);
  const auto w = m_.words(*def);
  const std::vector<uint32_t> operands(w.begin() + 1, w.end());
  const Op op = m_.opcode(*def);
  m_.erase(*def);
  m_.insert_before(anchor, op, operands);
}

Expected<uint32_t> Pass::builtin_input(spv::BuiltIn builtin, uint32_t type) {
  auto pointer = pointer_to(u(spv::StorageClass::Input), type);
  if (!pointer) return pointer;
  auto id = m_.allocate_id();
  if (!id) return id;
  const uint32_t operands[] = {*pointer, *id, u(spv::StorageClass::Input)};
  m_.append(Section::Global, Op::OpVariable, operands);
  const uint32_t literal = u(builtin);
  m_.add_decoration(*id, spv::Decoration::BuiltIn, std::span(&literal, 1));
  return *id;
}

void Pass::add_name(uint32_t id, std::string_view name) {
  std::vector<uint32_t> operands(1 + (name.size() + 4) / 4, 0);
  operands[0] = id;
  std::copy(name.begin(), name.end(), reinterpret_cast<char*>(operands.data() + 1));
  // Names come before OpModuleProcessed (SPIR-V 2.4, 7b before 7c).
  for (InstructionHandle h : m_.instructions(Section::Debug)) {
    if (m_.opcode(h) == Op::OpModuleProcessed) {
      m_.insert_before(h, Op::OpName, operands);
      return;
    }
  }
  m_.append(Section::Debug, Op::OpName, operands);
}

Status Pass::add_push_constant() {
  if (push_variable_) {
    hoist_before(v3_, *m_.definition(push_struct_));
    const InstructionHandle struct_def = *m_.definition(push_struct_);
    const auto w = m_.words(struct_def);
    std::vector<uint32_t> operands(w.begin() + 1, w.end());
    operands.push_back(v3_);
    m_.replace(struct_def, Op::OpTypeStruct, operands);
    push_var_id_ = *push_variable_;
    push_member_index_ = push_member_;
  } else {
    auto struct_id = m_.allocate_id();
    if (!struct_id) return struct_id.error();
    const uint32_t struct_operands[] = {*struct_id, v3_};
    m_.append(Section::Global, Op::OpTypeStruct, struct_operands);
    m_.add_decoration(*struct_id, spv::Decoration::Block);
    auto pointer = pointer_to(u(spv::StorageClass::PushConstant), *struct_id);
    if (!pointer) return pointer.error();
    auto variable = m_.allocate_id();
    if (!variable) return variable.error();
    const uint32_t var_operands[] = {*pointer, *variable, u(spv::StorageClass::PushConstant)};
    m_.append(Section::Global, Op::OpVariable, var_operands);
    add_name(*struct_id, "BismuthLogicalGroupSize");
    push_struct_ = *struct_id;
    push_var_id_ = *variable;
    push_member_index_ = 0;
  }
  const uint32_t member[] = {push_struct_, push_member_index_, u(spv::Decoration::Offset),
                             options_.push_constant_offset};
  m_.append(Section::Annotation, Op::OpMemberDecorate, member);
  auto member_pointer = pointer_to(u(spv::StorageClass::PushConstant), v3_);
  if (!member_pointer) return member_pointer.error();
  push_member_pointer_ = *member_pointer;
  // Once, here: Module::replace drops the constant index, which a lookup per function would rebuild every time.
  auto index = m_.constant_u32(push_member_index_);
  if (!index) return index.error();
  push_index_constant_ = *index;
  return {};
}

Status Pass::convert_variables() {
  const uint32_t private_class = u(spv::StorageClass::Private);
  for (uint32_t id : converted_) {
    const InstructionHandle def = *m_.definition(id);
    const uint32_t pointee = pointer_type(m_, m_.words(def)[1])->second;
    auto pointer = pointer_to(private_class, pointee);
    if (!pointer) return pointer.error();
    hoist_before(*pointer, def);
    const uint32_t operands[] = {*pointer, id, private_class};
    m_.replace(def, Op::OpVariable, operands);
  }
  for (InstructionHandle h : m_.instructions(Section::Annotation)) {
    const auto w = m_.words(h);
    if (m_.opcode(h) == Op::OpDecorate && w.size() == 4 && w[2] == u(spv::Decoration::BuiltIn) &&
        converted_.contains(w[1])) {
      m_.erase(h);
    }
  }
  for (InstructionHandle h : derived_) {
    std::vector<uint32_t> operands = operands_of(h);
    const uint32_t pointee = pointer_type(m_, operands[0])->second;
    auto pointer = pointer_to(private_class, pointee);
    if (!pointer) return pointer.error();
    operands[0] = *pointer;
    m_.replace(h, m_.opcode(h), operands);
  }
  return {};
}

// Loads the pushed size at the top of `function` and computes every size-dependent value it uses from it.
Status Pass::rematerialize(const Function& f) {
  // The dependent ids the function uses, then everything they are built from.
  std::set<uint32_t> needed;
  for (InstructionHandle h : f.body) {
    const auto w = m_.words(h);
    for (size_t i : id_operands(m_, h).ids) {
      if (is_dependent(w[i])) needed.insert(w[i]);
    }
  }
  for (auto it = dependent_order_.rbegin(); it != dependent_order_.rend(); ++it) {
    const auto w = m_.words(*it);
    if (!needed.contains(w[2])) continue;
    for (size_t i : id_operands(m_, *it).ids) {
      if (is_dependent(w[i])) needed.insert(w[i]);
    }
  }

  const InstructionHandle at = f.insert_point;
  std::unordered_map<uint32_t, uint32_t> value;  // dependent id -> id computed in this function
  auto emit = [&](Op op, std::vector<uint32_t> operands) { m_.insert_before(at, op, operands); };
  auto pointer = m_.allocate_id();
  auto size = m_.allocate_id();
  if (!pointer) return pointer.error();
  if (!size) return size.error();
  emit(Op::OpAccessChain, {push_member_pointer_, *pointer, push_var_id_, push_index_constant_});
  emit(Op::OpLoad, {v3_, *size, *pointer});
  std::array<uint32_t, 3> component{};
  for (int d = 0; d < 3; ++d) {
    auto id = m_.allocate_id();
    if (!id) return id.error();
    component[d] = *id;
    emit(Op::OpCompositeExtract, {uint_, *id, *size, u(d)});
  }
  for (const auto& [id, dimension] : roots_) {
    if (!needed.contains(id)) continue;
    const uint32_t type = m_.words(*m_.definition(id))[1];
    if (type == uint_) {
      value[id] = component[dimension];
      continue;
    }
    auto cast = m_.allocate_id();
    if (!cast) return cast.error();
    emit(Op::OpBitcast, {type, *cast, component[dimension]});
    value[id] = *cast;
  }
  auto mapped = [&](uint32_t id) {
    auto it = value.find(id);
    return it == value.end() ? id : it->second;
  };
  for (InstructionHandle h : dependent_order_) {
    const std::vector<uint32_t> w(m_.words(h).begin(), m_.words(h).end());  // emit() may move the word store
    if (!needed.contains(w[2])) continue;
    if (m_.opcode(h) == Op::OpSpecConstantComposite && w[1] == v3_ && w.size() == 6 && mapped(w[3]) == component[0] &&
        mapped(w[4]) == component[1] && mapped(w[5]) == component[2]) {
      value[w[2]] = *size;  // the WorkgroupSize composite itself: the pushed vector
      continue;
    }
    auto id = m_.allocate_id();
    if (!id) return id.error();
    if (m_.opcode(h) == Op::OpSpecConstantComposite) {
      std::vector<uint32_t> operands{w[1], *id};
      for (size_t i = 3; i < w.size(); ++i) operands.push_back(mapped(w[i]));
      emit(Op::OpCompositeConstruct, operands);
    } else {
      const IdOperands operands = id_operands(m_, h);
      std::vector<uint32_t> out{w[1], *id};
      for (size_t i = 4; i < w.size(); ++i) {
        const bool is_id = std::find(operands.ids.begin(), operands.ids.end(), i) != operands.ids.end();
        out.push_back(is_id ? mapped(w[i]) : w[i]);
      }
      emit(static_cast<Op>(w[3]), out);
    }
    value[w[2]] = *id;
  }

  // Every use in the function reads the computed value.
  for (InstructionHandle h : f.body) {
    const std::vector<uint32_t> w(m_.words(h).begin(), m_.words(h).end());  // emit() may move the word store
    const Op op = m_.opcode(h);
    if (is_non_semantic(m_, h)) continue;
    const IdOperands operands = id_operands(m_, h);
    bool changed = false;
    std::vector<uint32_t> out(w.begin() + 1, w.end());
    for (size_t i : operands.ids) {
      if (!is_dependent(w[i])) continue;
      out[i - 1] = mapped(w[i]);
      changed = true;
    }
    if (!changed) continue;
    if (op == Op::OpVariable && w.size() == 5) {
      // A function variable's initializer must be a constant: store the value after it is computed instead.
      emit(Op::OpStore, {w[2], out[3]});
      out.pop_back();
    }
    m_.replace(h, op, out);
  }
  return {};
}

Status Pass::add_wrapper() {
  const Function* main = function(entry_.function_id);
  auto alloc = [&]() { return m_.allocate_id(); };
  auto wrapper = alloc();
  auto label = alloc();
  auto body_label = alloc();
  auto merge_label = alloc();
  if (!wrapper || !label || !body_label || !merge_label) return fail("the id bound cannot grow past the limit");
  std::vector<std::pair<Op, std::vector<uint32_t>>> code;
  std::optional<Error> error;
  auto id = [&]() -> uint32_t {
    auto next = alloc();
    if (!next) {
      error = next.error();
      return 1;
    }
    return *next;
  };

  code.push_back({Op::OpFunction, {main->result_type, *wrapper, 0, main->type}});
  code.push_back({Op::OpLabel, {*label}});
  // flat = LocalInvocationIndex (the physical size is (L,1,1), so this is the flat index of the logical size too)
  const uint32_t index_type = pointer_type(m_, m_.words(*m_.definition(*local_index_var_))[1])->second;
  uint32_t flat = id();
  code.push_back({Op::OpLoad, {index_type, flat, *local_index_var_}});
  if (index_type != uint_) {
    const uint32_t cast = id();
    code.push_back({Op::OpBitcast, {uint_, cast, flat}});
    flat = cast;
  }
  const uint32_t pointer = id(), size = id(), x = id(), y = id(), z = id(), xy = id(), total = id(), active = id();
  code.push_back({Op::OpAccessChain, {push_member_pointer_, pointer, push_var_id_, push_index_constant_}});
  code.push_back({Op::OpLoad, {v3_, size, pointer}});
  code.push_back({Op::OpCompositeExtract, {uint_, x, size, 0}});
  code.push_back({Op::OpCompositeExtract, {uint_, y, size, 1}});
  code.push_back({Op::OpCompositeExtract, {uint_, z, size, 2}});
  code.push_back({Op::OpIMul, {uint_, xy, x, y}});
  code.push_back({Op::OpIMul, {uint_, total, xy, z}});
  code.push_back({Op::OpULessThan, {bool_, active, flat, total}});
  code.push_back({Op::OpSelectionMerge, {*merge_label, 0}});
  code.push_back({Op::OpBranchConditional, {active, *body_label, *merge_label}});
  code.push_back({Op::OpLabel, {*body_label}});
  if (!converted_.empty()) {
    const uint32_t lx = id(), row = id(), ly = id(), lz = id(), lid = id();
    code.push_back({Op::OpUMod, {uint_, lx, flat, x}});
    code.push_back({Op::OpUDiv, {uint_, row, flat, x}});
    code.push_back({Op::OpUMod, {uint_, ly, row, y}});
    code.push_back({Op::OpUDiv, {uint_, lz, flat, xy}});
    code.push_back({Op::OpCompositeConstruct, {v3_, lid, lx, ly, lz}});
    auto store = [&](uint32_t variable, uint32_t v) {
      const uint32_t type = pointer_type(m_, m_.words(*m_.definition(variable))[1])->second;
      if (type != v3_) {
        const uint32_t cast = id();
        code.push_back({Op::OpBitcast, {type, cast, v}});
        v = cast;
      }
      code.push_back({Op::OpStore, {variable, v}});
    };
    for (uint32_t variable : local_id_vars_) store(variable, lid);
    if (!global_id_vars_.empty()) {
      const uint32_t group_type = pointer_type(m_, m_.words(*m_.definition(*workgroup_id_var_))[1])->second;
      uint32_t group = id();
      code.push_back({Op::OpLoad, {group_type, group, *workgroup_id_var_}});
      if (group_type != v3_) {
        const uint32_t cast = id();
        code.push_back({Op::OpBitcast, {v3_, cast, group}});
        group = cast;
      }
      const uint32_t base = id(), gid = id();
      code.push_back({Op::OpIMul, {v3_, base, group, size}});
      code.push_back({Op::OpIAdd, {v3_, gid, base, lid}});
      for (uint32_t variable : global_id_vars_) store(variable, gid);
    }
  }
  const uint32_t call = id();
  code.push_back({Op::OpFunctionCall, {main->result_type, call, entry_.function_id}});
  code.push_back({Op::OpBranch, {*merge_label}});
  code.push_back({Op::OpLabel, {*merge_label}});
  code.push_back({Op::OpReturn, {}});
  code.push_back({Op::OpFunctionEnd, {}});
  if (error) return *error;
  for (auto& [op, operands] : code) m_.append(Section::Function, op, operands);

  // The entry point runs the wrapper; execution modes follow it.
  const auto w = m_.words(entry_.handle);
  const size_t name_words = entry_.name.size() / 4 + 1;
  if (w.size() < 3 + name_words) return fail(m_.describe(entry_.handle) + ": malformed OpEntryPoint");
  std::vector<uint32_t> operands{w[1], *wrapper};
  operands.insert(operands.end(), w.begin() + 3, w.begin() + 3 + name_words);
  std::vector<uint32_t> interface;
  const bool all_globals = m_.version() >= kVersion1_4;
  auto add = [&](uint32_t variable) {
    if (std::find(interface.begin(), interface.end(), variable) == interface.end()) interface.push_back(variable);
  };
  for (size_t i = 3 + name_words; i < w.size(); ++i) {
    if (!all_globals && converted_.contains(w[i])) continue;  // Private now: only Input/Output before 1.4
    add(w[i]);
  }
  add(*local_index_var_);
  if (!global_id_vars_.empty()) add(*workgroup_id_var_);
  if (all_globals) {
    add(push_var_id_);
    for (uint32_t variable : converted_) add(variable);
  }
  operands.insert(operands.end(), interface.begin(), interface.end());
  m_.replace(entry_.handle, Op::OpEntryPoint, operands);
  for (InstructionHandle h : m_.instructions(Section::ExecutionMode)) {
    const auto mode = m_.words(h);
    if (mode.size() < 2 || mode[1] != entry_.function_id) continue;
    std::vector<uint32_t> retargeted(mode.begin() + 1, mode.end());
    retargeted[0] = *wrapper;
    m_.replace(h, m_.opcode(h), retargeted);
  }
  add_name(*wrapper, "bismuth_runtime_group_size_main");
  return {};
}

Expected<RuntimeGroupSizeReport> Pass::run() {
  if (options_.push_constant_offset % 16 != 0) {
    return fail("push_constant_offset " + std::to_string(options_.push_constant_offset) +
                " is not a multiple of 16 (a uvec3 member needs 16-byte alignment)");
  }
  if (options_.push_constant_offset > UINT32_MAX - 12) return fail("push_constant_offset is too large");
  report_.push_constant_offset = options_.push_constant_offset;
  report_.push_constant_end = options_.push_constant_offset + 12;
  report_.version_before = m_.version();

  if (Status ok = find_entry(); !ok) return ok.error();
  if (Status ok = index_uses(); !ok) return ok.error();
  if (Status ok = find_size_constants(); !ok) return ok.error();
  if (Status ok = find_builtins(); !ok) return ok.error();
  if (Status ok = check_converted_uses(); !ok) return ok.error();
  if (Status ok = find_push_constant(); !ok) return ok.error();
  for (InstructionHandle h : m_.instructions(Section::ExecutionMode)) {
    const auto w = m_.words(h);
    if (w.size() >= 3 && w[1] == entry_.function_id &&
        (w[2] == u(spv::ExecutionMode::DerivativeGroupQuadsNV) ||
         w[2] == u(spv::ExecutionMode::DerivativeGroupLinearNV))) {
      return fail(m_.describe(h) + ": compute derivative groups depend on the workgroup shape: not eligible");
    }
  }
  detect_exact_only();

  // Edits from here on.
  auto uint_type = m_.type_int(32, false);
  if (!uint_type) return uint_type.error();
  uint_ = *uint_type;
  auto v3 = m_.type_vector(uint_, 3);
  if (!v3) return v3.error();
  v3_ = *v3;
  auto bool_type = m_.type_bool();
  if (!bool_type) return bool_type.error();
  bool_ = *bool_type;
  if (!local_index_var_) {
    auto variable = builtin_input(spv::BuiltIn::LocalInvocationIndex, uint_);
    if (!variable) return variable.error();
    local_index_var_ = *variable;
  }
  if (!global_id_vars_.empty() && !workgroup_id_var_) {
    auto variable = builtin_input(spv::BuiltIn::WorkgroupId, v3_);
    if (!variable) return variable.error();
    workgroup_id_var_ = *variable;
  }
  if (Status ok = add_push_constant(); !ok) return ok.error();
  if (Status ok = convert_variables(); !ok) return ok.error();
  for (const Function& f : functions_) {
    if (!functions_to_rematerialize_.contains(f.id)) continue;
    if (Status ok = rematerialize(f); !ok) return ok.error();
  }
  if (Status ok = add_wrapper(); !ok) return ok.error();
  report_.version_after = m_.version();
  return report_;
}

}  // namespace

Expected<RuntimeGroupSizeReport> workgroup_size_to_runtime(Module& module, const RuntimeGroupSizeOptions& options) {
  return Pass(module, options).run();
}

Expected<RuntimeGroupSizePatch> workgroup_size_to_runtime(std::span<const uint32_t> words,
                                                          const RuntimeGroupSizeOptions& options) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  auto report = workgroup_size_to_runtime(*module, options);
  if (!report) return report.error();
  return RuntimeGroupSizePatch{module->serialize(), *report};
}

}  // namespace bismuth::spirv_patch
