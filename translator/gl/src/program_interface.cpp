// The program interface queries (GL 4.6 §7.3.1) of a linked program: glGetProgramInterfaceiv and
// glGetProgramResource{Index,Name,iv,Location,LocationIndex} over its uniforms (default-block uniforms, uniform-block
// members, atomic counters), uniform blocks, shader storage blocks, buffer variables and atomic-counter buffers.
// Interfaces of other stages are valid and empty. The block bindings are block_bindings.cpp, the older
// glGetActiveUniform* family active_uniforms.cpp.
#include "program_interface.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "gl_objects.hpp"

namespace bismuth::gl {

Interface interface_of(GLenum e) {
  switch (e) {
    case GL_UNIFORM: return Interface::Uniform;
    case GL_UNIFORM_BLOCK: return Interface::UniformBlock;
    case GL_SHADER_STORAGE_BLOCK: return Interface::StorageBlock;
    case GL_BUFFER_VARIABLE: return Interface::BufferVariable;
    case GL_ATOMIC_COUNTER_BUFFER: return Interface::AtomicCounterBuffer;
    case GL_PROGRAM_INPUT: return Interface::ProgramInput;
    case GL_PROGRAM_OUTPUT: return Interface::ProgramOutput;
    case GL_TRANSFORM_FEEDBACK_VARYING: return Interface::TransformFeedbackVarying;
    case GL_TRANSFORM_FEEDBACK_BUFFER: return Interface::TransformFeedbackBuffer;
    case GL_COMPUTE_SUBROUTINE:
    case GL_COMPUTE_SUBROUTINE_UNIFORM:
    case GL_VERTEX_SUBROUTINE:
    case GL_FRAGMENT_SUBROUTINE:
    case GL_VERTEX_SUBROUTINE_UNIFORM:
    case GL_FRAGMENT_SUBROUTINE_UNIFORM:
    case GL_GEOMETRY_SUBROUTINE:
    case GL_GEOMETRY_SUBROUTINE_UNIFORM:
    case GL_TESS_CONTROL_SUBROUTINE:
    case GL_TESS_CONTROL_SUBROUTINE_UNIFORM:
    case GL_TESS_EVALUATION_SUBROUTINE:
    case GL_TESS_EVALUATION_SUBROUTINE_UNIFORM: return Interface::Empty;
    default: return Interface::Invalid;
  }
}

Interface interface_of(const Context* ctx, GLenum e) {
  // OpenGL ES 3.2 §7.3.1: "programInterface ... must be one of UNIFORM, UNIFORM_BLOCK, ATOMIC_COUNTER_BUFFER,
  // PROGRAM_INPUT, PROGRAM_OUTPUT, TRANSFORM_FEEDBACK_VARYING, BUFFER_VARIABLE, SHADER_STORAGE_BLOCK" (ES has no
  // subroutines and no transform feedback buffer interface); any other is INVALID_ENUM.
  if (ctx->version.es && e != GL_UNIFORM && e != GL_UNIFORM_BLOCK && e != GL_ATOMIC_COUNTER_BUFFER &&
      e != GL_PROGRAM_INPUT && e != GL_PROGRAM_OUTPUT && e != GL_TRANSFORM_FEEDBACK_VARYING &&
      e != GL_BUFFER_VARIABLE && e != GL_SHADER_STORAGE_BLOCK) {
    return Interface::Invalid;
  }
  return interface_of(e);
}

size_t active_uniform_count(const translator::GlLinkedProgram& p) {
  return p.uniforms.size() + p.uniform_block_members.size() + p.atomic_counters.size();
}

namespace {

// The variables of a program interface of a graphics program; empty for compute programs.
const std::vector<translator::GlStageVariable>* io_variables(const Executable& exe, Interface i) {
  if (!exe.graphics || (i != Interface::ProgramInput && i != Interface::ProgramOutput)) return nullptr;
  return i == Interface::ProgramInput ? &exe.graphics->inputs : &exe.graphics->outputs;
}

// An atomic counter as GL_UNIFORM names it: an array by its first element (GL 4.6 §7.3.1.1).
std::string atomic_counter_resource_name(const translator::GlAtomicCounter& a) {
  return a.array_size > 1 ? a.name + "[0]" : a.name;
}

}  // namespace

std::vector<std::string> resource_names(const Executable& exe, Interface i) {
  const translator::GlLinkedProgram& p = exe.program;
  std::vector<std::string> names;
  switch (i) {
    case Interface::Uniform:
      for (const auto& u : p.uniforms) names.push_back(u.name);
      for (const auto& m : p.uniform_block_members) names.push_back(m.name);
      for (const auto& a : p.atomic_counters) names.push_back(atomic_counter_resource_name(a));
      break;
    case Interface::UniformBlock:
      for (const auto& b : p.uniform_blocks) names.push_back(b.name);
      break;
    case Interface::StorageBlock:
      for (const auto& b : p.storage_blocks) names.push_back(b.name);
      break;
    case Interface::BufferVariable:
      for (const auto& v : p.buffer_variables) names.push_back(v.name);
      break;
    case Interface::AtomicCounterBuffer: names.resize(p.atomic_counter_buffers.size()); break;
    case Interface::ProgramInput:
    case Interface::ProgramOutput:
      if (const auto* variables = io_variables(exe, i)) {
        for (const auto& v : *variables) names.push_back(v.name);
      }
      break;
    case Interface::TransformFeedbackVarying:
      if (exe.graphics) {
        for (const auto& v : exe.graphics->transform_feedback) names.push_back(v.name);
      }
      break;
    case Interface::TransformFeedbackBuffer:
      if (exe.graphics) names.resize(exe.graphics->transform_feedback_buffers.size());
      break;
    default: break;
  }
  return names;
}

GLint io_location(const Executable& exe, Interface i, GLuint index) {
  const auto* variables = io_variables(exe, i);
  if (variables == nullptr || index >= variables->size()) return -1;
  const translator::GlStageVariable& v = (*variables)[index];
  if (v.location >= 0) return v.location;
  if (v.name.starts_with("gl_")) return -1;
  const translator::ShaderStage stage =
      i == Interface::ProgramInput ? exe.graphics->stages.front() : exe.graphics->stages.back();
  const bool assigned = (i == Interface::ProgramInput && stage == translator::ShaderStage::Vertex) ||
                        (i == Interface::ProgramOutput && stage == translator::ShaderStage::Fragment);
  if (!assigned) return -1;
  // The lowest locations the declared ones leave free, one per array element, in declaration order.
  std::vector<bool> used;
  auto mark = [&](int32_t first, uint32_t count) {
    if (used.size() < static_cast<size_t>(first) + count) used.resize(static_cast<size_t>(first) + count, false);
    for (uint32_t k = 0; k < count; ++k) used[static_cast<size_t>(first) + k] = true;
  };
  for (const auto& other : *variables) {
    if (other.location >= 0) mark(other.location, std::max<uint32_t>(1, other.array_size));
  }
  int32_t next = 0;
  for (GLuint k = 0; k <= index; ++k) {
    const translator::GlStageVariable& w = (*variables)[k];
    if (w.location >= 0 || w.name.starts_with("gl_")) continue;
    const uint32_t count = std::max<uint32_t>(1, w.array_size);
    auto free_run = [&](int32_t first) {
      for (uint32_t c = 0; c < count; ++c) {
        const size_t l = static_cast<size_t>(first) + c;
        if (l < used.size() && used[l]) return false;
      }
      return true;
    };
    while (!free_run(next)) ++next;
    if (k == index) return next;
    mark(next, count);
    next += static_cast<int32_t>(count);
  }
  return -1;
}

GLint active_uniform_max_length(const translator::GlLinkedProgram& p) {
  GLint m = 0;
  auto name_length = [&](const std::string& n) { m = std::max(m, static_cast<GLint>(n.size()) + 1); };
  for (const auto& u : p.uniforms) name_length(u.name);
  for (const auto& b : p.uniform_block_members) name_length(b.name);
  for (const auto& a : p.atomic_counters) name_length(atomic_counter_resource_name(a));
  return m;
}

std::optional<GLuint> resource_index(const std::vector<std::string>& names, const std::string& wanted) {
  for (size_t k = 0; k < names.size(); ++k) {
    if (names[k] == wanted) return static_cast<GLuint>(k);
    // "a" names the array "a[0]"; "a[1]" matches nothing (GL 4.6 §7.3.1.1).
    if (names[k].size() == wanted.size() + 3 && names[k].ends_with("[0]") && names[k].starts_with(wanted)) {
      return static_cast<GLuint>(k);
    }
  }
  return std::nullopt;
}

const Executable* linked_executable(Context* ctx, GLuint program, const char* func) {
  auto p = program_object(ctx, program, func);
  if (!p) return nullptr;
  if (!p->link_status || !p->executable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the program is not linked");
    return nullptr;
  }
  return p->executable.get();
}

const Executable* executable_if_linked(Context* ctx, GLuint program, const char* func, bool& ok) {
  auto p = program_object(ctx, program, func);
  ok = p != nullptr;
  return p && p->link_status ? p->executable.get() : nullptr;
}

namespace {

// The stage bits (translator::GlUniform::stages) of resource `index` of `i`, one of the buffer-backed interfaces.
uint32_t resource_stages(const translator::GlLinkedProgram& p, Interface i, GLuint index) {
  switch (i) {
    case Interface::Uniform:
      if (index < p.uniforms.size()) return p.uniforms[index].stages;
      index -= static_cast<GLuint>(p.uniforms.size());
      if (index < p.uniform_block_members.size()) return p.uniform_block_members[index].stages;
      return p.atomic_counters[index - p.uniform_block_members.size()].stages;
    case Interface::UniformBlock: return p.uniform_blocks[index].stages;
    case Interface::StorageBlock: return p.storage_blocks[index].stages;
    case Interface::BufferVariable: return p.buffer_variables[index].stages;
    case Interface::AtomicCounterBuffer: return p.atomic_counter_buffers[index].stages;
    default: return 0;
  }
}

// The GL_REFERENCED_BY_*_SHADER properties, valid for every interface with resources: a compute program has only
// the compute stage; a program of graphics stages has the stages whose code uses the resource (glslang's
// reflection; GL 4.6 §7.3.1.1: "whether the active resource is referenced by the vertex ... shader").
std::optional<GLint> referenced_by(const Executable& exe, Interface i, GLuint index, GLenum prop) {
  std::optional<translator::ShaderStage> stage;
  switch (prop) {
    case GL_REFERENCED_BY_COMPUTE_SHADER: return exe.graphics ? 0 : 1;
    case GL_REFERENCED_BY_VERTEX_SHADER: stage = translator::ShaderStage::Vertex; break;
    case GL_REFERENCED_BY_TESS_CONTROL_SHADER: stage = translator::ShaderStage::TessControl; break;
    case GL_REFERENCED_BY_TESS_EVALUATION_SHADER: stage = translator::ShaderStage::TessEvaluation; break;
    case GL_REFERENCED_BY_GEOMETRY_SHADER: stage = translator::ShaderStage::Geometry; break;
    case GL_REFERENCED_BY_FRAGMENT_SHADER: stage = translator::ShaderStage::Fragment; break;
    default: return std::nullopt;
  }
  if (!exe.graphics) return 0;
  return (resource_stages(exe.program, i, index) >> static_cast<uint32_t>(*stage)) & 1u;
}

// Properties of a variable kept in a buffer (a uniform-block member or a buffer variable), Table 7.2.
bool append_member_property(const translator::GlBlockMember& m, bool buffer_variable, GLenum prop,
                            std::vector<GLint>& out) {
  switch (prop) {
    case GL_TYPE: out.push_back(static_cast<GLint>(m.gl_type)); break;
    case GL_ARRAY_SIZE: out.push_back(static_cast<GLint>(m.array_size)); break;
    case GL_OFFSET: out.push_back(static_cast<GLint>(m.offset)); break;
    case GL_BLOCK_INDEX: out.push_back(static_cast<GLint>(m.block)); break;
    case GL_ARRAY_STRIDE: out.push_back(static_cast<GLint>(m.array_stride)); break;
    case GL_MATRIX_STRIDE: out.push_back(static_cast<GLint>(m.matrix_stride)); break;
    case GL_IS_ROW_MAJOR: out.push_back(m.row_major ? 1 : 0); break;
    case GL_TOP_LEVEL_ARRAY_SIZE:
      if (!buffer_variable) return false;
      out.push_back(static_cast<GLint>(m.top_level_array_size));
      break;
    case GL_TOP_LEVEL_ARRAY_STRIDE:
      if (!buffer_variable) return false;
      out.push_back(static_cast<GLint>(m.top_level_array_stride));
      break;
    // Uniform-block members have no location and are no atomic counters.
    case GL_LOCATION:
    case GL_ATOMIC_COUNTER_BUFFER_INDEX:
      if (buffer_variable) return false;
      out.push_back(-1);
      break;
    default: return false;
  }
  return true;
}

// GL_UNIFORM resource `index`: a default-block uniform, a uniform-block member or an atomic counter.
bool append_uniform_property(const Executable& exe, GLuint index, GLenum prop, std::vector<GLint>& out) {
  const auto& p = exe.program;
  if (index >= p.uniforms.size() && index < p.uniforms.size() + p.uniform_block_members.size()) {
    return append_member_property(p.uniform_block_members[index - p.uniforms.size()], false, prop, out);
  }
  const bool counter = index >= p.uniforms.size();
  const translator::GlUniform* u = counter ? nullptr : &p.uniforms[index];
  const translator::GlAtomicCounter* a =
      counter ? &p.atomic_counters[index - p.uniforms.size() - p.uniform_block_members.size()] : nullptr;
  switch (prop) {
    case GL_TYPE: out.push_back(static_cast<GLint>(u ? u->gl_type : GL_UNSIGNED_INT_ATOMIC_COUNTER)); break;
    case GL_ARRAY_SIZE: out.push_back(static_cast<GLint>(u ? u->array_size : a->array_size)); break;
    // "For active variables not backed by a buffer object, an offset of -1 is written" (default-block uniforms
    // live in no buffer the application sees); the same for the strides. Atomic counters are in buffers.
    case GL_OFFSET: out.push_back(u ? -1 : static_cast<GLint>(a->offset)); break;
    case GL_ARRAY_STRIDE: out.push_back(u ? -1 : (a->array_size > 1 ? 4 : 0)); break;
    case GL_MATRIX_STRIDE: out.push_back(u ? -1 : 0); break;
    case GL_BLOCK_INDEX: out.push_back(-1); break;
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
      for (size_t b = 0; a && b < p.atomic_counter_buffers.size(); ++b) {
        if (p.atomic_counter_buffers[b].gl_binding == a->gl_binding) buffer = static_cast<GLint>(b);
      }
      out.push_back(buffer);
      break;
    }
    default: return false;
  }
  return true;
}

// The active variables of block `index` of `i`, as indices into GL_UNIFORM (uniform blocks, atomic-counter
// buffers) or GL_BUFFER_VARIABLE (storage blocks).
std::vector<GLint> block_members(const translator::GlLinkedProgram& p, Interface i, GLuint index) {
  std::vector<GLint> members;
  if (i == Interface::AtomicCounterBuffer) {
    const size_t first = p.uniforms.size() + p.uniform_block_members.size();
    for (size_t c = 0; c < p.atomic_counters.size(); ++c) {
      if (p.atomic_counters[c].gl_binding == p.atomic_counter_buffers[index].gl_binding) {
        members.push_back(static_cast<GLint>(first + c));
      }
    }
  } else if (i == Interface::UniformBlock) {
    for (size_t m = 0; m < p.uniform_block_members.size(); ++m) {
      if (p.uniform_block_members[m].block == index) members.push_back(static_cast<GLint>(p.uniforms.size() + m));
    }
  } else {
    for (size_t v = 0; v < p.buffer_variables.size(); ++v) {
      if (p.buffer_variables[v].block == index) members.push_back(static_cast<GLint>(v));
    }
  }
  return members;
}

// Uniform blocks, storage blocks and atomic-counter buffers.
bool append_block_property(const translator::GlLinkedProgram& p, Interface i, GLuint index, GLenum prop,
                           std::vector<GLint>& out) {
  const translator::GlBufferBinding& b = i == Interface::UniformBlock   ? p.uniform_blocks[index]
                                         : i == Interface::StorageBlock ? p.storage_blocks[index]
                                                                        : p.atomic_counter_buffers[index];
  switch (prop) {
    case GL_BUFFER_BINDING: out.push_back(static_cast<GLint>(b.gl_binding)); break;
    case GL_BUFFER_DATA_SIZE: out.push_back(static_cast<GLint>(b.min_size)); break;
    case GL_NUM_ACTIVE_VARIABLES: out.push_back(static_cast<GLint>(block_members(p, i, index).size())); break;
    case GL_ACTIVE_VARIABLES: {
      const std::vector<GLint> members = block_members(p, i, index);
      out.insert(out.end(), members.begin(), members.end());
      break;
    }
    default: return false;
  }
  return true;
}

// A program input or output (Table 7.2): of the first stage's inputs or the last stage's outputs.
bool append_io_property(const Executable& exe, Interface i, GLuint index, GLenum prop, std::vector<GLint>& out) {
  const translator::GlStageVariable& v =
      (i == Interface::ProgramInput ? exe.graphics->inputs : exe.graphics->outputs)[index];
  const translator::ShaderStage stage =
      i == Interface::ProgramInput ? exe.graphics->stages.front() : exe.graphics->stages.back();
  auto stage_of = [](GLenum p) -> std::optional<translator::ShaderStage> {
    switch (p) {
      case GL_REFERENCED_BY_VERTEX_SHADER: return translator::ShaderStage::Vertex;
      case GL_REFERENCED_BY_TESS_CONTROL_SHADER: return translator::ShaderStage::TessControl;
      case GL_REFERENCED_BY_TESS_EVALUATION_SHADER: return translator::ShaderStage::TessEvaluation;
      case GL_REFERENCED_BY_GEOMETRY_SHADER: return translator::ShaderStage::Geometry;
      case GL_REFERENCED_BY_FRAGMENT_SHADER: return translator::ShaderStage::Fragment;
      default: return std::nullopt;
    }
  };
  if (prop == GL_REFERENCED_BY_COMPUTE_SHADER) {
    out.push_back(0);
    return true;
  }
  if (auto s = stage_of(prop)) {
    out.push_back(*s == stage ? 1 : 0);
    return true;
  }
  switch (prop) {
    case GL_TYPE: out.push_back(static_cast<GLint>(v.gl_type)); break;
    case GL_ARRAY_SIZE: out.push_back(static_cast<GLint>(v.array_size)); break;
    case GL_LOCATION: out.push_back(io_location(exe, i, index)); break;
    case GL_IS_PER_PATCH: out.push_back(v.patch ? 1 : 0); break;
    case GL_LOCATION_COMPONENT: out.push_back(0); break;
    case GL_LOCATION_INDEX:
      // "For the property LOCATION_INDEX, ... the fragment color index ...; -1 for variables without a location"
      if (i != Interface::ProgramOutput) return false;
      out.push_back(stage == translator::ShaderStage::Fragment && io_location(exe, i, index) >= 0 ? 0 : -1);
      break;
    default: return false;
  }
  return true;
}

// A transform feedback varying (Table 7.2: NAME_LENGTH, TYPE, ARRAY_SIZE, OFFSET, TRANSFORM_FEEDBACK_BUFFER_INDEX)
// and a transform feedback buffer (BUFFER_BINDING, NUM_ACTIVE_VARIABLES, ACTIVE_VARIABLES,
// TRANSFORM_FEEDBACK_BUFFER_STRIDE), as the link placed them (GL 4.6 §11.1.2.1: the names of
// glTransformFeedbackVaryings one after another, or each in a buffer of its own; or the shader's xfb_* qualifiers).
bool append_transform_feedback_property(const Executable& exe, Interface i, GLuint index, GLenum prop,
                                        std::vector<GLint>& out) {
  if (i == Interface::TransformFeedbackBuffer) {
    const translator::GlTransformFeedbackBuffer& b = exe.graphics->transform_feedback_buffers[index];
    switch (prop) {
      case GL_BUFFER_BINDING: out.push_back(static_cast<GLint>(b.binding)); break;
      case GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE: out.push_back(static_cast<GLint>(b.stride)); break;
      case GL_NUM_ACTIVE_VARIABLES: out.push_back(static_cast<GLint>(b.varyings.size())); break;
      case GL_ACTIVE_VARIABLES:
        for (uint32_t v : b.varyings) out.push_back(static_cast<GLint>(v));
        break;
      default: return false;
    }
    return true;
  }
  const translator::GlTransformFeedbackVarying& v = exe.graphics->transform_feedback[index];
  switch (prop) {
    case GL_NAME_LENGTH: out.push_back(static_cast<GLint>(v.name.size()) + 1); break;
    case GL_TYPE: out.push_back(static_cast<GLint>(v.gl_type)); break;
    case GL_ARRAY_SIZE: out.push_back(static_cast<GLint>(v.array_size)); break;
    case GL_OFFSET: out.push_back(static_cast<GLint>(v.offset)); break;
    case GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: out.push_back(static_cast<GLint>(v.buffer)); break;
    default: return false;
  }
  return true;
}

}  // namespace

