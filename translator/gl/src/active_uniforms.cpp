// The older program queries (GL 4.6 §7.3.1.1 and §7.6): glGetActiveUniform, glGetActiveUniformsiv,
// glGetActiveUniformName, glGetUniformIndices, glGetUniformBlockIndex, glGetActiveUniformBlockiv,
// glGetActiveUniformBlockName and glGetActiveAtomicCounterBufferiv. GL 4.6 defines each through the program
// interface queries ("equivalent to GetProgramResourceiv with ..."), so they read the same resource lists
// (program_interface.hpp) and give the same answers.
#include <algorithm>

#include "gl_objects.hpp"
#include "program_interface.hpp"

namespace bismuth::gl {
namespace {

// GetActiveUniformsiv's pnames and the resource properties they stand for (GL 4.6 Table 7.6).
std::optional<GLenum> uniform_property(GLenum pname) {
  switch (pname) {
    case GL_UNIFORM_TYPE: return GL_TYPE;
    case GL_UNIFORM_SIZE: return GL_ARRAY_SIZE;
    case GL_UNIFORM_NAME_LENGTH: return GL_NAME_LENGTH;
    case GL_UNIFORM_BLOCK_INDEX: return GL_BLOCK_INDEX;
    case GL_UNIFORM_OFFSET: return GL_OFFSET;
    case GL_UNIFORM_ARRAY_STRIDE: return GL_ARRAY_STRIDE;
    case GL_UNIFORM_MATRIX_STRIDE: return GL_MATRIX_STRIDE;
    case GL_UNIFORM_IS_ROW_MAJOR: return GL_IS_ROW_MAJOR;
    case GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX: return GL_ATOMIC_COUNTER_BUFFER_INDEX;
    default: return std::nullopt;
  }
}

// GetActiveUniformBlockiv's and GetActiveAtomicCounterBufferiv's pnames (GL 4.6 Tables 7.7, 7.8).
std::optional<GLenum> block_property(GLenum pname, bool atomic) {
  switch (pname) {
    case GL_UNIFORM_BLOCK_BINDING: return atomic ? std::nullopt : std::optional<GLenum>(GL_BUFFER_BINDING);
    case GL_UNIFORM_BLOCK_DATA_SIZE: return atomic ? std::nullopt : std::optional<GLenum>(GL_BUFFER_DATA_SIZE);
    case GL_UNIFORM_BLOCK_NAME_LENGTH: return atomic ? std::nullopt : std::optional<GLenum>(GL_NAME_LENGTH);
    case GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_NUM_ACTIVE_VARIABLES);
    case GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_ACTIVE_VARIABLES);
    case GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_REFERENCED_BY_VERTEX_SHADER);
    case GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_REFERENCED_BY_TESS_CONTROL_SHADER);
    case GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_REFERENCED_BY_TESS_EVALUATION_SHADER);
    case GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_REFERENCED_BY_GEOMETRY_SHADER);
    case GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_REFERENCED_BY_FRAGMENT_SHADER);
    case GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER:
      return atomic ? std::nullopt : std::optional<GLenum>(GL_REFERENCED_BY_COMPUTE_SHADER);
    case GL_ATOMIC_COUNTER_BUFFER_BINDING: return atomic ? std::optional<GLenum>(GL_BUFFER_BINDING) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE: return atomic ? std::optional<GLenum>(GL_BUFFER_DATA_SIZE) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS:
      return atomic ? std::optional<GLenum>(GL_NUM_ACTIVE_VARIABLES) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES:
      return atomic ? std::optional<GLenum>(GL_ACTIVE_VARIABLES) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER:
      return atomic ? std::optional<GLenum>(GL_REFERENCED_BY_VERTEX_SHADER) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER:
      return atomic ? std::optional<GLenum>(GL_REFERENCED_BY_TESS_CONTROL_SHADER) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER:
      return atomic ? std::optional<GLenum>(GL_REFERENCED_BY_TESS_EVALUATION_SHADER) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER:
      return atomic ? std::optional<GLenum>(GL_REFERENCED_BY_GEOMETRY_SHADER) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER:
      return atomic ? std::optional<GLenum>(GL_REFERENCED_BY_FRAGMENT_SHADER) : std::nullopt;
    case GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER:
      return atomic ? std::optional<GLenum>(GL_REFERENCED_BY_COMPUTE_SHADER) : std::nullopt;
    default: return std::nullopt;
  }
}

// Resource `index` of `i` of a program, or null with INVALID_VALUE set when it is not active ("if index is greater
// than or equal to the number of active ..."; a program not linked has none).
const Executable* active_resource(Context* ctx, GLuint program, Interface i, GLuint index, const char* what,
                                  const char* func) {
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, func, ok);
  if (!ok) return nullptr;
  const size_t count = exe ? resource_names(*exe, i).size() : 0;
  if (index >= count) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(index) +
                                         " is not the index of an active " + what + " (the program has " +
                                         std::to_string(count) + ")");
    return nullptr;
  }
  return exe;
}

