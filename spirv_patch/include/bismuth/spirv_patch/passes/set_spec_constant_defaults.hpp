// Gives specialization constants new default values by SpecId: what glSpecializeShader (ARB_gl_spirv) does to a
// SPIR-V shader before it is linked, so the linked module carries the application's values.
#pragma once

#include <cstdint>
#include <span>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// values[i] is the new 32-bit value of the constant decorated SpecId ids[i] (OpSpecConstant: the low word, a 64-bit
// constant's high word becomes 0; OpSpecConstantTrue/False: non-zero is true). Fails naming the first SpecId the
// module does not declare.
Status set_spec_constant_defaults(Module& module, std::span<const uint32_t> ids, std::span<const uint32_t> values);

}  // namespace bismuth::spirv_patch
