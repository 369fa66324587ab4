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
  // `device`: a BISMUTH_DEVICE-style selector, empty for BISMUTH_DEVICE / the default device.
  static Expected<std::unique_ptr<GlSession>> create(const std::string& device);
  ~GlSession();
  GlSession(const GlSession&) = delete;
  GlSession& operator=(const GlSession&) = delete;

  // The Vulkan device name behind the context (GL_RENDERER without "Bismuth on ").
  std::string device_name() const;
  // GL_VERSION / GL_SHADING_LANGUAGE_VERSION on the 430 scale of Requirement::value.
  int gl_version() const;
  int glsl_version() const;
  bool has_extension(const std::string& name) const;
  // glGetIntegerv / glGetFloatv of a GL_MAX_... name; nullopt when the name is unknown to the runner or the
  // context rejects it.
  std::optional<double> limit(const std::string& name, bool as_float) const;
  GLint subgroup_size() const;

  std::vector<std::string> validation_messages() const;

 private:
  GlSession() = default;
  static void APIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                  const GLchar* message, const void* user);
  void* context_ = nullptr;  // BismuthGLContext
  std::vector<std::string> extensions_;
  mutable std::mutex mutex_;
  std::vector<std::string> validation_;
};

// The GL error name ("GL_INVALID_OPERATION") for messages.
std::string gl_error_name(GLenum error);

}  // namespace bismuth::tools::runner
