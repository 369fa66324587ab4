// Default-block uniforms (GL 4.6 §7.6): glGetUniformLocation, glUniform*, glUniformMatrix*, glProgramUniform*,
// glProgramUniformMatrix*, the ARB_gpu_shader_int64 forms (glUniform*i64ARB / ui64ARB), glGetUniform*.
// The shim owns each program's default uniform block: glUniform* writes a CPU copy (std140, as glslang lays it
// out: matrices column by column at their MatrixStride), and dispatch uploads it in stream order when it changed.
#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>

#include "gl_internal.hpp"
#include "gl_objects.hpp"
#include "parallel_compile.hpp"
#include "uniforms.hpp"

namespace bismuth::gl {
namespace {

enum class Base { Float, Int, Uint, Bool, Double, Int64, Uint64, Other };

struct TypeInfo {
  Base base = Base::Other;
  uint32_t components = 0;  // vectors: components; matrices: columns * rows
  uint32_t columns = 0;     // matrices only (0 for scalars and vectors)
  uint32_t rows = 0;
};

bool is_64(Base b) { return b == Base::Double || b == Base::Int64 || b == Base::Uint64; }
uint32_t scalar_size(Base b) { return is_64(b) ? 8 : 4; }

TypeInfo matrix(Base base, uint32_t columns, uint32_t rows) { return {base, columns * rows, columns, rows}; }

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
    case GL_INT64_ARB: return {Base::Int64, 1};
    case GL_INT64_VEC2_ARB: return {Base::Int64, 2};
    case GL_INT64_VEC3_ARB: return {Base::Int64, 3};
    case GL_INT64_VEC4_ARB: return {Base::Int64, 4};
    case GL_UNSIGNED_INT64_ARB: return {Base::Uint64, 1};
    case GL_UNSIGNED_INT64_VEC2_ARB: return {Base::Uint64, 2};
    case GL_UNSIGNED_INT64_VEC3_ARB: return {Base::Uint64, 3};
    case GL_UNSIGNED_INT64_VEC4_ARB: return {Base::Uint64, 4};
    case GL_FLOAT_MAT2: return matrix(Base::Float, 2, 2);
    case GL_FLOAT_MAT3: return matrix(Base::Float, 3, 3);
    case GL_FLOAT_MAT4: return matrix(Base::Float, 4, 4);
    case GL_FLOAT_MAT2x3: return matrix(Base::Float, 2, 3);
    case GL_FLOAT_MAT2x4: return matrix(Base::Float, 2, 4);
    case GL_FLOAT_MAT3x2: return matrix(Base::Float, 3, 2);
    case GL_FLOAT_MAT3x4: return matrix(Base::Float, 3, 4);
    case GL_FLOAT_MAT4x2: return matrix(Base::Float, 4, 2);
    case GL_FLOAT_MAT4x3: return matrix(Base::Float, 4, 3);
    case GL_DOUBLE_MAT2: return matrix(Base::Double, 2, 2);
    case GL_DOUBLE_MAT3: return matrix(Base::Double, 3, 3);
    case GL_DOUBLE_MAT4: return matrix(Base::Double, 4, 4);
    case GL_DOUBLE_MAT2x3: return matrix(Base::Double, 2, 3);
    case GL_DOUBLE_MAT2x4: return matrix(Base::Double, 2, 4);
    case GL_DOUBLE_MAT3x2: return matrix(Base::Double, 3, 2);
    case GL_DOUBLE_MAT3x4: return matrix(Base::Double, 3, 4);
    case GL_DOUBLE_MAT4x2: return matrix(Base::Double, 4, 2);
    case GL_DOUBLE_MAT4x3: return matrix(Base::Double, 4, 3);
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
    case Base::Int64: return "int64_t";
    case Base::Uint64: return "uint64_t";
    default: return "other";
  }
}

