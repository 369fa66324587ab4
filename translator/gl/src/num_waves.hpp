// GL_BISMUTH_num_waves in the GL shim (num_waves.cpp): the wave size a program commits to at link, and the
// program-object state around it (docs/GL_BISMUTH_num_waves.txt, "Additions to the OpenGL API").
#pragma once

#include "gl_internal.hpp"
#include "program_link.hpp"

namespace bismuth::gl {

// For a program whose compute shader declares `layout(num_waves = X)` / `[numWaves(X)]`: picks the wave size w
// (the declared range, the program's GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH, the device's subgroup sizes and limits),
// gives the program the fixed work group size (X * w, 1, 1), the required subgroup size w and, where the device has
// computeFullSubgroups, full subgroups. An error is the link's info log ("cannot honour ..."). Other programs are
// left as they are.
Status commit_wave_size(const LinkTarget& target, const ProgramObject& program, Executable& exe,
                        backend::ShaderDesc& desc);

// GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH's values: GL_DONT_CARE, GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH,
// GL_COMPUTE_WAVE_SIZE_LARGE_BISMUTH.
bool valid_wave_size_hint(GLint value);

// glCompileShader of a shader given HLSL source by glShaderSourceHLSLBISMUTH.
void compile_hlsl_shader(Context* ctx, ShaderObject& shader);

}  // namespace bismuth::gl
