// Buffer mapping (GL 4.6 §6.3): glMapBuffer(Range), glUnmapBuffer, glFlushMappedBufferRange and their DSA forms.
// Mapping keeps a host copy of the mapped range, written back on unmap / explicit flush, which works for
// device-local buffers too; persistent maps of persistent storage are the buffer's host-coherent memory itself.
#include <span>

#include "buffers.hpp"
#include "gl_ranges.hpp"

namespace bismuth::gl {
namespace {

constexpr GLbitfield kMapBits = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT |
                                GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_FLUSH_EXPLICIT_BIT | GL_MAP_UNSYNCHRONIZED_BIT |
                                GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;

void* map_range(Context* ctx, const std::shared_ptr<BufferObject>& b, GLintptr offset, GLsizeiptr length,
                GLbitfield access, const char* func) {
  // GL 4.6 §6.3 errors, in the order the spec lists them.
  if (!range_inside(offset, length, b->size) || (access & ~kMapBits) != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": offset/length outside the buffer or unknown access bits");
    return nullptr;
  }
  if (length == 0) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": length is zero");
    return nullptr;
  }
  if (b->mapped) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the buffer is already mapped");
    return nullptr;
  }
  if (!(access & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT))) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": neither GL_MAP_READ_BIT nor GL_MAP_WRITE_BIT is set");
    return nullptr;
  }
  if ((access & GL_MAP_READ_BIT) &&
      (access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_UNSYNCHRONIZED_BIT))) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": GL_MAP_READ_BIT with an invalidate or unsynchronized bit");
    return nullptr;
  }
  if ((access & GL_MAP_FLUSH_EXPLICIT_BIT) && !(access & GL_MAP_WRITE_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": GL_MAP_FLUSH_EXPLICIT_BIT without GL_MAP_WRITE_BIT");
    return nullptr;
  }
  if (b->immutable) {
    const GLbitfield need = access & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    if ((need & b->storage_flags) != need) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": access bits the buffer's storage flags do not allow");
      return nullptr;
    }
  } else if (access & (GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": persistent mapping needs glBufferStorage");
    return nullptr;
  }
  if ((access & GL_MAP_PERSISTENT_BIT) && b->buffer->host_visible()) {
    // The mapping is the buffer's own host-coherent memory: CPU writes reach later commands without an unmap, and
    // GPU writes are visible once their commands completed (glFinish, a fence wait; the stream ends each batch
    // with a device-to-host barrier). Without GL_MAP_UNSYNCHRONIZED_BIT, wait for the commands using it first.
    if (!(access & GL_MAP_UNSYNCHRONIZED_BIT)) {
      if (auto ok = ctx->stream->map(*b->buffer); !ok) {
        ctx->backend_error(func, ok.error());
        return nullptr;
      }
    }
    b->mapped = true;
    b->map_direct = true;
    b->map_access = access;
    b->map_offset = offset;
    b->map_length = length;
    return static_cast<std::byte*>(b->buffer->mapped()) + offset;
  }
  b->map_copy.assign(static_cast<size_t>(length), std::byte{0});
  const bool invalidate = access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (!invalidate) {
    if (Status ok = ctx->stream->readback(*b->buffer, static_cast<VkDeviceSize>(offset), b->map_copy); !ok) {
      ctx->backend_error(func, ok.error());
      return nullptr;
    }
  }
  b->mapped = true;
  b->map_access = access;
  b->map_offset = offset;
  b->map_length = length;
  return b->map_copy.data();
}

bool unmap(Context* ctx, const std::shared_ptr<BufferObject>& b, const char* func) {
  if (!b->mapped) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the buffer is not mapped");
    return false;
  }
  if (!b->map_direct && (b->map_access & GL_MAP_WRITE_BIT) && !(b->map_access & GL_MAP_FLUSH_EXPLICIT_BIT)) {
    if (Status ok = ctx->stream->upload(*b->buffer, static_cast<VkDeviceSize>(b->map_offset), b->map_copy); !ok) {
      ctx->backend_error(func, ok.error());
    }
  }
  b->mapped = false;
  b->map_direct = false;
  b->map_access = 0;
  b->map_offset = 0;
  b->map_length = 0;
  b->map_copy.clear();
  b->map_copy.shrink_to_fit();
  return true;
}

