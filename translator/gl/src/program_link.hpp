// glLinkProgram's work (program_link.cpp): from the attached shaders to the executable glUseProgram installs.
#pragma once

#include <memory>

#include "gl_internal.hpp"

namespace bismuth::gl {

// Links the shaders attached to `program` (GLSL, or one specialized SPIR-V module) into an executable on the
// context's device. On failure the message is the info log; the program object itself is left unchanged.
Expected<std::shared_ptr<Executable>> link(Context* ctx, ProgramObject& program);

}  // namespace bismuth::gl
