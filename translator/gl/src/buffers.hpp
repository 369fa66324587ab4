// Helpers shared by the buffer-object entry points (buffers.cpp, buffer_storage.cpp, buffer_copy_clear.cpp,
// buffer_mapping.cpp). Each sets the GL error its callers' rules name and returns null / false on failure.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "gl_internal.hpp"

namespace bismuth::gl {

// The buffer bound to `target`: INVALID_ENUM for a bad target, INVALID_OPERATION when none is bound.
std::shared_ptr<BufferObject> bound_buffer(Context* ctx, GLenum target, const char* func);

// The DSA form: INVALID_OPERATION when `name` is not an existing buffer object (GL 4.6 §6.1).
std::shared_ptr<BufferObject> named_buffer(Context* ctx, GLuint name, const char* func);

// GL 4.6 §6.2.1, §6.2.2, §6.3.2, §6.6: "An INVALID_VALUE error is generated if offset or size is negative, or if
// offset + size is greater than the value of BUFFER_SIZE for the buffer object" (the mathematical sum: a pair
// whose 64-bit sum wraps is outside too).
bool range_ok(Context* ctx, const BufferObject& b, GLintptr offset, GLsizeiptr size, const char* func);

// INVALID_OPERATION when the buffer is mapped, unless persistently (data calls on a mapped buffer, GL 4.6 §6.3).
bool not_mapped(Context* ctx, const BufferObject& b, const char* func);

// GL_NV_shader_buffer_load: the data stores of the buffers resident in the context (buffer_residency.cpp), for a
// dispatch of a program that reads or writes GPU addresses (backend::DispatchInfo::address_buffers). Valid until
// the next call.
std::span<const backend::BufferBinding> resident_bindings(Context* ctx);

}  // namespace bismuth::gl
