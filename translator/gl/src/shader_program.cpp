// Shader and program objects (GL 4.6 §7): create/source/compile/attach/link/use/delete, info logs, glGetShaderiv
// and glGetProgramiv, and ARB_gl_spirv's glShaderBinary/glSpecializeShader. The link itself is program_link.cpp;
// the program interface queries and block bindings are program_interface.cpp.
#include <algorithm>
#include <cstring>

#include "bismuth/spirv_patch/module.hpp"
#include "context_version.hpp"
#include "gl_internal.hpp"
#include "gl_objects.hpp"
#include "gl_spirv.hpp"
#include "program_interface.hpp"
#include "graphics_program.hpp"
#include "program_binary.hpp"
#include "program_cache.hpp"
#include "program_link.hpp"
#include "num_waves.hpp"
#include "parallel_compile.hpp"

namespace bismuth::gl {
namespace {

GLint log_length(const std::string& s) { return s.empty() ? 0 : static_cast<GLint>(s.size()) + 1; }

void release_shader(Context* ctx, const std::shared_ptr<ShaderObject>& shader) {
  if (shader->delete_pending && shader->attachments == 0) {
    std::lock_guard lock(ctx->share->mutex);
    ctx->share->shaders.erase(shader->name);
  }
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI GLuint APIENTRY glCreateShader(GLenum type) {
  BISMUTH_GL_BEGIN(0)
  // GL 4.6 §7.1: "An INVALID_ENUM error is generated if type is not one of the values in table 7.1."
  if (!is_shader_type(type)) {
    ctx->set_error(GL_INVALID_ENUM, "glCreateShader: type " + hex(type) + " is not a shader type");
    return 0;
  }
  auto shader = std::make_shared<ShaderObject>();
  shader->type = type;
  std::lock_guard lock(ctx->share->mutex);
  shader->name = ctx->share->next_name++;
  ctx->share->shaders[shader->name] = shader;
  return shader->name;
  BISMUTH_GL_END(0)
}

GLAPI void APIENTRY glShaderSource(GLuint shader, GLsizei count, const GLchar* const* string, const GLint* length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glShaderSource");
  if (!s) return;
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glShaderSource: count is negative");
    return;
  }
  s->source = join_shader_strings(count, string, length);
  s->spirv_binary = false;
  s->hlsl = false;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCompileShader(GLuint shader) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glCompileShader");
  if (!s) return;
  // ARB_gl_spirv (GL 4.6 §7.1): "An INVALID_OPERATION error is generated if the SPIR_V_BINARY state of shader is
  // TRUE" — glSpecializeShader is what compiles it.
  if (s->spirv_binary) {
    ctx->set_error(GL_INVALID_OPERATION, "glCompileShader: the shader holds a SPIR-V module; use glSpecializeShader");
    return;
  }
  if (graphics_stage(s->type)) {
    compile_graphics_shader(*s);
    return;
  }
  if (s->hlsl) {
    compile_hlsl_shader(ctx, *s);  // GL_BISMUTH_num_waves: through compile_compute too
    return;
  }
  // The #version rule of the context's API first: GLSL ES only in an OpenGL ES context, no "320 es" in GL 4.6.
  // Then, in an OpenGL ES context, the desktop-only extensions its #extension directives name.
  std::optional<std::string> version_error = check_glsl_version(ctx->version, s->source);
  EsExtensionCheck es_extensions;
  if (!version_error) {
    es_extensions = check_es_extension_directives(ctx->version, s->source, ctx->extensions);
    version_error = es_extensions.error;
  }
  if (version_error) {
    s->compile_status = false;
    s->info_log = std::move(*version_error);
    s->compiled = nullptr;
    s->compiled_source = nullptr;
    return;
  }
  // The compile-record lookup here; the front's compile on a compiler thread where the context allows it.
  compile_compute(ctx, *s, {.extensions = ctx->caps.compile_target.extensions},
                  es_extensions.rewritten ? &*es_extensions.rewritten : nullptr, es_extensions.warnings);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 / OpenGL ES 3.2 §7.2: "a hint from the application" that compiler resources may be freed; the compiler is
// reloaded as needed. OpenGL ES ports call it after their shaders are compiled; the front keeps nothing to free.
GLAPI void APIENTRY glReleaseShaderCompiler(void) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetShaderiv(GLuint shader, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object_unsettled(ctx, shader, "glGetShaderiv");
  if (!s) return;
  // KHR_parallel_shader_compile: "FALSE is returned if the shader is currently being compiled by a background
  // thread, TRUE otherwise" — the one query that does not wait for the compile.
  if (pname == GL_COMPLETION_STATUS_KHR) {
    if (params) *params = completion_status(ctx, *s) ? GL_TRUE : GL_FALSE;
    return;
  }
  settle(ctx, *s);
  GLint v = 0;
  switch (pname) {
    case GL_SHADER_TYPE: v = static_cast<GLint>(s->type); break;
    case GL_DELETE_STATUS: v = s->delete_pending; break;
    case GL_COMPILE_STATUS: v = s->compile_status; break;
    case GL_INFO_LOG_LENGTH: v = log_length(s->info_log); break;
    case GL_SHADER_SOURCE_LENGTH: v = s->spirv_binary ? 0 : log_length(s->source); break;
    case GL_SPIR_V_BINARY: v = s->spirv_binary; break;
    case GL_SHADER_SOURCE_HLSL_BISMUTH: v = s->hlsl; break;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetShaderiv: invalid pname"); return;
  }
  if (params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei* length, GLchar* infoLog) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glGetShaderInfoLog");
  if (!s) return;
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetShaderInfoLog: bufSize is negative");
    return;
  }
  copy_string(s->info_log, bufSize, length, infoLog);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetShaderSource(GLuint shader, GLsizei bufSize, GLsizei* length, GLchar* source) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glGetShaderSource");
  if (!s) return;
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetShaderSource: bufSize is negative");
    return;
  }
  copy_string(s->source, bufSize, length, source);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsShader(GLuint shader) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->shaders.count(shader) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glDeleteShader(GLuint shader) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (shader == 0) return;  // silently ignored (GL 4.6 §7.1)
  auto s = shader_object_unsettled(ctx, shader, "glDeleteShader");
  if (!s) return;
  s->delete_pending = true;
  release_shader(ctx, s);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glCreateProgram(void) {
  BISMUTH_GL_BEGIN(0)
  auto p = std::make_shared<ProgramObject>();
  std::lock_guard lock(ctx->share->mutex);
  p->name = ctx->share->next_name++;
  ctx->share->programs[p->name] = p;
  return p->name;
  BISMUTH_GL_END(0)
}

GLAPI GLboolean APIENTRY glIsProgram(GLuint program) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->programs.count(program) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glAttachShader(GLuint program, GLuint shader) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object_unsettled(ctx, program, "glAttachShader");
  if (!p) return;
  auto s = shader_object_unsettled(ctx, shader, "glAttachShader");
  if (!s) return;
  if (std::find(p->attached.begin(), p->attached.end(), s) != p->attached.end()) {
    ctx->set_error(GL_INVALID_OPERATION, "glAttachShader: the shader is already attached to the program");
    return;
  }
  p->attached.push_back(s);
  ++s->attachments;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDetachShader(GLuint program, GLuint shader) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object_unsettled(ctx, program, "glDetachShader");
  if (!p) return;
  auto s = shader_object_unsettled(ctx, shader, "glDetachShader");
  if (!s) return;
  auto it = std::find(p->attached.begin(), p->attached.end(), s);
  if (it == p->attached.end()) {
    ctx->set_error(GL_INVALID_OPERATION, "glDetachShader: the shader is not attached to the program");
    return;
  }
  p->attached.erase(it);
  --s->attachments;
  release_shader(ctx, s);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetAttachedShaders(GLuint program, GLsizei maxCount, GLsizei* count, GLuint* shaders) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glGetAttachedShaders");
  if (!p) return;
  if (maxCount < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetAttachedShaders: maxCount is negative");
    return;
  }
  GLsizei n = 0;
  for (const auto& s : p->attached) {
    if (n >= maxCount) break;
    if (shaders) shaders[n] = s->name;
    ++n;
  }
  if (count) *count = n;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glLinkProgram(GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glLinkProgram");
  if (!p) return;
  link_program(ctx, *p);  // in the background where the context allows it (parallel_compile.hpp)
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glValidateProgram(GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glValidateProgram");
  if (!p) return;
  p->validate_status = p->link_status;
  if (!p->link_status) p->info_log += "validation: the program is not linked\n";
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glUseProgram(GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  std::shared_ptr<ProgramObject> p;
  if (program != 0) {
    p = program_object(ctx, program, "glUseProgram");
    if (!p) return;
    if (!p->link_status) {
      ctx->set_error(GL_INVALID_OPERATION, "glUseProgram: program " + std::to_string(program) + " is not linked");
      return;
    }
  }
  if (ctx->program) {
    auto old = ctx->program;
    --old->uses;
    ctx->program.reset();
    if (old->delete_pending && old->uses == 0) {
      std::lock_guard lock(ctx->share->mutex);
      ctx->share->programs.erase(old->name);
    }
  }
  if (p) ++p->uses;
  ctx->program = std::move(p);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteProgram(GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (program == 0) return;
  auto p = program_object_unsettled(ctx, program, "glDeleteProgram");
  if (!p) return;
  p->delete_pending = true;
  if (p->uses > 0) return;  // deleted when no context uses it any more
  for (auto& s : p->attached) {
    --s->attachments;
    release_shader(ctx, s);
  }
  p->attached.clear();
  std::lock_guard lock(ctx->share->mutex);
  ctx->share->programs.erase(program);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetProgramiv(GLuint program, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object_unsettled(ctx, program, "glGetProgramiv");
  if (!p) return;
  // KHR_parallel_shader_compile: "FALSE is returned if the program is currently being linked by a background
  // thread, TRUE otherwise".
  if (pname == GL_COMPLETION_STATUS_KHR) {
    if (params) *params = completion_status(ctx, *p) ? GL_TRUE : GL_FALSE;
    return;
  }
  settle(ctx, *p);
  const Executable* exe = p->link_status ? p->executable.get() : nullptr;
  auto max_name = [](const auto& list) {
    GLint m = 0;
    for (const auto& x : list) m = std::max(m, static_cast<GLint>(x.name.size()) + 1);
    return m;
  };
  GLint v = 0;
  switch (pname) {
    case GL_DELETE_STATUS: v = p->delete_pending; break;
    case GL_LINK_STATUS: v = p->link_status; break;
    case GL_VALIDATE_STATUS: v = p->validate_status; break;
    case GL_INFO_LOG_LENGTH: v = log_length(p->info_log); break;
    case GL_ATTACHED_SHADERS: v = static_cast<GLint>(p->attached.size()); break;
    case GL_ACTIVE_UNIFORMS:
      v = exe ? static_cast<GLint>(active_uniform_count(exe->program)) : 0;
      break;
    case GL_ACTIVE_UNIFORM_MAX_LENGTH:
      v = exe ? active_uniform_max_length(exe->program) : 0;
      break;
    case GL_ACTIVE_UNIFORM_BLOCKS: v = exe ? static_cast<GLint>(exe->program.uniform_blocks.size()) : 0; break;
    case GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH: v = exe ? max_name(exe->program.uniform_blocks) : 0; break;
    case GL_ACTIVE_ATOMIC_COUNTER_BUFFERS:
      v = exe ? static_cast<GLint>(exe->program.atomic_counter_buffers.size()) : 0;
      break;
    case GL_ACTIVE_ATTRIBUTES: case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH: {
      // The vertex shader's active inputs (GL 4.6 §11.1.1); none without a vertex stage.
      const auto* graphics = exe ? exe->graphics.get() : nullptr;
      if (graphics && !graphics->stages.empty() && graphics->stages.front() == translator::ShaderStage::Vertex) {
        v = pname == GL_ACTIVE_ATTRIBUTES ? static_cast<GLint>(graphics->inputs.size()) : max_name(graphics->inputs);
      }
      break;
    }
    case GL_PROGRAM_SEPARABLE: v = p->separable; break;
    case GL_PROGRAM_BINARY_RETRIEVABLE_HINT: v = p->binary_retrievable_hint; break;
    // GL_BISMUTH_num_waves: the committed wave size and the declared wave count of the last successful link; 0
    // for programs that do not declare num_waves (and before a successful link).
    case GL_COMPUTE_WAVE_SIZE_BISMUTH: v = exe ? static_cast<GLint>(exe->wave_size) : 0; break;
    case GL_COMPUTE_NUM_WAVES_BISMUTH:
      v = exe && exe->program.num_waves ? static_cast<GLint>(exe->program.num_waves->num_waves) : 0;
      break;
    case GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH: v = static_cast<GLint>(p->wave_size_hint); break;
    // GL 4.6 §7.13: the varyings of the last successful link (none for a compute program).
    case GL_TRANSFORM_FEEDBACK_VARYINGS:
      v = exe && exe->graphics ? static_cast<GLint>(exe->graphics->transform_feedback.size()) : 0;
      break;
    case GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH:
      v = exe && exe->graphics ? max_name(exe->graphics->transform_feedback) : 0;
      break;
    case GL_TRANSFORM_FEEDBACK_BUFFER_MODE:
      v = exe && exe->graphics && !exe->graphics->transform_feedback_interleaved ? GL_SEPARATE_ATTRIBS
                                                                                 : GL_INTERLEAVED_ATTRIBS;
      break;
    // GL 4.6 §7.5: the length of the binary glGetProgramBinary would return; 0 when there is none (not linked).
    case GL_PROGRAM_BINARY_LENGTH: v = exe ? program_binary_length(ctx, *p) : 0; break;
    case GL_GEOMETRY_VERTICES_OUT: case GL_GEOMETRY_INPUT_TYPE: case GL_GEOMETRY_OUTPUT_TYPE:
    case GL_GEOMETRY_SHADER_INVOCATIONS: case GL_TESS_CONTROL_OUTPUT_VERTICES: case GL_TESS_GEN_MODE:
    case GL_TESS_GEN_SPACING: case GL_TESS_GEN_VERTEX_ORDER: case GL_TESS_GEN_POINT_MODE: {
      auto layout = stage_layout_value(exe, pname);
      if (!layout) {
        ctx->set_error(GL_INVALID_OPERATION, "glGetProgramiv(" + hex(pname) + "): " + layout.error().message);
        return;
      }
      v = *layout;
      break;
    }
    case GL_COMPUTE_WORK_GROUP_SIZE: {
      // GL 4.6 §7.13: INVALID_OPERATION unless the program linked successfully with a compute shader.
      if (!exe) {
        ctx->set_error(GL_INVALID_OPERATION, "glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE): the program is not linked");
        return;
      }
      if (exe->graphics) {
        ctx->set_error(GL_INVALID_OPERATION,
                       "glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE): the program has no compute shader");
        return;
      }
      // ARB_compute_variable_group_size: a variable-size program reports 0, 0, 0. GL_BISMUTH_num_waves: a num_waves
      // program reports (num_waves x the committed wave size, 1, 1).
      const bool fixed = exe->program.group_size != translator::GroupSize::Variable &&
                         exe->program.group_size != translator::GroupSize::None;
      if (params) {
        for (int i = 0; i < 3; ++i) params[i] = fixed ? static_cast<GLint>(exe->program.fixed_size[i]) : 0;
      }
      return;
    }
    default: ctx->set_error(GL_INVALID_ENUM, "glGetProgramiv: invalid pname"); return;
  }
  if (params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei* length, GLchar* infoLog) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glGetProgramInfoLog");
  if (!p) return;
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetProgramInfoLog: bufSize is negative");
    return;
  }
  copy_string(p->info_log, bufSize, length, infoLog);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glCreateShaderProgramv(GLenum type, GLsizei count, const GLchar* const* strings) {
  BISMUTH_GL_BEGIN(0)
  if (!is_shader_type(type)) {
    ctx->set_error(GL_INVALID_ENUM, "glCreateShaderProgramv: type " + hex(type) + " is not a shader type");
    return 0;
  }
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glCreateShaderProgramv: count is negative");
    return 0;
  }
  // GL 4.6 §7.3: equivalent to create, source, compile, create program, attach, link, detach, delete.
  const GLuint shader = glCreateShader(type);
  if (shader == 0) return 0;
  glShaderSource(shader, count, strings, nullptr);
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  auto s = shader_object(ctx, shader, "glCreateShaderProgramv");
  auto p = program_object(ctx, program, "glCreateShaderProgramv");
  if (!s || !p) return 0;
  p->separable = true;  // GL 4.6 §7.3: CreateShaderProgramv sets PROGRAM_SEPARABLE before its link
  if (s->compile_status) {
    glAttachShader(program, shader);
    glLinkProgram(program);
    glDetachShader(program, shader);
    settle(ctx, *p);  // the link's info log (parallel_compile.hpp)
  }
  p->info_log = s->info_log + p->info_log;
  glDeleteShader(shader);
  return program;
  BISMUTH_GL_END(0)
}

// ---- ARB_gl_spirv ----

GLAPI void APIENTRY glShaderBinary(GLsizei count, const GLuint* shaders, GLenum binaryFormat, const void* binary,
                                   GLsizei length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (binaryFormat != GL_SHADER_BINARY_FORMAT_SPIR_V) {
    ctx->set_error(GL_INVALID_ENUM, "glShaderBinary: binaryFormat is not GL_SHADER_BINARY_FORMAT_SPIR_V");
    return;
  }
  // OpenGL ES 3.2 §7.2: "An INVALID_ENUM error is generated if binaryformat is not a supported format returned in
  // SHADER_BINARY_FORMATS" — an OpenGL ES context lists none (SPIR-V modules are GL 4.6's).
  if (ctx->version.es) {
    ctx->set_error(GL_INVALID_ENUM,
                   "glShaderBinary: an OpenGL ES context has no shader binary formats (SPIR-V "
                   "modules are GL 4.6's, ARB_gl_spirv)");
    return;
  }
  if (count < 0 || length < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glShaderBinary: count or length is negative");
    return;
  }
  std::vector<std::shared_ptr<ShaderObject>> objects;
  for (GLsizei i = 0; i < count && shaders != nullptr; ++i) {
    auto s = shader_object(ctx, shaders[i], "glShaderBinary");
    if (!s) return;
    objects.push_back(std::move(s));
  }
  // GL 4.6 §7.2: "An INVALID_VALUE error is generated if the data pointed to by binary does not match the
  // format specified by binaryFormat."
  std::vector<uint32_t> words(static_cast<size_t>(length) / 4);
  if (binary == nullptr || length % 4 != 0 || words.size() < 5) {
    ctx->set_error(GL_INVALID_VALUE, "glShaderBinary: the data is not a SPIR-V module");
    return;
  }
  std::memcpy(words.data(), binary, words.size() * 4);
  if (auto parsed = spirv_patch::Module::parse(words); !parsed) {
    ctx->set_error(GL_INVALID_VALUE, "glShaderBinary: the data is not a SPIR-V module: " + parsed.error().message);
    return;
  }
  for (auto& s : objects) {
    // GL 4.6 §7.2: "any existing source string (specified by ShaderSource) is removed".
    s->source.clear();
    s->spirv_binary = true;
    s->spirv = words;
    s->specialized = false;
    s->compile_status = false;
    s->compiled = nullptr;
    s->compiled_source = nullptr;
    s->info_log.clear();
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glSpecializeShader(GLuint shader, const GLchar* pEntryPoint, GLuint numSpecializationConstants,
                                       const GLuint* pConstantIndex, const GLuint* pConstantValue) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glSpecializeShader");
  if (!s) return;
  // ARB_gl_spirv: "INVALID_OPERATION is generated if <shader> does not reference a shader object created from a
  // SPIR-V module, or if the shader has already been specialized."
  if (!s->spirv_binary || s->specialized) {
    ctx->set_error(GL_INVALID_OPERATION, "glSpecializeShader: the shader holds no unspecialized SPIR-V module");
    return;
  }
  if (numSpecializationConstants > 0 && (pConstantIndex == nullptr || pConstantValue == nullptr)) {
    ctx->set_error(GL_INVALID_VALUE, "glSpecializeShader: constant arrays are NULL");
    return;
  }
  const std::string entry = pEntryPoint ? pEntryPoint : "main";
  auto specialized = specialize_spirv(s->spirv, s->type, entry, std::span(pConstantIndex, numSpecializationConstants),
                                      std::span(pConstantValue, numSpecializationConstants), ctx->caps);
  if (!specialized && specialized.error().code != 0) {
    // The GL errors of ARB_gl_spirv (unknown entry point or SpecId, an entry point of another stage): the shader
    // stays unspecialized.
    ctx->set_error(static_cast<GLenum>(specialized.error().code),
                   "glSpecializeShader: " + specialized.error().message);
    return;
  }
  if (!specialized) {
    // A failed specialization is a compile failure with a log, not a GL error.
    s->compile_status = false;
    s->info_log = specialized.error().message + "\n";
    return;
  }
  s->spirv = std::move(*specialized);
  s->spirv_entry = entry;
  s->specialized = true;
  s->compile_status = true;
  s->info_log.clear();
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
