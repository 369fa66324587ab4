// Errors and KHR_debug (GL 4.6 §2.3.1, §20): glGetError, glDebugMessageCallback/Insert/Control,
// glGetDebugMessageLog, and the report of entry points outside the supported surface.
#include <cstdio>
#include <cstring>

#include "gl_internal.hpp"

namespace bismuth::gl {

namespace {

uint64_t key(GLenum source, GLenum type, GLenum severity) {
  return (uint64_t(source) << 32) ^ (uint64_t(type) << 16) ^ severity;
}
uint64_t id_key(GLenum source, GLenum type, GLuint id) { return (uint64_t(source) << 48) ^ (uint64_t(type) << 32) ^ id; }
}  // namespace

std::string hex(GLenum e) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%04X", e);
  return b;
}

void Context::set_error(GLenum code, const std::string& message) {
  if (error == GL_NO_ERROR) error = code;
  debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_ERROR, code, GL_DEBUG_SEVERITY_HIGH, message);
}

void Context::debug(GLenum source, GLenum type, GLuint id, GLenum severity, const std::string& message) {
  if (!debug_output) return;
  if (!debug_disabled.empty() && (debug_disabled.count(key(source, type, severity)) ||
                                  debug_disabled.count(key(source, type, GL_DONT_CARE)) ||
                                  debug_disabled.count(key(source, GL_DONT_CARE, severity)) ||
                                  debug_disabled.count(key(GL_DONT_CARE, type, severity)) ||
                                  debug_disabled.count(key(source, GL_DONT_CARE, GL_DONT_CARE)) ||
                                  debug_disabled.count(key(GL_DONT_CARE, type, GL_DONT_CARE)) ||
                                  debug_disabled.count(key(GL_DONT_CARE, GL_DONT_CARE, severity)) ||
                                  debug_disabled.count(key(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE)))) {
    return;
  }
  if (!debug_disabled_ids.empty() && debug_disabled_ids.count(id_key(source, type, id))) return;
  // Low-severity messages are off by default (KHR_debug: only GL_DEBUG_SEVERITY_LOW starts disabled).
  if (severity == GL_DEBUG_SEVERITY_LOW && !debug_context) return;
  if (debug_callback != nullptr) {
    std::string text = message.substr(0, kMaxDebugMessageLength - 1);
    debug_callback(source, type, id, severity, static_cast<GLsizei>(text.size()), text.c_str(), debug_user);
    return;
  }
  if (debug_log.size() < kMaxDebugLoggedMessages) {
    debug_log.push_back({source, type, severity, id, message.substr(0, kMaxDebugMessageLength - 1)});
  }
}