// The executable glUniform* (program == nullptr: the current program) or glProgramUniform* writes.
Executable* target(Context* ctx, const GLuint* program, const char* func) {
  if (program == nullptr) {
    settle_current_programs(ctx);  // a relink may still run (parallel_compile.hpp)
    // GL 4.6 §7.6.1: the current program, or without one the active program of the bound program pipeline.
    if (!ctx->program && ctx->pipeline && ctx->pipeline->active && ctx->pipeline->active->executable) {
      return ctx->pipeline->active->executable.get();
    }
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

// Std140 column stride of a matrix uniform: the SPIR-V's MatrixStride when the front found it, else the rule
// (columns rounded up to vec4; dvec4 for double matrices of 3 or 4 rows).
uint32_t matrix_stride(const translator::GlUniform& u, const TypeInfo& t) {
  if (u.matrix_stride != 0) return u.matrix_stride;
  return t.base == Base::Double && t.rows > 2 ? 32 : 16;
}

// The bytes one array element of `u` occupies between elements.
uint32_t element_stride(const translator::GlUniform& u, const TypeInfo& t) {
  if (u.array_stride != 0) return u.array_stride;
  if (t.columns != 0) return t.columns * matrix_stride(u, t);
  return t.components * scalar_size(t.base);
}

// Byte offset of component `c` (column-major index for matrices) inside one element.
uint32_t component_offset(const translator::GlUniform& u, const TypeInfo& t, uint32_t c) {
  if (t.columns == 0) return c * scalar_size(t.base);
  return (c / t.rows) * matrix_stride(u, t) + (c % t.rows) * scalar_size(t.base);
}

}  // namespace

uint64_t uniform_storage_end(const translator::GlUniform& u) {
  const TypeInfo t = type_info(u.gl_type);
  if (t.base == Base::Other) return u.offset;  // glUniform* and glGetUniform* refuse it: nothing is touched
  const uint64_t elements = std::max<uint32_t>(1, u.array_size);
  const uint64_t last_element = u.offset + (elements - 1) * element_stride(u, t);
  return last_element + component_offset(u, t, t.components - 1) + scalar_size(t.base);
}

namespace {

// glUniform1i(v) on a sampler or image (GL 4.6 §7.6.1): the texture or image unit of each element from `location`
// on. A unit out of range is INVALID_VALUE and changes nothing; elements past the end are ignored.
void set_opaque_units(Context* ctx, Executable& exe, Location loc, GLsizei count, const GLint* values,
                      const char* func) {
  const translator::GlUniform& u = exe.program.uniforms[loc.uniform];
  if (count > 1 && u.array_size <= 1) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": count > 1 for the non-array uniform \"" + u.name + "\"");
    return;
  }
  if (values == nullptr) return;
  const bool image =
      u.opaque->kind == translator::GlResourceKind::Image || u.opaque->kind == translator::GlResourceKind::ImageBuffer;
  // A sampler's value is a texture image unit below MAX_COMBINED_TEXTURE_IMAGE_UNITS (GL 4.6 §7.9), an image's an
  // image unit below MAX_IMAGE_UNITS (§8.26): Uniform1i{v} with any other value is INVALID_VALUE.
  const uint32_t units =
      image ? translator::GlTextureLimits::kImageUnits : translator::GlTextureLimits::kCombinedTextureImageUnits;
  const uint32_t elements =
      std::min<uint32_t>(static_cast<uint32_t>(count), std::max<uint32_t>(1, u.array_size) - loc.element);
  for (uint32_t e = 0; e < elements; ++e) {
    if (values[e] < 0 || static_cast<uint32_t>(values[e]) >= units) {
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(values[e]) + " is not a" +
                                           (image ? "n image unit (GL_MAX_IMAGE_UNITS is "
                                                  : " texture image unit (GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS is ") +
                                           std::to_string(units) + ")");
      return;
    }
  }
  for (uint32_t e = 0; e < elements; ++e) {
    const size_t resource = u.opaque->resource + loc.element + e;
    if (resource < exe.opaque_units.size()) exe.opaque_units[resource] = static_cast<uint32_t>(values[e]);
  }
}

