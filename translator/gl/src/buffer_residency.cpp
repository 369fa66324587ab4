// GL_NV_shader_buffer_load / GL_NV_shader_buffer_store: GPU addresses of buffer objects and their residency.
//
// A buffer's GPU address is its data store's Vulkan device address (backend::Buffer::device_address; the device
// has bufferDeviceAddress, or these extensions are not advertised and every entry point here reports
// INVALID_OPERATION). Residency is per context: the context lists the buffers made resident, each with the data
// store it had then; a dispatch of a program that uses GPU addresses (NV assembly LOAD / STORE / ATOM) hands the
// stores of the still-resident buffers to the backend as address buffers, which keeps them alive until the
// dispatch completed and orders them with other commands like bound buffers (dispatch.cpp). A buffer whose data
// store was re-specified (glBufferData) or that was deleted is no longer resident: NV_shader_buffer_load, "A
// buffer is also made non-resident implicitly as a result of being respecified via BufferData or being deleted."
// The error rules the spec's opening does not spell out follow NVIDIA's driver 580 on the H100
// (tests/data/nv_reference/nvidia-h100-580.159.04-residency.txt, nv_reference_probe residency): INVALID_OPERATION
// for making a resident buffer resident again, a non-resident one non-resident, a buffer without a data store or no
// bound buffer resident; WRITE_ONLY access accepted; MAX_SHADER_BUFFER_ADDRESS_NV all ones.
#include <limits>

#include "buffers.hpp"

namespace bismuth::gl {

namespace {

bool supported(Context* ctx, const char* func) {
  if (ctx->caps.compile_target.buffer_device_address) return true;
  ctx->set_error(GL_INVALID_OPERATION, std::string(func) +
                                           ": GL_NV_shader_buffer_load needs the device's bufferDeviceAddress "
                                           "feature (Vulkan 1.2 or VK_KHR_buffer_device_address), which it lacks");
  return false;
}

// The entry of `b` when it is resident in this context with its current data store.
Context::ResidentBuffer* resident_entry(Context* ctx, const BufferObject& b) {
  auto it = ctx->resident_buffers.find(b.name);
  if (it == ctx->resident_buffers.end()) return nullptr;
  const auto object = it->second.object.lock();
  if (object.get() != &b || !b.buffer || it->second.store.lock() != b.buffer) {
    ctx->resident_buffers.erase(it);  // deleted, replaced under its name, or re-specified
    return nullptr;
  }
  return &it->second;
}

void make_resident(Context* ctx, const std::shared_ptr<BufferObject>& b, GLenum access, const char* func) {
  // NV_shader_buffer_load: "<access> may only be READ_ONLY"; NV_shader_buffer_store: "MakeBufferResidentNV may
  // be called with READ_WRITE". NVIDIA's driver 580 accepts WRITE_ONLY too (tests/data/nv_reference, residency),
  // so it does here, as a writable residency.
  if (access != GL_READ_ONLY && access != GL_READ_WRITE && access != GL_WRITE_ONLY) {
    ctx->set_error(GL_INVALID_ENUM,
                   std::string(func) + ": access must be GL_READ_ONLY, GL_WRITE_ONLY or GL_READ_WRITE");
    return;
  }
  if (resident_entry(ctx, *b) != nullptr) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": buffer " + std::to_string(b->name) + " is already resident");
    return;
  }
  if (!b->buffer) {
    // No data store (zero size): nothing has an address, so nothing can be made resident.
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": buffer " + std::to_string(b->name) + " has no data store");
    return;
  }
  ctx->resident_buffers[b->name] = Context::ResidentBuffer{b, b->buffer, access};
}

void make_non_resident(Context* ctx, const BufferObject& b, const char* func) {
  if (resident_entry(ctx, b) == nullptr) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": buffer " + std::to_string(b.name) + " is not resident");
    return;
  }
  ctx->resident_buffers.erase(b.name);
}

