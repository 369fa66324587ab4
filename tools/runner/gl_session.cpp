#include "gl_session.hpp"

#include <cstdlib>
#include <cstring>

#include "bismuth/gl/bismuth_gl.h"

namespace bismuth::tools::runner {

namespace {

// "4.6.0 Bismuth ..." -> 460; "4.60" -> 460.
int version_number(const char* text) {
  if (text == nullptr) return 0;
  int major = 0, minor = 0;
  const char* p = text;
  while (*p >= '0' && *p <= '9') major = major * 10 + (*p++ - '0');
  if (*p != '.') return 0;
  ++p;
  const char* minor_start = p;
  while (*p >= '0' && *p <= '9' && p - minor_start < 2) minor = minor * 10 + (*p++ - '0');
  return major * 100 + (p - minor_start == 1 ? minor * 10 : minor);
}

// The limits compute tests ask [require] about. A name outside this table is reported as unknown (SKIP), never
// guessed.
struct LimitName {
  const char* name;
  GLenum pname;
};
constexpr LimitName kLimits[] = {
    {"GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS},
    {"GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", GL_MAX_COMPUTE_SHARED_MEMORY_SIZE},
    {"GL_MAX_COMPUTE_UNIFORM_COMPONENTS", GL_MAX_COMPUTE_UNIFORM_COMPONENTS},
    {"GL_MAX_COMPUTE_UNIFORM_BLOCKS", GL_MAX_COMPUTE_UNIFORM_BLOCKS},
    {"GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS},
    {"GL_MAX_COMPUTE_ATOMIC_COUNTERS", GL_MAX_COMPUTE_ATOMIC_COUNTERS},
    {"GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS", GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS},
    {"GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS", GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS},
    {"GL_MAX_COMPUTE_IMAGE_UNIFORMS", GL_MAX_COMPUTE_IMAGE_UNIFORMS},
    {"GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS", GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS},
    {"GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB", GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB},
    {"GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS},
    {"GL_MAX_SHADER_STORAGE_BLOCK_SIZE", GL_MAX_SHADER_STORAGE_BLOCK_SIZE},
    {"GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS", GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS},
    {"GL_MAX_UNIFORM_BUFFER_BINDINGS", GL_MAX_UNIFORM_BUFFER_BINDINGS},
    {"GL_MAX_UNIFORM_BLOCK_SIZE", GL_MAX_UNIFORM_BLOCK_SIZE},
    {"GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS},
    {"GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE", GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE},
    {"GL_MAX_COMBINED_ATOMIC_COUNTERS", GL_MAX_COMBINED_ATOMIC_COUNTERS},
    {"GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS", GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS},
};

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
  glDebugMessageCallback(&GlSession::on_message, session.get());
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const auto* name = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (name != nullptr) session->extensions_.emplace_back(name);
  }
  return session;
}

GlSession::~GlSession() {
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

std::optional<double> GlSession::limit(const std::string& name, bool as_float) const {
  for (const auto& l : kLimits) {
    if (name != l.name) continue;
    while (glGetError() != GL_NO_ERROR) {
    }
    double value = 0;
    if (as_float) {
      GLfloat f = 0;
      glGetFloatv(l.pname, &f);
      value = f;
    } else {
      GLint64 i = 0;
      glGetInteger64v(l.pname, &i);
      value = static_cast<double>(i);
    }
    if (glGetError() != GL_NO_ERROR) return std::nullopt;
    return value;
  }
  return std::nullopt;
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