// One glUniform*/glProgramUniform* call: `components` values of type `base` per element, `count` elements.
// Matrices (`columns` != 0): columns x rows values per element, row by row when `transpose`.
template <class T>
void set_uniform(const char* func, const GLuint* program, GLint location, GLsizei count, uint32_t components,
                 Base base, const T* values, uint32_t columns = 0, uint32_t rows = 0, bool transpose = false) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Executable* exe = target(ctx, program, func);
  if (exe == nullptr) return;
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": count is negative");
    return;
  }
  if (location == -1) return;  // silently ignored (GL 4.6 §7.6.1)
  if (location < -1 || static_cast<size_t>(location) >= exe->locations.size() ||
      exe->locations[static_cast<size_t>(location)].uniform == Location::kUnused) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": location " + std::to_string(location) +
                                             " is not a uniform location of the program");
    return;
  }
  const Location loc = exe->locations[static_cast<size_t>(location)];
  const translator::GlUniform& u = exe->program.uniforms[loc.uniform];
  if (u.opaque) {
    const bool image = u.opaque->kind == translator::GlResourceKind::Image ||
                       u.opaque->kind == translator::GlResourceKind::ImageBuffer;
    if (image && ctx->version.es) {
      // OpenGL ES 3.1/3.2 §7.6.1: an image uniform's unit is its binding layout qualifier; no Uniform* command loads
      // it (INVALID_OPERATION), unlike GL, where Uniform1i{v} does.
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the uniform \"" + u.name +
                                               "\" is an image: OpenGL ES sets its unit by its binding qualifier only");
      return;
    }
    if constexpr (std::is_same_v<T, GLint>) {
      if (base == Base::Int && components == 1 && columns == 0) {
        set_opaque_units(ctx, *exe, loc, count, values, func);
        return;
      }
    }
    // GL 4.6 §7.6.1: "Only the Uniform1i{v} commands can be used to load sampler values"; images likewise.
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the uniform \"" + u.name +
                                             "\" is a sampler or image: only glUniform1i(v) sets its unit");
    return;
  }
  const TypeInfo t = type_info(u.gl_type);
  // GL 4.6 §7.6.1: the size and type of the call must match the uniform (bool takes any of f, i, ui, i64, ui64;
  // a matrix only glUniformMatrix* of its own shape and type).
  const bool type_ok = t.base == base || (t.base == Base::Bool && base != Base::Double && columns == 0);
  if (t.base == Base::Other || t.components != components || t.columns != columns || t.rows != rows || !type_ok) {
    const std::string shape = columns != 0 ? std::to_string(columns) + "x" + std::to_string(rows) + " " +
                                                 base_name(base) + " matrix"
                                           : std::to_string(components) + "-component " + base_name(base) +
                                                 (base == Base::Double ? "" : " (or bool)");
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the uniform \"" + u.name + "\" is not a " + shape +
                                             " uniform");
    return;
  }
  if (count > 1 && u.array_size <= 1) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": count > 1 for the non-array uniform \"" + u.name + "\"");
    return;
  }
  if (values == nullptr) return;  // undefined in GL; never read through a null pointer
  const uint32_t elements = std::min<uint32_t>(static_cast<uint32_t>(count), std::max<uint32_t>(1, u.array_size) - loc.element);
  const uint32_t stride = element_stride(u, t);
  for (uint32_t e = 0; e < elements; ++e) {
    std::byte* dst = exe->uniform_data.data() + u.offset + (loc.element + e) * stride;
    for (uint32_t c = 0; c < components; ++c) {
      // Matrices: c is column-major (column c / rows, row c % rows); transposed input is row-major.
      const uint32_t source = transpose ? (c % rows) * columns + c / rows : c;
      const T v = values[e * components + source];
      std::byte* at = dst + component_offset(u, t, c);
      if (t.base == Base::Bool) {
        const uint32_t b = v != T(0) ? 1u : 0u;
        std::memcpy(at, &b, 4);
      } else {
        std::memcpy(at, &v, sizeof(T));
      }
    }
  }
  exe->uniform_dirty = true;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// `buf_size`: glGetnUniform*'s bufSize in bytes; none for glGetUniform*, whose caller promises room.
