#include "gl_session.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdlib>
#include <cstring>

#include "bismuth/gl/bismuth_gl.h"
#include "gl_enum_names.hpp"

namespace bismuth::tools::runner {

namespace {

// "4.6.0 Bismuth ..." -> 460; "4.60" -> 460; "OpenGL ES 3.2 ..." -> 320; "OpenGL ES GLSL ES 3.20" -> 320.
int version_number(const char* text) {
  if (text == nullptr) return 0;
  for (const char* prefix : {"OpenGL ES GLSL ES ", "OpenGL ES "}) {
    if (std::strncmp(text, prefix, std::strlen(prefix)) == 0) {
      text += std::strlen(prefix);
      break;
    }
  }
  int major = 0, minor = 0;
  const char* p = text;
  while (*p >= '0' && *p <= '9') major = major * 10 + (*p++ - '0');
  if (*p != '.') return 0;
  ++p;
  const char* minor_start = p;
  while (*p >= '0' && *p <= '9' && p - minor_start < 2) minor = minor * 10 + (*p++ - '0');
  return major * 100 + (p - minor_start == 1 ? minor * 10 : minor);
}

}  // namespace

std::string gl_error_name(GLenum error) {
  switch (error) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    default: {
      char text[32];
      std::snprintf(text, sizeof text, "GL error 0x%04X", error);
      return text;
    }
  }
}

Expected<std::unique_ptr<GlSession>> GlSession::create(const std::string& device) {
  BismuthGLContextOptions options{};
  options.device = device.empty() ? nullptr : device.c_str();
  const char* validation = std::getenv("BISMUTH_VALIDATION");
  options.enable_validation = validation != nullptr && std::strcmp(validation, "1") == 0;
  options.debug = 1;
  BismuthGLContext context = bismuthCreateContext(&options);
  if (context == nullptr) return fail(std::string("bismuthCreateContext: ") + bismuthGetLastErrorString());
  std::unique_ptr<GlSession> session(new GlSession());
  session->context_ = context;
  if (!bismuthMakeCurrent(context)) return fail("bismuthMakeCurrent failed");
  if (auto started = session->start(); !started) return started.error();
  return session;
}

Expected<std::unique_ptr<GlSession>> GlSession::create_es(const std::string& device, int version) {
  // The EGL default display follows BISMUTH_DEVICE (and BISMUTH_VALIDATION, inherited from the parent).
  if (!device.empty()) setenv("BISMUTH_DEVICE", device.c_str(), 1);
  const std::string what =
      "an OpenGL ES " + std::to_string(version / 10) + "." + std::to_string(version % 10) + " context";
  auto egl_failed = [&](const char* call) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04X", static_cast<unsigned>(eglGetError()));
    return fail(what + ": " + call + " failed (EGL error " + code + ")");
  };
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) return egl_failed("eglInitialize");
  std::unique_ptr<GlSession> session(new GlSession());
  session->egl_display_ = display;
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return egl_failed("eglBindAPI(EGL_OPENGL_ES_API)");
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                               version / 10,
                               EGL_CONTEXT_MINOR_VERSION,
                               version % 10,
                               EGL_CONTEXT_OPENGL_DEBUG,
                               EGL_TRUE,
                               EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT) return egl_failed("eglCreateContext");
  session->context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) return egl_failed("eglMakeCurrent");
  if (auto started = session->start(); !started) return started.error();
  return session;
}

Expected<void> GlSession::start() {
  glDebugMessageCallback(&GlSession::on_message, this);
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const auto* name = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (name != nullptr) extensions_.emplace_back(name);
  }
  return {};
}

GlSession::~GlSession() {
  if (egl_display_ != nullptr) {
    eglMakeCurrent(egl_display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != nullptr) eglDestroyContext(egl_display_, context_);
    eglTerminate(egl_display_);
    return;
  }
  bismuthMakeCurrent(nullptr);
  bismuthDestroyContext(static_cast<BismuthGLContext>(context_));
}

void APIENTRY GlSession::on_message(GLenum, GLenum, GLuint id, GLenum, GLsizei length, const GLchar* message,
                                    const void* user) {
  if (id != kValidationMessageId) return;
  auto* self = static_cast<GlSession*>(const_cast<void*>(user));
  std::lock_guard lock(self->mutex_);
  self->validation_.emplace_back(message, length < 0 ? std::strlen(message) : static_cast<size_t>(length));
}

std::string GlSession::device_name() const {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::string name = renderer ? renderer : "";
  const std::string prefix = "Bismuth on ";
  if (name.rfind(prefix, 0) == 0) name.erase(0, prefix.size());
  return name;
}

int GlSession::gl_version() const {
  return version_number(reinterpret_cast<const char*>(glGetString(GL_VERSION)));
}

int GlSession::glsl_version() const {
  return version_number(reinterpret_cast<const char*>(glGetString(GL_SHADING_LANGUAGE_VERSION)));
}

bool GlSession::has_extension(const std::string& name) const {
  for (const auto& e : extensions_) {
    if (e == name) return true;
  }
  return false;
}

bool GlSession::is_es() const {
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return version != nullptr && std::strncmp(version, "OpenGL ES", 9) == 0;
}

Expected<double> GlSession::limit(const std::string& name, bool as_float) const {
  const auto pname = gl_enum_value(name);
  if (!pname) return fail(name + " is not a GL enum (GL/glcorearb.h)");
  while (glGetError() != GL_NO_ERROR) {
  }
  double value = 0;
  if (as_float) {
    GLfloat f = 0;
    glGetFloatv(*pname, &f);
    value = f;
  } else {
    GLint64 i = 0;
    glGetInteger64v(*pname, &i);
    value = static_cast<double>(i);
  }
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return fail(std::string("the context does not answer ") + (as_float ? "glGetFloatv(" : "glGetInteger64v(") + name +
                "): " + gl_error_name(e));
  }
  return value;
}

GLint GlSession::subgroup_size() const {
  GLint size = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
  return size;
}

std::vector<std::string> GlSession::validation_messages() const {
  std::lock_guard lock(mutex_);
  return validation_;
}

}  // namespace bismuth::tools::runner