bool append_resource_property(const Executable& exe, Interface i, GLuint index, GLenum prop, std::vector<GLint>& out) {
  if (i == Interface::TransformFeedbackVarying || i == Interface::TransformFeedbackBuffer) {
    return append_transform_feedback_property(exe, i, index, prop, out);
  }
  if (i == Interface::ProgramInput || i == Interface::ProgramOutput) {
    if (prop == GL_NAME_LENGTH) {
      out.push_back(static_cast<GLint>(resource_names(exe, i)[index].size()) + 1);
      return true;
    }
    return append_io_property(exe, i, index, prop, out);
  }
  if (const std::optional<GLint> referenced = referenced_by(exe, i, index, prop)) {
    out.push_back(*referenced);
    return true;
  }
  if (prop == GL_NAME_LENGTH) {
    if (i == Interface::AtomicCounterBuffer) return false;
    out.push_back(static_cast<GLint>(resource_names(exe, i)[index].size()) + 1);
    return true;
  }
  switch (i) {
    case Interface::Uniform: return append_uniform_property(exe, index, prop, out);
    case Interface::BufferVariable: return append_member_property(exe.program.buffer_variables[index], true, prop, out);
    case Interface::UniformBlock:
    case Interface::StorageBlock:
    case Interface::AtomicCounterBuffer: return append_block_property(exe.program, i, index, prop, out);
    default: return false;
  }
}

}  // namespace bismuth::gl

