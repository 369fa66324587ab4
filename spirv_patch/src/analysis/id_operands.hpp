// Where the ids of an instruction are. One walk of the SPIR-V grammar tables (grammar.hpp) serves both the checks of
// Module::parse and the passes, which need every id an instruction uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bismuth/spirv_patch/module.hpp"
#include "grammar.hpp"

namespace bismuth::spirv_patch {

struct IdOperands {
  std::vector<size_t> ids;                // word indices of <id> operands (not the result type, not the result)
  std::vector<size_t> constant_required;  // word indices among `ids` that must name constant instructions
  size_t result_type = 0;                 // word index, 0 when none
  size_t result = 0;                      // word index, 0 when none
  size_t rest = 0;                        // word index where uninterpreted words begin, 0 when none
};

// Walks `instruction` (all its words, the first one included) against `operands`, the grammar's operand list for its
// opcode, and fills `out` (cleared first, so one object can serve a whole module without reallocating). With
// `id_bound`, every id operand must be non-zero and below it. Returns the first problem (missing or extra operands,
// an unterminated string, an unknown enumerant, an id out of range, without the instruction's position) or an empty
// string. After a problem the walk goes on over what is there, so `out` holds every id it could find.
std::string walk_operands(std::span<const uint32_t> instruction, std::span<const grammar::Operand> operands,
                          std::optional<uint32_t> id_bound, IdOperands& out);

// The id operands of an instruction of a parsed module. For OpExtInst the operands after the instruction number are
// ids in every set Bismuth meets (GLSL.std.450, NonSemantic.*); for OpSpecConstantOp only the ids the named opcode
// takes. `constant_required` adds the scope and memory-semantics operands, which must be constants although the
// grammar tables keep them as plain ids. Every index in `ids` names a word below module.bound(), so tables indexed
// by id can be sized by the bound.
IdOperands id_operands(const Module& module, InstructionHandle handle);
// The same into `out` (cleared first): a loop over a whole module reuses one object's storage instead of allocating
// two vectors per instruction.
void id_operands(const Module& module, InstructionHandle handle, IdOperands& out);

// What id_operands adds to walk_operands' result from the instruction's own words (OpExtInst's and
// OpSpecConstantOp's ids, the operands that must be constants): all of it for an opcode where
// id_operands_depend_on_module is false. Module keeps the result (Module::known_id_operands). Words at or above
// `id_bound` are not ids of the module: parse() checks only the grammar's id operands against the bound, and a
// corrupted module's OpExtInst may name 0xffffffff. They are left out rather than handed to tables indexed by id.
void add_own_id_operands(spv::Op op, const grammar::InstructionInfo& info, std::span<const uint32_t> instruction,
                         uint32_t id_bound, IdOperands& out);
// OpSwitch (its literals' width is the selector's type's) and the broadcasts (whose id must be a constant before
// SPIR-V 1.5): their id operands are found anew each time.
bool id_operands_depend_on_module(spv::Op op);

// OpAtomic* (their scope and semantics operands are constants).
bool is_atomic(spv::Op op);

// An OpExtInst of a NonSemantic.* set (debug information): it names ids without using their values.
bool is_non_semantic(const Module& module, InstructionHandle handle);

}  // namespace bismuth::spirv_patch
