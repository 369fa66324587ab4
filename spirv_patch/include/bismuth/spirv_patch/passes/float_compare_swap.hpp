// GL_INTEL_shader_atomic_float_minmax's `float atomicCompSwap(inout float mem, float compare, float data)` on
// Vulkan. SPIR-V's OpAtomicCompareExchange takes integer operands only ("Result Type must be an integer type
// scalar"), and glslang has no float form, so the GLSL front declares the function as an instruction of a
// non-semantic set (kFloatCompareSwapGlslDeclaration, GL_EXT_spirv_intrinsics): glslang emits
//   %r = OpExtInst %float %set 1 %mem_pointer %compare %data
// and this pass turns each such marker into a compare-and-swap loop on a `uint` view of the same memory:
//   * a storage buffer member: a second variable at the same DescriptorSet/Binding whose block is `uint words[]`
//     (both variables decorated Aliased); the marker's access chain becomes a word index into it (member Offsets,
//     ArrayStrides, MatrixStrides of the original block);
//   * a `shared float` variable, or an array (of arrays) of them: the variable is retyped to `uint`; every load and
//     store of it gets an OpBitcast, and so do atomicExchange, atomic loads and stores on it.
// The loop (its own blocks; the marker's block is split around it) atomically loads the word, compares it as a float
// with `compare` (OpFOrdEqual: GLSL's `==`, so a NaN never matches and -0.0 matches +0.0), returns it when unequal,
// else runs `OpAtomicCompareExchange %uint ... bitcast(data) <loaded word>` and retries if mem changed in between;
// the word returned is bitcast back to float (see docs/spirv_patch.md, "Pass lower_float_compare_swap").
//
// Refused with an error naming the variable: `mem` not in a buffer or shared variable; a shared variable of another
// shape (vector, struct); a shared variable also used by atomicAdd/atomicMin/atomicMax on float (those need a float
// pointer) or copied as a whole array; a marker in a loop header whose conditional branch is neither a break nor a
// continue.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// The marker's instruction set and instruction number.
inline constexpr std::string_view kFloatCompareSwapSet = "NonSemantic.BismuthFloatCompareSwap";
inline constexpr uint32_t kFloatCompareSwapInstruction = 1;

// What a GLSL front puts before a shader (after #version) to get the marker for float atomicCompSwap; glslang allows
// the overload of the built-in in desktop GLSL and passes `mem` as a pointer (spirv_by_reference).
inline constexpr std::string_view kFloatCompareSwapGlslDeclaration =
    "#extension GL_EXT_spirv_intrinsics : enable\n"
    "spirv_instruction(set = \"NonSemantic.BismuthFloatCompareSwap\", id = 1) float atomicCompSwap("
    "spirv_by_reference float mem, float compare, float data);\n";

struct FloatCompareSwapReport {
  uint32_t lowered = 0;         // markers rewritten into compare-and-swap loops
  uint32_t buffer_views = 0;    // uint views added for storage buffer variables
  uint32_t shared_retyped = 0;  // shared variables retyped from float to uint
  bool changed = false;         // the module had the marker set
};

// The pass has no settings; the struct gives it the (Module&, options) -> Expected<Report> shape of every pass.
struct FloatCompareSwapOptions {};

// Rewrites `module` in place; a module without the marker set is left untouched. Every marker and every use of a
// shared variable to retype is checked before the first edit, so the refusals above leave the module as it was (only
// a module that is not valid SPIR-V can fail later, partly rewritten).
Expected<FloatCompareSwapReport> lower_float_compare_swap(Module& module, const FloatCompareSwapOptions& options = {});

struct FloatCompareSwapPatch {
  std::vector<uint32_t> words;
  FloatCompareSwapReport report;
};
Expected<FloatCompareSwapPatch> lower_float_compare_swap(std::span<const uint32_t> words,
                                                         const FloatCompareSwapOptions& options = {});

}  // namespace bismuth::spirv_patch
