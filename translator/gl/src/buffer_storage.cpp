// Buffer data stores (GL 4.6 §6.2, §6.5): glBufferData / glBufferStorage, sub-data writes and reads, and
// invalidation. A new store replaces the old one, which lives on while recorded commands use it.
#include <algorithm>
#include <cstdlib>
#include <span>

#include "buffers.hpp"

namespace bismuth::gl {
namespace {

bool valid_usage(GLenum usage) {
  switch (usage) {
    case GL_STREAM_DRAW: case GL_STREAM_READ: case GL_STREAM_COPY: case GL_STATIC_DRAW: case GL_STATIC_READ:
    case GL_STATIC_COPY: case GL_DYNAMIC_DRAW: case GL_DYNAMIC_READ: case GL_DYNAMIC_COPY: return true;
    default: return false;
  }
}

// The largest store backend::Buffer::create may be asked for. A larger vkCreateBuffer breaks a valid-usage rule
// (VkBufferCreateInfo size <= maxBufferSize, VK_KHR_maintenance4 / Vulkan 1.3), as does a vkAllocateMemory larger
// than the heap it allocates from; drivers need not survive either. The heap is the one Buffer::create picks from:
// a type with its required and preferred flags where one exists, else one with the required flags.
VkDeviceSize max_store_size(const backend::Device& device, VkDeviceSize size, bool host_visible) {
  const VkMemoryPropertyFlags required =
      host_visible ? VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
                   : VkMemoryPropertyFlags(0);
  const VkMemoryPropertyFlags preferred =
      host_visible ? required : VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  const VkPhysicalDeviceMemoryProperties& memory = device.memory_properties();
  VkDeviceSize preferred_heap = 0, required_heap = 0;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    const VkDeviceSize heap = memory.memoryHeaps[memory.memoryTypes[i].heapIndex].size;
    if ((flags & required) != required) continue;
    required_heap = std::max(required_heap, heap);
    if ((flags & preferred) == preferred) preferred_heap = std::max(preferred_heap, heap);
  }
  VkDeviceSize limit = preferred_heap != 0 ? preferred_heap : required_heap;
  // Every device's maxBufferSize is at least 2^30: ask the driver only for larger stores.
  if (size > (VkDeviceSize(1) << 30) && device.info().has_maintenance4) {
    VkPhysicalDeviceMaintenance4Properties maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &maintenance4;
    device.vki().vkGetPhysicalDeviceProperties2(device.physical_device(), &properties);
    if (maintenance4.maxBufferSize != 0) limit = std::min(limit, maintenance4.maxBufferSize);
  }
  return limit;
}

// The largest store placed for reading back in place (BISMUTH_MAPPED_READ_BYTES, default 256; 0: none). Host reads
// of device-local host-visible memory cross the bus uncached, a few hundred nanoseconds per cache line, so a large
// store is read back faster through a staging copy.
GLsizeiptr mapped_read_limit() {
  static const GLsizeiptr limit = [] {
    constexpr GLsizeiptr kDefault = 256;
    constexpr GLsizeiptr kMost = GLsizeiptr(1) << 20;
    const char* value = std::getenv("BISMUTH_MAPPED_READ_BYTES");
    if (value == nullptr || *value == '\0') return kDefault;
    char* end = nullptr;
    const long long parsed = std::strtoll(value, &end, 10);
    if (*end != '\0' || parsed < 0) return kDefault;
    return std::min<GLsizeiptr>(static_cast<GLsizeiptr>(parsed), kMost);
  }();
  return limit;
}

// Where a data store lives (docs/gl_shim.md, "Buffer placement"). Persistent storage (glBufferStorage with
// GL_MAP_PERSISTENT_BIT) is host-visible coherent memory, so that its mappings are the buffer itself. A small store
// the application says it reads back — a *_READ usage hint, or glBufferStorage's GL_MAP_READ_BIT — is device-local
// memory the host can map where the device has it (a counter read after every dispatch then needs no staging copy);
// everything else follows the device's strategy.
backend::BufferKind store_kind(GLsizeiptr size, bool persistent, bool read_back) {
  if (persistent) return backend::BufferKind::HostStorage;
  if (read_back && size <= mapped_read_limit()) return backend::BufferKind::MappedDeviceLocal;
  return backend::BufferKind::Storage;
}

bool read_usage(GLenum usage) {
  return usage == GL_STREAM_READ || usage == GL_STATIC_READ || usage == GL_DYNAMIC_READ;
}

// Replaces the data store (glBufferData / glBufferStorage) with one of `kind`. The old store lives on while recorded
// commands use it. On any error the old store stays, contents and all.
bool new_store(Context* ctx, BufferObject& b, GLsizeiptr size, const void* data, const char* func,
               backend::BufferKind kind) {
  std::shared_ptr<backend::Buffer> store;
  if (size > 0) {
    // GL 4.6 §6.2: "An OUT_OF_MEMORY error is generated if the GL is unable to create a data store with the
    // specified size." Decided here for sizes Vulkan must not be asked for (Buffer::create rounds up to 4 bytes).
    const backend::Device& device = *ctx->device_state.device;
    const VkDeviceSize rounded = (static_cast<VkDeviceSize>(size) + 3) & ~VkDeviceSize(3);
    const VkDeviceSize limit =
        max_store_size(device, rounded, kind == backend::BufferKind::HostStorage || !device.uses_staging());
    if (rounded > limit) {
      ctx->set_error(GL_OUT_OF_MEMORY, std::string(func) + ": a data store of " + std::to_string(size) +
                                           " bytes is larger than the device can allocate (" + std::to_string(limit) +
                                           " bytes)");
      return false;
    }
    auto created = backend::Buffer::create(*ctx->device_state.device, static_cast<VkDeviceSize>(size), kind);
    if (!created) {
      ctx->backend_error(func, created.error());
      return false;
    }
    store = std::move(*created);
    if (data != nullptr) {
      auto bytes = std::span(static_cast<const std::byte*>(data), static_cast<size_t>(size));
      if (Status ok = ctx->stream->upload(*store, 0, bytes); !ok) {
        ctx->backend_error(func, ok.error());
        return false;
      }
    }
  }
  b.buffer = std::move(store);
  b.size = size;
  note_buffer_bindings_changed();  // dispatches bound to it gather its new store (dispatch.cpp)
  b.has_store = true;
  b.mapped = false;
  b.map_direct = false;
  b.map_copy.clear();
  return true;
}

void buffer_data(Context* ctx, const std::shared_ptr<BufferObject>& b, GLsizeiptr size, const void* data,
                 GLenum usage, const char* func) {
  if (size < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": size is negative");
    return;
  }
  if (!valid_usage(usage)) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid usage " + hex(usage));
    return;
  }
  if (b->immutable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the buffer has immutable storage (glBufferStorage)");
    return;
  }
  if (new_store(ctx, *b, size, data, func, store_kind(size, false, read_usage(usage)))) b->usage = usage;
}

