// A SPIR-V module as an editable sequence of instructions: the header, the logical sections of SPIR-V 1.6
// section 2.4 ("Logical Layout of a Module"), id allocation from the bound, and deduplicated helpers that put new
// capabilities, extensions, decorations, types and constants in the section where they belong.
//
// Input is untrusted: Module::parse checks the header, every word count, every operand against the grammar (tables
// generated at build time from SPIRV-Headers' spirv.core.grammar.json), every id against the bound and the section
// order. A malformed module is an Error whose message names the word offset and opcode.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::spirv_patch {

// SPIR-V 1.6 section 2.4, in module order.
enum class Section : uint8_t {
  Capability,
  Extension,
  ExtInstImport,
  MemoryModel,
  EntryPoint,
  ExecutionMode,
  Debug,
  Annotation,
  Global,  // types, constants, spec constants, global variables, OpUndef, OpLine
  Function,
};

// Largest id bound Bismuth accepts: the universal limit of SPIR-V section 2.17 ("Result <id> bound").
inline constexpr uint32_t kMaxIdBound = 4'194'303;

// "SPIR-V 1.3" for 0x00010300.
std::string version_string(uint32_t version_word);
// Name of an opcode from SPIRV-Headers' grammar ("OpSubgroupBallotKHR"), or "Op<number>" when unknown.
std::string opcode_name(uint32_t opcode);
// "%5" for id 5, as messages name ids.
std::string id_name(uint32_t id);

struct IdOperands;  // analysis/id_operands.hpp (the passes' view of where an instruction's ids are)

// Position of an instruction inside a Module. Stable across edits; an erased instruction keeps its handle.
using InstructionHandle = uint32_t;

class Module {
 public:
  static Expected<Module> parse(std::span<const uint32_t> words);
  // Words that parse() accepted, or that a Module so parsed serialized after Bismuth's passes edited it: parse()
  // without its walk of every operand against the grammar (they passed it; the passes write instructions of the
  // grammar's form), the header, word count, section and id-definition checks kept. The same Module parse() gives,
  // for about a third of its instructions: the run-time group-size variant reads the main pipeline's output so.
  static Expected<Module> reparse(std::span<const uint32_t> words);
  // reparse() of words that `serialized_from.serialize()` gave: the same Module, which also keeps the id operands
  // `serialized_from` knew for each instruction whose words are equal (below), so that the run-time group-size
  // variant does not walk the grammar again for the main pipeline's instructions.
  static Expected<Module> reparse(std::span<const uint32_t> words, const Module& serialized_from);

  std::vector<uint32_t> serialize() const;

  uint32_t version() const { return version_; }
  void set_version(uint32_t version_word) { version_ = version_word; }
  uint32_t generator() const { return generator_; }
  uint32_t bound() const { return bound_; }
  // A fresh id. Fails only when the bound would pass kMaxIdBound.
  Expected<uint32_t> allocate_id();

  // Every live instruction, in module order.
  std::vector<InstructionHandle> instructions() const;
  // Live instructions of one section, in module order.
  std::vector<InstructionHandle> instructions(Section section) const;

  spv::Op opcode(InstructionHandle handle) const;
  // All words of the instruction, the opcode/word-count word included.
  std::span<const uint32_t> words(InstructionHandle handle) const;
  Section section(InstructionHandle handle) const { return records_[handle].section; }
  // Word offset in the parsed input (0 for instructions added later): what error messages name.
  uint32_t source_offset(InstructionHandle handle) const { return records_[handle].source_offset; }
  bool erased(InstructionHandle handle) const { return records_[handle].erased; }
  // "word 123 (OpSubgroupBallotKHR)" for messages; "added OpSpecConstant" for an instruction added after parsing.
  std::string describe(InstructionHandle handle) const;

  // The instruction that defines `id`, if any.
  std::optional<InstructionHandle> definition(uint32_t id) const;
  // Literal string operand at `word_index` of the instruction (parse() has checked its termination).
  std::string_view string_operand(InstructionHandle handle, size_t word_index) const;

  // Edits. `words` is a whole instruction without its first word: opcode plus operands.
  InstructionHandle append(Section section, spv::Op op, std::span<const uint32_t> operands);
  InstructionHandle insert_before(InstructionHandle before, spv::Op op, std::span<const uint32_t> operands);
  void replace(InstructionHandle handle, spv::Op op, std::span<const uint32_t> operands);
  void erase(InstructionHandle handle);

  // The id operands of the instruction as analysis/id_operands.hpp defines them, when the module knows them: parse()
  // keeps what its walk of the grammar found, and every edit walks the instruction it writes, so the passes' many
  // walks of a module (use indexes, use counts, compact_ids) read them instead. False for an instruction of
  // reparse() or whose operands depend on other instructions or the version (OpSwitch, the broadcasts):
  // id_operands walks those each time.
  bool known_id_operands(InstructionHandle handle, IdOperands& out) const;

