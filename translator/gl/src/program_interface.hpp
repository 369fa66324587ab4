// The program interfaces of a linked program as GL 4.6 §7.3.1 enumerates them: the resource lists, their names and
// their properties (Table 7.2). program_interface.cpp answers the glGetProgramInterface* / glGetProgramResource*
// queries with them, active_uniforms.cpp the older glGetActiveUniform* family, which GL 4.6 defines through the
// same lists.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gl_internal.hpp"

namespace bismuth::gl {

enum class Interface {
  Uniform,  // default-block uniforms, then uniform-block members, then atomic counters
  UniformBlock,
  StorageBlock,
  BufferVariable,
  AtomicCounterBuffer,       // no names
  ProgramInput,              // the first stage's inputs (graphics programs; a compute program has none)
  ProgramOutput,             // the last stage's outputs
  TransformFeedbackVarying,  // the captured varyings: named by glTransformFeedbackVaryings or declared (xfb_offset)
  TransformFeedbackBuffer,   // the binding points they are written to (no names)
  Empty,                     // valid interfaces Bismuth's programs have nothing in (subroutines)
  Invalid,
};

Interface interface_of(GLenum program_interface);
// interface_of in `ctx`: OpenGL ES has no subroutine interfaces and no GL_TRANSFORM_FEEDBACK_BUFFER (Invalid there).
Interface interface_of(const Context* ctx, GLenum program_interface);

// The resource names of `i` in index order (AtomicCounterBuffer, TransformFeedbackBuffer: one empty name per
// buffer).
std::vector<std::string> resource_names(const Executable& exe, Interface i);

// GL_UNIFORM resources.
size_t active_uniform_count(const translator::GlLinkedProgram& p);
GLint active_uniform_max_length(const translator::GlLinkedProgram& p);

// GetProgramResourceIndex's matching (GL 4.6 §7.3.1.1): the exact name, or the name with "[0]" appended; nullopt
// for none.
std::optional<GLuint> resource_index(const std::vector<std::string>& names, const std::string& name);

// Appends property `prop` of resource `index` of `i` to `out` (Table 7.2); false when `i` has no such property.
// `index` must be valid.
bool append_resource_property(const Executable& exe, Interface i, GLuint index, GLenum prop, std::vector<GLint>& out);

// The location GL reports for program input or output `index` (GL 4.6 §7.3.1.1, LOCATION): the declared one; for
// vertex shader inputs and fragment shader outputs without one, the one the link assigns (the lowest free
// locations, in declaration order); -1 for built-ins ("gl_...") and other stages' variables without one.
GLint io_location(const Executable& exe, Interface i, GLuint index);

// Returns the linked executable, or null with INVALID_OPERATION set ("the program is not linked").
const Executable* linked_executable(Context* ctx, GLuint program, const char* func);
// The executable of a linked program, nullptr for one that is not linked (no error); null with the error set for
// a name that is not a program (`ok` false).
const Executable* executable_if_linked(Context* ctx, GLuint program, const char* func, bool& ok);

}  // namespace bismuth::gl
