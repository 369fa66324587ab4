// GL_BISMUTH_num_waves: the wave size a program commits to at glLinkProgram, and glShaderSourceHLSLBISMUTH, the
// entry point that gives a shader object HLSL source (docs/GL_BISMUTH_num_waves.txt).
#include "num_waves.hpp"

#include "gl_objects.hpp"
#include "parallel_compile.hpp"

#include "bismuth/backend/wave_size_choice.hpp"
#include "bismuth/gl/glext_bismuth.h"

namespace bismuth::gl {

namespace {

backend::WaveSizePreference preference(GLenum hint) {
  switch (hint) {
    case GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH: return backend::WaveSizePreference::Small;
    case GL_COMPUTE_WAVE_SIZE_LARGE_BISMUTH: return backend::WaveSizePreference::Large;
    default: return backend::WaveSizePreference::None;
  }
}

}  // namespace

bool valid_wave_size_hint(GLint value) {
  return value == GL_DONT_CARE || value == static_cast<GLint>(GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH) ||
         value == static_cast<GLint>(GL_COMPUTE_WAVE_SIZE_LARGE_BISMUTH);
}

Status commit_wave_size(const LinkTarget& target, const ProgramObject& program, Executable& exe,
                        backend::ShaderDesc& desc) {
  translator::GlLinkedProgram& p = exe.program;
  if (p.group_size != translator::GroupSize::NumWaves || !p.num_waves) return {};
  const translator::NumWavesDeclaration& declared = *p.num_waves;
  backend::WaveSizeRequest request;
  request.num_waves = declared.num_waves;
  request.min = declared.wave_size_min;
  request.max = declared.wave_size_max;
  request.preferred = declared.wave_size_preferred;
  request.hint = preference(program.wave_size_hint);
  // A program that also uses ARB_shader_ballot / group vote needs subgroups of at most 64 invocations.
  if (exe.subgroup_size != 0 && (request.max == 0 || request.max > exe.subgroup_size)) request.max = exe.subgroup_size;
  auto choice = backend::choose_wave_size(request, backend::wave_size_caps(*target.device_state->device));
  if (!choice) return Error{"error: " + choice.error().message};
  exe.wave_size = choice->wave_size;
  p.fixed_size = {declared.num_waves * choice->wave_size, 1, 1};
  exe.subgroup_size = choice->require_size ? choice->wave_size : 0;
  if (choice->require_full_subgroups) desc.stage_flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  return {};
}

}  // namespace bismuth::gl

namespace bismuth::gl {

void compile_hlsl_shader(Context* ctx, ShaderObject& s) {
  translator::GlCompileOptions options{.extensions = ctx->caps.compile_target.extensions};
  options.language = translator::GlShaderLanguage::Hlsl;
  options.entry_point = s.hlsl_entry;
  compile_compute(ctx, s, options);
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

// glShaderSource for HLSL (GL_BISMUTH_num_waves, "HLSL shaders"): the same rules as glShaderSource (GL 4.6 §7.1:
// INVALID_VALUE for a negative count, the strings concatenated, a negative or absent length meaning a
// null-terminated string), plus INVALID_OPERATION for a shader that is not a compute shader.
GLAPI void APIENTRY glShaderSourceHLSLBISMUTH(GLuint shader, GLsizei count, const GLchar* const* string,
                                              const GLint* length, const GLchar* entryPoint) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glShaderSourceHLSLBISMUTH";
  auto s = shader_object(ctx, shader, func);
  if (!s) return;
  if (s->type != GL_COMPUTE_SHADER) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": HLSL is accepted for compute shaders only");
    return;
  }
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": count is negative");
    return;
  }
  s->source = join_shader_strings(count, string, length);
  s->spirv_binary = false;
  s->hlsl = true;
  s->hlsl_entry = entryPoint != nullptr ? entryPoint : "main";
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
