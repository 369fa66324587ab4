// literals_to_push_constants: 32-bit integer literals -> members of the push-constant block. The rules it follows:
// - SPIR-V 1.6 section 2.16.1: OpVariable instructions are the first instructions of a function's first block, so
//   the loads go after them; an id must be defined before a use in the same block.
// - Section 2.16 ("Universal Validation Rules") and the instruction pages: struct member indices of OpAccessChain,
//   scopes and memory semantics, array lengths, OpSwitch literals and image operands such as ConstOffset must be
//   constants. Only operands listed in `replaceable_operands` are replaced, and none of those has such a rule.
// - Vulkan 15.6.1 ("Offset and Stride Assignment"): each new member gets an Offset decoration, 4-aligned for a
//   32-bit scalar; a Block may be used by at most one push-constant variable of an entry point, so the existing
//   block grows instead of a second one appearing.
#include "bismuth/spirv_patch/passes/literals_to_push_constants.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/entry_points.hpp"
#include "analysis/id_operands.hpp"
#include "analysis/type_queries.hpp"
#include "analysis/use_index.hpp"
#include "bismuth/spirv_patch/analysis/type_layout.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t u(auto v) {
  return static_cast<uint32_t>(v);
}

// The word indices [first, last) (first word = 0) of the operands of the instruction that may be any run-time value
// of their type.
std::pair<size_t, size_t> replaceable_operands(const Module& module, InstructionHandle h) {
  const auto w = module.words(h);
  const size_t end = w.size();
  switch (module.opcode(h)) {
    // Integer arithmetic, shifts, bitwise operations and comparisons: both operands.
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd: return {3, std::min<size_t>(5, end)};
    // One operand: negation, complement, conversions (integer to float rounds to nearest either way).
    case Op::OpSNegate:
    case Op::OpNot:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpBitcast: return {3, std::min<size_t>(4, end)};
    case Op::OpSelect: return {4, std::min<size_t>(6, end)};  // the objects; the condition is a bool
    case Op::OpCompositeConstruct: return {3, end};
    case Op::OpFunctionCall: return {4, end};
    case Op::OpStore: return {2, std::min<size_t>(3, end)};  // the object; memory operands follow as literals
    case Op::OpReturnValue: return {1, std::min<size_t>(2, end)};
    case Op::OpAtomicStore: return {4, std::min<size_t>(5, end)};
    case Op::OpAtomicExchange:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor: return {6, std::min<size_t>(7, end)};
    case Op::OpAtomicCompareExchange: return {7, std::min<size_t>(9, end)};
    case Op::OpExtInst: {
      // GLSL.std.450's integer instructions (abs, sign, min, max, clamp, bit searches): exact on any value.
      auto set = module.definition(w[3]);
      if (w.size() < 6 || !set || module.opcode(*set) != Op::OpExtInstImport ||
          module.string_operand(*set, 2) != "GLSL.std.450") {
        return {0, 0};
      }
      switch (w[4]) {
        case 5:   // SAbs
        case 7:   // SSign
        case 38:  // UMin
        case 39:  // SMin
        case 41:  // UMax
        case 42:  // SMax
        case 44:  // UClamp
        case 45:  // SClamp
        case 73:  // FindILsb
        case 74:  // FindSMsb
        case 75:  // FindUMsb
          return {5, end};
        default: return {0, 0};
      }
    }
    default: return {0, 0};
  }
}

struct Use {
  InstructionHandle instruction;
  size_t word;
  size_t slot;
};

struct Slot {
  uint32_t constant;  // the OpConstant id
  uint32_t type;      // its OpTypeInt
  uint32_t value;
};

// The OpTypeInt 32 of a 32-bit integer scalar OpConstant, with its literal.
std::optional<std::pair<uint32_t, uint32_t>> int32_constant(const Module& module, uint32_t id,
                                                            std::unordered_map<uint32_t, bool>& memo) {
  auto def = module.definition(id);
  if (!def || module.section(*def) != Section::Global || module.opcode(*def) != Op::OpConstant) return std::nullopt;
  const auto w = module.words(*def);
  if (w.size() != 4) return std::nullopt;
  auto known = memo.find(w[1]);
  if (known == memo.end()) known = memo.emplace(w[1], int32_type(module, w[1], 1).has_value()).first;
  if (!known->second) return std::nullopt;
  return std::pair{w[1], w[3]};
}

// The entry point's push-constant variable and its struct, when the struct may grow: decorated Block, used only
// by the variable's pointer type, which only the variable uses.
struct PushBlock {
  uint32_t variable = 0;
  uint32_t pointer = 0;
  uint32_t struct_id = 0;
};