template <class T>
void get_uniform(const char* func, GLuint program, GLint location, std::optional<GLsizei> buf_size, T* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Executable* exe = target(ctx, &program, func);
  if (exe == nullptr) return;
  if (location < 0 || static_cast<size_t>(location) >= exe->locations.size() ||
      exe->locations[static_cast<size_t>(location)].uniform == Location::kUnused) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": location is not a uniform location of the program");
    return;
  }
  const Location loc = exe->locations[static_cast<size_t>(location)];
  const translator::GlUniform& u = exe->program.uniforms[loc.uniform];
  if (u.opaque) {
    // A sampler or image reads back its unit, one integer (GL 4.6 §7.13).
    if (buf_size && (*buf_size < 0 || static_cast<size_t>(*buf_size) < sizeof(T))) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": bufSize " + std::to_string(*buf_size) +
                                               " is smaller than the " + std::to_string(sizeof(T)) +
                                               " bytes of the uniform");
      return;
    }
    if (params != nullptr) params[0] = static_cast<T>(exe->opaque_unit(u.opaque->resource + loc.element));
    return;
  }
  const TypeInfo t = type_info(u.gl_type);
  if (t.base == Base::Other) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the uniform has a type this shim does not store");
    return;
  }
  // GL 4.6 §7.13: "An INVALID_OPERATION error is generated by GetnUniform* if the buffer size required to store
  // the requested data is greater than bufSize" — a negative bufSize included.
  if (buf_size && (*buf_size < 0 || static_cast<size_t>(*buf_size) < t.components * sizeof(T))) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": bufSize " + std::to_string(*buf_size) +
                                             " is smaller than the " + std::to_string(t.components * sizeof(T)) +
                                             " bytes of the uniform");
    return;
  }
  if (params == nullptr) return;
  const std::byte* src = exe->uniform_data.data() + u.offset + loc.element * element_stride(u, t);
  for (uint32_t c = 0; c < t.components; ++c) {
    const std::byte* at = src + component_offset(u, t, c);
    switch (t.base) {
      case Base::Float: { float v; std::memcpy(&v, at, 4); params[c] = static_cast<T>(v); break; }
      case Base::Int: { int32_t v; std::memcpy(&v, at, 4); params[c] = static_cast<T>(v); break; }
      case Base::Uint: case Base::Bool: { uint32_t v; std::memcpy(&v, at, 4); params[c] = static_cast<T>(v); break; }
      case Base::Double: { double v; std::memcpy(&v, at, 8); params[c] = static_cast<T>(v); break; }
      case Base::Int64: { int64_t v; std::memcpy(&v, at, 8); params[c] = static_cast<T>(v); break; }
      case Base::Uint64: { uint64_t v; std::memcpy(&v, at, 8); params[c] = static_cast<T>(v); break; }
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

#define BISMUTH_UNIFORM_SCALARS(SUFFIX, EXT, TYPE, BASE)                                                           \
  GLAPI void APIENTRY glUniform1##SUFFIX##EXT(GLint location, TYPE v0) {                                           \
    const TYPE v[] = {v0};                                                                                     \
    set_uniform("glUniform1" #SUFFIX #EXT, nullptr, location, 1, 1, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform2##SUFFIX##EXT(GLint location, TYPE v0, TYPE v1) {                                  \
    const TYPE v[] = {v0, v1};                                                                                 \
    set_uniform("glUniform2" #SUFFIX #EXT, nullptr, location, 1, 2, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform3##SUFFIX##EXT(GLint location, TYPE v0, TYPE v1, TYPE v2) {                         \
    const TYPE v[] = {v0, v1, v2};                                                                             \
    set_uniform("glUniform3" #SUFFIX #EXT, nullptr, location, 1, 3, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform4##SUFFIX##EXT(GLint location, TYPE v0, TYPE v1, TYPE v2, TYPE v3) {                \
    const TYPE v[] = {v0, v1, v2, v3};                                                                         \
    set_uniform("glUniform4" #SUFFIX #EXT, nullptr, location, 1, 4, BASE, v);                                        \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform1##SUFFIX##v##EXT(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform1" #SUFFIX "v" #EXT, nullptr, location, count, 1, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform2##SUFFIX##v##EXT(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform2" #SUFFIX "v" #EXT, nullptr, location, count, 2, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform3##SUFFIX##v##EXT(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform3" #SUFFIX "v" #EXT, nullptr, location, count, 3, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glUniform4##SUFFIX##v##EXT(GLint location, GLsizei count, const TYPE* value) {               \
    set_uniform("glUniform4" #SUFFIX "v" #EXT, nullptr, location, count, 4, BASE, value);                            \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform1##SUFFIX##EXT(GLuint program, GLint location, TYPE v0) {                    \
    const TYPE v[] = {v0};                                                                                     \
    set_uniform("glProgramUniform1" #SUFFIX #EXT, &program, location, 1, 1, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform2##SUFFIX##EXT(GLuint program, GLint location, TYPE v0, TYPE v1) {           \
    const TYPE v[] = {v0, v1};                                                                                 \
    set_uniform("glProgramUniform2" #SUFFIX #EXT, &program, location, 1, 2, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform3##SUFFIX##EXT(GLuint program, GLint location, TYPE v0, TYPE v1, TYPE v2) {  \
    const TYPE v[] = {v0, v1, v2};                                                                             \
    set_uniform("glProgramUniform3" #SUFFIX #EXT, &program, location, 1, 3, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform4##SUFFIX##EXT(GLuint program, GLint location, TYPE v0, TYPE v1, TYPE v2,    \
                                                TYPE v3) {                                                     \
    const TYPE v[] = {v0, v1, v2, v3};                                                                         \
    set_uniform("glProgramUniform4" #SUFFIX #EXT, &program, location, 1, 4, BASE, v);                                \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform1##SUFFIX##v##EXT(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform1" #SUFFIX "v" #EXT, &program, location, count, 1, BASE, value);                    \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform2##SUFFIX##v##EXT(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform2" #SUFFIX "v" #EXT, &program, location, count, 2, BASE, value);                    \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform3##SUFFIX##v##EXT(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform3" #SUFFIX "v" #EXT, &program, location, count, 3, BASE, value);                    \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniform4##SUFFIX##v##EXT(GLuint program, GLint location, GLsizei count,             \
                                                   const TYPE* value) {                                       \
    set_uniform("glProgramUniform4" #SUFFIX "v" #EXT, &program, location, count, 4, BASE, value);                    \
  }

BISMUTH_UNIFORM_SCALARS(f, , GLfloat, Base::Float)
BISMUTH_UNIFORM_SCALARS(i, , GLint, Base::Int)
BISMUTH_UNIFORM_SCALARS(ui, , GLuint, Base::Uint)
BISMUTH_UNIFORM_SCALARS(d, , GLdouble, Base::Double)
// GL_ARB_gpu_shader_int64 (advertised where the device has shaderInt64; on other devices no program can declare
// such a uniform, so these report INVALID_OPERATION for the type mismatch).
BISMUTH_UNIFORM_SCALARS(i64, ARB, GLint64, Base::Int64)
BISMUTH_UNIFORM_SCALARS(ui64, ARB, GLuint64, Base::Uint64)

#define BISMUTH_UNIFORM_MATRIX(SHAPE, COLUMNS, ROWS, SUFFIX, TYPE, BASE)                                      \
  GLAPI void APIENTRY glUniformMatrix##SHAPE##SUFFIX##v(GLint location, GLsizei count, GLboolean transpose,   \
                                                        const TYPE* value) {                                  \
    set_uniform("glUniformMatrix" #SHAPE #SUFFIX "v", nullptr, location, count, (COLUMNS) * (ROWS), BASE,     \
                value, COLUMNS, ROWS, transpose != GL_FALSE);                                                  \
  }                                                                                                            \
  GLAPI void APIENTRY glProgramUniformMatrix##SHAPE##SUFFIX##v(GLuint program, GLint location, GLsizei count, \
                                                               GLboolean transpose, const TYPE* value) {      \
    set_uniform("glProgramUniformMatrix" #SHAPE #SUFFIX "v", &program, location, count, (COLUMNS) * (ROWS),   \
                BASE, value, COLUMNS, ROWS, transpose != GL_FALSE);                                            \
  }
#define BISMUTH_UNIFORM_MATRICES(SUFFIX, TYPE, BASE)          \
  BISMUTH_UNIFORM_MATRIX(2, 2, 2, SUFFIX, TYPE, BASE)         \
  BISMUTH_UNIFORM_MATRIX(3, 3, 3, SUFFIX, TYPE, BASE)         \
  BISMUTH_UNIFORM_MATRIX(4, 4, 4, SUFFIX, TYPE, BASE)         \
  BISMUTH_UNIFORM_MATRIX(2x3, 2, 3, SUFFIX, TYPE, BASE)       \
  BISMUTH_UNIFORM_MATRIX(3x2, 3, 2, SUFFIX, TYPE, BASE)       \
  BISMUTH_UNIFORM_MATRIX(2x4, 2, 4, SUFFIX, TYPE, BASE)       \
  BISMUTH_UNIFORM_MATRIX(4x2, 4, 2, SUFFIX, TYPE, BASE)       \
  BISMUTH_UNIFORM_MATRIX(3x4, 3, 4, SUFFIX, TYPE, BASE)       \
  BISMUTH_UNIFORM_MATRIX(4x3, 4, 3, SUFFIX, TYPE, BASE)
BISMUTH_UNIFORM_MATRICES(f, GLfloat, Base::Float)
BISMUTH_UNIFORM_MATRICES(d, GLdouble, Base::Double)

GLAPI void APIENTRY glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
  get_uniform("glGetUniformfv", program, location, std::nullopt, params);
}
GLAPI void APIENTRY glGetUniformiv(GLuint program, GLint location, GLint* params) {
  get_uniform("glGetUniformiv", program, location, std::nullopt, params);
}
GLAPI void APIENTRY glGetUniformuiv(GLuint program, GLint location, GLuint* params) {
  get_uniform("glGetUniformuiv", program, location, std::nullopt, params);
}
GLAPI void APIENTRY glGetUniformdv(GLuint program, GLint location, GLdouble* params) {
  get_uniform("glGetUniformdv", program, location, std::nullopt, params);
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
GLAPI void APIENTRY glGetUniformi64vARB(GLuint program, GLint location, GLint64* params) {
  get_uniform("glGetUniformi64vARB", program, location, std::nullopt, params);
}
GLAPI void APIENTRY glGetUniformui64vARB(GLuint program, GLint location, GLuint64* params) {
  get_uniform("glGetUniformui64vARB", program, location, std::nullopt, params);
}
GLAPI void APIENTRY glGetnUniformi64vARB(GLuint program, GLint location, GLsizei bufSize, GLint64* params) {
  get_uniform("glGetnUniformi64vARB", program, location, bufSize, params);
}
GLAPI void APIENTRY glGetnUniformui64vARB(GLuint program, GLint location, GLsizei bufSize, GLuint64* params) {
  get_uniform("glGetnUniformui64vARB", program, location, bufSize, params);
}

// GL_NV_shader_buffer_load's pointer uniforms. The GLSL front has no pointer types (glslang does not implement the
// extension's GLSL part), so a GPU address reaches a GLSL program as a uint64_t: these set and read 64-bit unsigned
// scalar uniforms, with glUniform1ui64ARB's rules (the call must match the uniform's type and size).
GLAPI void APIENTRY glUniformui64NV(GLint location, GLuint64EXT value) {
  const GLuint64 v[] = {value};
  set_uniform("glUniformui64NV", nullptr, location, 1, 1, Base::Uint64, v);
}
GLAPI void APIENTRY glUniformui64vNV(GLint location, GLsizei count, const GLuint64EXT* value) {
  set_uniform("glUniformui64vNV", nullptr, location, count, 1, Base::Uint64, value);
}
GLAPI void APIENTRY glProgramUniformui64NV(GLuint program, GLint location, GLuint64EXT value) {
  const GLuint64 v[] = {value};
  set_uniform("glProgramUniformui64NV", &program, location, 1, 1, Base::Uint64, v);
}
GLAPI void APIENTRY glProgramUniformui64vNV(GLuint program, GLint location, GLsizei count, const GLuint64EXT* value) {
  set_uniform("glProgramUniformui64vNV", &program, location, count, 1, Base::Uint64, value);
}
GLAPI void APIENTRY glGetUniformui64vNV(GLuint program, GLint location, GLuint64EXT* params) {
  get_uniform("glGetUniformui64vNV", program, location, std::nullopt, params);
}

}  // extern "C"
