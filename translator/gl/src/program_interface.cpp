// The program interface queries (GL 4.6 §7.3.1) of a linked program: its uniforms (default-block uniforms, then
// atomic counters), uniform blocks, shader storage blocks and atomic-counter buffers; and the block bindings
// (glUniformBlockBinding, glShaderStorageBlockBinding). Interfaces of other stages are valid and empty.
#include <algorithm>
#include <optional>

#include "gl_internal.hpp"
#include "gl_objects.hpp"

namespace bismuth::gl {
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

// The GL_REFERENCED_BY_*_SHADER properties, valid for every interface: a compute program has only the compute
// stage. Nothing for any other property.
std::optional<GLint> referenced_by(GLenum prop) {
  switch (prop) {
    case GL_REFERENCED_BY_COMPUTE_SHADER: return 1;
    case GL_REFERENCED_BY_VERTEX_SHADER: case GL_REFERENCED_BY_FRAGMENT_SHADER:
    case GL_REFERENCED_BY_GEOMETRY_SHADER: case GL_REFERENCED_BY_TESS_CONTROL_SHADER:
    case GL_REFERENCED_BY_TESS_EVALUATION_SHADER:
      return 0;
    default: return std::nullopt;
  }
}

// Appends property `prop` of GL_UNIFORM resource `index` (named `name`) to `out`; false when GL_UNIFORM has no
// such property.
bool append_uniform_property(const Executable& exe, GLuint index, const std::string& name, GLenum prop,
                             std::vector<GLint>& out) {
  const auto& p = exe.program;
  const bool counter = index >= p.uniforms.size();
  const translator::GlUniform* u = counter ? nullptr : &p.uniforms[index];
  const translator::GlAtomicCounter* a = counter ? &p.atomic_counters[index - p.uniforms.size()] : nullptr;
  switch (prop) {
    case GL_NAME_LENGTH: out.push_back(static_cast<GLint>(name.size()) + 1); break;
    case GL_TYPE: out.push_back(static_cast<GLint>(u ? u->gl_type : GL_UNSIGNED_INT_ATOMIC_COUNTER)); break;
    case GL_ARRAY_SIZE: out.push_back(static_cast<GLint>(u ? u->array_size : a->array_size)); break;
    case GL_OFFSET: out.push_back(static_cast<GLint>(u ? u->offset : a->offset)); break;
    case GL_BLOCK_INDEX: out.push_back(-1); break;
    case GL_ARRAY_STRIDE: out.push_back(static_cast<GLint>(u ? u->array_stride : (a->array_size > 1 ? 4 : 0))); break;
    case GL_MATRIX_STRIDE: out.push_back(static_cast<GLint>(u ? u->matrix_stride : 0)); break;
    case GL_IS_ROW_MAJOR: out.push_back(0); break;
    case GL_LOCATION: {
      GLint loc = -1;
      if (u && u->location >= 0) {
        loc = u->location;
      } else if (u) {
        auto it = exe.location_by_name.find(u->name);
        if (it != exe.location_by_name.end()) loc = it->second;
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
    default: return false;
  }
  return true;
}

// Appends property `prop` of block resource `index` of interface `i` (uniform block, storage block or atomic-counter
// buffer) to `out`; false when the interface has no such property. An atomic-counter buffer's active variables are
// its counters, as GL_UNIFORM indices.
bool append_block_property(const translator::GlLinkedProgram& p, Interface i, GLuint index, GLenum prop,
                           std::vector<GLint>& out) {
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
      if (i == Interface::AtomicCounterBuffer) return false;
      out.push_back(static_cast<GLint>(b.name.size()) + 1);
      break;
    case GL_BUFFER_BINDING: out.push_back(static_cast<GLint>(b.gl_binding)); break;
    case GL_BUFFER_DATA_SIZE: out.push_back(static_cast<GLint>(b.min_size)); break;
    case GL_NUM_ACTIVE_VARIABLES: out.push_back(static_cast<GLint>(members.size())); break;
    case GL_ACTIVE_VARIABLES: out.insert(out.end(), members.begin(), members.end()); break;
    default: return false;
  }
  return true;
}

void rebind_block(Context* ctx, GLuint program, GLuint index, GLuint binding, bool storage, const char* func) {
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
  const uint32_t max =
      storage ? GlBindingMap::kMaxShaderStorageBufferBindings : GlBindingMap::kMaxUniformBufferBindings;
  if (binding >= max) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": binding is not below the binding-point count");
    return;
  }
  blocks[index].gl_binding = binding;
  p->executable->program.resources[blocks[index].vk_binding].gl_binding = binding;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

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
  std::vector<GLint> out;
  for (GLsizei k = 0; k < propCount; ++k) {
    const GLenum prop = props[k];
    if (const std::optional<GLint> referenced = referenced_by(prop)) {
      out.push_back(*referenced);
      continue;
    }
    bool valid;
    if (i == Interface::Uniform) {
      valid = append_uniform_property(*exe, index, names[index], prop, out);
    } else if (i == Interface::UniformBlock || i == Interface::StorageBlock || i == Interface::AtomicCounterBuffer) {
      valid = append_block_property(exe->program, i, index, prop, out);
    } else {
      ctx->set_error(GL_INVALID_OPERATION, "glGetProgramResourceiv: the interface has no resources");
      return;
    }
    if (!valid) {
      ctx->set_error(GL_INVALID_OPERATION, "glGetProgramResourceiv: property not valid for this interface");
      return;
    }
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
