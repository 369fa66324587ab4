// Buffer objects (GL 4.6 §6): names, targets, indexed binding points and parameter queries, and the helpers the
// other buffer files share (buffers.hpp). Data stores and their contents are buffer_storage.cpp, copies and clears
// buffer_copy_clear.cpp, mapping buffer_mapping.cpp. Every store is a backend::Buffer; writes and reads go through
// the context's CommandStream in stream order.
#include <algorithm>
#include <cstdio>

#include "buffers.hpp"
#include "gl_ranges.hpp"

namespace bismuth::gl {

std::shared_ptr<BufferObject>* Context::target_slot(GLenum target) {
  // OpenGL ES 3.1 / 3.2 table 6.1: no QUERY_BUFFER (desktop GL's ARB_query_buffer_object); TEXTURE_BUFFER from ES
  // 3.2 on.
  if (version.es && (target == GL_QUERY_BUFFER || (target == GL_TEXTURE_BUFFER && version.minor < 2))) return nullptr;
  switch (target) {
    case GL_ARRAY_BUFFER: return &array_buffer;
    case GL_COPY_READ_BUFFER: return &copy_read;
    case GL_COPY_WRITE_BUFFER: return &copy_write;
    case GL_DISPATCH_INDIRECT_BUFFER: return &dispatch_indirect;
    case GL_SHADER_STORAGE_BUFFER: return &ssbo_generic;
    case GL_UNIFORM_BUFFER: return &ubo_generic;
    case GL_ATOMIC_COUNTER_BUFFER: return &acb_generic;
    case GL_PIXEL_PACK_BUFFER: return &pixel_pack;
    case GL_PIXEL_UNPACK_BUFFER: return &pixel_unpack;
    case GL_QUERY_BUFFER: return &query_buffer;
    case GL_ELEMENT_ARRAY_BUFFER: return &element_array;
    case GL_DRAW_INDIRECT_BUFFER: return &draw_indirect;
    case GL_TEXTURE_BUFFER: return &texture_buffer;
    case GL_TRANSFORM_FEEDBACK_BUFFER: return &transform_feedback;
    default: return nullptr;
  }
}

std::shared_ptr<BufferObject> bound_buffer(Context* ctx, GLenum target, const char* func) {
  auto* slot = ctx->target_slot(target);
  if (slot == nullptr) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return nullptr;
  }
  if (!*slot) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": no buffer is bound to the target");
    return nullptr;
  }
  return *slot;
}

std::shared_ptr<BufferObject> named_buffer(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->buffers.find(name);
  if (it == ctx->share->buffers.end()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) + " is not a buffer object");
    return nullptr;
  }
  return it->second;
}

bool range_ok(Context* ctx, const BufferObject& b, GLintptr offset, GLsizeiptr size, const char* func) {
  if (!range_inside(offset, size, b.size)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(size) + " bytes at offset " +
                                         std::to_string(offset) + " are not inside the buffer of " +
                                         std::to_string(b.size) + " bytes");
    return false;
  }
  return true;
}

bool not_mapped(Context* ctx, const BufferObject& b, const char* func) {
  if (b.mapped && !(b.map_access & GL_MAP_PERSISTENT_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the buffer is mapped");
    return false;
  }
  return true;
}

namespace {

// The object of a generated name, created on first bind. Null (and INVALID_OPERATION) for names never generated.
std::shared_ptr<BufferObject> object_for_bind(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->buffers.find(name);
  if (it != ctx->share->buffers.end()) return it->second;
  if (!ctx->share->buffer_names.count(name)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(name) +
                                         " is not a name returned by glGenBuffers");
    return nullptr;
  }
  auto b = std::make_shared<BufferObject>();
  b->name = name;
  ctx->share->buffers[name] = b;
  return b;
}

void buffer_parameter(Context* ctx, const std::shared_ptr<BufferObject>& b, GLenum pname, GLint64* out,
                      const char* func) {
  switch (pname) {
    case GL_BUFFER_SIZE: *out = b->size; return;
    case GL_BUFFER_USAGE: *out = b->usage; return;
    case GL_BUFFER_ACCESS:
      *out = (b->map_access & GL_MAP_READ_BIT) && (b->map_access & GL_MAP_WRITE_BIT) ? GL_READ_WRITE
             : (b->map_access & GL_MAP_WRITE_BIT)                                   ? GL_WRITE_ONLY
                                                                                    : GL_READ_ONLY;
      return;
    case GL_BUFFER_ACCESS_FLAGS: *out = b->map_access; return;
    case GL_BUFFER_MAPPED: *out = b->mapped; return;
    case GL_BUFFER_MAP_OFFSET: *out = b->map_offset; return;
    case GL_BUFFER_MAP_LENGTH: *out = b->map_length; return;
    case GL_BUFFER_IMMUTABLE_STORAGE: *out = b->immutable; return;
    case GL_BUFFER_STORAGE_FLAGS: *out = b->storage_flags; return;
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname));
  }
}

IndexedBinding* indexed_slot(Context* ctx, GLenum target, GLuint index, const char* func) {
  switch (target) {
    case GL_SHADER_STORAGE_BUFFER:
      if (index < ctx->ssbo.size()) return &ctx->ssbo[index];
      break;
    case GL_UNIFORM_BUFFER:
      if (index < ctx->ubo.size()) return &ctx->ubo[index];
      break;
    case GL_ATOMIC_COUNTER_BUFFER:
      if (index < ctx->acb.size()) return &ctx->acb[index];
      break;
    default:
      ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": target must be GL_SHADER_STORAGE_BUFFER, "
                                                          "GL_UNIFORM_BUFFER or GL_ATOMIC_COUNTER_BUFFER");
      return nullptr;
  }
  ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": index " + std::to_string(index) +
                                       " is not below the target's binding-point count");
  return nullptr;
}

