// KHR_debug's annotations (GL 4.6 §20.6 - §20.9, OpenGL ES 3.2 §18.6 - §18.9): debug groups
// (glPushDebugGroup / glPopDebugGroup) and object labels (glObjectLabel, glObjectPtrLabel and their Get forms) for
// the objects the shim has: buffers, shaders, programs, queries, program pipelines and syncs. Other object types do not exist here,
// so no name is a valid object of theirs (INVALID_VALUE).
#include <cstring>

#include "framebuffers.hpp"
#include "gl_internal.hpp"
#include "gl_objects.hpp"

namespace bismuth::gl {
namespace {

// The text of a (length, string) pair as KHR_debug reads it: a negative length means NUL-terminated.
std::string text_of(GLsizei length, const GLchar* s) {
  if (s == nullptr) return {};
  return length < 0 ? std::string(s) : std::string(s, static_cast<size_t>(length));
}

// GL 4.6 §20.9: labels are returned like other strings — at most bufSize - 1 characters and a NUL, the length
// written without the NUL.
void copy_label(const std::string& label, GLsizei buf_size, GLsizei* length, GLchar* out) {
  const size_t n = out == nullptr || buf_size <= 0 ? 0 : std::min(label.size(), static_cast<size_t>(buf_size - 1));
  if (out != nullptr && buf_size > 0) {
    std::memcpy(out, label.data(), n);
    out[n] = '\0';
  }
  if (length != nullptr) *length = static_cast<GLsizei>(out == nullptr ? label.size() : n);
}

bool valid_identifier(GLenum identifier) {
  switch (identifier) {
    case GL_BUFFER:
    case GL_SHADER:
    case GL_PROGRAM:
    case GL_VERTEX_ARRAY:
    case GL_QUERY:
    case GL_PROGRAM_PIPELINE:
    case GL_TRANSFORM_FEEDBACK:
    case GL_SAMPLER:
    case GL_TEXTURE:
    case GL_RENDERBUFFER:
    case GL_FRAMEBUFFER: return true;
    default: return false;
  }
}

// The label of object `name` of type `identifier`, null when there is no such object. Shared objects are read and
// written under the share group's mutex (the caller holds it); queries belong to the context.
std::string* label_slot(Context* ctx, GLenum identifier, GLuint name) {
  ShareGroup& share = *ctx->share;
  switch (identifier) {
    case GL_BUFFER: {
      auto it = share.buffers.find(name);
      return it == share.buffers.end() ? nullptr : &it->second->label;
    }
    case GL_SHADER: {
      auto it = share.shaders.find(name);
      return it == share.shaders.end() ? nullptr : &it->second->label;
    }
    case GL_PROGRAM: {
      auto it = share.programs.find(name);
      return it == share.programs.end() ? nullptr : &it->second->label;
    }
    case GL_QUERY: {
      auto it = ctx->queries.find(name);
      return it == ctx->queries.end() ? nullptr : &it->second->label;
    }
    case GL_PROGRAM_PIPELINE: {
      auto it = ctx->pipelines.find(name);
      return it == ctx->pipelines.end() || !it->second->created ? nullptr : &it->second->label;
    }
    case GL_FRAMEBUFFER: {  // per context (framebuffers.hpp)
      auto it = ctx->framebuffers.find(name);
      return it == ctx->framebuffers.end() || !it->second ? nullptr : &it->second->label;
    }
    case GL_RENDERBUFFER: {
      auto it = share.renderbuffers.find(name);
      return it == share.renderbuffers.end() || !it->second ? nullptr : &it->second->label;
    }
    default: return nullptr;  // object types the shim does not have
  }
}

// The shared checks of glObjectLabel / glObjectPtrLabel: the label's length (GL 4.6 §20.9: "An INVALID_VALUE error
// is generated if the number of characters in label, excluding the null terminator when length is negative, is
// greater than or equal to the value of MAX_LABEL_LENGTH").
bool label_fits(Context* ctx, GLsizei length, const GLchar* label, const char* func) {
  if (label != nullptr && text_of(length, label).size() >= static_cast<size_t>(kMaxLabelLength)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the label is GL_MAX_LABEL_LENGTH characters or longer");
    return false;
  }
  return true;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

// GL 4.6 §20.6: a new group on the debug group stack with a copy of its parent's message controls, announced by a
// message of type DEBUG_TYPE_PUSH_GROUP with the given source, id and text (severity NOTIFICATION).
GLAPI void APIENTRY glPushDebugGroup(GLenum source, GLuint id, GLsizei length, const GLchar* message) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (source != GL_DEBUG_SOURCE_APPLICATION && source != GL_DEBUG_SOURCE_THIRD_PARTY) {
    ctx->set_error(GL_INVALID_ENUM, "glPushDebugGroup: source must be GL_DEBUG_SOURCE_APPLICATION or _THIRD_PARTY");
    return;
  }
  if (message == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, "glPushDebugGroup: message is NULL");
    return;
  }
  std::string text = text_of(length, message);
  if (text.size() >= static_cast<size_t>(kMaxDebugMessageLength)) {
    ctx->set_error(GL_INVALID_VALUE,
                   "glPushDebugGroup: the message is GL_MAX_DEBUG_MESSAGE_LENGTH characters or longer");
    return;
  }
  // "An error STACK_OVERFLOW is generated if ... the stack contains MAX_DEBUG_GROUP_STACK_DEPTH minus one" groups
  // besides the default one.
  if (ctx->debug_groups.size() + 1 >= kMaxDebugGroupStackDepth) {
    ctx->set_error(GL_STACK_OVERFLOW,
                   "glPushDebugGroup: the debug group stack is full (GL_MAX_DEBUG_GROUP_STACK_DEPTH)");
    return;
  }
  ctx->debug_groups.push_back({source, id, text, ctx->debug_disabled, ctx->debug_disabled_ids});
  ctx->debug(source, GL_DEBUG_TYPE_PUSH_GROUP, id, GL_DEBUG_SEVERITY_NOTIFICATION, text);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §20.6: the parent's message controls come back, and the pop is announced with the push's source, id and
// text (type DEBUG_TYPE_POP_GROUP).
GLAPI void APIENTRY glPopDebugGroup(void) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (ctx->debug_groups.empty()) {
    ctx->set_error(GL_STACK_UNDERFLOW, "glPopDebugGroup: only the default debug group is on the stack");
    return;
  }
  DebugGroup group = std::move(ctx->debug_groups.back());
  ctx->debug_groups.pop_back();
  ctx->debug_disabled = std::move(group.parent_disabled);
  ctx->debug_disabled_ids = std::move(group.parent_disabled_ids);
  ctx->debug(group.source, GL_DEBUG_TYPE_POP_GROUP, group.id, GL_DEBUG_SEVERITY_NOTIFICATION, group.message);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glObjectLabel(GLenum identifier, GLuint name, GLsizei length, const GLchar* label) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!valid_identifier(identifier)) {
    ctx->set_error(GL_INVALID_ENUM, "glObjectLabel: identifier " + hex(identifier) + " is not an object type");
    return;
  }
  if (!label_fits(ctx, length, label, "glObjectLabel")) return;
  std::lock_guard lock(ctx->share->mutex);
  std::string* slot = label_slot(ctx, identifier, name);
  if (slot == nullptr) {
    ctx->set_error(GL_INVALID_VALUE,
                   "glObjectLabel: " + std::to_string(name) + " is not an object of type " + hex(identifier));
    return;
  }
  *slot = text_of(length, label);  // a NULL label removes it
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, GLsizei* length, GLchar* label) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!valid_identifier(identifier)) {
    ctx->set_error(GL_INVALID_ENUM, "glGetObjectLabel: identifier " + hex(identifier) + " is not an object type");
    return;
  }
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetObjectLabel: bufSize is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  const std::string* slot = label_slot(ctx, identifier, name);
  if (slot == nullptr) {
    ctx->set_error(GL_INVALID_VALUE,
                   "glGetObjectLabel: " + std::to_string(name) + " is not an object of type " + hex(identifier));
    return;
  }
  copy_label(*slot, bufSize, length, label);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §20.9: the pointer-identified objects are sync objects; "An INVALID_VALUE error is generated if ptr is not
// the name of a sync object".
GLAPI void APIENTRY glObjectPtrLabel(const void* ptr, GLsizei length, const GLchar* label) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!label_fits(ctx, length, label, "glObjectPtrLabel")) return;
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->syncs.find(ptr);
  if (it == ctx->share->syncs.end()) {
    ctx->set_error(GL_INVALID_VALUE, "glObjectPtrLabel: ptr is not a sync object");
    return;
  }
  it->second->label = text_of(length, label);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetObjectPtrLabel(const void* ptr, GLsizei bufSize, GLsizei* length, GLchar* label) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetObjectPtrLabel: bufSize is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->syncs.find(ptr);
  if (it == ctx->share->syncs.end()) {
    ctx->set_error(GL_INVALID_VALUE, "glGetObjectPtrLabel: ptr is not a sync object");
    return;
  }
  copy_label(it->second->label, bufSize, length, label);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