void Context::backend_error(const char* call, const Error& e) {
  if (backend::is_out_of_memory(e)) {
    set_error(GL_OUT_OF_MEMORY, std::string(call) + ": " + e.message);
  } else if (backend::is_device_lost(e)) {
    set_error(GL_OUT_OF_MEMORY, std::string(call) + ": the Vulkan device was lost: " + e.message);
  } else {
    set_error(GL_INVALID_OPERATION, std::string(call) + ": " + e.message);
  }
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

// Every generated stub calls this: GL_INVALID_OPERATION and a KHR_debug message naming the function.
void bismuth_gl_unsupported(const char* name) {
  Context* ctx = current_context();
  if (ctx == nullptr) return;
  try {
    ctx->set_error(GL_INVALID_OPERATION, std::string(name) +
                                             " is not supported by Bismuth (a GL compute shim): the call was ignored");
  } catch (...) {
    if (ctx->error == GL_NO_ERROR) ctx->error = GL_OUT_OF_MEMORY;
  }
}

GLAPI GLenum APIENTRY glGetError(void) {
  Context* ctx = current_context();
  if (ctx == nullptr) return GL_NO_ERROR;
  const GLenum e = ctx->error;
  ctx->error = GL_NO_ERROR;
  return e;
}

GLAPI void APIENTRY glDebugMessageCallback(GLDEBUGPROC callback, const void* userParam) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  ctx->debug_callback = callback;
  ctx->debug_user = userParam;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §22.2.6 / OpenGL ES 3.2 §20.2: the pointer state, which is KHR_debug's callback and its user parameter.
GLAPI void APIENTRY glGetPointerv(GLenum pname, void** params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  switch (pname) {
    case GL_DEBUG_CALLBACK_FUNCTION:
      if (params) *params = reinterpret_cast<void*>(ctx->debug_callback);
      return;
    case GL_DEBUG_CALLBACK_USER_PARAM:
      if (params) *params = const_cast<void*>(ctx->debug_user);
      return;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetPointerv: pname " + hex(pname) + " is not pointer state");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

static bool valid_source(GLenum s, bool allow_dont_care) {
  switch (s) {
    case GL_DEBUG_SOURCE_API: case GL_DEBUG_SOURCE_WINDOW_SYSTEM: case GL_DEBUG_SOURCE_SHADER_COMPILER:
    case GL_DEBUG_SOURCE_THIRD_PARTY: case GL_DEBUG_SOURCE_APPLICATION: case GL_DEBUG_SOURCE_OTHER: return true;
    case GL_DONT_CARE: return allow_dont_care;
    default: return false;
  }
}
static bool valid_type(GLenum t, bool allow_dont_care) {
  switch (t) {
    case GL_DEBUG_TYPE_ERROR: case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR: case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR:
    case GL_DEBUG_TYPE_PORTABILITY: case GL_DEBUG_TYPE_PERFORMANCE: case GL_DEBUG_TYPE_OTHER:
    case GL_DEBUG_TYPE_MARKER: case GL_DEBUG_TYPE_PUSH_GROUP: case GL_DEBUG_TYPE_POP_GROUP: return true;
    case GL_DONT_CARE: return allow_dont_care;
    default: return false;
  }
}
static bool valid_severity(GLenum s, bool allow_dont_care) {
  switch (s) {
    case GL_DEBUG_SEVERITY_HIGH: case GL_DEBUG_SEVERITY_MEDIUM: case GL_DEBUG_SEVERITY_LOW:
    case GL_DEBUG_SEVERITY_NOTIFICATION: return true;
    case GL_DONT_CARE: return allow_dont_care;
    default: return false;
  }
}

GLAPI void APIENTRY glDebugMessageInsert(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                         const GLchar* buf) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // KHR_debug: source must be APPLICATION or THIRD_PARTY, type and severity valid enums (INVALID_ENUM); a
  // message of MAX_DEBUG_MESSAGE_LENGTH or more characters is INVALID_VALUE.
  if (source != GL_DEBUG_SOURCE_APPLICATION && source != GL_DEBUG_SOURCE_THIRD_PARTY) {
    ctx->set_error(GL_INVALID_ENUM, "glDebugMessageInsert: source must be GL_DEBUG_SOURCE_APPLICATION or _THIRD_PARTY");
    return;
  }
  if (!valid_type(type, false) || !valid_severity(severity, false)) {
    ctx->set_error(GL_INVALID_ENUM, "glDebugMessageInsert: invalid type or severity");
    return;
  }
  if (buf == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, "glDebugMessageInsert: buf is NULL");
    return;
  }
  const size_t n = length < 0 ? std::strlen(buf) : static_cast<size_t>(length);
  if (n >= static_cast<size_t>(kMaxDebugMessageLength)) {
    ctx->set_error(GL_INVALID_VALUE, "glDebugMessageInsert: the message is longer than GL_MAX_DEBUG_MESSAGE_LENGTH");
    return;
  }
  // Application messages are delivered whatever their severity.
  const bool saved = ctx->debug_context;
  ctx->debug_context = true;
  ctx->debug(source, type, id, severity, std::string(buf, n));
  ctx->debug_context = saved;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDebugMessageControl(GLenum source, GLenum type, GLenum severity, GLsizei count,
                                          const GLuint* ids, GLboolean enabled) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!valid_source(source, true) || !valid_type(type, true) || !valid_severity(severity, true)) {
    ctx->set_error(GL_INVALID_ENUM, "glDebugMessageControl: invalid source, type or severity");
    return;
  }
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDebugMessageControl: count is negative");
    return;
  }
  if (count > 0 && (source == GL_DONT_CARE || type == GL_DONT_CARE || severity != GL_DONT_CARE)) {
    ctx->set_error(GL_INVALID_OPERATION,
                   "glDebugMessageControl: ids need a specific source and type and GL_DONT_CARE severity");
    return;
  }
  if (count > 0) {
    for (GLsizei i = 0; i < count && ids != nullptr; ++i) {
      if (enabled) {
        ctx->debug_disabled_ids.erase(id_key(source, type, ids[i]));
      } else {
        ctx->debug_disabled_ids.insert(id_key(source, type, ids[i]));
      }
    }
    return;
  }
  if (enabled) {
    ctx->debug_disabled.erase(key(source, type, severity));
    if (severity == GL_DEBUG_SEVERITY_LOW || severity == GL_DONT_CARE) ctx->debug_context = true;
  } else {
    ctx->debug_disabled.insert(key(source, type, severity));
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLuint APIENTRY glGetDebugMessageLog(GLuint count, GLsizei bufSize, GLenum* sources, GLenum* types, GLuint* ids,
                                           GLenum* severities, GLsizei* lengths, GLchar* messageLog) {
  BISMUTH_GL_BEGIN(0)
  if (bufSize < 0 && messageLog != nullptr) {
    ctx->set_error(GL_INVALID_VALUE, "glGetDebugMessageLog: bufSize is negative");
    return 0;
  }
  GLuint taken = 0;
  GLsizei used = 0;
  while (taken < count && !ctx->debug_log.empty()) {
    const DebugMessage& m = ctx->debug_log.front();
    const GLsizei length = static_cast<GLsizei>(m.text.size()) + 1;
    if (messageLog != nullptr) {
      if (used + length > bufSize) break;
      std::memcpy(messageLog + used, m.text.c_str(), static_cast<size_t>(length));
      used += length;
    }
    if (sources) sources[taken] = m.source;
    if (types) types[taken] = m.type;
    if (ids) ids[taken] = m.id;
    if (severities) severities[taken] = m.severity;
    if (lengths) lengths[taken] = length;
    ctx->debug_log.erase(ctx->debug_log.begin());
    ++taken;
  }
  return taken;
  BISMUTH_GL_END(0)
}

}  // extern "C"