void bind_range(Context* ctx, GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size,
                bool whole, const char* func) {
  IndexedBinding* slot = indexed_slot(ctx, target, index, func);
  if (slot == nullptr) return;
  std::shared_ptr<BufferObject> b;
  if (buffer != 0) {
    if (!whole) {
      if (size <= 0 || offset < 0) {
        ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": size must be positive and offset non-negative");
        return;
      }
      const GLintptr alignment = target == GL_SHADER_STORAGE_BUFFER ? ctx->caps.ssbo_alignment
                                 : target == GL_UNIFORM_BUFFER      ? ctx->caps.ubo_alignment
                                                                    : 4;
      if (offset % alignment != 0) {
        ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": offset is not a multiple of the target's alignment (" +
                                             std::to_string(alignment) + ")");
        return;
      }
    }
    b = object_for_bind(ctx, buffer, func);
    if (!b) return;
  }
  slot->buffer = b;
  slot->offset = whole ? 0 : offset;
  slot->size = whole ? 0 : size;
  note_buffer_bindings_changed();
  *ctx->target_slot(target) = b;  // the generic binding too (GL 4.6 §6.1.1)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGenBuffers(GLsizei n, GLuint* buffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGenBuffers: n is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    const GLuint name = ctx->share->next_buffer++;
    ctx->share->buffer_names.insert(name);
    if (buffers) buffers[i] = name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateBuffers(GLsizei n, GLuint* buffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glCreateBuffers: n is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    auto b = std::make_shared<BufferObject>();
    b->name = ctx->share->next_buffer++;
    ctx->share->buffer_names.insert(b->name);
    ctx->share->buffers[b->name] = b;
    if (buffers) buffers[i] = b->name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindBuffer(GLenum target, GLuint buffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto* slot = ctx->target_slot(target);
  if (slot == nullptr) {
    ctx->set_error(GL_INVALID_ENUM, "glBindBuffer: invalid target " + hex(target));
    return;
  }
  if (buffer == 0) {
    slot->reset();
    return;
  }
  auto b = object_for_bind(ctx, buffer, "glBindBuffer");
  if (b) *slot = std::move(b);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteBuffers: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && buffers != nullptr; ++i) {
    const GLuint name = buffers[i];
    if (name == 0) continue;
    std::shared_ptr<BufferObject> b;
    {
      std::lock_guard lock(ctx->share->mutex);
      auto it = ctx->share->buffers.find(name);
      if (it != ctx->share->buffers.end()) b = it->second;
      ctx->share->buffers.erase(name);
      ctx->share->buffer_names.erase(name);
    }
    if (!b) continue;
    // GL 4.6 §6.1: a deleted buffer is unmapped and unbound from every binding of the current context.
    if (b->mapped) {
      b->mapped = false;
      b->map_direct = false;
      b->map_copy.clear();
    }
    for (GLenum t : {GL_ARRAY_BUFFER, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GL_DISPATCH_INDIRECT_BUFFER,
                     GL_SHADER_STORAGE_BUFFER, GL_UNIFORM_BUFFER, GL_ATOMIC_COUNTER_BUFFER, GL_PIXEL_PACK_BUFFER,
                     GL_PIXEL_UNPACK_BUFFER, GL_QUERY_BUFFER, GL_ELEMENT_ARRAY_BUFFER, GL_DRAW_INDIRECT_BUFFER,
                     GL_TEXTURE_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER}) {
      auto* slot = ctx->target_slot(t);
      if (slot != nullptr && *slot == b) slot->reset();
    }
    for (auto& s : ctx->ssbo) if (s.buffer == b) s = {};
    for (auto& s : ctx->ubo) if (s.buffer == b) s = {};
    for (auto& s : ctx->acb) if (s.buffer == b) s = {};
    note_buffer_bindings_changed();
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsBuffer(GLuint buffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->buffers.count(buffer) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glGetBufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto b = bound_buffer(ctx, target, "glGetBufferParameteriv");
  if (!b) return;
  GLint64 v = 0;
  const GLenum before = ctx->error;
  buffer_parameter(ctx, b, pname, &v, "glGetBufferParameteriv");
  if (ctx->error == before && params) *params = static_cast<GLint>(std::min<GLint64>(v, INT32_MAX));
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetBufferParameteri64v(GLenum target, GLenum pname, GLint64* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto b = bound_buffer(ctx, target, "glGetBufferParameteri64v");
  if (!b) return;
  GLint64 v = 0;
  const GLenum before = ctx->error;
  buffer_parameter(ctx, b, pname, &v, "glGetBufferParameteri64v");
  if (ctx->error == before && params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetNamedBufferParameteriv(GLuint buffer, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto b = named_buffer(ctx, buffer, "glGetNamedBufferParameteriv");
  if (!b) return;
  GLint64 v = 0;
  const GLenum before = ctx->error;
  buffer_parameter(ctx, b, pname, &v, "glGetNamedBufferParameteriv");
  if (ctx->error == before && params) *params = static_cast<GLint>(std::min<GLint64>(v, INT32_MAX));
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindBufferBase(GLenum target, GLuint index, GLuint buffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bind_range(ctx, target, index, buffer, 0, 0, true, "glBindBufferBase");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bind_range(ctx, target, index, buffer, offset, size, false, "glBindBufferRange");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
