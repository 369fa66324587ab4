// glLinkProgram's work (program_link.cpp): from the attached shaders to the executable glUseProgram installs.
#pragma once

#include <memory>

#include "gl_internal.hpp"

namespace bismuth::gl {

// What a link builds for, without the Context: the device (its caps are device_state->caps, which Context::caps is
// bound to) and the context's API. Links from source run on compiler threads (compiler_threads.hpp), where the
// context may be gone and its KHR_debug state must not be touched.
struct LinkTarget {
  DeviceState* device_state = nullptr;
  bool es = false;
  const Caps& caps() const { return device_state->caps; }
};
inline LinkTarget link_target(Context* ctx) {
  return {&ctx->device_state, ctx->version.es};
}

// Links the shaders attached to `program` (GLSL, or one specialized SPIR-V module) into an executable on the
// context's device. On failure the message is the info log; the program object itself is left unchanged.
Expected<std::shared_ptr<Executable>> link(const LinkTarget& target, ProgramObject& program);

// The backend shader (with the runtime-group-size variant when the executable has one), the prewarm compiles of a
// variable-size program, the default uniform block's storage and the locations, for an executable whose program,
// entry point, stage flags and subgroup size are set: glLinkProgram's last step, and glProgramBinary's rebuild of a
// program binary. On failure the message is the info log.
Status instantiate(const LinkTarget& target, GLuint program_name, Executable& exe);

// The backend shader description of an executable's module (bindings, group-size SpecIds, stage flags), without the
// runtime-group-size variant: instantiate's, and the shadow lowering's (shadow_lowering.cpp) with other words.
backend::ShaderDesc program_shader_desc(const Executable& exe, GLuint program_name);

// Default-block uniforms take the locations they declare (`layout(location = N)`, GLSL 4.60 §4.4.3; every
// ARB_gl_spirv uniform), an array N .. N+size-1; the others take the lowest free runs, in declaration order, so
// that no two overlap (GL 4.6 §7.6: "uniforms without an explicit location are assigned ... not used by any explicit
// location"). Named uniforms are found by name too: "a", "a[0]" .. "a[size-1]" for arrays.
void assign_uniform_locations(Executable& exe);

// Sets every sampler and image uniform of `exe` to its initial unit (Executable::opaque_units): the link's and a
// loaded program binary's value, as GL 4.6 §7.6 gives uniforms their initial values at each successful link.
void reset_opaque_units(Executable& exe);

}  // namespace bismuth::gl
