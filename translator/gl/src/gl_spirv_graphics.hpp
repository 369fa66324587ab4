// ARB_gl_spirv for the graphics stages: vertex, tessellation, geometry and fragment shader objects holding specialized
// SPIR-V modules (glShaderBinary + glSpecializeShader) linked into a program of graphics stages, which, as a GLSL one
// (graphics_program.cpp), is only ever queried. SPIR-V has no names: inputs, outputs and uniforms are matched and
// reported by location (GL 4.6 §7.4.1, §7.3.1.1).
#pragma once

#include <span>

#include "gl_internal.hpp"

namespace bismuth::gl {

// glLinkProgram for shader objects that all hold specialized SPIR-V modules of graphics stages (`separable`:
// GL_PROGRAM_SEPARABLE). Per-vertex arrays of the tessellation and geometry stages match without their per-vertex
// dimension; the stages' execution modes give the layouts GL 4.6 §7.13 reports, and a missing one fails the link as
// §7.3 says. On failure the info log ("error: ...").
Expected<translator::GlGraphicsProgram> link_spirv_graphics(std::span<const ShaderObject* const> shaders,
                                                            bool separable);

}  // namespace bismuth::gl
