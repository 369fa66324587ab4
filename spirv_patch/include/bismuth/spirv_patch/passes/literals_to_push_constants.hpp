// Integer literals of a compute module become push constants, so that programs generated from one template —
// sources that differ only in the numbers baked into them — give one module and share its pipelines (issue 17,
// docs/spirv_patch.md "literals_to_push_constants").
//
// Runs on the runtime-group-size variant (after workgroup_size_to_runtime, whose push-constant block it extends).
// Only 32-bit integer OpConstant operands of instructions whose operand may be any run-time value of its type are
// replaced: integer arithmetic, shifts, bitwise operations and comparisons, OpSelect's objects, conversions,
// OpStore's object, the value operands of atomics, OpCompositeConstruct's constituents, function call arguments and
// OpReturnValue. Integer operations on a loaded value give exactly what they give on the literal, so the results
// stay bit-identical. Everything SPIR-V requires to be constant (types, array lengths, struct member indices,
// scopes and memory semantics, OpSwitch and image-operand literals, spec-constant operations) keeps its constant,
// and float literals are left alone (a driver may evaluate float arithmetic on constants differently).
//
// Each replaced operand becomes one member of the block at `push_constant_offset + 4 * slot`, in module order (one
// per operand, not per constant: glslang gives equal literals one id, so slots per constant would depend on the
// values), loaded at the top of its function. Constants left without uses are removed; with compact_ids after it,
// two modules that differ only in those literals become the same words.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct LiteralsToPushConstantsOptions {
  std::string entry_point = "main";
  // The entry point's push-constant variable, from workgroup_size_to_runtime's report: that pass made its struct one
  // that may grow (a Block only the variable uses), and the literals become more members of it.
  uint32_t push_variable = 0;
  // Byte offset of the first literal: a multiple of 4 at or past the end of the entry point's push-constant block.
  uint32_t push_constant_offset = 0;
  // The block must end at or below this many bytes (maxPushConstantsSize; Vulkan guarantees 128). A module with
  // more literals than fit is left unchanged.
  uint32_t push_constant_limit = 128;
  // The SpecIds of the workgroup size spec constants (workgroup_size_to_runtime's report), when the caller always
  // specialises them: their defaults and the entry point's LocalSize become 1, so that programs that differ only in
  // their (fixed) size give the same words too. The WorkgroupSize built-in or LocalSizeId states the size then,
  // and either takes precedence over LocalSize (SPIR-V 1.6, "WorkgroupSize").
  std::optional<std::array<uint32_t, 3>> size_spec_ids;
};

struct LiteralsToPushConstantsReport {
  uint32_t push_constant_offset = 0;
  std::vector<uint32_t> values;  // the literal of each member, in push-constant order: what the backend pushes
  uint32_t operands_replaced = 0;
  uint32_t constants_removed = 0;
  // Why nothing was hoisted although literals were found (too many for the limit).
  std::string skipped_reason;
  // The OpConstant each value came from, and the 32-bit integer constants the pass removed (no use left): the words
  // it leaves hold none of their values, so a module that differs only in those values gives the same words
  // (VariantMemo reuses the variant on that ground).
  std::vector<uint32_t> value_constants;
  std::vector<uint32_t> removed_constants;
};

// Rewrites `module` in place; unchanged when the report has no values (but for the size defaults of
// `size_spec_ids`). Fails when `push_variable` is not a push-constant pointer to a struct, or the offset lies inside
// that struct.
Expected<LiteralsToPushConstantsReport> literals_to_push_constants(Module& module,
                                                                   const LiteralsToPushConstantsOptions& options);

}  // namespace bismuth::spirv_patch
