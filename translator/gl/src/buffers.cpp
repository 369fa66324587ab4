// Buffer objects (GL 4.6 §6): names, targets, data stores, sub-data, copies, clears, mapping, indexed bindings.
// Every store is a backend::Buffer; writes and reads go through the context's CommandStream in stream order.
// Mapping keeps a host copy of the mapped range, written back on unmap / explicit flush, which works for
// device-local buffers too; persistent maps of persistent storage are the buffer's host-coherent memory itself.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "clear_format.hpp"
#include "gl_internal.hpp"
#include "gl_objects.hpp"
#include "gl_ranges.hpp"

namespace bismuth::gl {

std::shared_ptr<BufferObject>* Context::target_slot(GLenum target) {
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

namespace {

std::string hex(GLenum e) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%04X", e);
  return b;
}

// The buffer bound to `target`: INVALID_ENUM for a bad target, INVALID_OPERATION when none is bound.
std::shared_ptr<BufferObject> bound(Context* ctx, GLenum target, const char* func) {
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

// The DSA form: INVALID_OPERATION when `name` is not an existing buffer object (GL 4.6 §6.1).
std::shared_ptr<BufferObject> named(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->buffers.find(name);
  if (it == ctx->share->buffers.end()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) + " is not a buffer object");
    return nullptr;
  }
  return it->second;
}

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

// Replaces the data store (glBufferData / glBufferStorage). The old store lives on while recorded commands use it.
// Persistent storage (glBufferStorage with GL_MAP_PERSISTENT_BIT) lives in host-visible coherent memory, so that
// its mappings are the buffer itself. On any error the old store stays, contents and all.
bool new_store(Context* ctx, BufferObject& b, GLsizeiptr size, const void* data, const char* func,
               bool persistent = false) {
  std::shared_ptr<backend::Buffer> store;
  if (size > 0) {
    // GL 4.6 §6.2: "An OUT_OF_MEMORY error is generated if the GL is unable to create a data store with the
    // specified size." Decided here for sizes Vulkan must not be asked for (Buffer::create rounds up to 4 bytes).
    const backend::Device& device = *ctx->device_state.device;
    const VkDeviceSize rounded = (static_cast<VkDeviceSize>(size) + 3) & ~VkDeviceSize(3);
    const VkDeviceSize limit = max_store_size(device, rounded, persistent || !device.uses_staging());
    if (rounded > limit) {
      ctx->set_error(GL_OUT_OF_MEMORY, std::string(func) + ": a data store of " + std::to_string(size) +
                                           " bytes is larger than the device can allocate (" + std::to_string(limit) +
                                           " bytes)");
      return false;
    }
    auto created = backend::Buffer::create(*ctx->device_state.device, static_cast<VkDeviceSize>(size),
                                           persistent ? backend::BufferKind::HostStorage : backend::BufferKind::Storage);
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
  if (new_store(ctx, *b, size, data, func)) b->usage = usage;
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
  if (new_store(ctx, *b, size, data, func, (flags & GL_MAP_PERSISTENT_BIT) != 0)) {
    b->immutable = true;
    b->storage_flags = flags;
    b->usage = GL_DYNAMIC_DRAW;
  }
}

// GL 4.6 §6.2.1, §6.2.2, §6.3.2, §6.6: "An INVALID_VALUE error is generated if offset or size is negative, or if
// offset + size is greater than the value of BUFFER_SIZE for the buffer object" (the mathematical sum: a pair
// whose 64-bit sum wraps is outside too).
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
      if (*slot == b) slot->reset();
    }
    for (auto& s : ctx->ssbo) if (s.buffer == b) s = {};
    for (auto& s : ctx->ubo) if (s.buffer == b) s = {};
    for (auto& s : ctx->acb) if (s.buffer == b) s = {};
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsBuffer(GLuint buffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->buffers.count(buffer) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glBufferData(GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glBufferData")) buffer_data(ctx, b, size, data, usage, "glBufferData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glNamedBufferData(GLuint buffer, GLsizeiptr size, const void* data, GLenum usage) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glNamedBufferData")) buffer_data(ctx, b, size, data, usage, "glNamedBufferData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glBufferStorage(GLenum target, GLsizeiptr size, const void* data, GLbitfield flags) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glBufferStorage")) buffer_storage(ctx, b, size, data, flags, "glBufferStorage");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glNamedBufferStorage(GLuint buffer, GLsizeiptr size, const void* data, GLbitfield flags) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glNamedBufferStorage")) {
    buffer_storage(ctx, b, size, data, flags, "glNamedBufferStorage");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glBufferSubData")) buffer_sub_data(ctx, b, offset, size, data, "glBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glNamedBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr size, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glNamedBufferSubData")) {
    buffer_sub_data(ctx, b, offset, size, data, "glNamedBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glGetBufferSubData")) get_sub_data(ctx, b, offset, size, data, "glGetBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetNamedBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr size, void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glGetNamedBufferSubData")) {
    get_sub_data(ctx, b, offset, size, data, "glGetNamedBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glCopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset,
                                        GLintptr writeOffset, GLsizeiptr size) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto src = bound(ctx, readTarget, "glCopyBufferSubData");
  if (!src) return;
  auto dst = bound(ctx, writeTarget, "glCopyBufferSubData");
  if (!dst) return;
  copy_sub_data(ctx, src, dst, readOffset, writeOffset, size, "glCopyBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glCopyNamedBufferSubData(GLuint readBuffer, GLuint writeBuffer, GLintptr readOffset,
                                             GLintptr writeOffset, GLsizeiptr size) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto src = named(ctx, readBuffer, "glCopyNamedBufferSubData");
  if (!src) return;
  auto dst = named(ctx, writeBuffer, "glCopyNamedBufferSubData");
  if (!dst) return;
  copy_sub_data(ctx, src, dst, readOffset, writeOffset, size, "glCopyNamedBufferSubData");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearBufferData(GLenum target, GLenum internalformat, GLenum format, GLenum type,
                                      const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glClearBufferData")) {
    clear_sub_data(ctx, b, internalformat, 0, b->size, format, type, data, "glClearBufferData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearBufferSubData(GLenum target, GLenum internalformat, GLintptr offset, GLsizeiptr size,
                                         GLenum format, GLenum type, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glClearBufferSubData")) {
    clear_sub_data(ctx, b, internalformat, offset, size, format, type, data, "glClearBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearNamedBufferData(GLuint buffer, GLenum internalformat, GLenum format, GLenum type,
                                           const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glClearNamedBufferData")) {
    clear_sub_data(ctx, b, internalformat, 0, b->size, format, type, data, "glClearNamedBufferData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glClearNamedBufferSubData(GLuint buffer, GLenum internalformat, GLintptr offset, GLsizeiptr size,
                                              GLenum format, GLenum type, const void* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glClearNamedBufferSubData")) {
    clear_sub_data(ctx, b, internalformat, offset, size, format, type, data, "glClearNamedBufferSubData");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void* APIENTRY glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  BISMUTH_GL_BEGIN(nullptr)
  if (auto b = bound(ctx, target, "glMapBufferRange")) return map_range(ctx, b, offset, length, access, "glMapBufferRange");
  return nullptr;
  BISMUTH_GL_END(nullptr)
}
GLAPI void* APIENTRY glMapNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  BISMUTH_GL_BEGIN(nullptr)
  if (auto b = named(ctx, buffer, "glMapNamedBufferRange")) {
    return map_range(ctx, b, offset, length, access, "glMapNamedBufferRange");
  }
  return nullptr;
  BISMUTH_GL_END(nullptr)
}

static GLbitfield map_access_bits(GLenum access) {
  switch (access) {
    case GL_READ_ONLY: return GL_MAP_READ_BIT;
    case GL_WRITE_ONLY: return GL_MAP_WRITE_BIT;
    case GL_READ_WRITE: return GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
    default: return 0;
  }
}

GLAPI void* APIENTRY glMapBuffer(GLenum target, GLenum access) {
  BISMUTH_GL_BEGIN(nullptr)
  auto b = bound(ctx, target, "glMapBuffer");
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
  auto b = named(ctx, buffer, "glMapNamedBuffer");
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
  if (auto b = bound(ctx, target, "glUnmapBuffer")) return unmap(ctx, b, "glUnmapBuffer") ? GL_TRUE : GL_FALSE;
  return GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}
GLAPI GLboolean APIENTRY glUnmapNamedBuffer(GLuint buffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  if (auto b = named(ctx, buffer, "glUnmapNamedBuffer")) return unmap(ctx, b, "glUnmapNamedBuffer") ? GL_TRUE : GL_FALSE;
  return GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}
GLAPI void APIENTRY glFlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = bound(ctx, target, "glFlushMappedBufferRange")) flush_range(ctx, b, offset, length, "glFlushMappedBufferRange");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glFlushMappedNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto b = named(ctx, buffer, "glFlushMappedNamedBufferRange")) {
    flush_range(ctx, b, offset, length, "glFlushMappedNamedBufferRange");
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

GLAPI void APIENTRY glGetBufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto b = bound(ctx, target, "glGetBufferParameteriv");
  if (!b) return;
  GLint64 v = 0;
  const GLenum before = ctx->error;
  buffer_parameter(ctx, b, pname, &v, "glGetBufferParameteriv");
  if (ctx->error == before && params) *params = static_cast<GLint>(std::min<GLint64>(v, INT32_MAX));
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetBufferParameteri64v(GLenum target, GLenum pname, GLint64* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto b = bound(ctx, target, "glGetBufferParameteri64v");
  if (!b) return;
  GLint64 v = 0;
  const GLenum before = ctx->error;
  buffer_parameter(ctx, b, pname, &v, "glGetBufferParameteri64v");
  if (ctx->error == before && params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glGetNamedBufferParameteriv(GLuint buffer, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto b = named(ctx, buffer, "glGetNamedBufferParameteriv");
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
