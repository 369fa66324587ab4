// Default-block uniforms (GL 4.6 §7.6): glGetUniformLocation, glUniform*, glProgramUniform*, glGetUniform*.
// The shim owns each program's default uniform block: glUniform* writes a CPU copy, and dispatch uploads it in
// stream order when it changed.
#include <algorithm>
#include <cstring>

#include "gl_internal.hpp"
#include "gl_objects.hpp"

namespace bismuth::gl {
namespace {

enum class Base { Float, Int, Uint, Bool, Double, Other };

struct TypeInfo {
  Base base = Base::Other;
  uint32_t components = 0;
};

TypeInfo type_info(uint32_t gl_type) {
  switch (gl_type) {
    case GL_FLOAT: return {Base::Float, 1};
    case GL_FLOAT_VEC2: return {Base::Float, 2};
    case GL_FLOAT_VEC3: return {Base::Float, 3};
    case GL_FLOAT_VEC4: return {Base::Float, 4};
    case GL_INT: return {Base::Int, 1};
    case GL_INT_VEC2: return {Base::Int, 2};
    case GL_INT_VEC3: return {Base::Int, 3};
    case GL_INT_VEC4: return {Base::Int, 4};
    case GL_UNSIGNED_INT: return {Base::Uint, 1};
    case GL_UNSIGNED_INT_VEC2: return {Base::Uint, 2};
    case GL_UNSIGNED_INT_VEC3: return {Base::Uint, 3};
    case GL_UNSIGNED_INT_VEC4: return {Base::Uint, 4};
    case GL_BOOL: return {Base::Bool, 1};
    case GL_BOOL_VEC2: return {Base::Bool, 2};
    case GL_BOOL_VEC3: return {Base::Bool, 3};
    case GL_BOOL_VEC4: return {Base::Bool, 4};
    case GL_DOUBLE: return {Base::Double, 1};
    case GL_DOUBLE_VEC2: return {Base::Double, 2};
    case GL_DOUBLE_VEC3: return {Base::Double, 3};
    case GL_DOUBLE_VEC4: return {Base::Double, 4};
    default: return {};
  }
}

const char* base_name(Base b) {
  switch (b) {
    case Base::Float: return "float";
    case Base::Int: return "int";
    case Base::Uint: return "unsigned int";
    case Base::Bool: return "bool";
    case Base::Double: return "double";
    default: return "matrix/other";
  }
}

// The executable glUniform* (program == nullptr: the current program) or glProgramUniform* writes.
Executable* target(Context* ctx, const GLuint* program, const char* func) {
  if (program == nullptr) {
    if (!ctx->program || !ctx->program->executable) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": no current program object");
      return nullptr;
    }
    return ctx->program->executable.get();
  }
  auto p = program_object(ctx, *program, func);
  if (!p) return nullptr;
  if (!p->link_status || !p->executable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the program is not linked");
    return nullptr;
  }
  return p->executable.get();
}

// One glUniform*/glProgramUniform* call: `components` values of type `base` per element, `count` elements.
template <class T>
void set_uniform(const char* func, const GLuint* program, GLint location, GLsizei count, uint32_t components,
                 Base base, const T* values) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Executable* exe = target(ctx, program, func);
  if (exe == nullptr) return;
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": count is negative");
    return;
  }
  if (location == -1) return;  // silently ignored (GL 4.6 §7.6.1)
  if (values == nullptr) return;  // undefined in GL; never read through a null pointer
  if (location < -1 || static_cast<size_t>(location) >= exe->locations.size()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": location " + std::to_string(location) +
                                             " is not a uniform location of the program");
    return;
  }
  const Location loc = exe->locations[static_cast<size_t>(location)];
  const translator::GlUniform& u = exe->program.uniforms[loc.uniform];
  const TypeInfo t = type_info(u.gl_type);
  // GL 4.6 §7.6.1: the size and type of the call must match the uniform (bool takes any of f, i, ui).
  const bool type_ok = t.base == base || (t.base == Base::Bool && base != Base::Double);
  if (t.base == Base::Other || t.components != components || !type_ok) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the uniform \"" + u.name + "\" is not a " +
                                             std::to_string(components) + "-component " + base_name(base) +
                                             " (or bool) uniform");
    return;
  }
  if (count > 1 && u.array_size <= 1) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": count > 1 for the non-array uniform \"" + u.name + "\"");
    return;
  }
  const uint32_t elements = std::min<uint32_t>(static_cast<uint32_t>(count), std::max<uint32_t>(1, u.array_size) - loc.element);
  const uint32_t size = t.base == Base::Double ? 8 : 4;
  const uint32_t stride = u.array_stride ? u.array_stride : components * size;
  for (uint32_t e = 0; e < elements; ++e) {
    std::byte* dst = exe->uniform_data.data() + u.offset + (loc.element + e) * stride;
    for (uint32_t c = 0; c < components; ++c) {
      const T v = values[e * components + c];
      if (t.base == Base::Bool) {
        const uint32_t b = v != T(0) ? 1u : 0u;
        std::memcpy(dst + c * 4, &b, 4);
      } else {
        std::memcpy(dst + c * size, &v, size);
      }
    }
  }
  exe->uniform_dirty = true;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

