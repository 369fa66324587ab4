// What GL introspection (GL 4.6 §7.3.1) reports about a linked GLSL program, read from glslang's reflection:
// default-block uniforms, uniform and shader storage blocks with their members, atomic counters and their
// buffers; and the layout of the default uniform block glslang generates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "declared_bindings.hpp"

namespace glslang {
class TProgram;
}

namespace bismuth::translator {

// The uniform block glslang's relaxed Vulkan rules gather default-block uniforms into.
inline constexpr const char* kDefaultUniformBlockName = "gl_DefaultUniformBlock";
// glslang keeps GL atomic-counter binding b as a storage block named "gl_AtomicCounterBlock_<b>".
inline constexpr std::string_view kAtomicCounterBlockPrefix = "gl_AtomicCounterBlock_";

// The GL binding in a "gl_AtomicCounterBlock_<b>" block name; nullopt for any other name.
std::optional<uint32_t> atomic_counter_block_binding(std::string_view name);

// Column stride of a matrix of GL type `gl_type` (GL_FLOAT_MAT3, GL_DOUBLE_MAT4x2, ...) by std140's rule, as the
// default uniform block glslang generates lays matrices out: columns rounded up to vec4 (dvec4 for double matrices
// of 3 or 4 rows). 0 for non-matrices.
uint32_t std140_matrix_stride(uint32_t gl_type);

// "B" for element "B[2]" of an array of blocks (the name itself otherwise), and the element (0 for no array).
std::string block_base_name(const std::string& name);
uint32_t block_element(const std::string& name);

// The location `layout(location = N)` gave the default-block uniform GL introspection names `name` ("a", "a[0]"),
// -1 when none did. Members of a structure take locations after the explicit ones (GLSL 4.60 §4.4.3 gives a
// structure's location to its first member; the front does not).
int32_t declared_uniform_location(const DeclaredBindings& declared, const std::string& name);

// Appends an atomic counter that glslang's reflection names `reflected_name` ("c", "c[0]" for an array): GL_UNIFORM
// names it as GL 4.6 §7.3.1.1 says (program_interface.cpp adds the "[0]" of an array back).
void add_atomic_counter(GlLinkedProgram& linked, const std::string& reflected_name, uint32_t gl_binding,
                        uint32_t offset, uint32_t array_size, uint32_t stages);

// Fills the interface lists of `linked` (uniforms, uniform_block_members, buffer_variables, uniform_blocks,
// storage_blocks, atomic_counter_buffers, atomic_counters, default_uniform_block_size) from the linked, IO-mapped
// `program`, block bindings as the shaders declared them. Blocks are ordered by GL binding. `io_options` adds
// glslang reflection options for the program's inputs and outputs (graphics programs read them afterwards).
void reflect_program_interface(glslang::TProgram& program, const DeclaredBindings& declared, GlLinkedProgram& linked,
                               int io_options = 0);

// glslang's reflection reports packed strides for default-block arrays (4 for float[3]) although the block it
// generates follows std140 (16): takes offsets and strides of the block's top-level members from the SPIR-V
// decorations, rounds strides of nested arrays up to 16 (std140 rule 4, GL 4.6 §7.6.2.2), and sizes the block to
// hold every element glUniform* may write.
Status layout_default_uniforms(GlLinkedProgram& linked, const spirv_patch::Module& module);

}  // namespace bismuth::translator