void gpu_address(Context* ctx, const BufferObject& b, GLenum pname, GLuint64EXT* params, const char* func) {
  if (pname != GL_BUFFER_GPU_ADDRESS_NV) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": pname must be GL_BUFFER_GPU_ADDRESS_NV");
    return;
  }
  // "The address "zero" is reserved for convenience, so no buffer object will ever have an address of zero":
  // 0 here means no data store (a zero-sized buffer).
  if (params) *params = b.buffer ? b.buffer->device_address() : 0;
}

}  // namespace

std::span<const backend::BufferBinding> resident_bindings(Context* ctx) {
  auto& out = ctx->resident_scratch;
  out.clear();
  for (auto it = ctx->resident_buffers.begin(); it != ctx->resident_buffers.end();) {
    const auto object = it->second.object.lock();
    const auto store = it->second.store.lock();
    if (!object || !store || object->buffer != store) {
      it = ctx->resident_buffers.erase(it);
      continue;
    }
    const backend::Access access =
        it->second.access == GL_READ_ONLY ? backend::Access::Read : backend::Access::ReadWrite;
    out.push_back({store.get(), 0, VK_WHOLE_SIZE, access});
    ++it;
  }
  return out;
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glMakeBufferResidentNV(GLenum target, GLenum access) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glMakeBufferResidentNV")) return;
  auto b = bound_buffer(ctx, target, "glMakeBufferResidentNV");
  if (b) make_resident(ctx, b, access, "glMakeBufferResidentNV");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glMakeNamedBufferResidentNV(GLuint buffer, GLenum access) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glMakeNamedBufferResidentNV")) return;
  auto b = named_buffer(ctx, buffer, "glMakeNamedBufferResidentNV");
  if (b) make_resident(ctx, b, access, "glMakeNamedBufferResidentNV");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glMakeBufferNonResidentNV(GLenum target) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glMakeBufferNonResidentNV")) return;
  auto b = bound_buffer(ctx, target, "glMakeBufferNonResidentNV");
  if (b) make_non_resident(ctx, *b, "glMakeBufferNonResidentNV");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glMakeNamedBufferNonResidentNV(GLuint buffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glMakeNamedBufferNonResidentNV")) return;
  auto b = named_buffer(ctx, buffer, "glMakeNamedBufferNonResidentNV");
  if (b) make_non_resident(ctx, *b, "glMakeNamedBufferNonResidentNV");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsBufferResidentNV(GLenum target) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  if (!supported(ctx, "glIsBufferResidentNV")) return GL_FALSE;
  auto b = bound_buffer(ctx, target, "glIsBufferResidentNV");
  return b && resident_entry(ctx, *b) != nullptr ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI GLboolean APIENTRY glIsNamedBufferResidentNV(GLuint buffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  if (!supported(ctx, "glIsNamedBufferResidentNV")) return GL_FALSE;
  auto b = named_buffer(ctx, buffer, "glIsNamedBufferResidentNV");
  return b && resident_entry(ctx, *b) != nullptr ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glGetBufferParameterui64vNV(GLenum target, GLenum pname, GLuint64EXT* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glGetBufferParameterui64vNV")) return;
  auto b = bound_buffer(ctx, target, "glGetBufferParameterui64vNV");
  if (b) gpu_address(ctx, *b, pname, params, "glGetBufferParameterui64vNV");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetNamedBufferParameterui64vNV(GLuint buffer, GLenum pname, GLuint64EXT* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glGetNamedBufferParameterui64vNV")) return;
  auto b = named_buffer(ctx, buffer, "glGetNamedBufferParameterui64vNV");
  if (b) gpu_address(ctx, *b, pname, params, "glGetNamedBufferParameterui64vNV");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetIntegerui64vNV(GLenum value, GLuint64EXT* result) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!supported(ctx, "glGetIntegerui64vNV")) return;
  // MAX_SHADER_BUFFER_ADDRESS_NV, "the maximum GPU address": Vulkan device addresses are 64-bit, with no smaller
  // bound to report.
  if (value != GL_MAX_SHADER_BUFFER_ADDRESS_NV) {
    ctx->set_error(GL_INVALID_ENUM, "glGetIntegerui64vNV: value must be GL_MAX_SHADER_BUFFER_ADDRESS_NV");
    return;
  }
  if (result) *result = std::numeric_limits<GLuint64EXT>::max();
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
