// ARB_gl_spirv for the graphics stages: vertex and fragment shader objects holding specialized SPIR-V modules
// (glShaderBinary + glSpecializeShader) linked into a program of graphics stages, which, as a GLSL one
// (graphics_program.cpp), is only ever queried. SPIR-V has no names: inputs, outputs and uniforms are matched and
// reported by location (GL 4.6 §7.4.1, §7.3.1.1).
#pragma once

#include <span>

#include "gl_internal.hpp"

namespace bismuth::gl {

// glLinkProgram for shader objects that all hold specialized SPIR-V modules of graphics stages. On failure the
// info log ("error: ...").
Expected<translator::GlGraphicsProgram> link_spirv_graphics(std::span<const ShaderObject* const> shaders);

}  // namespace bismuth::gl
