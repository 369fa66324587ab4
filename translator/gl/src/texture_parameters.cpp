// glTexParameter*, glTextureParameter*, glGetTexParameter*, glGetTextureParameter* (GL 4.6 §8.10, §8.11.2;
// OpenGL ES 3.2 §8.10, §8.11). The rules are texture_parameter_rules.cpp's, shared with sampler objects.
#include "texture_access.hpp"
#include "texture_parameter_rules.hpp"

namespace bismuth::gl {
namespace {

// The texture a non-DSA call addresses: GL 4.6 §8.10 "An INVALID_ENUM error is generated if target is not one of
// the valid texture targets" (TEXTURE_BUFFER has no parameters).
std::shared_ptr<TextureObject> parameter_texture(Context* ctx, GLenum target, const char* func) {
  if (target == GL_TEXTURE_BUFFER) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": buffer textures have no parameters");
    return nullptr;
  }
  return bound_texture(ctx, target, false, func);
}

void set(Context* ctx, const std::shared_ptr<TextureObject>& t, GLenum pname, ParamKind kind, bool vector,
         const void* values, const char* func) {
  if (!t) return;
  if (values == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": params is null");
    return;
  }
  if (t->target == GL_TEXTURE_BUFFER) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": buffer textures have no parameters");
    return;
  }
  const ParamError e = set_parameter(ParamTarget{t->target, ctx->version.es}, t.get(), t->sampler, pname,
                                     ParamInput{kind, vector, values});
  if (!e.ok()) ctx->set_error(e.error, std::string(func) + ": " + e.message);
}

void get(Context* ctx, const std::shared_ptr<TextureObject>& t, GLenum pname, ParamKind kind, void* params,
         const char* func) {
  if (!t) return;
  ParamOutput out;
  const ParamError e = get_parameter(ParamTarget{t->target, ctx->version.es}, t.get(), t->sampler, pname, out);
  if (!e.ok()) {
    ctx->set_error(e.error, std::string(func) + ": " + e.message);
    return;
  }
  write_parameter(out, kind, params);
}

void tex(GLenum target, GLenum pname, ParamKind kind, bool vector, const void* values, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  set(ctx, parameter_texture(ctx, target, func), pname, kind, vector, values, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
void named(GLuint texture, GLenum pname, ParamKind kind, bool vector, const void* values, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  set(ctx, named_texture(ctx, texture, func), pname, kind, vector, values, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
void get_tex(GLenum target, GLenum pname, ParamKind kind, void* params, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  get(ctx, parameter_texture(ctx, target, func), pname, kind, params, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
void get_named(GLuint texture, GLenum pname, ParamKind kind, void* params, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  get(ctx, named_texture(ctx, texture, func), pname, kind, params, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glTexParameteri(GLenum target, GLenum pname, GLint param) {
  tex(target, pname, ParamKind::Int, false, &param, "glTexParameteri");
}
GLAPI void APIENTRY glTexParameterf(GLenum target, GLenum pname, GLfloat param) {
  tex(target, pname, ParamKind::Float, false, &param, "glTexParameterf");
}
GLAPI void APIENTRY glTexParameteriv(GLenum target, GLenum pname, const GLint* params) {
  tex(target, pname, ParamKind::Int, true, params, "glTexParameteriv");
}
GLAPI void APIENTRY glTexParameterfv(GLenum target, GLenum pname, const GLfloat* params) {
  tex(target, pname, ParamKind::Float, true, params, "glTexParameterfv");
}
GLAPI void APIENTRY glTexParameterIiv(GLenum target, GLenum pname, const GLint* params) {
  tex(target, pname, ParamKind::IInt, true, params, "glTexParameterIiv");
}
GLAPI void APIENTRY glTexParameterIuiv(GLenum target, GLenum pname, const GLuint* params) {
  tex(target, pname, ParamKind::IUint, true, params, "glTexParameterIuiv");
}
GLAPI void APIENTRY glTextureParameteri(GLuint texture, GLenum pname, GLint param) {
  named(texture, pname, ParamKind::Int, false, &param, "glTextureParameteri");
}
GLAPI void APIENTRY glTextureParameterf(GLuint texture, GLenum pname, GLfloat param) {
  named(texture, pname, ParamKind::Float, false, &param, "glTextureParameterf");
}
GLAPI void APIENTRY glTextureParameteriv(GLuint texture, GLenum pname, const GLint* params) {
  named(texture, pname, ParamKind::Int, true, params, "glTextureParameteriv");
}
GLAPI void APIENTRY glTextureParameterfv(GLuint texture, GLenum pname, const GLfloat* params) {
  named(texture, pname, ParamKind::Float, true, params, "glTextureParameterfv");
}
GLAPI void APIENTRY glTextureParameterIiv(GLuint texture, GLenum pname, const GLint* params) {
  named(texture, pname, ParamKind::IInt, true, params, "glTextureParameterIiv");
}
GLAPI void APIENTRY glTextureParameterIuiv(GLuint texture, GLenum pname, const GLuint* params) {
  named(texture, pname, ParamKind::IUint, true, params, "glTextureParameterIuiv");
}

GLAPI void APIENTRY glGetTexParameteriv(GLenum target, GLenum pname, GLint* params) {
  get_tex(target, pname, ParamKind::Int, params, "glGetTexParameteriv");
}
GLAPI void APIENTRY glGetTexParameterfv(GLenum target, GLenum pname, GLfloat* params) {
  get_tex(target, pname, ParamKind::Float, params, "glGetTexParameterfv");
}
GLAPI void APIENTRY glGetTexParameterIiv(GLenum target, GLenum pname, GLint* params) {
  get_tex(target, pname, ParamKind::IInt, params, "glGetTexParameterIiv");
}
GLAPI void APIENTRY glGetTexParameterIuiv(GLenum target, GLenum pname, GLuint* params) {
  get_tex(target, pname, ParamKind::IUint, params, "glGetTexParameterIuiv");
}
GLAPI void APIENTRY glGetTextureParameteriv(GLuint texture, GLenum pname, GLint* params) {
  get_named(texture, pname, ParamKind::Int, params, "glGetTextureParameteriv");
}
GLAPI void APIENTRY glGetTextureParameterfv(GLuint texture, GLenum pname, GLfloat* params) {
  get_named(texture, pname, ParamKind::Float, params, "glGetTextureParameterfv");
}
GLAPI void APIENTRY glGetTextureParameterIiv(GLuint texture, GLenum pname, GLint* params) {
  get_named(texture, pname, ParamKind::IInt, params, "glGetTextureParameterIiv");
}
GLAPI void APIENTRY glGetTextureParameterIuiv(GLuint texture, GLenum pname, GLuint* params) {
  get_named(texture, pname, ParamKind::IUint, params, "glGetTextureParameterIuiv");
}

}  // extern "C"
