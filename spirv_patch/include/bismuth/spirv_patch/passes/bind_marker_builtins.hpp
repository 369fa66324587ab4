// HLSL has no spelling glslang accepts for SubgroupId, SubgroupLocalInvocationId or NumSubgroups, so the HLSL front
// declares `static uint bismuth_builtin_<BuiltIn>;` and reads it (docs/numwaves: "Seam 1"). This pass turns each such
// Private variable into the Input variable decorated BuiltIn <BuiltIn> that GLSL's gl_SubgroupID & co. compile to.
#pragma once

#include <cstdint>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// The marker names, "bismuth_builtin_" followed by the SPIR-V BuiltIn name.
inline constexpr const char* kMarkerBuiltinPrefix = "bismuth_builtin_";

// Every Private OpVariable named (OpName) bismuth_builtin_SubgroupId, _SubgroupLocalInvocationId, _SubgroupSize or
// _NumSubgroups becomes an Input variable decorated with that BuiltIn: its initializer is dropped, it joins the
// interface of every GLCompute entry point, and the module declares the capability GroupNonUniform (SPIR-V 1.6
// section 3.21: these built-ins need it). Returns the number of markers bound (0: module unchanged). Fails when a
// marker is not a Private 32-bit unsigned integer, is used other than by OpLoad (a store would write a built-in), or
// the module has no GLCompute entry point; the module is then unspecified.
Expected<uint32_t> bind_marker_builtins(Module& module);

}  // namespace bismuth::spirv_patch