Expected<PushBlock> find_push_block(const Module& module) {
  PushBlock block;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpVariable || w.size() < 4 || w[3] != u(spv::StorageClass::PushConstant)) continue;
    if (block.variable != 0) return fail("the module has more than one push constant variable");
    block.variable = w[2];
    block.pointer = w[1];
  }
  if (block.variable == 0) return fail("the module has no push constant block to extend");
  const auto pointee = pointer_type(module, block.pointer);
  auto struct_def = pointee ? module.definition(pointee->second) : std::nullopt;
  if (!struct_def || module.opcode(*struct_def) != Op::OpTypeStruct) {
    return fail("the push constant variable is not a pointer to a struct");
  }
  block.struct_id = pointee->second;
  bool decorated_block = false;
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto a = module.words(h);
    decorated_block |= module.opcode(h) == Op::OpDecorate && a.size() == 3 && a[1] == block.struct_id &&
                       a[2] == u(spv::Decoration::Block);
  }
  if (!decorated_block) return fail("the push constant struct is not decorated Block");
  const InstructionHandle pointer_def = *module.definition(block.pointer);
  const InstructionHandle variable_def = *module.definition(block.variable);
  for (InstructionHandle h : module.instructions()) {
    const Section section = module.section(h);
    if (section == Section::Debug || section == Section::Annotation || is_non_semantic(module, h)) continue;
    const auto w = module.words(h);
    const IdOperands operands = id_operands(module, h);
    for (size_t i : operands.ids) {
      if ((w[i] == block.struct_id && h != pointer_def) || (w[i] == block.pointer && h != variable_def)) {
        return fail(module.describe(h) + " uses the push constant block's type, so it cannot grow");
      }
    }
    if (operands.result_type != 0 && h != variable_def &&
        (w[operands.result_type] == block.struct_id || w[operands.result_type] == block.pointer)) {
      return fail(module.describe(h) + " uses the push constant block's type, so it cannot grow");
    }
  }
  return block;
}

// The pointer type (PushConstant, pointee), appended when the module has none.
Expected<uint32_t> push_pointer_to(Module& module, uint32_t pointee) {
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) == Op::OpTypePointer && w.size() == 4 && w[2] == u(spv::StorageClass::PushConstant) &&
        w[3] == pointee) {
      return w[1];
    }
  }
  auto id = module.allocate_id();
  if (!id) return id;
  const uint32_t operands[] = {*id, u(spv::StorageClass::PushConstant), pointee};
  module.append(Section::Global, Op::OpTypePointer, operands);
  return *id;
}

// Where a function's loads go: its first block, after the OpLabel and the OpVariables (and debug lines among them).
InstructionHandle first_non_variable(const Module& module, const std::vector<InstructionHandle>& body, size_t label) {
  size_t i = label + 1;
  while (i < body.size()) {
    const Op op = module.opcode(body[i]);
    if (op != Op::OpVariable && op != Op::OpLine && op != Op::OpNoLine) break;
    ++i;
  }
  return body[std::min(i, body.size() - 1)];
}

// Before any constant is added (Module's constant helpers reuse existing ones): the constants whose every use is
// replaced go, so that only the module's other constants can be reused and the words do not depend on the hoisted
// values; so do the integer constants nothing uses (the literals of a fixed size the earlier passes replaced).
void remove_unused_int32_constants(Module& module, const std::vector<Slot>& slots,
                                   LiteralsToPushConstantsReport& report) {
  std::unordered_map<uint32_t, bool> int32_types;
  const UseIndex index(module);
  std::unordered_map<uint32_t, size_t> replaced;  // constant id -> operands replaced
  for (const Slot& slot : slots) ++replaced[slot.constant];
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpConstant || !int32_constant(module, w[2], int32_types)) continue;
    auto it = replaced.find(w[2]);
    if (index.users(w[2]).size() != (it == replaced.end() ? 0 : it->second)) continue;
    module.erase(h);
    ++report.constants_removed;
  }
}

// Defaults 1 for the size spec constants, LocalSize 1 1 1 for the entry point (see the option).
void reset_size_defaults(Module& module, const Module::EntryPoint& entry, const std::array<uint32_t, 3>& spec_ids) {
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpSpecConstant || w.size() != 4) continue;
    const auto spec_id = module.decoration_literal(w[2], spv::Decoration::SpecId);
    if (!spec_id || std::find(spec_ids.begin(), spec_ids.end(), *spec_id) == spec_ids.end()) continue;
    const uint32_t operands[] = {w[1], w[2], 1};
    module.replace(h, Op::OpSpecConstant, operands);
  }
  for (InstructionHandle h : module.instructions(Section::ExecutionMode)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpExecutionMode || w.size() != 6 || w[1] != entry.function_id ||
        w[2] != u(spv::ExecutionMode::LocalSize)) {
      continue;
    }
    const uint32_t operands[] = {w[1], w[2], 1, 1, 1};
    module.replace(h, Op::OpExecutionMode, operands);
  }
}

