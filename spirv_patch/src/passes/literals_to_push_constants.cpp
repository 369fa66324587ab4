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
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/entry_points.hpp"
#include "analysis/type_queries.hpp"
#include "analysis/use_index.hpp"
#include "bismuth/spirv_patch/analysis/type_layout.hpp"
#include "variable_edits.hpp"

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

// One replaced operand: its instruction and word, the constant it named, and the function it is in.
struct Slot {
  InstructionHandle instruction;
  size_t word;
  uint32_t constant;  // the OpConstant id
  uint32_t type;      // its OpTypeInt
  uint32_t value;
  size_t function;      // index into the functions' load anchors
  uint32_t loaded = 0;  // the id of the value loaded from its member
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

// The struct of the push-constant variable `variable`.
Expected<uint32_t> push_struct_of(const Module& module, uint32_t variable) {
  auto def = module.definition(variable);
  const auto w = def ? module.words(*def) : std::span<const uint32_t>{};
  if (!def || module.opcode(*def) != Op::OpVariable || w.size() < 4 || w[3] != u(spv::StorageClass::PushConstant)) {
    return fail(id_name(variable) + " is not a push constant variable");
  }
  const auto pointee = pointer_type(module, w[1]);
  auto struct_def = pointee ? module.definition(pointee->second) : std::nullopt;
  if (!struct_def || module.opcode(*struct_def) != Op::OpTypeStruct) {
    return fail("the push constant variable " + id_name(variable) + " is not a pointer to a struct");
  }
  return pointee->second;
}

// Before any constant is added (Module's constant helpers reuse existing ones): the constants whose every use is
// replaced go, so that only the module's other constants can be reused and the words do not depend on the hoisted
// values; so do the integer constants nothing uses (the literals of a fixed size the earlier passes replaced).
void remove_unused_int32_constants(Module& module, const std::vector<Slot>& slots,
                                   LiteralsToPushConstantsReport& report) {
  std::unordered_map<uint32_t, bool> int32_types;
  const std::vector<uint32_t> uses = use_counts(module);  // only the counts: which instructions use them is not asked
  std::unordered_map<uint32_t, size_t> replaced;          // constant id -> operands replaced
  for (const Slot& slot : slots) ++replaced[slot.constant];
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpConstant || !int32_constant(module, w[2], int32_types)) continue;
    auto it = replaced.find(w[2]);
    const size_t used = w[2] < uses.size() ? uses[w[2]] : 0;
    if (used != (it == replaced.end() ? 0 : it->second)) continue;
    report.removed_constants.push_back(w[2]);
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

  // Every replaceable operand naming a 32-bit integer constant, and where each function's loads go: its first block,
  // after the OpLabel and the OpVariables (and debug lines among them). Each operand gets a slot of its own: slots
  // per constant would make the layout depend on which literals happen to be equal (glslang gives equal literals one
  // id), and a template's programs would stop sharing whenever one of its numbers met another constant of the
  // module.
  std::vector<Slot> slots;
  std::unordered_map<uint32_t, bool> int32_types;
  std::vector<std::optional<InstructionHandle>> anchors;  // per function
  enum class Stage { BeforeBlock, Variables, Body } stage = Stage::Body;
  for (InstructionHandle h : module.instructions(Section::Function)) {
    const Op op = module.opcode(h);
    if (op == Op::OpFunction) {
      anchors.emplace_back();
      stage = Stage::BeforeBlock;
    } else if (stage == Stage::BeforeBlock && op == Op::OpLabel) {
      stage = Stage::Variables;
    } else if (stage == Stage::Variables && op != Op::OpVariable && op != Op::OpLine && op != Op::OpNoLine) {
      anchors.back() = h;
      stage = Stage::Body;
    }
    if (anchors.empty()) continue;
    const auto [begin, end] = replaceable_operands(module, h);
    const auto w = module.words(h);
    for (size_t i = begin; i < end; ++i) {
      auto constant = int32_constant(module, w[i], int32_types);
      if (constant) slots.push_back(Slot{h, i, w[i], constant->first, constant->second, anchors.size() - 1});
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
  auto struct_id = push_struct_of(module, options.push_variable);
  if (!struct_id) return struct_id.error();
  auto block_size = explicit_layout_size(module, *struct_id, "push constant");
  if (!block_size) return block_size.error();
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
  const InstructionHandle struct_def = *module.definition(*struct_id);
  std::vector<uint32_t> struct_operands;
  {
    const auto w = module.words(struct_def);
    struct_operands.assign(w.begin() + 1, w.end());
  }
  const uint32_t first_member = static_cast<uint32_t>(struct_operands.size() - 1);
  const auto order = module.instructions(Section::Global);
  auto position = [&](InstructionHandle h) { return std::find(order.begin(), order.end(), h) - order.begin(); };
  std::set<uint32_t> moved_types;
  for (const Slot& slot : slots) {
    const InstructionHandle type_def = *module.definition(slot.type);
    if (!moved_types.contains(slot.type) && position(type_def) > position(struct_def)) {
      const auto w = module.words(type_def);
      const std::vector<uint32_t> operands(w.begin() + 1, w.end());
      module.erase(type_def);
      module.insert_before(struct_def, Op::OpTypeInt, operands);
      moved_types.insert(slot.type);
    }
    struct_operands.push_back(slot.type);
  }
  module.replace(struct_def, Op::OpTypeStruct, struct_operands);

  // Each slot: its member's Offset, and its load at the top of its function (in slot order: the words do not depend
  // on anything but the module).
  for (size_t s = 0; s < slots.size(); ++s) {
    Slot& slot = slots[s];
    const std::optional<InstructionHandle> anchor = anchors[slot.function];
    if (!anchor) return fail("a function with literals has no block");
    const uint32_t member = first_member + uint32_t(s);
    const uint32_t offset[] = {*struct_id, member, u(spv::Decoration::Offset),
                               options.push_constant_offset + 4 * uint32_t(s)};
    module.append(Section::Annotation, Op::OpMemberDecorate, offset);
    auto member_pointer = pointer_to(module, spv::StorageClass::PushConstant, slot.type);
    if (!member_pointer) return member_pointer.error();
    auto index = module.constant_u32(member);
    if (!index) return index.error();
    auto pointer = module.allocate_id();
    if (!pointer) return pointer.error();
    auto value = module.allocate_id();
    if (!value) return value.error();
    const uint32_t chain[] = {*member_pointer, *pointer, options.push_variable, *index};
    module.insert_before(*anchor, Op::OpAccessChain, chain);
    const uint32_t load[] = {slot.type, *value, *pointer};
    module.insert_before(*anchor, Op::OpLoad, load);
    slot.loaded = *value;
  }
  for (const Slot& slot : slots) {
    const auto w = module.words(slot.instruction);
    std::vector<uint32_t> operands(w.begin() + 1, w.end());
    operands[slot.word - 1] = slot.loaded;
    module.replace(slot.instruction, module.opcode(slot.instruction), operands);
    report.values.push_back(slot.value);
    report.value_constants.push_back(slot.constant);
  }
  if (interface_lists_all_globals(module)) {
    module.replace(entry->handle, Op::OpEntryPoint,
                   entry_point_interface_edit(module, entry->handle, 0, options.push_variable));
  }
  report.operands_replaced = static_cast<uint32_t>(slots.size());
  return report;
}

}  // namespace bismuth::spirv_patch
