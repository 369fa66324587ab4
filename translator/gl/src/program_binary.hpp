// GL program binaries (GL 4.6 / OpenGL ES 3.2 §7.5; program_binary.cpp): glGetProgramBinary, glProgramBinary and
// PROGRAM_BINARY_LENGTH, in the one format GL_PROGRAM_BINARY_FORMAT_BISMUTH (program_binary_format.hpp).
#pragma once

#include "gl_internal.hpp"

namespace bismuth::gl {

// GL_PROGRAM_BINARY_LENGTH of a program: the size of the binary glGetProgramBinary returns, 0 when the program has
// none (not linked, or a program of graphics stages, which Bismuth makes no binaries of).
GLint program_binary_length(Context* ctx, const ProgramObject& program);

}  // namespace bismuth::gl