void flush_range(Context* ctx, const std::shared_ptr<BufferObject>& b, GLintptr offset, GLsizeiptr length,
                 const char* func) {
  if (!b->mapped || !(b->map_access & GL_MAP_FLUSH_EXPLICIT_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the buffer is not mapped with GL_MAP_FLUSH_EXPLICIT_BIT");
    return;
  }
  // GL 4.6 §6.3.1: "An INVALID_VALUE error is generated if offset or length is negative, or if offset + length
  // exceeds the size of the mapping."
  if (!range_inside(offset, length, b->map_length)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the range is outside the mapped range");
    return;
  }
  if (length == 0) return;
  if (b->map_direct) return;  // host-coherent memory: the writes are already the buffer's
  auto bytes = std::span(b->map_copy.data() + offset, static_cast<size_t>(length));
  if (Status ok = ctx->stream->upload(*b->buffer, static_cast<VkDeviceSize>(b->map_offset + offset), bytes); !ok) {
    ctx->backend_error(func, ok.error());
  }
}

GLbitfield map_access_bits(GLenum access) {
  switch (access) {
    case GL_READ_ONLY: return GL_MAP_READ_BIT;
    case GL_WRITE_ONLY: return GL_MAP_WRITE_BIT;
    case GL_READ_WRITE: return GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
    default: return 0;
  }
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void* APIENTRY glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  BISMUTH_GL_BEGIN(nullptr)
  if (auto b = bound_buffer(ctx, target, "glMapBufferRange")) {
    return map_range(ctx, b, offset, length, access, "glMapBufferRange");
  }
  return nullptr;
  BISMUTH_GL_END(nullptr)
}
GLAPI void* APIENTRY glMapNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  BISMUTH_GL_BEGIN(nullptr)
  if (auto b = named_buffer(ctx, buffer, "glMapNamedBufferRange")) {
    return map_range(ctx, b, offset, length, access, "glMapNamedBufferRange");
  }
  return nullptr;
  BISMUTH_GL_END(nullptr)
}

GLAPI void* APIENTRY glMapBuffer(GLenum target, GLenum access) {
  BISMUTH_GL_BEGIN(nullptr)
  auto b = bound_buffer(ctx, target, "glMapBuffer");
  if (!b) return nullptr;
  const GLbitfield bits = map_access_bits(access);
  if (bits == 0) {
    ctx->set_error(GL_INVALID_ENUM, "glMapBuffer: access must be GL_READ_ONLY, GL_WRITE_ONLY or GL_READ_WRITE");
    return nullptr;
  }
  return map_range(ctx, b, 0, b->size, bits, "glMapBuffer");
  BISMUTH_GL_END(nullptr)
}
GLAPI void* APIENTRY glMapNamedBuffer(GLuint buffer, GLenum access) {
  BISMUTH_GL_BEGIN(nullptr)
  auto b = named_buffer(ctx, buffer, "glMapNamedBuffer");
  if (!b) return nullptr;
  const GLbitfield bits = map_access_bits(access);
  if (bits == 0) {
    ctx->set_error(GL_INVALID_ENUM, "glMapNamedBuffer: access must be GL_READ_ONLY, GL_WRITE_ONLY or GL_READ_WRITE");
    return nullptr;
  }
  return map_range(ctx, b, 0, b->size, bits, "glMapNamedBuffer");
  BISMUTH_GL_END(nullptr)
}
GLAPI GLboolean APIENTRY glUnmapBuffer(GLenum target) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  if (auto b = bound_buffer(ctx, target, "glUnmapBuffer")) return unmap(ctx, b, "glUnmapBuffer") ? GL_TRUE : GL_FALSE;
  return GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}
GLAPI GLboolean APIENTRY glUnmapNamedBuffer(GLuint buffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  if (auto b = named_buffer(ctx, buffer, "glUnmapNamedBuffer")) {
    return unmap(ctx, b, "glUnmapNamedBuffer") ? GL_TRUE : GL_FALSE;
  }
  return GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}
GLAPI void APIENTRY glFlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glFlushMappedBufferRange")) {
    flush_range(ctx, b, offset, length, "glFlushMappedBufferRange");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glFlushMappedNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glFlushMappedNamedBufferRange")) {
    flush_range(ctx, b, offset, length, "glFlushMappedNamedBufferRange");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §6.7 / OpenGL ES 3.2 §6.6: BUFFER_MAP_POINTER is the pointer the mapping returned, NULL when the buffer is
// not mapped; ES has no other way to ask for it.
static void buffer_pointer(Context* ctx, const std::shared_ptr<BufferObject>& b, GLenum pname, void** params,
                           const char* func) {
  if (pname != GL_BUFFER_MAP_POINTER) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": pname must be GL_BUFFER_MAP_POINTER");
    return;
  }
  if (params == nullptr) return;
  if (!b->mapped) {
    *params = nullptr;
  } else if (b->map_direct) {
    *params = static_cast<std::byte*>(b->buffer->mapped()) + b->map_offset;
  } else {
    *params = b->map_copy.data();
  }
}
GLAPI void APIENTRY glGetBufferPointerv(GLenum target, GLenum pname, void** params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glGetBufferPointerv"))
    buffer_pointer(ctx, b, pname, params, "glGetBufferPointerv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetNamedBufferPointerv(GLuint buffer, GLenum pname, void** params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glGetNamedBufferPointerv")) {
    buffer_pointer(ctx, b, pname, params, "glGetNamedBufferPointerv");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
