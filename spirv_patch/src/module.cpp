#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType from spirv.hpp11
#include <spirv/unified1/spirv.hpp11>

#include "bismuth/spirv_patch/module.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "analysis/id_operands.hpp"
#include "grammar.hpp"

namespace bismuth::spirv_patch {

namespace {

std::string hex(uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", value);
  return buffer;
}

// Where an opcode lives in the logical layout; nullopt for instructions that may sit in more than one section
// (OpLine, OpNoLine, OpExtInst, OpUndef, OpVariable, OpNop: allowed among globals and inside functions).
std::optional<Section> natural_section(spv::Op op) {
  switch (op) {
    case spv::Op::OpCapability: return Section::Capability;
    case spv::Op::OpExtension: return Section::Extension;
    case spv::Op::OpExtInstImport: return Section::ExtInstImport;
    case spv::Op::OpMemoryModel: return Section::MemoryModel;
    case spv::Op::OpEntryPoint: return Section::EntryPoint;
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId: return Section::ExecutionMode;
    case spv::Op::OpString:
    case spv::Op::OpSourceExtension:
    case spv::Op::OpSource:
    case spv::Op::OpSourceContinued:
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
    case spv::Op::OpModuleProcessed: return Section::Debug;
    case spv::Op::OpDecorate:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpDecorationGroup:
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpGroupMemberDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorateString: return Section::Annotation;
    case spv::Op::OpFunction: return Section::Function;
    case spv::Op::OpLine:
    case spv::Op::OpNoLine:
    case spv::Op::OpExtInst:
    case spv::Op::OpUndef:
    case spv::Op::OpVariable:
    case spv::Op::OpNop: return std::nullopt;
    default: return Section::Global;  // types and constants before the first function, code after it
  }
}

const char* section_name(Section section) {
  switch (section) {
    case Section::Capability: return "capabilities";
    case Section::Extension: return "extensions";
    case Section::ExtInstImport: return "extended instruction imports";
    case Section::MemoryModel: return "memory model";
    case Section::EntryPoint: return "entry points";
    case Section::ExecutionMode: return "execution modes";
    case Section::Debug: return "debug instructions";
    case Section::Annotation: return "annotations";
    case Section::Global: return "types, constants and global variables";
    case Section::Function: return "functions";
  }
  return "?";
}

// The word index of an instruction's result id (after the result type when there is one: SPIR-V 2.3, "Physical
// Layout of a SPIR-V Module and Instruction"), 0 when the opcode has none.
size_t result_word(spv::Op op) {
  bool has_result = false;
  bool has_type = false;
  spv::HasResultAndType(op, &has_result, &has_type);
  return has_result ? (has_type ? 2 : 1) : 0;
}

// The opcodes find_global's index holds (the deduplicated types and constants).
bool is_indexed_global(spv::Op op) {
  switch (op) {
    case spv::Op::OpTypeVoid:
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat:
    case spv::Op::OpTypeVector:
    case spv::Op::OpConstant: return true;
    default: return false;
  }
}

std::string where(uint32_t offset, uint32_t opcode) {
  return "word " + std::to_string(offset) + " (" + opcode_name(opcode) + ")";
}

}  // namespace

std::string version_string(uint32_t version_word) {
  return "SPIR-V " + std::to_string((version_word >> 16) & 0xff) + "." + std::to_string((version_word >> 8) & 0xff);
}

std::string opcode_name(uint32_t opcode) {
  if (const grammar::InstructionInfo* info = grammar::find_instruction(opcode)) return info->name;
  return "Op" + std::to_string(opcode);
}

std::string id_name(uint32_t id) {
  return "%" + std::to_string(id);
}

Expected<Module> Module::parse(std::span<const uint32_t> words) {
  return parse_words(words, true);
}

Expected<Module> Module::reparse(std::span<const uint32_t> words) {
  return parse_words(words, false);
}

Expected<Module> Module::parse_words(std::span<const uint32_t> words, bool check_operands) {
  if (words.empty()) return fail("SPIR-V module is empty");
  if (words.size() < 5) {
    return fail("SPIR-V module is truncated: " + std::to_string(words.size()) +
                " words, the header alone needs 5");
  }
  if (words[0] != spv::MagicNumber) {
    if (words[0] == 0x03022307) return fail("word 0: big-endian SPIR-V is not supported");
    return fail("word 0: wrong magic number " + hex(words[0]) + ", expected " + hex(spv::MagicNumber));
  }
  if (words.size() > UINT32_MAX) return fail("SPIR-V module has more words than 32-bit offsets can name");
  const uint32_t version = words[1];
  const uint32_t major = (version >> 16) & 0xff;
  const uint32_t minor = (version >> 8) & 0xff;
  if ((version & 0xff0000ffu) != 0 || major != 1 || minor > 6) {
    return fail("word 1: unsupported SPIR-V version " + hex(version) + " (1.0 to 1.6 are known)");
  }
  const uint32_t bound = words[3];
  if (bound == 0) return fail("word 3: id bound is 0");
  if (bound > kMaxIdBound) {
    return fail("word 3: id bound " + std::to_string(bound) + " exceeds the universal limit " +
                std::to_string(kMaxIdBound) + " (SPIR-V 2.17)");
  }
  if (words[4] != 0) return fail("word 4: schema " + std::to_string(words[4]) + " is reserved and must be 0");

  Module module;
  module.version_ = version;
  module.generator_ = words[2];
  module.bound_ = bound;
  module.schema_ = 0;
  module.storage_.assign(words.begin(), words.end());
  module.records_.reserve(words.size() / 4);
  module.order_.reserve(words.size() / 4);

  Section current = Section::Capability;
  IdOperands operands;  // one for every instruction: the walk reuses its storage
  for (size_t offset = 5; offset < words.size();) {
    const uint32_t word_count = words[offset] >> 16;
    const uint32_t opcode = words[offset] & 0xffff;
    const auto at = static_cast<uint32_t>(offset);
    if (word_count == 0) return fail(where(at, opcode) + ": word count is 0");
    if (word_count > words.size() - offset) {
      return fail(where(at, opcode) + ": word count " + std::to_string(word_count) + " runs past the end of the module (" +
                  std::to_string(words.size() - offset) + " words left)");
    }
    const grammar::InstructionInfo* info = grammar::find_instruction(opcode);
    if (!info) return fail(where(at, opcode) + ": unknown opcode " + std::to_string(opcode));
    const auto instruction = words.subspan(offset, word_count);
    const auto op = static_cast<spv::Op>(opcode);
    size_t result_index = 0;  // word index of the result id, 0 when none
    if (check_operands) {
      if (std::string problem = walk_operands(instruction, grammar::operands(*info), bound, operands);
          !problem.empty()) {
        return fail(where(at, opcode) + ": " + problem);
      }
      result_index = operands.result;
    } else {
      result_index = result_word(op);
      if (result_index >= word_count) {
        return fail(where(at, opcode) + ": word count " + std::to_string(word_count) +
                    " leaves no room for the result id");
      }
    }

    Section section;
    if (auto natural = natural_section(op)) {
      section = *natural;
      if (section == Section::Global && current == Section::Function) section = Section::Function;
      if (section < current) {
        return fail(where(at, opcode) + ": belongs to the " + section_name(section) + " section but follows the " +
                    section_name(current) + " section (SPIR-V 2.4)");
      }
    } else {
      section = std::max(current, Section::Global);
    }
    current = section;

    const auto handle = static_cast<InstructionHandle>(module.records_.size());
    module.records_.push_back(Record{at, word_count, at, section, false});
    module.order_.push_back(handle);
    if (check_operands && !id_operands_depend_on_module(op)) {
      // What id_operands would find for these words, kept: the walk above is its walk of the grammar.
      add_own_id_operands(op, *info, instruction, bound, operands);
      module.keep_id_operands(module.records_.back(), op, operands);
    }
    if (result_index != 0) {
      const uint32_t id = instruction[result_index];
      if (id == 0 || id >= bound) {  // parse()'s walk has checked it already
        return fail(where(at, opcode) + ": result id %" + std::to_string(id) + " is not below the bound " +
                    std::to_string(bound));
      }
      if (id >= module.definitions_.size()) module.definitions_.resize(id + 1, 0);  // grows geometrically
      if (module.definitions_[id] != 0) {
        return fail(where(at, opcode) + ": id %" + std::to_string(id) + " is already defined at " +
                    module.describe(module.definitions_[id] - 1));
      }
      module.definitions_[id] = handle + 1;
    }
    offset += word_count;
  }
  return module;
}

Expected<Module> Module::reparse(std::span<const uint32_t> words, const Module& serialized_from) {
  auto module = parse_words(words, false);
  if (!module) return module;
  // Its records are serialized_from's live ones in module order; an instruction whose words differ (words that are
  // not serialized_from's after all) keeps nothing, and id_operands walks it.
  size_t next = 0;
  IdOperands operands;
  for (InstructionHandle from : serialized_from.order_) {
    if (serialized_from.records_[from].erased) continue;
    if (next == module->records_.size()) break;
    Record& record = module->records_[next++];
    const auto mine = module->words(static_cast<InstructionHandle>(next - 1));
    const auto theirs = serialized_from.words(from);
    if (!std::equal(mine.begin(), mine.end(), theirs.begin(), theirs.end())) continue;
    if (!serialized_from.known_id_operands(from, operands)) continue;
    module->keep_id_operands(record, static_cast<spv::Op>(mine[0] & 0xffff), operands);
  }
  return module;
}

bool Module::known_id_operands(InstructionHandle handle, IdOperands& out) const {
  const Record& record = records_[handle];
  if (!record.operands_known) return false;
  const uint16_t* first = operand_words_.data() + record.operands_begin;
  out.ids.assign(first, first + record.ids);
  out.constant_required.assign(first + record.ids, first + record.ids + record.required);
  out.result_type = record.result_type;
  out.result = record.result;
  out.rest = record.rest;
  return true;
}

void Module::keep_id_operands(Record& record, spv::Op op, const IdOperands& operands) {
  record.operands_known = false;
  if (id_operands_depend_on_module(op)) return;
  const size_t limit = UINT16_MAX;
  if (operands.ids.size() > limit || operands.constant_required.size() > limit) return;
  record.operands_begin = static_cast<uint32_t>(operand_words_.size());
  for (size_t i : operands.ids) operand_words_.push_back(static_cast<uint16_t>(i));
  for (size_t i : operands.constant_required) operand_words_.push_back(static_cast<uint16_t>(i));
  record.ids = static_cast<uint16_t>(operands.ids.size());
  record.required = static_cast<uint16_t>(operands.constant_required.size());
  record.result_type = static_cast<uint16_t>(operands.result_type);
  record.result = static_cast<uint16_t>(operands.result);
  record.rest = static_cast<uint16_t>(operands.rest);
  record.operands_known = true;
}

void Module::find_id_operands(InstructionHandle handle) {
  Record& record = records_[handle];
  record.operands_known = false;
  const spv::Op op = opcode(handle);
  const grammar::InstructionInfo* info = grammar::find_instruction(static_cast<uint32_t>(op));
  if (info == nullptr || id_operands_depend_on_module(op)) return;
  thread_local IdOperands operands;  // one for every edit: its storage is reused
  walk_operands(words(handle), grammar::operands(*info), std::nullopt, operands);
  add_own_id_operands(op, *info, words(handle), bound_, operands);
  keep_id_operands(record, op, operands);
}

std::vector<uint32_t> Module::serialize() const {
  std::vector<uint32_t> out;
  out.reserve(storage_.size() + 16);
  out.insert(out.end(), {spv::MagicNumber, version_, generator_, bound_, schema_});
  for (InstructionHandle handle : order_) {
    const Record& record = records_[handle];
    if (record.erased) continue;
    out.insert(out.end(), storage_.begin() + record.begin, storage_.begin() + record.begin + record.count);
  }
  return out;
}

Expected<uint32_t> Module::allocate_id() {
  if (bound_ >= kMaxIdBound) return fail("id bound " + std::to_string(bound_) + " cannot grow past the limit");
  return bound_++;
}

std::vector<InstructionHandle> Module::instructions() const {
  std::vector<InstructionHandle> out;
  out.reserve(order_.size());
  for (InstructionHandle handle : order_) {
    if (!records_[handle].erased) out.push_back(handle);
  }
  return out;
}

std::span<const InstructionHandle> Module::section_order(Section section) const {
  auto begin = std::lower_bound(order_.begin(), order_.end(), section,
                                [&](InstructionHandle h, Section s) { return records_[h].section < s; });
  auto end = std::upper_bound(begin, order_.end(), section,
                              [&](Section s, InstructionHandle h) { return s < records_[h].section; });
  return std::span<const InstructionHandle>(order_).subspan(static_cast<size_t>(begin - order_.begin()),
                                                            static_cast<size_t>(end - begin));
}

std::vector<InstructionHandle> Module::instructions(Section section) const {
  std::vector<InstructionHandle> out;
  out.reserve(section_order(section).size());  // the passes ask for sections many times per module
  for (InstructionHandle h : live(section)) out.push_back(h);
  return out;
}

spv::Op Module::opcode(InstructionHandle handle) const {
  return static_cast<spv::Op>(storage_[records_[handle].begin] & 0xffff);
}

std::span<const uint32_t> Module::words(InstructionHandle handle) const {
  const Record& record = records_[handle];
  return std::span<const uint32_t>(storage_).subspan(record.begin, record.count);
}

std::string Module::describe(InstructionHandle handle) const {
  // Offset 0 is the magic number, never an instruction: it marks instructions added after parsing.
  if (records_[handle].source_offset == 0) return "added " + opcode_name(static_cast<uint32_t>(opcode(handle)));
  return where(records_[handle].source_offset, static_cast<uint32_t>(opcode(handle)));
}

std::optional<InstructionHandle> Module::definition(uint32_t id) const {
  if (id >= definitions_.size() || definitions_[id] == 0) return std::nullopt;
  return definitions_[id] - 1;
}

std::string_view Module::string_operand(InstructionHandle handle, size_t word_index) const {
  const auto instruction = words(handle);
  if (word_index >= instruction.size()) return {};
  const char* begin = reinterpret_cast<const char*>(instruction.data() + word_index);
  const size_t max_length = (instruction.size() - word_index) * sizeof(uint32_t);
  return std::string_view(begin, strnlen(begin, max_length));
}

InstructionHandle Module::add_record(Section section, spv::Op op, std::span<const uint32_t> operands_in) {
  const std::vector<uint32_t> operands(operands_in.begin(), operands_in.end());  // may alias storage_
  Record record;
  record.begin = static_cast<uint32_t>(storage_.size());
  record.count = static_cast<uint32_t>(operands.size() + 1);
  record.section = section;
  storage_.push_back((record.count << 16) | static_cast<uint32_t>(op));
  storage_.insert(storage_.end(), operands.begin(), operands.end());
  records_.push_back(record);
  const auto handle = static_cast<InstructionHandle>(records_.size() - 1);
  note_definition(handle);
  find_id_operands(handle);
  return handle;
}

void Module::note_definition(InstructionHandle handle) {
  const size_t index = result_word(opcode(handle));
  if (index == 0) return;
  const auto instruction = words(handle);
  if (index >= instruction.size()) return;
  const uint32_t id = instruction[index];
  if (id >= definitions_.size()) definitions_.resize(id + 1, 0);
  definitions_[id] = handle + 1;
}

InstructionHandle Module::append(Section section, spv::Op op, std::span<const uint32_t> operands) {
  const InstructionHandle handle = add_record(section, op, operands);
  auto position = std::upper_bound(order_.begin(), order_.end(), section,
                                   [&](Section s, InstructionHandle h) { return s < records_[h].section; });
  order_.insert(position, handle);
  return handle;
}

InstructionHandle Module::insert_before(InstructionHandle before, spv::Op op, std::span<const uint32_t> operands) {
  const InstructionHandle handle = add_record(records_[before].section, op, operands);
  auto position = std::find(order_.begin(), order_.end(), before);
  order_.insert(position, handle);
  return handle;
}

void Module::replace(InstructionHandle handle, spv::Op op, std::span<const uint32_t> operands_in) {
  const std::vector<uint32_t> operands(operands_in.begin(), operands_in.end());  // may alias storage_
  // The deduplication index changes only with a type or constant it holds: a pass that rewrites code in functions
  // keeps it (rebuilding it cost more than the rest of such a pass).
  const bool reindex =
      records_[handle].section == Section::Global && (is_indexed_global(opcode(handle)) || is_indexed_global(op));
  Record& record = records_[handle];
  record.begin = static_cast<uint32_t>(storage_.size());
  record.count = static_cast<uint32_t>(operands.size() + 1);
  storage_.push_back((record.count << 16) | static_cast<uint32_t>(op));
  storage_.insert(storage_.end(), operands.begin(), operands.end());
  note_definition(handle);
  find_id_operands(handle);
  if (reindex) {
    globals_indexed_ = false;
    globals_.clear();
  }
}

void Module::erase(InstructionHandle handle) {
  Record& record = records_[handle];
  if (record.erased) return;
  record.erased = true;
  const size_t index = result_word(opcode(handle));
  const auto instruction = words(handle);
  if (index != 0 && index < instruction.size() && instruction[index] < definitions_.size() &&
      definitions_[instruction[index]] == handle + 1) {
    definitions_[instruction[index]] = 0;
  }
  if (record.section == Section::Global && is_indexed_global(opcode(handle))) {
    globals_indexed_ = false;
    globals_.clear();
  }
}

bool Module::has_capability(spv::Capability capability) const {
  for (InstructionHandle h : live(Section::Capability)) {
    auto w = words(h);
    if (w.size() >= 2 && w[1] == static_cast<uint32_t>(capability)) return true;
  }
  return false;
}

void Module::add_capability(spv::Capability capability) {
  if (has_capability(capability)) return;
  const uint32_t operand = static_cast<uint32_t>(capability);
  append(Section::Capability, spv::Op::OpCapability, std::span(&operand, 1));
}

void Module::remove_capability(spv::Capability capability) {
  for (InstructionHandle h : live(Section::Capability)) {
    auto w = words(h);
    if (w.size() >= 2 && w[1] == static_cast<uint32_t>(capability)) erase(h);
  }
}

bool Module::has_extension(std::string_view name) const {
  for (InstructionHandle h : live(Section::Extension)) {
    if (string_operand(h, 1) == name) return true;
  }
  return false;
}

void Module::add_extension(std::string_view name) {
  if (has_extension(name)) return;
  std::vector<uint32_t> operands((name.size() + 4) / 4, 0);
  std::memcpy(operands.data(), name.data(), name.size());
  append(Section::Extension, spv::Op::OpExtension, operands);
}

void Module::remove_extension(std::string_view name) {
  for (InstructionHandle h : live(Section::Extension)) {
    if (string_operand(h, 1) == name) erase(h);
  }
}

void Module::add_decoration(uint32_t target, spv::Decoration decoration, std::span<const uint32_t> literals) {
  std::vector<uint32_t> operands{target, static_cast<uint32_t>(decoration)};
  operands.insert(operands.end(), literals.begin(), literals.end());
  for (InstructionHandle h : live(Section::Annotation)) {
    auto w = words(h);
    if (opcode(h) == spv::Op::OpDecorate && std::equal(w.begin() + 1, w.end(), operands.begin(), operands.end())) {
      return;
    }
  }
  append(Section::Annotation, spv::Op::OpDecorate, operands);
}

std::optional<Module::GlobalKey> Module::global_key(spv::Op op, std::span<const uint32_t> first,
                                                    std::span<const uint32_t> rest) {
  GlobalKey key;
  if (1 + first.size() + rest.size() > key.words.size()) return std::nullopt;
  key.words[key.size++] = static_cast<uint32_t>(op);
  for (uint32_t w : first) key.words[key.size++] = w;
  for (uint32_t w : rest) key.words[key.size++] = w;
  return key;
}

std::optional<uint32_t> Module::find_global(spv::Op op, std::span<const uint32_t> operands_after_result) {
  if (!globals_indexed_) {
    globals_.clear();
    for (InstructionHandle h : live(Section::Global)) {
      const spv::Op global_op = opcode(h);
      if (!is_indexed_global(global_op)) continue;
      auto w = words(h);
      // A type's key is its operands after the result; a constant's, its result type and its value words.
      const bool constant = global_op == spv::Op::OpConstant;
      if (w.size() < (constant ? 3u : 2u)) continue;
      std::optional<GlobalKey> key = constant ? global_key(global_op, w.subspan(1, 1), w.subspan(3))
                                              : global_key(global_op, {}, w.subspan(2));
      if (!key) continue;
      key->id = constant ? w[2] : w[1];
      globals_.push_back(*key);
    }
    globals_indexed_ = true;
  }
  const std::optional<GlobalKey> key = global_key(op, operands_after_result, {});
  if (!key) return std::nullopt;
  for (const GlobalKey& g : globals_) {
    if (g.size == key->size && std::equal(g.words.begin(), g.words.begin() + g.size, key->words.begin())) return g.id;
  }
  return std::nullopt;
}

Expected<uint32_t> Module::add_global(spv::Op op, std::span<const uint32_t> operands_after_result,
                                      bool has_result_type) {
  if (auto existing = find_global(op, operands_after_result)) return *existing;
  auto id = allocate_id();
  if (!id) return id.error();
  std::vector<uint32_t> operands;
  if (has_result_type) {
    operands = {operands_after_result[0], *id};
    operands.insert(operands.end(), operands_after_result.begin() + 1, operands_after_result.end());
  } else {
    operands = {*id};
    operands.insert(operands.end(), operands_after_result.begin(), operands_after_result.end());
  }
  append(Section::Global, op, operands);
  if (std::optional<GlobalKey> key = global_key(op, operands_after_result, {})) {
    key->id = *id;
    globals_.push_back(*key);
  }
  return *id;
}

Expected<uint32_t> Module::type_void() { return add_global(spv::Op::OpTypeVoid, {}, false); }

Expected<uint32_t> Module::type_bool() { return add_global(spv::Op::OpTypeBool, {}, false); }

Expected<uint32_t> Module::type_int(uint32_t width, bool is_signed) {
  const uint32_t operands[] = {width, is_signed ? 1u : 0u};
  return add_global(spv::Op::OpTypeInt, operands, false);
}

Expected<uint32_t> Module::type_vector(uint32_t component_type, uint32_t count) {
  const uint32_t operands[] = {component_type, count};
  return add_global(spv::Op::OpTypeVector, operands, false);
}

Expected<uint32_t> Module::constant_u32(uint32_t value) {
  auto uint_type = type_int(32, false);
  if (!uint_type) return uint_type;
  const uint32_t operands[] = {*uint_type, value};
  return add_global(spv::Op::OpConstant, operands, true);
}

Expected<uint32_t> Module::type_float(uint32_t width) {
  const uint32_t operands[] = {width};
  return add_global(spv::Op::OpTypeFloat, operands, false);
}

Expected<uint32_t> Module::constant_f32(float value) {
  auto float_type = type_float(32);
  if (!float_type) return float_type;
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t operands[] = {*float_type, bits};
  return add_global(spv::Op::OpConstant, operands, true);
}

Expected<uint32_t> Module::glsl_std_450() {
  for (InstructionHandle h : live(Section::ExtInstImport)) {
    if (string_operand(h, 2) == "GLSL.std.450") return words(h)[1];
  }
  auto id = allocate_id();
  if (!id) return id;
  const char name[16] = "GLSL.std.450";  // 12 characters and the terminator, padded to 4 words
  uint32_t operands[1 + 4] = {*id, 0, 0, 0, 0};
  std::memcpy(&operands[1], name, sizeof name);
  append(Section::ExtInstImport, spv::Op::OpExtInstImport, operands);
  return *id;
}

Expected<uint32_t> Module::spec_constant_u32(uint32_t default_value, uint32_t spec_id,
                                             std::optional<InstructionHandle> before) {
  auto uint_type = type_int(32, false);
  if (!uint_type) return uint_type;
  auto id = allocate_id();
  if (!id) return id;
  const uint32_t operands[] = {*uint_type, *id, default_value};
  if (before) {
    insert_before(*before, spv::Op::OpSpecConstant, operands);
  } else {
    append(Section::Global, spv::Op::OpSpecConstant, operands);
  }
  const uint32_t literal = spec_id;
  add_decoration(*id, spv::Decoration::SpecId, std::span(&literal, 1));
  return *id;
}

std::vector<uint32_t> Module::spec_ids_in_use() const {
  std::vector<uint32_t> ids;
  for (InstructionHandle h : live(Section::Annotation)) {
    auto w = words(h);
    if (opcode(h) == spv::Op::OpDecorate && w.size() >= 4 && w[2] == static_cast<uint32_t>(spv::Decoration::SpecId)) {
      ids.push_back(w[3]);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::optional<uint32_t> Module::decoration_literal(uint32_t id, spv::Decoration decoration) const {
  for (InstructionHandle h : live(Section::Annotation)) {
    auto w = words(h);
    if (opcode(h) == spv::Op::OpDecorate && w.size() >= 4 && w[1] == id &&
        w[2] == static_cast<uint32_t>(decoration)) {
      return w[3];
    }
  }
  return std::nullopt;
}

std::vector<Module::EntryPoint> Module::entry_points() const {
  std::vector<EntryPoint> out;
  for (InstructionHandle h : live(Section::EntryPoint)) {
    auto w = words(h);
    if (w.size() < 4) continue;
    out.push_back({h, static_cast<spv::ExecutionModel>(w[1]), w[2], std::string(string_operand(h, 3))});
  }
  return out;
}

}  // namespace bismuth::spirv_patch
