// Shader and program objects (GL 4.6 §7): create/source/compile/attach/link/use/delete, info logs, program
// queries and the program interface queries for uniforms, uniform and storage blocks, atomic-counter buffers.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "gl_arithmetic.hpp"
#include "gl_internal.hpp"
#include "gl_objects.hpp"
#include "gl_spirv.hpp"

namespace bismuth::gl {

std::shared_ptr<ShaderObject> shader_object(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->shaders.find(name);
  if (it != ctx->share->shaders.end()) return it->second;
  if (ctx->share->programs.count(name)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) + " is a program, not a shader");
  } else {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(name) + " is not a shader name");
  }
  return nullptr;
}

std::shared_ptr<ProgramObject> program_object(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->programs.find(name);
  if (it != ctx->share->programs.end()) return it->second;
  if (ctx->share->shaders.count(name)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) + " is a shader, not a program");
  } else {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(name) + " is not a program name");
  }
  return nullptr;
}

namespace {

void copy_string(const std::string& s, GLsizei buf_size, GLsizei* length, GLchar* out) {
  GLsizei n = 0;
  if (buf_size > 0 && out != nullptr) {
    n = std::min<GLsizei>(buf_size - 1, static_cast<GLsizei>(s.size()));
    std::memcpy(out, s.data(), static_cast<size_t>(n));
    out[n] = '\0';
  }
  if (length) *length = n;
}

GLint log_length(const std::string& s) { return s.empty() ? 0 : static_cast<GLint>(s.size()) + 1; }

void release_shader(Context* ctx, const std::shared_ptr<ShaderObject>& shader) {
  if (shader->delete_pending && shader->attachments == 0) {
    std::lock_guard lock(ctx->share->mutex);
    ctx->share->shaders.erase(shader->name);
  }
}

VkDescriptorType descriptor_type(translator::GlResourceKind kind) {
  switch (kind) {
    case translator::GlResourceKind::ShaderStorageBuffer:
    case translator::GlResourceKind::AtomicCounterBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    default: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  }
}

uint32_t scalar_bytes(uint32_t gl_type) {
  switch (gl_type) {
    case GL_DOUBLE: case GL_DOUBLE_VEC2: case GL_DOUBLE_VEC3: case GL_DOUBLE_VEC4: return 8;
    default: return 4;
  }
}

uint32_t components(uint32_t gl_type) {
  switch (gl_type) {
    case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: case GL_BOOL_VEC2: case GL_DOUBLE_VEC2: return 2;
    case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: case GL_BOOL_VEC3: case GL_DOUBLE_VEC3: return 3;
    case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: case GL_BOOL_VEC4: case GL_DOUBLE_VEC4: return 4;
    default: return 1;
  }
}

// glLinkProgram's work: the GLSL front's link, the ballot/vote lowering, the backend shader and the uniform
// storage. On failure the message is the info log.
Expected<std::shared_ptr<Executable>> link(Context* ctx, ProgramObject& program) {
  std::vector<std::shared_ptr<const translator::GlShader>> shaders;
  const ShaderObject* spirv_shader = nullptr;
  for (const auto& s : program.attached) {
    if (s->spirv_binary) {
      // ARB_gl_spirv: linking fails for "a mix of SPIR-V and GLSL shaders" or a SPIR-V shader not specialized.
      if (!s->specialized) return fail("error: SPIR-V shader " + std::to_string(s->name) + " is not specialized");
      if (spirv_shader != nullptr) return fail("error: more than one SPIR-V compute shader is attached");
      spirv_shader = s.get();
      continue;
    }
    if (!s->compiled) return fail("error: shader " + std::to_string(s->name) + " has not been compiled");
    shaders.push_back(s->compiled);
  }
  if (spirv_shader != nullptr && !shaders.empty()) return fail("error: SPIR-V and GLSL shaders cannot be linked together");
  std::string entry = "main";
  // The device's GL_MAX_COMPUTE_SHARED_MEMORY_SIZE: a program over it fails to link (GLSL 4.60 §4.3.8).
  auto linked = spirv_shader ? link_spirv(spirv_shader->spirv, spirv_shader->spirv_entry)
                             : translator::link_gl_program(
                                   shaders, {.max_compute_shared_memory_size = ctx->caps.max_shared_memory});
  if (spirv_shader) entry = spirv_shader->spirv_entry;
  if (!linked) return linked.error();
  auto exe = std::make_shared<Executable>();
  exe->program = std::move(*linked);
  translator::GlLinkedProgram& p = exe->program;

  auto lowered = spirv_patch::lower_khr_subgroup_ops(p.spirv);
  if (!lowered) return fail("error: lowering GL_ARB_shader_ballot/GL_ARB_shader_group_vote: " + lowered.error().message);
  if (lowered->report.changed) {
    if (!ctx->caps.ballot_vote) {
      return fail("error: GL_ARB_shader_ballot / GL_ARB_shader_group_vote are not supported on " +
                  ctx->caps.device_name +
                  ": it cannot guarantee subgroups of at most 64 invocations with ballot and vote in compute "
                  "shaders");
    }
    p.spirv = std::move(lowered->words);
    exe->subgroup_size = lowered->report.requires_subgroup_size_at_most_64 ? ctx->caps.ballot_subgroup_size : 0;
  }

  ArithmeticOptions arithmetic_options;
  arithmetic_options.fma_through_double = ctx->caps.split_fma && ctx->caps.float64;
  if (auto arithmetic = match_gl_arithmetic(p.spirv, arithmetic_options); !arithmetic) {
    return fail("error: internal: " + arithmetic.error().message);
  }
  if (Status valid = spirv_patch::validate(p.spirv, spirv_patch::TargetEnv::Vulkan1_1); !valid) {
    return fail("error: internal: the program's SPIR-V is invalid: " + valid.error().message);
  }

  backend::ShaderDesc desc;
  desc.spirv = p.spirv;
  desc.entry_point = entry;
  for (const auto& r : p.resources) desc.layout.bindings.push_back(descriptor_type(r.kind));
  desc.group_size_spec_ids = p.size_spec_ids;
  desc.name = "GL program " + std::to_string(program.name);
  const bool variable = p.group_size == translator::GroupSize::Variable;
  std::vector<uint32_t> runtime_words;
  if (variable) add_runtime_group_size(desc, runtime_words);
  auto shader = backend::Shader::create(*ctx->device_state.device, desc);
  if (!shader) return fail("error: the Vulkan driver rejected the program: " + shader.error().message);
  exe->shader = std::move(*shader);
  if (variable) exe->prewarm = prewarm_variable_size(*ctx->device_state.cache, exe->shader, exe->subgroup_size);

  for (uint32_t u = 0; u < p.uniforms.size(); ++u) {
    translator::GlUniform& uniform = p.uniforms[u];
    // Every element glUniform* may write lies inside the block (never past the CPU copy or the buffer).
    const uint32_t end = uniform.offset + (std::max<uint32_t>(1, uniform.array_size) - 1) * uniform.array_stride +
                         scalar_bytes(uniform.gl_type) * components(uniform.gl_type);
    p.default_uniform_block_size = std::max(p.default_uniform_block_size, end);
    const GLint base = static_cast<GLint>(exe->locations.size());
    for (uint32_t e = 0; e < std::max<uint32_t>(1, uniform.array_size); ++e) exe->locations.push_back({u, e});
    exe->location_by_name[uniform.name] = base;
    const std::string& n = uniform.name;
    if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) {
      const std::string stem = n.substr(0, n.size() - 3);
      exe->location_by_name[stem] = base;
      for (uint32_t e = 1; e < uniform.array_size; ++e) exe->location_by_name[stem + "[" + std::to_string(e) + "]"] = base + static_cast<GLint>(e);
    }
  }
  if (p.default_uniform_block_size > 0) {
    exe->uniform_data.assign(p.default_uniform_block_size, std::byte{0});
    auto buffer = backend::Buffer::create(*ctx->device_state.device, p.default_uniform_block_size);
    if (!buffer) return fail("error: allocating the default uniform block: " + buffer.error().message);
    exe->uniform_buffer = std::move(*buffer);
    exe->uniform_dirty = true;
  }
  return exe;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI GLuint APIENTRY glCreateShader(GLenum type) {
  BISMUTH_GL_BEGIN(0)
  if (type != GL_COMPUTE_SHADER) {
    ctx->set_error(GL_INVALID_ENUM, "glCreateShader: only GL_COMPUTE_SHADER is supported by this compute shim");
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
  std::string source;
  for (GLsizei i = 0; i < count; ++i) {
    if (string == nullptr || string[i] == nullptr) continue;
    if (length != nullptr && length[i] >= 0) {
      source.append(string[i], static_cast<size_t>(length[i]));
    } else {
      source.append(string[i]);
    }
  }
  s->source = std::move(source);
  s->spirv_binary = false;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCompileShader(GLuint shader) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glCompileShader");
  if (!s) return;
  if (s->spirv_binary) {
    s->compile_status = false;
    s->info_log = "error: the shader holds a SPIR-V binary; glSpecializeShader compiles it\n";
    return;
  }
  auto compiled = translator::GlShader::compile(s->source);
  s->compile_status = compiled->ok();
  s->info_log = compiled->info_log();
  s->compiled = compiled->ok() ? compiled : nullptr;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetShaderiv(GLuint shader, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = shader_object(ctx, shader, "glGetShaderiv");
  if (!s) return;
  GLint v = 0;
  switch (pname) {
    case GL_SHADER_TYPE: v = static_cast<GLint>(s->type); break;
    case GL_DELETE_STATUS: v = s->delete_pending; break;
    case GL_COMPILE_STATUS: v = s->compile_status; break;
    case GL_INFO_LOG_LENGTH: v = log_length(s->info_log); break;
    case GL_SHADER_SOURCE_LENGTH: v = s->spirv_binary ? 0 : log_length(s->source); break;
    case GL_SPIR_V_BINARY: v = s->spirv_binary; break;
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
  auto s = shader_object(ctx, shader, "glDeleteShader");
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
  auto p = program_object(ctx, program, "glAttachShader");
  if (!p) return;
  auto s = shader_object(ctx, shader, "glAttachShader");
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
  auto p = program_object(ctx, program, "glDetachShader");
  if (!p) return;
  auto s = shader_object(ctx, shader, "glDetachShader");
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
  auto exe = link(ctx, *p);
  if (!exe) {
    // A failed link keeps the executable of the last successful one in use where the program is current
    // (GL 4.6 §7.3).
    p->link_status = false;
    p->info_log = exe.error().message;
    if (!p->info_log.empty() && p->info_log.back() != '\n') p->info_log += '\n';
    return;
  }
  p->link_status = true;
  p->info_log = (*exe)->program.info_log;
  p->executable = std::move(*exe);
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
  auto p = program_object(ctx, program, "glDeleteProgram");
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
  auto p = program_object(ctx, program, "glGetProgramiv");
  if (!p) return;
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
      v = exe ? static_cast<GLint>(exe->program.uniforms.size() + exe->program.atomic_counters.size()) : 0;
      break;
    case GL_ACTIVE_UNIFORM_MAX_LENGTH:
      v = exe ? std::max(max_name(exe->program.uniforms), max_name(exe->program.atomic_counters)) : 0;
      break;
    case GL_ACTIVE_UNIFORM_BLOCKS: v = exe ? static_cast<GLint>(exe->program.uniform_blocks.size()) : 0; break;
    case GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH: v = exe ? max_name(exe->program.uniform_blocks) : 0; break;
    case GL_ACTIVE_ATOMIC_COUNTER_BUFFERS:
      v = exe ? static_cast<GLint>(exe->program.atomic_counter_buffers.size()) : 0;
      break;
    case GL_ACTIVE_ATTRIBUTES: case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH: case GL_TRANSFORM_FEEDBACK_VARYINGS:
    case GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH: case GL_PROGRAM_SEPARABLE: case GL_PROGRAM_BINARY_LENGTH:
    case GL_PROGRAM_BINARY_RETRIEVABLE_HINT:
      v = 0;
      break;
    case GL_COMPUTE_WORK_GROUP_SIZE: {
      // GL 4.6 §7.13: INVALID_OPERATION unless the program linked successfully with a compute shader.
      if (!exe) {
        ctx->set_error(GL_INVALID_OPERATION, "glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE): the program is not linked");
        return;
      }
      // ARB_compute_variable_group_size: a variable-size program reports 0, 0, 0.
      const bool fixed = exe->program.group_size == translator::GroupSize::Fixed;
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
  if (type != GL_COMPUTE_SHADER) {
    ctx->set_error(GL_INVALID_ENUM, "glCreateShaderProgramv: only GL_COMPUTE_SHADER is supported");
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
  if (s->compile_status) {
    glAttachShader(program, shader);
    glLinkProgram(program);
    glDetachShader(program, shader);
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
    s->spirv_binary = true;
    s->spirv = words;
    s->specialized = false;
    s->compile_status = false;
    s->compiled = nullptr;
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
  auto specialized = specialize_spirv(s->spirv, entry, std::span(pConstantIndex, numSpecializationConstants),
                                      std::span(pConstantValue, numSpecializationConstants));
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

// ---- program interface queries (GL 4.6 §7.3.1) ----

namespace {

enum class Interface { Uniform, UniformBlock, StorageBlock, AtomicCounterBuffer, Empty, Invalid };

Interface interface_of(GLenum e) {
  switch (e) {
    case GL_UNIFORM: return Interface::Uniform;
    case GL_UNIFORM_BLOCK: return Interface::UniformBlock;
    case GL_SHADER_STORAGE_BLOCK: return Interface::StorageBlock;
    case GL_ATOMIC_COUNTER_BUFFER: return Interface::AtomicCounterBuffer;
    case GL_PROGRAM_INPUT: case GL_PROGRAM_OUTPUT: case GL_BUFFER_VARIABLE: case GL_TRANSFORM_FEEDBACK_VARYING:
    case GL_TRANSFORM_FEEDBACK_BUFFER: case GL_COMPUTE_SUBROUTINE: case GL_COMPUTE_SUBROUTINE_UNIFORM:
    case GL_VERTEX_SUBROUTINE: case GL_FRAGMENT_SUBROUTINE: case GL_VERTEX_SUBROUTINE_UNIFORM:
    case GL_FRAGMENT_SUBROUTINE_UNIFORM: case GL_GEOMETRY_SUBROUTINE: case GL_GEOMETRY_SUBROUTINE_UNIFORM:
    case GL_TESS_CONTROL_SUBROUTINE: case GL_TESS_CONTROL_SUBROUTINE_UNIFORM: case GL_TESS_EVALUATION_SUBROUTINE:
    case GL_TESS_EVALUATION_SUBROUTINE_UNIFORM:
      return Interface::Empty;
    default: return Interface::Invalid;
  }
}

// Uniform resources: default-block uniforms first, then atomic counters.
std::vector<std::string> resource_names(const Executable& exe, Interface i) {
  std::vector<std::string> names;
  const auto& p = exe.program;
  switch (i) {
    case Interface::Uniform:
      for (const auto& u : p.uniforms) names.push_back(u.name);
      for (const auto& a : p.atomic_counters) names.push_back(a.array_size > 1 ? a.name + "[0]" : a.name);
      break;
    case Interface::UniformBlock: for (const auto& b : p.uniform_blocks) names.push_back(b.name); break;
    case Interface::StorageBlock: for (const auto& b : p.storage_blocks) names.push_back(b.name); break;
    case Interface::AtomicCounterBuffer: names.resize(p.atomic_counter_buffers.size()); break;
    default: break;
  }
  return names;
}

// Returns the linked executable, or null with the error set.
const Executable* linked_executable(Context* ctx, GLuint program, const char* func) {
  auto p = program_object(ctx, program, func);
  if (!p) return nullptr;
  if (!p->link_status || !p->executable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the program is not linked");
    return nullptr;
  }
  return p->executable.get();
}

}  // namespace

GLAPI void APIENTRY glGetProgramInterfaceiv(GLuint program, GLenum programInterface, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glGetProgramInterfaceiv");
  if (!p) return;
  const Interface i = interface_of(programInterface);
  if (i == Interface::Invalid) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramInterfaceiv: invalid programInterface");
    return;
  }
  std::vector<std::string> names;
  if (p->link_status && p->executable) names = resource_names(*p->executable, i);
  GLint v = 0;
  switch (pname) {
    case GL_ACTIVE_RESOURCES: v = static_cast<GLint>(names.size()); break;
    case GL_MAX_NAME_LENGTH:
      if (i == Interface::AtomicCounterBuffer) {
        ctx->set_error(GL_INVALID_OPERATION, "glGetProgramInterfaceiv: GL_ATOMIC_COUNTER_BUFFER has no names");
        return;
      }
      for (const auto& n : names) v = std::max(v, static_cast<GLint>(n.size()) + 1);
      break;
    case GL_MAX_NUM_ACTIVE_VARIABLES:
      if (i == Interface::AtomicCounterBuffer && p->executable) {
        for (const auto& b : p->executable->program.atomic_counter_buffers) {
          GLint n = 0;
          for (const auto& a : p->executable->program.atomic_counters) n += a.gl_binding == b.gl_binding;
          v = std::max(v, n);
        }
      }
      break;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetProgramInterfaceiv: invalid pname"); return;
  }
  if (params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glGetProgramResourceIndex(GLuint program, GLenum programInterface, const GLchar* name) {
  BISMUTH_GL_BEGIN(GL_INVALID_INDEX)
  const Interface i = interface_of(programInterface);
  if (i == Interface::Invalid || i == Interface::AtomicCounterBuffer) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceIndex: invalid programInterface");
    return GL_INVALID_INDEX;
  }
  const Executable* exe = linked_executable(ctx, program, "glGetProgramResourceIndex");
  if (!exe || name == nullptr) return GL_INVALID_INDEX;
  const auto names = resource_names(*exe, i);
  std::string wanted = name;
  for (size_t k = 0; k < names.size(); ++k) {
    if (names[k] == wanted) return static_cast<GLuint>(k);
    // "a" names the array "a[0]" (GL 4.6 §7.3.1.1).
    if (names[k].size() > 3 && names[k].compare(names[k].size() - 3, 3, "[0]") == 0 &&
        names[k].substr(0, names[k].size() - 3) == wanted) {
      return static_cast<GLuint>(k);
    }
  }
  return GL_INVALID_INDEX;
  BISMUTH_GL_END(GL_INVALID_INDEX)
}

GLAPI void APIENTRY glGetProgramResourceName(GLuint program, GLenum programInterface, GLuint index, GLsizei bufSize,
                                             GLsizei* length, GLchar* name) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  const Interface i = interface_of(programInterface);
  if (i == Interface::Invalid || i == Interface::AtomicCounterBuffer) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceName: invalid programInterface");
    return;
  }
  const Executable* exe = linked_executable(ctx, program, "glGetProgramResourceName");
  if (!exe) return;
  const auto names = resource_names(*exe, i);
  if (index >= names.size()) {
    ctx->set_error(GL_INVALID_VALUE, "glGetProgramResourceName: index is not an active resource");
    return;
  }
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetProgramResourceName: bufSize is negative");
    return;
  }
  copy_string(names[index], bufSize, length, name);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLint APIENTRY glGetProgramResourceLocation(GLuint program, GLenum programInterface, const GLchar* name) {
  BISMUTH_GL_BEGIN(-1)
  if (programInterface != GL_UNIFORM && interface_of(programInterface) == Interface::Invalid) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceLocation: invalid programInterface");
    return -1;
  }
  const Executable* exe = linked_executable(ctx, program, "glGetProgramResourceLocation");
  if (!exe || name == nullptr || programInterface != GL_UNIFORM) return -1;
  auto it = exe->location_by_name.find(name);
  return it == exe->location_by_name.end() ? -1 : it->second;
  BISMUTH_GL_END(-1)
}

GLAPI void APIENTRY glGetProgramResourceiv(GLuint program, GLenum programInterface, GLuint index, GLsizei propCount,
                                           const GLenum* props, GLsizei count, GLsizei* length, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  const Interface i = interface_of(programInterface);
  if (i == Interface::Invalid) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceiv: invalid programInterface");
    return;
  }
  const Executable* exe = linked_executable(ctx, program, "glGetProgramResourceiv");
  if (!exe) return;
  const auto names = resource_names(*exe, i);
  if (index >= names.size()) {
    ctx->set_error(GL_INVALID_VALUE, "glGetProgramResourceiv: index is not an active resource");
    return;
  }
  if (propCount <= 0 || count < 0 || props == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, "glGetProgramResourceiv: propCount must be positive and count non-negative");
    return;
  }
  const auto& p = exe->program;
  std::vector<GLint> out;
  for (GLsizei k = 0; k < propCount; ++k) {
    const GLenum prop = props[k];
    auto bad = [&] {
      ctx->set_error(GL_INVALID_OPERATION, "glGetProgramResourceiv: property not valid for this interface");
    };
    if (prop == GL_REFERENCED_BY_COMPUTE_SHADER) {
      out.push_back(1);
      continue;
    }
    if (prop == GL_REFERENCED_BY_VERTEX_SHADER || prop == GL_REFERENCED_BY_FRAGMENT_SHADER ||
        prop == GL_REFERENCED_BY_GEOMETRY_SHADER || prop == GL_REFERENCED_BY_TESS_CONTROL_SHADER ||
        prop == GL_REFERENCED_BY_TESS_EVALUATION_SHADER) {
      out.push_back(0);
      continue;
    }
    if (i == Interface::Uniform) {
      const bool counter = index >= p.uniforms.size();
      const translator::GlUniform* u = counter ? nullptr : &p.uniforms[index];
      const translator::GlAtomicCounter* a = counter ? &p.atomic_counters[index - p.uniforms.size()] : nullptr;
      switch (prop) {
        case GL_NAME_LENGTH: out.push_back(static_cast<GLint>(names[index].size()) + 1); break;
        case GL_TYPE: out.push_back(static_cast<GLint>(u ? u->gl_type : GL_UNSIGNED_INT_ATOMIC_COUNTER)); break;
        case GL_ARRAY_SIZE: out.push_back(static_cast<GLint>(u ? u->array_size : a->array_size)); break;
        case GL_OFFSET: out.push_back(static_cast<GLint>(u ? u->offset : a->offset)); break;
        case GL_BLOCK_INDEX: out.push_back(-1); break;
        case GL_ARRAY_STRIDE: out.push_back(static_cast<GLint>(u ? u->array_stride : (a->array_size > 1 ? 4 : 0))); break;
        case GL_MATRIX_STRIDE: out.push_back(static_cast<GLint>(u ? u->matrix_stride : 0)); break;
        case GL_IS_ROW_MAJOR: out.push_back(0); break;
        case GL_LOCATION: {
          GLint loc = -1;
          if (u) {
            auto it = exe->location_by_name.find(u->name);
            if (it != exe->location_by_name.end()) loc = it->second;
          }
          out.push_back(loc);
          break;
        }
        case GL_ATOMIC_COUNTER_BUFFER_INDEX: {
          GLint buffer = -1;
          if (a) {
            for (size_t b = 0; b < p.atomic_counter_buffers.size(); ++b) {
              if (p.atomic_counter_buffers[b].gl_binding == a->gl_binding) buffer = static_cast<GLint>(b);
            }
          }
          out.push_back(buffer);
          break;
        }
        default: bad(); return;
      }
      continue;
    }
    if (i == Interface::UniformBlock || i == Interface::StorageBlock || i == Interface::AtomicCounterBuffer) {
      const translator::GlBufferBinding& b = i == Interface::UniformBlock   ? p.uniform_blocks[index]
                                             : i == Interface::StorageBlock ? p.storage_blocks[index]
                                                                            : p.atomic_counter_buffers[index];
      std::vector<GLint> members;
      if (i == Interface::AtomicCounterBuffer) {
        for (size_t c = 0; c < p.atomic_counters.size(); ++c) {
          if (p.atomic_counters[c].gl_binding == b.gl_binding) members.push_back(static_cast<GLint>(p.uniforms.size() + c));
        }
      }
      switch (prop) {
        case GL_NAME_LENGTH:
          if (i == Interface::AtomicCounterBuffer) return bad();
          out.push_back(static_cast<GLint>(b.name.size()) + 1);
          break;
        case GL_BUFFER_BINDING: out.push_back(static_cast<GLint>(b.gl_binding)); break;
        case GL_BUFFER_DATA_SIZE: out.push_back(static_cast<GLint>(b.min_size)); break;
        case GL_NUM_ACTIVE_VARIABLES: out.push_back(static_cast<GLint>(members.size())); break;
        case GL_ACTIVE_VARIABLES: out.insert(out.end(), members.begin(), members.end()); break;
        default: bad(); return;
      }
      continue;
    }
    ctx->set_error(GL_INVALID_OPERATION, "glGetProgramResourceiv: the interface has no resources");
    return;
  }
  const GLsizei n = std::min<GLsizei>(count, static_cast<GLsizei>(out.size()));
  if (params) std::copy(out.begin(), out.begin() + n, params);
  if (length) *length = n;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glGetUniformBlockIndex(GLuint program, const GLchar* uniformBlockName) {
  BISMUTH_GL_BEGIN(GL_INVALID_INDEX)
  const Executable* exe = linked_executable(ctx, program, "glGetUniformBlockIndex");
  if (!exe || uniformBlockName == nullptr) return GL_INVALID_INDEX;
  for (size_t k = 0; k < exe->program.uniform_blocks.size(); ++k) {
    if (exe->program.uniform_blocks[k].name == uniformBlockName) return static_cast<GLuint>(k);
  }
  return GL_INVALID_INDEX;
  BISMUTH_GL_END(GL_INVALID_INDEX)
}

static void rebind_block(Context* ctx, GLuint program, GLuint index, GLuint binding, bool storage, const char* func) {
  auto p = program_object(ctx, program, func);
  if (!p) return;
  if (!p->link_status || !p->executable) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the program has no active blocks (not linked)");
    return;
  }
  auto& blocks = storage ? p->executable->program.storage_blocks : p->executable->program.uniform_blocks;
  if (index >= blocks.size()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": index is not an active block");
    return;
  }
  const uint32_t max = storage ? GlBindingMap::kMaxShaderStorageBufferBindings : GlBindingMap::kMaxUniformBufferBindings;
  if (binding >= max) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": binding is not below the binding-point count");
    return;
  }
  blocks[index].gl_binding = binding;
  p->executable->program.resources[blocks[index].vk_binding].gl_binding = binding;
}

GLAPI void APIENTRY glShaderStorageBlockBinding(GLuint program, GLuint storageBlockIndex, GLuint storageBlockBinding) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  rebind_block(ctx, program, storageBlockIndex, storageBlockBinding, true, "glShaderStorageBlockBinding");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glUniformBlockBinding(GLuint program, GLuint uniformBlockIndex, GLuint uniformBlockBinding) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  rebind_block(ctx, program, uniformBlockIndex, uniformBlockBinding, false, "glUniformBlockBinding");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
