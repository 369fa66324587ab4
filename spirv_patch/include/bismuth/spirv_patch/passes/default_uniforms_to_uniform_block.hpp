// ARB_gl_spirv's default-block uniforms as a Vulkan uniform buffer. In GL SPIR-V a non-opaque uniform
// (`layout(location = 3) uniform vec4 v;`) is an OpVariable in UniformConstant storage decorated Location, which
// Vulkan does not accept: this pass gathers every such variable into one Block-decorated struct in Uniform storage
// (a member per variable, laid out with std140 rules) at the descriptor the front chooses, and points each use at
// its member. GL sets the values by location (glUniform*), so the layout is also what the GL shim's uniform storage
// writes: default_uniform_layout() computes it without editing, the pass applies the same layout.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

enum class UniformScalar { Float, Double, Int, Uint, Int64, Uint64, Bool };

// One GL uniform: a scalar, vector or matrix, or an array of them. A structure is one uniform per member and an
// array of structures or arrays one per element (GLSL 4.60 §4.4.3: each takes the next locations). Locations: an
// array takes one per element, anything else one.
struct DefaultUniform {
  uint32_t variable = 0;
  uint32_t location = 0;
  UniformScalar scalar = UniformScalar::Float;
  uint32_t components = 1;     // vector size; for a matrix its rows
  uint32_t columns = 0;        // matrices: columns; 0 otherwise
  uint32_t array_size = 0;     // 0: not an array
  uint32_t offset = 0;         // bytes into the block
  uint32_t array_stride = 0;   // arrays only
  uint32_t matrix_stride = 0;  // matrices only (column-major)
};

// One UniformConstant variable: its member of the block.
struct DefaultUniformVariable {
  uint32_t variable = 0;
  uint32_t offset = 0;
  uint32_t matrix_stride = 0;  // a matrix or array of matrices: the member's MatrixStride; 0 otherwise
};

// A layout decoration the uniforms' types need (Offset and MatrixStride of structure members, ArrayStride).
struct LayoutDecoration {
  uint32_t target = 0;
  std::optional<uint32_t> member;  // OpMemberDecorate when set
  spv::Decoration decoration = spv::Decoration::Offset;
  std::optional<uint32_t> value;
};

struct DefaultUniformLayout {
  std::vector<DefaultUniform> uniforms;           // in declaration and member order
  std::vector<DefaultUniformVariable> variables;  // in declaration order
  std::vector<LayoutDecoration> decorations;
  uint32_t size = 0;  // bytes of the block; 0 when there are no such uniforms
};

// The non-opaque UniformConstant variables, in declaration order.
struct DefaultUniformCandidate {
  InstructionHandle handle;
  uint32_t variable;
  uint32_t pointee;
};
std::vector<DefaultUniformCandidate> default_uniform_candidates(const Module& module);

// The layout of the module's default-block uniforms (src/analysis/default_uniform_layout.cpp). Fails for a uniform
// without Location, overlapping locations, bool inside arrays or structures, a type layout decoration of the module
// that contradicts std140, and types other than numeric scalars, vectors, matrices, arrays and structures of them.
Expected<DefaultUniformLayout> default_uniform_layout(const Module& module);

struct DefaultUniformBlockOptions {
  uint32_t descriptor_set = 0;
  uint32_t binding = 0;
};

// Applies default_uniform_layout(module): bool uniforms are stored as 32-bit unsigned integers (0 or 1) and read back
// as `value != 0`. No edit when the module has no default-block uniforms. Fails (module untouched) for the
// layout's failures and for uses other than loads and access chains.
Expected<DefaultUniformLayout> default_uniforms_to_uniform_block(Module& module,
                                                                 const DefaultUniformBlockOptions& options);

}  // namespace bismuth::spirv_patch
