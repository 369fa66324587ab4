// The shared-memory footprint of a compute program: what GL_MAX_COMPUTE_SHARED_MEMORY_SIZE limits (GLSL 4.60
// §4.3.8, "Shared Variables").
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::translator {

// Bytes of the module's Workgroup-storage variables: std430 sizes and alignments (GL 4.6 §7.6.2.2 — a 3-component
// vector aligns to 4 components, an array's stride is its element's size rounded up to the element's alignment,
// a matrix is an array of its columns, a struct aligns to its most-aligned member and pads to that alignment; a
// bool takes 4 bytes, as drivers store it), each variable placed after the previous one at its own alignment.
// nullopt when a size depends on a specialization constant other than a plain OpSpecConstant (whose default counts).
// Saturates at 2^63.
std::optional<uint64_t> shared_memory_bytes(const spirv_patch::Module& module);

}  // namespace bismuth::translator
