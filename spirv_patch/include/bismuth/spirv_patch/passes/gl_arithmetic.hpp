// GL arithmetic where GLSL leaves the choice to the implementation: fused multiply-add and the remainder of
// negative integers, computed as GL drivers compute them (gl_arithmetic.cpp says why and how).
#pragma once

#include <cstdint>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct GlArithmeticReport {
  uint32_t fused = 0;       // OpFMul + OpFAdd/OpFSub -> GLSL.std.450 Fma
  uint32_t remainders = 0;  // OpSRem/OpSMod -> OpUMod on the bit patterns
};

struct GlArithmeticOptions {
  // Compute fused multiply-adds of 32-bit floats in double precision instead of GLSL.std.450 Fma, for drivers
  // that split Fma into a multiply and an add (lavapipe: llvmpipe lowers ffma). Needs shaderFloat64.
  bool fma_through_double = false;
};

Expected<GlArithmeticReport> match_gl_arithmetic(Module& module, const GlArithmeticOptions& options = {});

}  // namespace bismuth::spirv_patch