namespace bismuth::gl {
namespace {

// GetProgramResourceLocation's matching for inputs and outputs (GL 4.6 §7.3.1.1): the variable's name, its base
// name for "a[0]", or an element "a[k]" of an active array (its location plus k).
GLint io_name_location(const Executable& exe, Interface i, const std::string& name) {
  const std::vector<std::string> names = resource_names(exe, i);
  if (auto index = resource_index(names, name)) return io_location(exe, i, *index);
  const size_t bracket = name.rfind('[');
  if (bracket == std::string::npos || !name.ends_with("]")) return -1;
  const std::string base = name.substr(0, bracket);
  uint32_t element = 0;
  auto [ptr, ec] = std::from_chars(name.data() + bracket + 1, name.data() + name.size() - 1, element);
  if (ec != std::errc() || ptr != name.data() + name.size() - 1) return -1;
  auto index = resource_index(names, base);
  if (!index) return -1;
  const auto& variables = i == Interface::ProgramInput ? exe.graphics->inputs : exe.graphics->outputs;
  if (element >= variables[*index].array_size) return -1;
  const GLint first = io_location(exe, i, *index);
  return first < 0 ? -1 : first + static_cast<GLint>(element);
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGetProgramInterfaceiv(GLuint program, GLenum programInterface, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetProgramInterfaceiv", ok);
  if (!ok) return;
  const Interface i = interface_of(ctx, programInterface);
  if (i == Interface::Invalid) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramInterfaceiv: invalid programInterface");
    return;
  }
  std::vector<std::string> names;
  if (exe) names = resource_names(*exe, i);
  GLint v = 0;
  switch (pname) {
    case GL_ACTIVE_RESOURCES: v = static_cast<GLint>(names.size()); break;
    case GL_MAX_NAME_LENGTH:
      if (i == Interface::AtomicCounterBuffer || programInterface == GL_TRANSFORM_FEEDBACK_BUFFER) {
        ctx->set_error(GL_INVALID_OPERATION, "glGetProgramInterfaceiv: the interface has no names");
        return;
      }
      for (const auto& n : names) v = std::max(v, static_cast<GLint>(n.size()) + 1);
      break;
    case GL_MAX_NUM_ACTIVE_VARIABLES:
      if (i != Interface::UniformBlock && i != Interface::StorageBlock && i != Interface::AtomicCounterBuffer &&
          programInterface != GL_TRANSFORM_FEEDBACK_BUFFER) {
        ctx->set_error(GL_INVALID_OPERATION,
                       "glGetProgramInterfaceiv: GL_MAX_NUM_ACTIVE_VARIABLES needs a block or buffer interface");
        return;
      }
      for (GLuint k = 0; exe && k < names.size(); ++k) {
        std::vector<GLint> n;
        append_resource_property(*exe, i, k, GL_NUM_ACTIVE_VARIABLES, n);
        v = std::max(v, n.at(0));
      }
      break;
    case GL_MAX_NUM_COMPATIBLE_SUBROUTINES:
      // Only the subroutine-uniform interfaces have it (GL 4.6 §7.3.1); a compute program has none (0).
      if (programInterface != GL_COMPUTE_SUBROUTINE_UNIFORM && programInterface != GL_VERTEX_SUBROUTINE_UNIFORM &&
          programInterface != GL_FRAGMENT_SUBROUTINE_UNIFORM && programInterface != GL_GEOMETRY_SUBROUTINE_UNIFORM &&
          programInterface != GL_TESS_CONTROL_SUBROUTINE_UNIFORM &&
          programInterface != GL_TESS_EVALUATION_SUBROUTINE_UNIFORM) {
        ctx->set_error(
            GL_INVALID_OPERATION,
            "glGetProgramInterfaceiv: GL_MAX_NUM_COMPATIBLE_SUBROUTINES needs a subroutine-uniform interface");
        return;
      }
      break;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetProgramInterfaceiv: invalid pname"); return;
  }
  if (params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glGetProgramResourceIndex(GLuint program, GLenum programInterface, const GLchar* name) {
  BISMUTH_GL_BEGIN(GL_INVALID_INDEX)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetProgramResourceIndex", ok);
  if (!ok) return GL_INVALID_INDEX;
  const Interface i = interface_of(ctx, programInterface);
  if (i == Interface::Invalid || i == Interface::AtomicCounterBuffer ||
      programInterface == GL_TRANSFORM_FEEDBACK_BUFFER) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceIndex: invalid programInterface");
    return GL_INVALID_INDEX;
  }
  if (!exe || name == nullptr) return GL_INVALID_INDEX;
  return resource_index(resource_names(*exe, i), name).value_or(GL_INVALID_INDEX);
  BISMUTH_GL_END(GL_INVALID_INDEX)
}

GLAPI void APIENTRY glGetProgramResourceName(GLuint program, GLenum programInterface, GLuint index, GLsizei bufSize,
                                             GLsizei* length, GLchar* name) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetProgramResourceName", ok);
  if (!ok) return;
  const Interface i = interface_of(ctx, programInterface);
  if (i == Interface::Invalid || i == Interface::AtomicCounterBuffer ||
      programInterface == GL_TRANSFORM_FEEDBACK_BUFFER) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceName: invalid programInterface");
    return;
  }
  const auto names = exe ? resource_names(*exe, i) : std::vector<std::string>{};
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
  const bool valid =
      programInterface == GL_UNIFORM || programInterface == GL_PROGRAM_INPUT || programInterface == GL_PROGRAM_OUTPUT ||
      programInterface == GL_TRANSFORM_FEEDBACK_BUFFER || programInterface == GL_VERTEX_SUBROUTINE_UNIFORM ||
      programInterface == GL_TESS_CONTROL_SUBROUTINE_UNIFORM ||
      programInterface == GL_TESS_EVALUATION_SUBROUTINE_UNIFORM || programInterface == GL_GEOMETRY_SUBROUTINE_UNIFORM ||
      programInterface == GL_FRAGMENT_SUBROUTINE_UNIFORM || programInterface == GL_COMPUTE_SUBROUTINE_UNIFORM;
  if (!valid || interface_of(ctx, programInterface) == Interface::Invalid) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceLocation: invalid programInterface");
    return -1;
  }
  const Executable* exe = linked_executable(ctx, program, "glGetProgramResourceLocation");
  if (!exe || name == nullptr) return -1;
  if (programInterface == GL_PROGRAM_INPUT || programInterface == GL_PROGRAM_OUTPUT) {
    return io_name_location(*exe, interface_of(programInterface), name);
  }
  if (programInterface != GL_UNIFORM) return -1;
  auto it = exe->location_by_name.find(name);
  return it == exe->location_by_name.end() ? -1 : it->second;
  BISMUTH_GL_END(-1)
}

