// Shader and program objects of the stages Bismuth does not run (vertex, tessellation, geometry, fragment): they
// compile and link with GL's rules (translator/graphics_program.hpp) so that programs get a GL driver's statuses,
// logs and errors; the draw calls (draw_calls.cpp) and dispatch refuse them.
#pragma once

#include <memory>
#include <optional>

#include "gl_internal.hpp"

namespace bismuth::gl {

// The types glCreateShader accepts (GL 4.6 §7.1): the five graphics stages and GL_COMPUTE_SHADER.
bool is_shader_type(GLenum type);
// The graphics stage of a shader type; nullopt for GL_COMPUTE_SHADER and anything else.
std::optional<translator::ShaderStage> graphics_stage(GLenum type);

// glCompileShader for a shader object of a graphics stage: sets its status, log and compiled shader.
void compile_graphics_shader(ShaderObject& shader);

// Whether glLinkProgram takes the graphics path: some attached shader is of a graphics stage.
bool has_graphics_stage(const ProgramObject& program);

// glLinkProgram for a program with a graphics stage attached. Fails (with the info log) when a compute shader is
// attached too (GL 4.6 §7.3), or by the rules of translator::link_gl_graphics_program; `es`: the context is OpenGL
// ES, whose programs that are not separable need a vertex and a fragment shader (ES 3.2 §7.3).
Expected<std::shared_ptr<Executable>> link_graphics(const ProgramObject& program, bool es);

// glGetProgramiv of a geometry or tessellation layout (GL 4.6 §7.13); an error (INVALID_OPERATION's message) when
// `exe` is null (not linked) or the program lacks the stage the pname belongs to.
Expected<GLint> stage_layout_value(const Executable* exe, GLenum pname);

}  // namespace bismuth::gl
