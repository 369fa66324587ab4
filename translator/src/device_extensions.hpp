// GLSL extensions whose built-ins need a device feature (GL_ARB_shader_clock, GL_NV_shader_atomic_float,
// GL_KHR_shader_subgroup_*, ...): an `#extension` directive naming one the device lacks is handled as GLSL 4.60
// §3.3 says for an extension that is not supported — `require` is a compile error, `enable`, `warn` and `disable`
// warn — and the directive is blanked so that glslang, which knows the extension, leaves it off (a use of its
// built-ins then fails as in a GL driver without it). GL_INTEL_shader_atomic_float_minmax, which glslang lacks,
// becomes GL_EXT_shader_atomic_float2 (float atomicMin/Max) plus GL_EXT_shader_atomic_float (atomicExchange).
// Directive lines keep their line numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/compile_target.hpp"
#include "diagnostics.hpp"

namespace bismuth::translator {

struct DeviceExtensionCheck {
  std::string source;
  std::string preamble;  // directives to put in glslang's preamble (extensions a rewritten one implies)
  bool float_compare_swap_asked = false;  // GL_INTEL_shader_atomic_float_minmax is enabled (its float atomicCompSwap)
  std::vector<Diagnostic> diagnostics;
};

DeviceExtensionCheck check_device_extensions(std::string_view source, const ShaderExtensionSupport& support,
                                             std::string_view source_name);

// The link's safety net: every SPIR-V capability of `spirv` that needs a device feature (ShaderClockKHR,
// AtomicFloat*EXT, ComputeDerivativeGroup*NV, GroupNonUniform*) is one `support` backs. A capability reached
// through an allowed extension but beyond it — `atomicAdd` on a double under GL_NV_shader_atomic_float, whose
// GL_EXT_shader_atomic_float has that overload — is a link error naming the feature, so no module needs a feature
// the device lacks. Returns the error text, or nothing.
std::optional<std::string> unbacked_capability(std::span<const uint32_t> spirv, const ShaderExtensionSupport& support);

}  // namespace bismuth::translator
