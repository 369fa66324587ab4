// ARB_gl_spirv: specialization (glSpecializeShader) and linking of SPIR-V modules in GL's binding namespaces.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"
#include "gl_internal.hpp"

namespace bismuth::gl {

// The SPIR-V extensions a GL SPIR-V module may declare on this device (GL_SPIR_V_EXTENSIONS, GL 4.6 §22.2).
std::vector<std::string> supported_spirv_extensions(const Caps& caps);

// The module with the given specialization constants applied. Errors: code GL_INVALID_VALUE or
// GL_INVALID_OPERATION for the GL errors ARB_gl_spirv lists (no entry point of that name; an unknown SpecId; an
// entry point of another stage than `shader_type`), else code 0 and an info-log line ("error: ...") for a module
// this device cannot run (version, capability or extension).
Expected<std::vector<uint32_t>> specialize_spirv(std::span<const uint32_t> words, GLenum shader_type,
                                                 const std::string& entry, std::span<const GLuint> ids,
                                                 std::span<const GLuint> values, const Caps& caps);

// The GL type (GL_FLOAT_VEC4, GL_DOUBLE_MAT3, ...) of a default-block uniform shape the pass lays out; 0 for none.
GLenum spirv_uniform_gl_type(const spirv_patch::DefaultUniform& u);

// A specialized module as a linked program: compact Vulkan bindings in set 0 for the used buffer blocks, the
// atomic-counter buffers and the default uniform block (the pipeline turns the last two into Vulkan buffers).
Expected<translator::GlLinkedProgram> link_spirv(std::span<const uint32_t> words, const std::string& entry);

}  // namespace bismuth::gl
