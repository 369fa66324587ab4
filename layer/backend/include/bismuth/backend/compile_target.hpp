// The device facts compiles depend on (bismuth/common/compile_target.hpp), read from a backend device. One rule for
// the GL shim and `bismuth compile --device`.
#pragma once

#include <cstdint>
#include <optional>

#include "bismuth/common/compile_target.hpp"

namespace bismuth::backend {

class Device;

// How compute pipelines get 32-lane subgroups on `device`: 0 when 32 is the device's only subgroup size, 32 when
// subgroup size control must require it, nothing when they cannot be had.
std::optional<uint32_t> subgroup_size_32_requirement(const Device& device);

// The GLSL extensions `device` can run from the features enabled on it (an adopted device: those its owner
// reported) and its compute subgroup operations.
ShaderExtensionSupport shader_extension_support(const Device& device);

CompileTarget compile_target(const Device& device);

}  // namespace bismuth::backend
