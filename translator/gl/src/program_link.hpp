// glLinkProgram's work (program_link.cpp): from the attached shaders to the executable glUseProgram installs.
#pragma once

#include <memory>

#include "gl_internal.hpp"

namespace bismuth::gl {

// Links the shaders attached to `program` (GLSL, or one specialized SPIR-V module) into an executable on the
// context's device. On failure the message is the info log; the program object itself is left unchanged.
Expected<std::shared_ptr<Executable>> link(Context* ctx, ProgramObject& program);

// Default-block uniforms take the locations they declare (`layout(location = N)`, GLSL 4.60 §4.4.3; every
// ARB_gl_spirv uniform), an array N .. N+size-1; the others take the lowest free runs, in declaration order, so
// that no two overlap (GL 4.6 §7.6: "uniforms without an explicit location are assigned ... not used by any explicit
// location"). Named uniforms are found by name too: "a", "a[0]" .. "a[size-1]" for arrays.
void assign_uniform_locations(Executable& exe);

}  // namespace bismuth::gl
