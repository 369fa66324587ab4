// Sampler objects (GL 4.6 §8.2, OpenGL ES 3.2 §8.2): names, glBindSampler(s) to texture units, and their
// parameters (the rules of texture_parameter_rules.cpp, sampler state only). A sampler object bound to a unit
// overrides the sampler state of the unit's textures (effective_sampler, textures.hpp).
#include "texture_access.hpp"
#include "texture_parameter_rules.hpp"

namespace bismuth::gl {
namespace {

void make_samplers(Context* ctx, GLsizei n, GLuint* samplers, const char* func) {
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": n is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    auto s = std::make_shared<SamplerObject>();
    s->name = ctx->share->next_sampler++;
    ctx->share->samplers[s->name] = s;
    if (samplers) samplers[i] = s->name;
  }
}

// GL 4.6 §8.2: "An INVALID_OPERATION error is generated if sampler is not the name of a sampler object".
std::shared_ptr<SamplerObject> find_sampler(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->samplers.find(name);
  if (it == ctx->share->samplers.end()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) + " is not a sampler object");
    return nullptr;
  }
  return it->second;
}

void set(GLuint sampler, GLenum pname, ParamKind kind, bool vector, const void* values, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = find_sampler(ctx, sampler, func);
  if (!s) return;
  if (values == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": params is null");
    return;
  }
  const ParamError e =
      set_parameter(ParamTarget{GL_NONE, ctx->version.es}, nullptr, s->state, pname, ParamInput{kind, vector, values});
  if (!e.ok()) ctx->set_error(e.error, std::string(func) + ": " + e.message);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

void get(GLuint sampler, GLenum pname, ParamKind kind, void* params, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto s = find_sampler(ctx, sampler, func);
  if (!s) return;
  ParamOutput out;
  const ParamError e = get_parameter(ParamTarget{GL_NONE, ctx->version.es}, nullptr, s->state, pname, out);
  if (!e.ok()) {
    ctx->set_error(e.error, std::string(func) + ": " + e.message);
    return;
  }
  write_parameter(out, kind, params);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGenSamplers(GLsizei count, GLuint* samplers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  make_samplers(ctx, count, samplers, "glGenSamplers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateSamplers(GLsizei n, GLuint* samplers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  make_samplers(ctx, n, samplers, "glCreateSamplers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteSamplers(GLsizei count, const GLuint* samplers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteSamplers: count is negative");
    return;
  }
  for (GLsizei i = 0; i < count && samplers != nullptr; ++i) {
    std::shared_ptr<SamplerObject> s;
    {
      std::lock_guard lock(ctx->share->mutex);
      auto it = ctx->share->samplers.find(samplers[i]);
      if (it == ctx->share->samplers.end()) continue;  // "unused names and zero are silently ignored"
      s = it->second;
      ctx->share->samplers.erase(it);
    }
    // GL 4.6 §8.2: "If a sampler object that is currently bound to one or more texture units is deleted, it is as
    // though BindSampler is called once for each texture unit to which the sampler is bound, with unit set to the
    // texture unit and sampler set to zero" (in the current context).
    for (TextureUnit& unit : ctx->texture_units) {
      if (unit.sampler == s) unit.sampler.reset();
    }
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsSampler(GLuint sampler) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->samplers.count(sampler) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glBindSampler(GLuint unit, GLuint sampler) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.2: "An INVALID_VALUE error is generated if unit is greater than or equal to the value of
  // MAX_COMBINED_TEXTURE_IMAGE_UNITS"; "An INVALID_OPERATION error is generated if sampler is not zero or a name
  // returned from a previous call to GenSamplers, or if such a name has since been deleted".
  if (unit >= ctx->texture_units.size()) {
    ctx->set_error(GL_INVALID_VALUE,
                   "glBindSampler: unit " + std::to_string(unit) + " is not below MAX_COMBINED_TEXTURE_IMAGE_UNITS");
    return;
  }
  if (sampler == 0) {
    ctx->texture_units[unit].sampler.reset();
    return;
  }
  if (auto s = find_sampler(ctx, sampler, "glBindSampler")) ctx->texture_units[unit].sampler = std::move(s);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindSamplers(GLuint first, GLsizei count, const GLuint* samplers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.2: "An INVALID_OPERATION error is generated if first + count is greater than the number of texture
  // image units"; a name that is not a sampler is an INVALID_OPERATION error for its unit only.
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glBindSamplers: count is negative");
    return;
  }
  if (static_cast<uint64_t>(first) + static_cast<uint64_t>(count) > ctx->texture_units.size()) {
    ctx->set_error(GL_INVALID_OPERATION, "glBindSamplers: first + count is greater than the number of texture units");
    return;
  }
  for (GLsizei i = 0; i < count; ++i) {
    TextureUnit& unit = ctx->texture_units[first + static_cast<GLuint>(i)];
    const GLuint name = samplers != nullptr ? samplers[i] : 0;
    if (name == 0) {
      unit.sampler.reset();
      continue;
    }
    if (auto s = find_sampler(ctx, name, "glBindSamplers")) unit.sampler = std::move(s);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glSamplerParameteri(GLuint sampler, GLenum pname, GLint param) {
  set(sampler, pname, ParamKind::Int, false, &param, "glSamplerParameteri");
}
GLAPI void APIENTRY glSamplerParameterf(GLuint sampler, GLenum pname, GLfloat param) {
  set(sampler, pname, ParamKind::Float, false, &param, "glSamplerParameterf");
}
GLAPI void APIENTRY glSamplerParameteriv(GLuint sampler, GLenum pname, const GLint* param) {
  set(sampler, pname, ParamKind::Int, true, param, "glSamplerParameteriv");
}
GLAPI void APIENTRY glSamplerParameterfv(GLuint sampler, GLenum pname, const GLfloat* param) {
  set(sampler, pname, ParamKind::Float, true, param, "glSamplerParameterfv");
}
GLAPI void APIENTRY glSamplerParameterIiv(GLuint sampler, GLenum pname, const GLint* param) {
  set(sampler, pname, ParamKind::IInt, true, param, "glSamplerParameterIiv");
}
GLAPI void APIENTRY glSamplerParameterIuiv(GLuint sampler, GLenum pname, const GLuint* param) {
  set(sampler, pname, ParamKind::IUint, true, param, "glSamplerParameterIuiv");
}
GLAPI void APIENTRY glGetSamplerParameteriv(GLuint sampler, GLenum pname, GLint* params) {
  get(sampler, pname, ParamKind::Int, params, "glGetSamplerParameteriv");
}
GLAPI void APIENTRY glGetSamplerParameterfv(GLuint sampler, GLenum pname, GLfloat* params) {
  get(sampler, pname, ParamKind::Float, params, "glGetSamplerParameterfv");
}
GLAPI void APIENTRY glGetSamplerParameterIiv(GLuint sampler, GLenum pname, GLint* params) {
  get(sampler, pname, ParamKind::IInt, params, "glGetSamplerParameterIiv");
}
GLAPI void APIENTRY glGetSamplerParameterIuiv(GLuint sampler, GLenum pname, GLuint* params) {
  get(sampler, pname, ParamKind::IUint, params, "glGetSamplerParameterIuiv");
}

}  // extern "C"
