// Buffer copies and clears (GL 4.6 §6.6, §6.2.2): glCopy(Named)BufferSubData and glClear(Named)Buffer(Sub)Data,
// recorded in the context's stream; the clear value is converted by clear_format.cpp.
#include <array>
#include <cstring>
#include <vector>

#include "buffers.hpp"
#include "clear_format.hpp"

namespace bismuth::gl {
namespace {

void copy_sub_data(Context* ctx, const std::shared_ptr<BufferObject>& src, const std::shared_ptr<BufferObject>& dst,
                   GLintptr read_offset, GLintptr write_offset, GLsizeiptr size, const char* func) {
  if (read_offset < 0 || write_offset < 0 || size < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": an offset or the size is negative");
    return;
  }
  if (!range_ok(ctx, *src, read_offset, size, func) || !range_ok(ctx, *dst, write_offset, size, func)) return;
  // Both ranges are inside their buffers now, so these sums cannot wrap.
  if (src == dst && read_offset < write_offset + size && write_offset < read_offset + size) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the source and destination ranges overlap");
    return;
  }
  if (!not_mapped(ctx, *src, func) || !not_mapped(ctx, *dst, func)) return;
  if (size == 0) return;
  if (Status ok = ctx->stream->copy(*src->buffer, static_cast<VkDeviceSize>(read_offset), *dst->buffer,
                                    static_cast<VkDeviceSize>(write_offset), static_cast<VkDeviceSize>(size));
      !ok) {
    ctx->backend_error(func, ok.error());
  }
}

void clear_sub_data(Context* ctx, const std::shared_ptr<BufferObject>& b, GLenum internalformat, GLintptr offset,
                    GLsizeiptr size, GLenum format, GLenum type, const void* data, const char* func) {
  // GL 4.6 §6.2.2: the value is converted from format/type to internalformat as pixel transfers convert texels.
  const ClearValue value = convert_clear_value(internalformat, format, type, data);
  if (value.error == GL_INVALID_ENUM) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": " + value.message + " (internalformat " + hex(internalformat) +
                                        ", format " + hex(format) + ", type " + hex(type) + ")");
    return;
  }
  const uint32_t element = value.element_bytes;
  if (!range_ok(ctx, *b, offset, size, func)) return;
  if (offset % element != 0 || size % element != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": offset and size must be multiples of the element size");
    return;
  }
  if (!not_mapped(ctx, *b, func)) return;
  if (value.error != GL_NO_ERROR) {
    ctx->set_error(value.error, std::string(func) + ": " + value.message);
    return;
  }
  if (size == 0) return;
  const std::array<std::byte, 16>& pattern = value.bytes;
  Status ok;
  if (element == 4 && offset % 4 == 0 && size % 4 == 0) {
    uint32_t word;
    std::memcpy(&word, pattern.data(), 4);
    ok = ctx->stream->fill(*b->buffer, static_cast<VkDeviceSize>(offset), static_cast<VkDeviceSize>(size), word);
  } else {
    std::vector<std::byte> bytes(static_cast<size_t>(size));
    for (size_t i = 0; i < bytes.size(); i += element) std::memcpy(bytes.data() + i, pattern.data(), element);
    ok = ctx->stream->upload(*b->buffer, static_cast<VkDeviceSize>(offset), bytes);
  }
  if (!ok) ctx->backend_error(func, ok.error());
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glCopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset,
                                        GLintptr writeOffset, GLsizeiptr size) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto src = bound_buffer(ctx, readTarget, "glCopyBufferSubData");
  if (!src) return;
  auto dst = bound_buffer(ctx, writeTarget, "glCopyBufferSubData");
  if (!dst) return;
  copy_sub_data(ctx, src, dst, readOffset, writeOffset, size, "glCopyBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glCopyNamedBufferSubData(GLuint readBuffer, GLuint writeBuffer, GLintptr readOffset,
                                             GLintptr writeOffset, GLsizeiptr size) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto src = named_buffer(ctx, readBuffer, "glCopyNamedBufferSubData");
  if (!src) return;
  auto dst = named_buffer(ctx, writeBuffer, "glCopyNamedBufferSubData");
  if (!dst) return;
  copy_sub_data(ctx, src, dst, readOffset, writeOffset, size, "glCopyNamedBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearBufferData(GLenum target, GLenum internalformat, GLenum format, GLenum type,
                                      const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glClearBufferData")) {
    clear_sub_data(ctx, b, internalformat, 0, b->size, format, type, data, "glClearBufferData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearBufferSubData(GLenum target, GLenum internalformat, GLintptr offset, GLsizeiptr size,
                                         GLenum format, GLenum type, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glClearBufferSubData")) {
    clear_sub_data(ctx, b, internalformat, offset, size, format, type, data, "glClearBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearNamedBufferData(GLuint buffer, GLenum internalformat, GLenum format, GLenum type,
                                           const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glClearNamedBufferData")) {
    clear_sub_data(ctx, b, internalformat, 0, b->size, format, type, data, "glClearNamedBufferData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearNamedBufferSubData(GLuint buffer, GLenum internalformat, GLintptr offset, GLsizeiptr size,
                                              GLenum format, GLenum type, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glClearNamedBufferSubData")) {
    clear_sub_data(ctx, b, internalformat, offset, size, format, type, data, "glClearNamedBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