template <class T>
void get_uniform(const char* func, GLuint program, GLint location, GLsizei buf_size, T* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Executable* exe = target(ctx, &program, func);
  if (exe == nullptr) return;
  if (location < 0 || static_cast<size_t>(location) >= exe->locations.size()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": location is not a uniform location of the program");
    return;
  }
  const Location loc = exe->locations[static_cast<size_t>(location)];
  const translator::GlUniform& u = exe->program.uniforms[loc.uniform];
  const TypeInfo t = type_info(u.gl_type);
  if (t.base == Base::Other) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": matrix uniforms are not supported by this shim");
    return;
  }
  const uint32_t size = t.base == Base::Double ? 8 : 4;
  if (params == nullptr) return;
  if (buf_size >= 0 && static_cast<size_t>(buf_size) < t.components * sizeof(T)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": bufSize is too small");
    return;
  }
  const uint32_t stride = u.array_stride ? u.array_stride : t.components * size;
  const std::byte* src = exe->uniform_data.data() + u.offset + loc.element * stride;
  for (uint32_t c = 0; c < t.components; ++c) {
    switch (t.base) {
      case Base::Float: { float v; std::memcpy(&v, src + c * 4, 4); params[c] = static_cast<T>(v); break; }
      case Base::Int: { int32_t v; std::memcpy(&v, src + c * 4, 4); params[c] = static_cast<T>(v); break; }
      case Base::Uint: case Base::Bool: { uint32_t v; std::memcpy(&v, src + c * 4, 4); params[c] = static_cast<T>(v); break; }
      case Base::Double: { double v; std::memcpy(&v, src + c * 8, 8); params[c] = static_cast<T>(v); break; }
      default: break;
    }
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI GLint APIENTRY glGetUniformLocation(GLuint program, const GLchar* name) {
  BISMUTH_GL_BEGIN(-1)
  auto p = program_object(ctx, program, "glGetUniformLocation");
  if (!p) return -1;
  if (!p->link_status || !p->executable) {
    ctx->set_error(GL_INVALID_OPERATION, "glGetUniformLocation: the program is not linked");
    return -1;
  }
  if (name == nullptr) return -1;
  auto it = p->executable->location_by_name.find(name);
  return it == p->executable->location_by_name.end() ? -1 : it->second;
  BISMUTH_GL_END(-1)
}

#define BISMUTH_UNIFORM_SCALARS(SUFFIX, TYPE, BASE)                                                           \
  GLAPI void APIENTRY glUniform1##SUFFIX(GLint location, TYPE v0) {                                           \
    const TYPE v[] = {v0};                                                                                     \
    set_uniform("glUniform1" #SUFFIX, nullptr, location, 1, 1, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform2##SUFFIX(GLint location, TYPE v0, TYPE v1) {                                  \
    const TYPE v[] = {v0, v1};                                                                                 \
    set_uniform("glUniform2" #SUFFIX, nullptr, location, 1, 2, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform3##SUFFIX(GLint location, TYPE v0, TYPE v1, TYPE v2) {                         \
    const TYPE v[] = {v0, v1, v2};                                                                             \
    set_uniform("glUniform3" #SUFFIX, nullptr, location, 1, 3, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform4##SUFFIX(GLint location, TYPE v0, TYPE v1, TYPE v2, TYPE v3) {                \
    const TYPE v[] = {v0, v1, v2, v3};                                                                         \
    set_uniform("glUniform4" #SUFFIX, nullptr, location, 1, 4, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform1##SUFFIX##v(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform1" #SUFFIX "v", nullptr, location, count, 1, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform2##SUFFIX##v(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform2" #SUFFIX "v", nullptr, location, count, 2, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform3##SUFFIX##v(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform3" #SUFFIX "v", nullptr, location, count, 3, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform4##SUFFIX##v(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform4" #SUFFIX "v", nullptr, location, count, 4, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform1##SUFFIX(GLuint program, GLint location, TYPE v0) {                    \
    const TYPE v[] = {v0};                                                                                     \
    set_uniform("glProgramUniform1" #SUFFIX, &program, location, 1, 1, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform2##SUFFIX(GLuint program, GLint location, TYPE v0, TYPE v1) {           \
    const TYPE v[] = {v0, v1};                                                                                 \
    set_uniform("glProgramUniform2" #SUFFIX, &program, location, 1, 2, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform3##SUFFIX(GLuint program, GLint location, TYPE v0, TYPE v1, TYPE v2) {  \
    const TYPE v[] = {v0, v1, v2};                                                                             \
    set_uniform("glProgramUniform3" #SUFFIX, &program, location, 1, 3, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform4##SUFFIX(GLuint program, GLint location, TYPE v0, TYPE v1, TYPE v2,    \
                                                TYPE v3) {                                                     \
    const TYPE v[] = {v0, v1, v2, v3};                                                                         \
    set_uniform("glProgramUniform4" #SUFFIX, &program, location, 1, 4, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform1##SUFFIX##v(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform1" #SUFFIX "v", &program, location, count, 1, BASE, value);                    \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform2##SUFFIX##v(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform2" #SUFFIX "v", &program, location, count, 2, BASE, value);                    \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform3##SUFFIX##v(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform3" #SUFFIX "v", &program, location, count, 3, BASE, value);                    \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform4##SUFFIX##v(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform4" #SUFFIX "v", &program, location, count, 4, BASE, value);                    \
  }

BISMUTH_UNIFORM_SCALARS(f, GLfloat, Base::Float)
BISMUTH_UNIFORM_SCALARS(i, GLint, Base::Int)
BISMUTH_UNIFORM_SCALARS(ui, GLuint, Base::Uint)
BISMUTH_UNIFORM_SCALARS(d, GLdouble, Base::Double)

GLAPI void APIENTRY glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
  get_uniform("glGetUniformfv", program, location, -1, params);
}
GLAPI void APIENTRY glGetUniformiv(GLuint program, GLint location, GLint* params) {
  get_uniform("glGetUniformiv", program, location, -1, params);
}
GLAPI void APIENTRY glGetUniformuiv(GLuint program, GLint location, GLuint* params) {
  get_uniform("glGetUniformuiv", program, location, -1, params);
}
GLAPI void APIENTRY glGetUniformdv(GLuint program, GLint location, GLdouble* params) {
  get_uniform("glGetUniformdv", program, location, -1, params);
}
GLAPI void APIENTRY glGetnUniformfv(GLuint program, GLint location, GLsizei bufSize, GLfloat* params) {
  get_uniform("glGetnUniformfv", program, location, bufSize, params);
}
GLAPI void APIENTRY glGetnUniformiv(GLuint program, GLint location, GLsizei bufSize, GLint* params) {
  get_uniform("glGetnUniformiv", program, location, bufSize, params);
}
GLAPI void APIENTRY glGetnUniformuiv(GLuint program, GLint location, GLsizei bufSize, GLuint* params) {
  get_uniform("glGetnUniformuiv", program, location, bufSize, params);
}
GLAPI void APIENTRY glGetnUniformdv(GLuint program, GLint location, GLsizei bufSize, GLdouble* params) {
  get_uniform("glGetnUniformdv", program, location, bufSize, params);
}

}  // extern "C"