// Writes the block property `pname` of block `index` of interface `i`.
void get_block(Context* ctx, GLuint program, Interface i, GLuint index, GLenum pname, GLint* params, const char* func) {
  const bool atomic = i == Interface::AtomicCounterBuffer;
  const std::optional<GLenum> prop = block_property(pname, atomic);
  if (!prop) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname));
    return;
  }
  const Executable* exe =
      active_resource(ctx, program, i, index, atomic ? "atomic counter buffer" : "uniform block", func);
  if (!exe) return;
  std::vector<GLint> out;
  append_resource_property(*exe, i, index, *prop, out);
  if (params) std::copy(out.begin(), out.end(), params);
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, GLsizei* length, GLint* size,
                                       GLenum* type, GLchar* name) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetActiveUniform: bufSize is negative");
    return;
  }
  const Executable* exe = active_resource(ctx, program, Interface::Uniform, index, "uniform", "glGetActiveUniform");
  if (!exe) return;
  std::vector<GLint> props;
  append_resource_property(*exe, Interface::Uniform, index, GL_ARRAY_SIZE, props);
  append_resource_property(*exe, Interface::Uniform, index, GL_TYPE, props);
  if (size) *size = std::max(props[0], 1);  // an unsized array reports 1 here
  if (type) *type = static_cast<GLenum>(props[1]);
  copy_string(resource_names(*exe, Interface::Uniform)[index], bufSize, length, name);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetActiveUniformName(GLuint program, GLuint uniformIndex, GLsizei bufSize, GLsizei* length,
                                           GLchar* uniformName) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetActiveUniformName: bufSize is negative");
    return;
  }
  const Executable* exe =
      active_resource(ctx, program, Interface::Uniform, uniformIndex, "uniform", "glGetActiveUniformName");
  if (!exe) return;
  copy_string(resource_names(*exe, Interface::Uniform)[uniformIndex], bufSize, length, uniformName);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetActiveUniformsiv(GLuint program, GLsizei uniformCount, const GLuint* uniformIndices,
                                          GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetActiveUniformsiv", ok);
  if (!ok) return;
  if (uniformCount < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetActiveUniformsiv: uniformCount is negative");
    return;
  }
  const std::optional<GLenum> prop = uniform_property(pname);
  if (!prop) {
    ctx->set_error(GL_INVALID_ENUM, "glGetActiveUniformsiv: invalid pname " + hex(pname));
    return;
  }
  const size_t count = exe ? active_uniform_count(exe->program) : 0;
  // Every index is checked before anything is written (the command has no effect on error).
  for (GLsizei k = 0; k < uniformCount; ++k) {
    if (uniformIndices == nullptr || uniformIndices[k] >= count) {
      ctx->set_error(GL_INVALID_VALUE, "glGetActiveUniformsiv: uniformIndices[" + std::to_string(k) +
                                           "] is not the index of an active uniform");
      return;
    }
  }
  for (GLsizei k = 0; k < uniformCount; ++k) {
    std::vector<GLint> out;
    append_resource_property(*exe, Interface::Uniform, uniformIndices[k], *prop, out);
    if (params) params[k] = out.at(0);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetUniformIndices(GLuint program, GLsizei uniformCount, const GLchar* const* uniformNames,
                                        GLuint* uniformIndices) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetUniformIndices", ok);
  if (!ok) return;
  if (uniformCount < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetUniformIndices: uniformCount is negative");
    return;
  }
  const std::vector<std::string> names =
      exe ? resource_names(*exe, Interface::Uniform) : std::vector<std::string>{};
  for (GLsizei k = 0; k < uniformCount && uniformIndices; ++k) {
    const GLchar* n = uniformNames ? uniformNames[k] : nullptr;
    uniformIndices[k] = n ? resource_index(names, n).value_or(GL_INVALID_INDEX) : GL_INVALID_INDEX;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glGetUniformBlockIndex(GLuint program, const GLchar* uniformBlockName) {
  BISMUTH_GL_BEGIN(GL_INVALID_INDEX)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetUniformBlockIndex", ok);
  if (!exe || uniformBlockName == nullptr) return GL_INVALID_INDEX;
  return resource_index(resource_names(*exe, Interface::UniformBlock), uniformBlockName)
      .value_or(GL_INVALID_INDEX);
  BISMUTH_GL_END(GL_INVALID_INDEX)
}

GLAPI void APIENTRY glGetActiveUniformBlockiv(GLuint program, GLuint uniformBlockIndex, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  get_block(ctx, program, Interface::UniformBlock, uniformBlockIndex, pname, params, "glGetActiveUniformBlockiv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetActiveUniformBlockName(GLuint program, GLuint uniformBlockIndex, GLsizei bufSize,
                                                GLsizei* length, GLchar* uniformBlockName) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetActiveUniformBlockName: bufSize is negative");
    return;
  }
  const Executable* exe = active_resource(ctx, program, Interface::UniformBlock, uniformBlockIndex, "uniform block",
                                          "glGetActiveUniformBlockName");
  if (!exe) return;
  copy_string(exe->program.uniform_blocks[uniformBlockIndex].name, bufSize, length, uniformBlockName);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetActiveAtomicCounterBufferiv(GLuint program, GLuint bufferIndex, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  get_block(ctx, program, Interface::AtomicCounterBuffer, bufferIndex, pname, params,
            "glGetActiveAtomicCounterBufferiv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