constexpr GLbitfield kStorageFlags = GL_DYNAMIC_STORAGE_BIT | GL_MAP_READ_BIT | GL_MAP_WRITE_BIT |
                                     GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT | GL_CLIENT_STORAGE_BIT;

void buffer_storage(Context* ctx, const std::shared_ptr<BufferObject>& b, GLsizeiptr size, const void* data,
                    GLbitfield flags, const char* func) {
  if (size <= 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": size must be positive");
    return;
  }
  if ((flags & ~kStorageFlags) != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": flags has unknown bits");
    return;
  }
  if ((flags & GL_MAP_PERSISTENT_BIT) && !(flags & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT))) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": MAP_PERSISTENT_BIT without MAP_READ_BIT or MAP_WRITE_BIT");
    return;
  }
  if ((flags & GL_MAP_COHERENT_BIT) && !(flags & GL_MAP_PERSISTENT_BIT)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": MAP_COHERENT_BIT without MAP_PERSISTENT_BIT");
    return;
  }
  if (b->immutable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the buffer already has immutable storage");
    return;
  }
  const backend::BufferKind kind =
      store_kind(size, (flags & GL_MAP_PERSISTENT_BIT) != 0, (flags & GL_MAP_READ_BIT) != 0);
  if (new_store(ctx, *b, size, data, func, kind)) {
    b->immutable = true;
    b->storage_flags = flags;
    b->usage = GL_DYNAMIC_DRAW;
  }
}

