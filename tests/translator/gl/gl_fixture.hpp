// Tests of libbismuth-gl through its public GL and EGL API only. Every test creates its context through EGL with
// BISMUTH_VALIDATION=1: the shim's Vulkan instance runs VK_LAYER_KHRONOS_validation and reports each message
// through KHR_debug with id kValidationMessageId; the fixture's glDebugMessageCallback records them and
// REQUIRE_NO_GL_VALIDATION_MESSAGES fails the test on any.
#pragma once

#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace bismuth::gltest {

constexpr GLuint kValidationMessageId = 0xB15B0001u;

struct DebugRecord {
  GLenum source, type, severity;
  GLuint id;
  std::string text;
};

class GlContext {
 public:
  // debug: a debug context (EGL_CONTEXT_OPENGL_DEBUG), whose KHR_debug output includes low-severity messages.
  explicit GlContext(EGLint major = 4, EGLint minor = 6, bool debug = false) {
    setenv("BISMUTH_VALIDATION", "1", 0);
    display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
    REQUIRE(display != EGL_NO_DISPLAY);
    REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
    REQUIRE(eglBindAPI(EGL_OPENGL_API) == EGL_TRUE);
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint count = 0;
    REQUIRE(eglChooseConfig(display, config_attribs, &config, 1, &count) == EGL_TRUE);
    REQUIRE(count == 1);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                              major,
                              EGL_CONTEXT_MINOR_VERSION,
                              minor,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK,
                              EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                              EGL_CONTEXT_OPENGL_DEBUG,
                              debug ? EGL_TRUE : EGL_FALSE,
                              EGL_NONE};
    context = eglCreateContext(display, config, EGL_NO_CONTEXT, attribs);
    REQUIRE(context != EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
    install_callback();
  }
  ~GlContext() {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
  }
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  void install_callback() { glDebugMessageCallback(&GlContext::on_message, this); }

  std::vector<DebugRecord> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  std::vector<std::string> validation_messages() const {
    std::vector<std::string> out;
    for (const auto& m : messages()) {
      if (m.id == kValidationMessageId) out.push_back(m.text);
    }
    return out;
  }
  bool saw_message_containing(const std::string& text) const {
    for (const auto& m : messages()) {
      if (m.text.find(text) != std::string::npos) return true;
    }
    return false;
  }
  void clear_messages() {
    std::lock_guard lock(mutex_);
    messages_.clear();
  }

  EGLDisplay display = EGL_NO_DISPLAY;
  EGLConfig config = nullptr;
  EGLContext context = EGL_NO_CONTEXT;

 private:
  static void APIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                  const GLchar* message, const void* user) {
    auto* self = static_cast<GlContext*>(const_cast<void*>(user));
    std::lock_guard lock(self->mutex_);
    self->messages_.push_back({source, type, severity, id, std::string(message, static_cast<size_t>(length))});
  }
  mutable std::mutex mutex_;
  std::vector<DebugRecord> messages_;
};

// `name` is in the current context's GL_EXTENSIONS (glGetStringi).
inline bool has_extension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const auto* extension = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (std::string(extension) == name) return true;
  }
  return false;
}

// Compiles and links one compute shader; REQUIREs success and returns the program.
inline GLuint make_program(const std::string& source) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    FAIL("compile failed: " << log);
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    FAIL("link failed: " << log);
  }
  return program;
}

inline GLuint make_buffer(GLsizeiptr bytes, const void* data = nullptr, GLenum usage = GL_DYNAMIC_COPY) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, data, usage);
  return b;
}

inline std::vector<uint32_t> read_words(GLuint buffer, size_t words) {
  std::vector<uint32_t> out(words);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(words * 4), out.data());
  return out;
}

}  // namespace bismuth::gltest

#define REQUIRE_GL_ERROR(expected) REQUIRE(glGetError() == static_cast<GLenum>(expected))
#define REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx)              \
  do {                                                      \
    const auto bismuth_msgs_ = (ctx).validation_messages(); \
    for (const auto& m : bismuth_msgs_) UNSCOPED_INFO(m);   \
    REQUIRE(bismuth_msgs_.empty());                         \
  } while (false)
