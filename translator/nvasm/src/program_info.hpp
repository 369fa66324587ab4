// The program description (ProgramInfo) the runtime builds pipelines from: what the parsed program declares and
// where its resources are bound. The code generator adds the device features the emitted module uses.
#pragma once

#include <cstdint>
#include <vector>

#include "ast.hpp"
#include "bismuth/nvasm/assembler.hpp"

namespace bismuth::nvasm::detail {

// The program.storage indices the STORAGE declarations bind, ascending, each once.
std::vector<uint32_t> declared_storage_buffers(const ParsedProgram& program);
// The program.buffer indices the CBUFFER, BUFFER and BUFFER4 declarations bind, ascending, each once.
std::vector<uint32_t> declared_parameter_buffers(const ParsedProgram& program);

// The program.counter bindings the COUNTER declarations bind, ascending, each once.
std::vector<uint32_t> declared_counter_buffers(const ParsedProgram& program);

// The Vulkan binding (set 0) of program.counter[index].
uint32_t counter_binding(const AssembleOptions& options, uint32_t index);
// The Vulkan binding (set 0) of program.storage[index] and of program.buffer[index].
uint32_t storage_binding(const AssembleOptions& options, uint32_t index);
uint32_t parameter_buffer_binding(const AssembleOptions& options, uint32_t index);
// The Vulkan binding (set 0) of texture[unit] and of image[unit].
uint32_t texture_binding(const AssembleOptions& options, uint32_t unit);
uint32_t image_binding(const AssembleOptions& options, uint32_t unit);
// The GL internal format enum an image format names (GL_RGBA8, ...); 0 for Unknown.
uint32_t gl_image_format(ImageFormat f);

// Everything in `info` but the uses_* features. Fails, pointing at the first use, when the program uses
// thread-group instructions or values and the caller cannot run 32-lane subgroups.
bool describe_program(const ParsedProgram& program, const AssembleOptions& options, ProgramInfo& info,
                      Failure& failure);

}  // namespace bismuth::nvasm::detail