// GL 4.6 §6.2.1, §6.2.2, §6.3.2, §6.6: "An INVALID_VALUE error is generated if offset or size is negative, or if
void buffer_sub_data(Context* ctx, const std::shared_ptr<BufferObject>& b, GLintptr offset, GLsizeiptr size,
                     const void* data, const char* func) {
  if (!range_ok(ctx, *b, offset, size, func) || !not_mapped(ctx, *b, func)) return;
  if (b->immutable && !(b->storage_flags & GL_DYNAMIC_STORAGE_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": immutable storage without GL_DYNAMIC_STORAGE_BIT");
    return;
  }
  if (size == 0 || data == nullptr) return;
  auto bytes = std::span(static_cast<const std::byte*>(data), static_cast<size_t>(size));
  if (Status ok = ctx->stream->upload(*b->buffer, static_cast<VkDeviceSize>(offset), bytes); !ok) {
    ctx->backend_error(func, ok.error());
  }
}

void get_sub_data(Context* ctx, const std::shared_ptr<BufferObject>& b, GLintptr offset, GLsizeiptr size, void* data,
                  const char* func) {
  if (!range_ok(ctx, *b, offset, size, func) || !not_mapped(ctx, *b, func)) return;
  if (size == 0 || data == nullptr) return;
  auto bytes = std::span(static_cast<std::byte*>(data), static_cast<size_t>(size));
  if (Status ok = ctx->stream->readback(*b->buffer, static_cast<VkDeviceSize>(offset), bytes); !ok) {
    ctx->backend_error(func, ok.error());
  }
}

// glInvalidateBufferData / glInvalidateBufferSubData (GL 4.6 §6.5): the range's contents become undefined, which
// keeping them satisfies, so only the errors have an effect. `whole`: the entire buffer (InvalidateBufferData).
void invalidate(Context* ctx, GLuint name, GLintptr offset, GLsizeiptr length, bool whole, const char* func) {
  std::shared_ptr<BufferObject> b;
  {
    std::lock_guard lock(ctx->share->mutex);
    auto it = ctx->share->buffers.find(name);
    if (it != ctx->share->buffers.end()) b = it->second;
  }
  // "An INVALID_VALUE error is generated if buffer is zero or is not the name of an existing buffer object."
  if (!b) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(name) + " is not a buffer object");
    return;
  }
  if (whole) {
    offset = 0;
    length = b->size;
  } else if (!range_ok(ctx, *b, offset, length, func)) {
    return;
  }
  // "An INVALID_OPERATION error is generated if buffer is currently mapped by MapBuffer or if the invalidate range
  // intersects the range currently mapped by MapBufferRange, unless it was mapped with MAP_PERSISTENT_BIT";
  // InvalidateBufferData: "... if any part of it is mapped". Both ranges are inside the buffer: no sum wraps.
  const bool intersects = whole || (offset < b->map_offset + b->map_length && b->map_offset < offset + length);
  if (b->mapped && !(b->map_access & GL_MAP_PERSISTENT_BIT) && intersects) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the range is mapped");
  }
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glBufferData(GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glBufferData")) buffer_data(ctx, b, size, data, usage, "glBufferData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glNamedBufferData(GLuint buffer, GLsizeiptr size, const void* data, GLenum usage) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glNamedBufferData")) {
    buffer_data(ctx, b, size, data, usage, "glNamedBufferData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glBufferStorage(GLenum target, GLsizeiptr size, const void* data, GLbitfield flags) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glBufferStorage")) {
    buffer_storage(ctx, b, size, data, flags, "glBufferStorage");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glNamedBufferStorage(GLuint buffer, GLsizeiptr size, const void* data, GLbitfield flags) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glNamedBufferStorage")) {
    buffer_storage(ctx, b, size, data, flags, "glNamedBufferStorage");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glBufferSubData")) {
    buffer_sub_data(ctx, b, offset, size, data, "glBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glNamedBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr size, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glNamedBufferSubData")) {
    buffer_sub_data(ctx, b, offset, size, data, "glNamedBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound_buffer(ctx, target, "glGetBufferSubData")) {
    get_sub_data(ctx, b, offset, size, data, "glGetBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetNamedBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr size, void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named_buffer(ctx, buffer, "glGetNamedBufferSubData")) {
    get_sub_data(ctx, b, offset, size, data, "glGetNamedBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glInvalidateBufferData(GLuint buffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  invalidate(ctx, buffer, 0, 0, true, "glInvalidateBufferData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glInvalidateBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  invalidate(ctx, buffer, offset, length, false, "glInvalidateBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