void order_int32_constants(Module& module) {
  std::unordered_map<uint32_t, bool> int32_types;
  std::map<uint32_t, std::vector<std::pair<uint32_t, std::vector<uint32_t>>>> by_type;  // type -> (value, operands)
  std::vector<InstructionHandle> moved;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpConstant || !int32_constant(module, w[2], int32_types)) continue;
    by_type[w[1]].emplace_back(w[3], std::vector<uint32_t>(w.begin() + 1, w.end()));
    moved.push_back(h);
  }
  for (InstructionHandle h : moved) module.erase(h);
  const auto order = module.instructions(Section::Global);
  for (auto& [type, constants] : by_type) {
    std::sort(constants.begin(), constants.end());
    auto type_at = std::find(order.begin(), order.end(), *module.definition(type));
    if (type_at == order.end() || type_at + 1 == order.end()) {
      for (const auto& [value, operands] : constants) module.append(Section::Global, Op::OpConstant, operands);
      continue;
    }
    for (const auto& [value, operands] : constants) module.insert_before(*(type_at + 1), Op::OpConstant, operands);
  }
}

}  // namespace

Expected<LiteralsToPushConstantsReport> literals_to_push_constants(Module& module,
                                                                   const LiteralsToPushConstantsOptions& options) {
  LiteralsToPushConstantsReport report;
  report.push_constant_offset = options.push_constant_offset;
  if (options.push_constant_offset % 4 != 0) {
    return fail("push_constant_offset " + std::to_string(options.push_constant_offset) + " is not a multiple of 4");
  }
  auto entry = find_compute_entry_point(module, options.entry_point);
  if (!entry) return entry.error();
  if (options.size_spec_ids) reset_size_defaults(module, *entry, *options.size_spec_ids);

  // Every replaceable operand naming a 32-bit integer constant, and the functions they are in. Each operand gets a
  // slot of its own: slots per constant would make the layout depend on which literals happen to be equal (glslang
  // gives equal literals one id), and a template's programs would stop sharing whenever one of its numbers met
  // another constant of the module.
  std::vector<Slot> slots;
  std::unordered_map<uint32_t, bool> int32_types;
  std::vector<Use> uses;
  std::vector<std::vector<InstructionHandle>> functions;  // each function's instructions, OpFunction first
  std::vector<size_t> use_function;                       // per use: index into `functions`
  for (InstructionHandle h : module.instructions(Section::Function)) {
    if (module.opcode(h) == Op::OpFunction) functions.emplace_back();
    if (functions.empty()) continue;
    functions.back().push_back(h);
    const auto [begin, end] = replaceable_operands(module, h);
    const auto w = module.words(h);
    for (size_t i = begin; i < end; ++i) {
      auto constant = int32_constant(module, w[i], int32_types);
      if (!constant) continue;
      uses.push_back(Use{h, i, slots.size()});
      slots.push_back(Slot{w[i], constant->first, constant->second});
      use_function.push_back(functions.size() - 1);
    }
  }
  if (slots.empty()) {
    // Nothing to hoist; a caller that specialises the size still wants words without its traces.
    if (options.size_spec_ids) {
      remove_unused_int32_constants(module, slots, report);
      order_int32_constants(module);
    }
    return report;
  }
  const uint64_t end = uint64_t(options.push_constant_offset) + 4 * slots.size();
  if (end > options.push_constant_limit) {
    report.skipped_reason = std::to_string(slots.size()) + " literals do not fit below " +
                            std::to_string(options.push_constant_limit) + " bytes of push constants";
    return report;
  }
  auto block = find_push_block(module);
  if (!block) {
    report.skipped_reason = block.error().message;
    return report;
  }
  auto block_size = explicit_layout_size(module, block->struct_id, "push constant");
  if (!block_size) {
    report.skipped_reason = block_size.error().message;
    return report;
  }
  if (*block_size > options.push_constant_offset) {
    return fail("push_constant_offset " + std::to_string(options.push_constant_offset) +
                " is inside the push constant block (" + std::to_string(*block_size) + " bytes)");
  }

  remove_unused_int32_constants(module, slots, report);

  // The 32-bit integer constants that stay move right after their type, in order of value: glslang declares a
  // constant where its first use is, which a literal equal to it moves (a program whose literal is 2 declares the
  // module's other 2 earlier than one whose literal is 7).
  order_int32_constants(module);

  // The new members: each slot's integer type, declared before the struct (a type without operands moves freely).
  InstructionHandle struct_def = *module.definition(block->struct_id);
  std::vector<uint32_t> struct_operands;
  {
    const auto w = module.words(struct_def);
    struct_operands.assign(w.begin() + 1, w.end());
  }
  const uint32_t first_member = static_cast<uint32_t>(struct_operands.size() - 1);
  const auto order = module.instructions(Section::Global);
  auto position = [&](InstructionHandle h) { return std::find(order.begin(), order.end(), h) - order.begin(); };
  std::map<uint32_t, InstructionHandle> moved_types;
  for (const Slot& slot : slots) {
    const InstructionHandle type_def = *module.definition(slot.type);
    if (!moved_types.contains(slot.type) && position(type_def) > position(struct_def)) {
      const auto w = module.words(type_def);
      const std::vector<uint32_t> operands(w.begin() + 1, w.end());
      module.erase(type_def);
      moved_types.emplace(slot.type, module.insert_before(struct_def, Op::OpTypeInt, operands));
    }
    struct_operands.push_back(slot.type);
  }
  module.replace(struct_def, Op::OpTypeStruct, struct_operands);
  for (size_t s = 0; s < slots.size(); ++s) {
    const uint32_t member[] = {block->struct_id, first_member + uint32_t(s), u(spv::Decoration::Offset),
                               options.push_constant_offset + 4 * uint32_t(s)};
    module.append(Section::Annotation, Op::OpMemberDecorate, member);
  }
  std::vector<uint32_t> member_pointer(slots.size()), member_index(slots.size());
  for (size_t s = 0; s < slots.size(); ++s) {
    auto pointer = push_pointer_to(module, slots[s].type);
    if (!pointer) return pointer.error();
    member_pointer[s] = *pointer;
    auto index = module.constant_u32(first_member + uint32_t(s));
    if (!index) return index.error();
    member_index[s] = *index;
  }

  // Per function, one load of each slot it uses, then the operands.
  std::vector<std::unordered_map<size_t, uint32_t>> loaded(functions.size());
  for (size_t u_i = 0; u_i < uses.size(); ++u_i) loaded[use_function[u_i]].emplace(uses[u_i].slot, 0);
  for (size_t f = 0; f < functions.size(); ++f) {
    if (loaded[f].empty()) continue;
    const std::vector<InstructionHandle>& body = functions[f];
    size_t label = 0;
    while (label < body.size() && module.opcode(body[label]) != Op::OpLabel) ++label;
    if (label == body.size()) return fail(module.describe(body[0]) + ": a function with uses has no block");
    const InstructionHandle anchor = first_non_variable(module, body, label);
    std::vector<size_t> used;
    for (const auto& [slot, id] : loaded[f]) used.push_back(slot);
    std::sort(used.begin(), used.end());  // loads in slot order: the words do not depend on hashing
    for (size_t slot : used) {
      auto pointer = module.allocate_id();
      if (!pointer) return pointer.error();
      auto value = module.allocate_id();
      if (!value) return value.error();
      const uint32_t chain[] = {member_pointer[slot], *pointer, block->variable, member_index[slot]};
      module.insert_before(anchor, Op::OpAccessChain, chain);
      const uint32_t load[] = {slots[slot].type, *value, *pointer};
      module.insert_before(anchor, Op::OpLoad, load);
      loaded[f][slot] = *value;
    }
  }
  for (size_t u_i = 0; u_i < uses.size(); ++u_i) {
    const Use& use = uses[u_i];
    const auto w = module.words(use.instruction);
    std::vector<uint32_t> operands(w.begin() + 1, w.end());
    operands[use.word - 1] = loaded[use_function[u_i]].at(use.slot);
    module.replace(use.instruction, module.opcode(use.instruction), operands);
  }

  // From SPIR-V 1.4 the entry point's interface lists every global variable it uses.
  if (module.version() >= 0x00010400u) {
    const auto w = module.words(entry->handle);
    const size_t interface_begin = 3 + entry->name.size() / 4 + 1;
    if (std::find(w.begin() + std::min(interface_begin, w.size()), w.end(), block->variable) == w.end()) {
      std::vector<uint32_t> operands(w.begin() + 1, w.end());
      operands.push_back(block->variable);
      module.replace(entry->handle, Op::OpEntryPoint, operands);
    }
  }
  for (const Slot& slot : slots) report.values.push_back(slot.value);
  report.operands_replaced = static_cast<uint32_t>(uses.size());
  return report;
}

}  // namespace bismuth::spirv_patch