  // Deduplicated helpers.
  bool has_capability(spv::Capability capability) const;
  void add_capability(spv::Capability capability);
  void remove_capability(spv::Capability capability);
  bool has_extension(std::string_view name) const;
  void add_extension(std::string_view name);
  void remove_extension(std::string_view name);
  void add_decoration(uint32_t target, spv::Decoration decoration, std::span<const uint32_t> literals = {});
  // Types and constants: the existing id when an identical declaration exists, else a new one at the end of the
  // global section.
  Expected<uint32_t> type_void();
  Expected<uint32_t> type_bool();
  Expected<uint32_t> type_int(uint32_t width, bool is_signed);
  Expected<uint32_t> type_vector(uint32_t component_type, uint32_t count);
  Expected<uint32_t> constant_u32(uint32_t value);
  Expected<uint32_t> type_float(uint32_t width);
  Expected<uint32_t> constant_f32(float value);  // of the 32-bit float type
  // The id of the GLSL.std.450 extended instruction set: its OpExtInstImport, added when the module has none.
  Expected<uint32_t> glsl_std_450();
  // Never deduplicated: a spec constant is a distinct specialization point. Inserted before `before` when given
  // (so an existing instruction may use it), else at the end of the global section.
  Expected<uint32_t> spec_constant_u32(uint32_t default_value, uint32_t spec_id,
                                       std::optional<InstructionHandle> before = std::nullopt);
  // SpecIds already used by OpDecorate ... SpecId.
  std::vector<uint32_t> spec_ids_in_use() const;
  // Literal of an OpDecorate <id> <decoration> <literal>, if such a decoration exists.
  std::optional<uint32_t> decoration_literal(uint32_t id, spv::Decoration decoration) const;

  // Entry points: (handle of OpEntryPoint, name). Name is the literal string operand.
  struct EntryPoint {
    InstructionHandle handle;
    spv::ExecutionModel model;
    uint32_t function_id;
    std::string name;
  };
  std::vector<EntryPoint> entry_points() const;

 private:
  struct Record {
    uint32_t begin = 0;  // into storage_
    uint32_t count = 0;  // words, first word included
    uint32_t source_offset = 0;
    Section section = Section::Global;
    bool erased = false;
    // known_id_operands: operand_words_[operands_begin ..) holds `ids` then `required` word indices.
    bool operands_known = false;
    uint16_t ids = 0;
    uint16_t required = 0;
    uint16_t result_type = 0;
    uint16_t result = 0;
    uint16_t rest = 0;
    uint32_t operands_begin = 0;
  };
  Module() = default;
  static Expected<Module> parse_words(std::span<const uint32_t> words, bool check_operands);
  InstructionHandle add_record(Section section, spv::Op op, std::span<const uint32_t> operands);
  // The section's live handles in module order, as a view: what the helpers below scan without copying them into a
  // vector as instructions(Section) does (the deduplicating helpers run several times per pass). Erasing while
  // iterating is fine: erase() only marks a record.
  auto live(Section section) const {
    return section_order(section) |
           std::views::filter([this](InstructionHandle h) { return !records_[h].erased; });
  }
  std::span<const InstructionHandle> section_order(Section section) const;  // erased handles included
  void note_definition(InstructionHandle handle);
  // Records `operands` (the complete id_operands of the record's words) as the record's known operands.
  void keep_id_operands(Record& record, spv::Op op, const IdOperands& operands);
  // Walks the record's words (an edit) and keeps what it finds.
  void find_id_operands(InstructionHandle handle);
  std::optional<uint32_t> find_global(spv::Op op, std::span<const uint32_t> operands_after_result);
  Expected<uint32_t> add_global(spv::Op op, std::span<const uint32_t> operands_after_result,
                                bool has_result_type);

  uint32_t version_ = 0;
  uint32_t generator_ = 0;
  uint32_t bound_ = 0;
  uint32_t schema_ = 0;
  std::vector<uint32_t> storage_;
  std::vector<Record> records_;
  std::vector<InstructionHandle> order_;  // module order, sorted by section
  std::vector<InstructionHandle> definitions_;  // id -> handle + 1 (0: none)
  std::vector<uint16_t> operand_words_;  // the known id operands' word indices (a word count fits 16 bits)
  // Deduplication of types and constants: (opcode, operands after the result id) -> id, in module order (the first
  // declaration wins). Built on first use. A flat list: modules have tens of these, and a map of word vectors
  // allocated twice per entry each time a pass rebuilt it. The helpers look for keys of at most four words; a longer
  // declaration (a wider constant) is never one of them and is left out.
  struct GlobalKey {
    std::array<uint32_t, 4> words{};
    uint32_t size = 0;
    uint32_t id = 0;
  };
  static std::optional<GlobalKey> global_key(spv::Op op, std::span<const uint32_t> first,
                                             std::span<const uint32_t> rest);
  std::vector<GlobalKey> globals_;
  bool globals_indexed_ = false;
};

}  // namespace bismuth::spirv_patch
