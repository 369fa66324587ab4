// ARB_gl_spirv: specialization (glSpecializeShader) and linking of SPIR-V modules in GL's binding namespaces.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "gl_internal.hpp"

namespace bismuth::gl {

// The module with the given specialization constants applied; errors are info-log lines ("error: ...").
Expected<std::vector<uint32_t>> specialize_spirv(std::span<const uint32_t> words, const std::string& entry,
                                                 std::span<const GLuint> ids, std::span<const GLuint> values);

// A specialized module as a linked program: compact Vulkan bindings in set 0 for the used buffer blocks.
Expected<translator::GlLinkedProgram> link_spirv(std::span<const uint32_t> words, const std::string& entry);

}  // namespace bismuth::gl