GLAPI GLint APIENTRY glGetProgramResourceLocationIndex(GLuint program, GLenum programInterface, const GLchar* name) {
  BISMUTH_GL_BEGIN(-1)
  if (programInterface != GL_PROGRAM_OUTPUT) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceLocationIndex: programInterface must be GL_PROGRAM_OUTPUT");
    return -1;
  }
  const Executable* exe = linked_executable(ctx, program, "glGetProgramResourceLocationIndex");
  if (!exe || name == nullptr || !exe->graphics || exe->graphics->stages.back() != translator::ShaderStage::Fragment) {
    return -1;  // only fragment outputs have a location index
  }
  // Without dual-source blending every fragment output with a location has index 0.
  return io_name_location(*exe, Interface::ProgramOutput, name) >= 0 ? 0 : -1;
  BISMUTH_GL_END(-1)
}

GLAPI void APIENTRY glGetProgramResourceiv(GLuint program, GLenum programInterface, GLuint index, GLsizei propCount,
                                           const GLenum* props, GLsizei count, GLsizei* length, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  const Executable* exe = executable_if_linked(ctx, program, "glGetProgramResourceiv", ok);
  if (!ok) return;
  const Interface i = interface_of(ctx, programInterface);
  if (i == Interface::Invalid) {
    ctx->set_error(GL_INVALID_ENUM, "glGetProgramResourceiv: invalid programInterface");
    return;
  }
  const auto names = exe ? resource_names(*exe, i) : std::vector<std::string>{};
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
    // OpenGL ES 3.2 Table 7.2 has no LOCATION_INDEX (EXT_blend_func_extended's, not exposed), LOCATION_COMPONENT or
    // subroutine properties: "An INVALID_ENUM error is generated if any value in props is not one of the properties
    // described above".
    if (ctx->version.es && (props[k] == GL_LOCATION_INDEX || props[k] == GL_LOCATION_COMPONENT ||
                            props[k] == GL_NUM_COMPATIBLE_SUBROUTINES || props[k] == GL_COMPATIBLE_SUBROUTINES)) {
      ctx->set_error(GL_INVALID_ENUM,
                     "glGetProgramResourceiv: property " + hex(props[k]) + " is not an OpenGL ES property");
      return;
    }
    if (!append_resource_property(*exe, i, index, props[k], out)) {
      ctx->set_error(GL_INVALID_OPERATION,
                     "glGetProgramResourceiv: property " + hex(props[k]) + " is not valid for this interface");
      return;
    }
  }
  const GLsizei n = std::min<GLsizei>(count, static_cast<GLsizei>(out.size()));
  if (params) std::copy(out.begin(), out.begin() + n, params);
  if (length) *length = n;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
