// One GL context of libbismuth-gl for one test, on the device the worker is pinned to. It records KHR_debug
// messages (validation-layer messages arrive with id kValidationMessageId when BISMUTH_VALIDATION=1) and answers
// the questions [require] asks: versions, extensions, limits.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

// libbismuth-gl reports each validation-layer message through KHR_debug with this id (docs/gl_shim.md).
constexpr GLuint kValidationMessageId = 0xB15B0001u;

class GlSession {
 public:
  // `device`: a BISMUTH_DEVICE-style selector, empty for BISMUTH_DEVICE / the default device. A desktop GL core
  // context through bismuthCreateContext.
  static Expected<std::unique_ptr<GlSession>> create(const std::string& device);
  // An OpenGL ES context of at least `version` (31: ES 3.1) through EGL (eglBindAPI(EGL_OPENGL_ES_API)), as an
  // ES application gets one; the error says which EGL call refused (a libbismuth-gl without ES contexts).
  static Expected<std::unique_ptr<GlSession>> create_es(const std::string& device, int version);
  ~GlSession();
  GlSession(const GlSession&) = delete;
  GlSession& operator=(const GlSession&) = delete;

  // The Vulkan device name behind the context (GL_RENDERER without "Bismuth on ").
  std::string device_name() const;
  // GL_VERSION / GL_SHADING_LANGUAGE_VERSION on the 430 scale of Requirement::value ("OpenGL ES 3.2 ..." is 320
  // with is_es(); "OpenGL ES GLSL ES 3.20" is 320).
  int gl_version() const;
  int glsl_version() const;
  bool is_es() const;
  bool has_extension(const std::string& name) const;
  // glGetInteger64v / glGetFloatv of the enum `name` names (any GL_... of GL/glcorearb.h); the error says why
  // there is no value: a name that is no GL enum, or the GL error the context raised for it.
  Expected<double> limit(const std::string& name, bool as_float) const;
  GLint subgroup_size() const;

  std::vector<std::string> validation_messages() const;

 private:
  GlSession() = default;
  Expected<void> start();  // after the context is current: debug callback, extension list
  static void APIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                  const GLchar* message, const void* user);
  void* context_ = nullptr;      // BismuthGLContext, or the EGLContext of an ES session
  void* egl_display_ = nullptr;  // EGLDisplay of an ES session
  std::vector<std::string> extensions_;
  mutable std::mutex mutex_;
  std::vector<std::string> validation_;
};

// The GL error name ("GL_INVALID_OPERATION") for messages.
std::string gl_error_name(GLenum error);

}  // namespace bismuth::tools::runner
