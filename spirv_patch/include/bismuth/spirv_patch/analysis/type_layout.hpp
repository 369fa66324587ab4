// Sizes of types in an explicitly laid out block (Offset, ArrayStride, MatrixStride decorations, as push constant and
// buffer blocks have them).
#pragma once

#include <cstdint>
#include <string_view>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// What a runtime array (the last member of a storage block) counts for.
enum class RuntimeArraySize {
  Fail,        // no size: the type cannot be sized
  OneElement,  // one element, as GL's BUFFER_DATA_SIZE counts it (GL 4.6 §7.3.1.1)
};

// Bytes `type` occupies: a struct ends where its furthest member ends (Offset plus size). `block_kind` names the
// block in error messages ("push constant"). Fails for types without a size (images, ..., runtime arrays unless
// `runtime_arrays` says otherwise), missing layout decorations, array lengths that are not OpConstant, and nesting
// deeper than 64.
Expected<uint64_t> explicit_layout_size(const Module& module, uint32_t type, std::string_view block_kind,
                                        RuntimeArraySize runtime_arrays = RuntimeArraySize::Fail);

}  // namespace bismuth::spirv_patch
