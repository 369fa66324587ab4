// OpenGL ES 3.1 / 3.2 contexts through EGL (docs/gl_shim.md, "OpenGL ES contexts"): the EGL rules for the ES API,
// the version strings and the state an ES context has or lacks, the GLSL ES #version rule per context, and an ES
// dispatch under the validation layer. Each test quotes the EGL 1.5 / OpenGL ES 3.2 / GLSL ES rule it checks.
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

namespace {

using bismuth::gltest::kValidationMessageId;

EGLDisplay es_display() {
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(display != EGL_NO_DISPLAY);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  return display;
}

// eglCreateContext for the ES API with `attribs`; the EGL error in *error.
EGLContext create_es(EGLDisplay display, const EGLint* attribs, EGLint* error, EGLContext share = EGL_NO_CONTEXT) {
  REQUIRE(eglBindAPI(EGL_OPENGL_ES_API) == EGL_TRUE);
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, share, attribs);
  *error = eglGetError();
  return context;
}

// A current OpenGL ES context of the version asked for, with a debug callback that records validation messages.
class EsContext {
 public:
  explicit EsContext(EGLint minor) : display(es_display()) {
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE};
    EGLint error = EGL_SUCCESS;
    context = create_es(display, attribs, &error);
    INFO("EGL error " << error);
    REQUIRE(context != EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
    glDebugMessageCallback(&EsContext::on_message, this);
  }
  ~EsContext() {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
  }
  EsContext(const EsContext&) = delete;
  EsContext& operator=(const EsContext&) = delete;

  std::vector<std::string> validation_messages;
  EGLDisplay display;
  EGLContext context = EGL_NO_CONTEXT;

 private:
  static void APIENTRY on_message(GLenum, GLenum, GLuint id, GLenum, GLsizei length, const GLchar* message,
                                  const void* user) {
    auto* self = static_cast<EsContext*>(const_cast<void*>(user));
    if (id == kValidationMessageId) self->validation_messages.emplace_back(message, static_cast<size_t>(length));
  }
};

// The context's GL_MAJOR_VERSION * 10 + GL_MINOR_VERSION, -1 when its GL_VERSION is not an OpenGL ES one.
int es_version(EGLDisplay display, EGLContext context) {
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const bool es = version != nullptr && std::strncmp(version, "OpenGL ES ", 10) == 0;
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  return es ? major * 10 + minor : -1;
}

struct Compile {
  bool ok = false;
  std::string log;
};

Compile compile(const std::string& source) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  char log[2048] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  glDeleteShader(shader);
  return {ok != 0, log};
}

std::string storage_shader(const std::string& version) {
  return "#version " + version +
         "\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\n"
         "void main() { v[gl_GlobalInvocationID.x] = 1u; }\n";
}

}  // namespace

TEST_CASE("OpenGL ES is a thread's initial EGL API, eglBindAPI selects either API, eglReleaseThread resets it") {
  std::thread([] {
    // EGL 1.5 §3.7: "The initial value of the current rendering API is EGL_OPENGL_ES_API, unless OpenGL ES is not
    // supported by an implementation".
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    CHECK(eglBindAPI(EGL_OPENGL_API) == EGL_TRUE);
    CHECK(eglQueryAPI() == EGL_OPENGL_API);
    // EGL 1.5 §3.11: eglReleaseThread returns the thread's EGL state to its initial values.
    CHECK(eglReleaseThread() == EGL_TRUE);
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
  }).join();
}

TEST_CASE("The config renders OpenGL ES 3 and the display lists OpenGL_ES") {
  EGLDisplay display = es_display();
  // EGL 1.5 §3.3: EGL_CLIENT_APIS is a space-separated list of the supported client APIs ("OpenGL_ES" for ES).
  const std::string apis = eglQueryString(display, EGL_CLIENT_APIS);
  CHECK(apis.find("OpenGL_ES") != std::string::npos);
  const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_CONFORMANT, EGL_OPENGL_ES3_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  REQUIRE(eglChooseConfig(display, wanted, &config, 1, &count) == EGL_TRUE);
  REQUIRE(count == 1);
  EGLint renderable = 0;
  REQUIRE(eglGetConfigAttrib(display, config, EGL_RENDERABLE_TYPE, &renderable) == EGL_TRUE);
  CHECK((renderable & EGL_OPENGL_ES3_BIT) != 0);
  CHECK((renderable & EGL_OPENGL_BIT) != 0);
}

TEST_CASE("An ES request gets the version asked or a later backwards-compatible one, else EGL_BAD_MATCH") {
  EGLDisplay display = es_display();
  // EGL 1.5 §3.7.1.1: "The context returned must be the specified version, or a later version which is backwards
  // compatible with that version." OpenGL ES 3.x is backwards compatible with ES 2.0 and with the earlier 3.x.
  const struct { EGLint major, minor; } compatible[] = {{2, 0}, {3, 0}, {3, 1}, {3, 2}};
  for (const auto& v : compatible) {
    INFO("requested ES " << v.major << "." << v.minor);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, v.major, EGL_CONTEXT_MINOR_VERSION, v.minor, EGL_NONE};
    EGLint error = EGL_SUCCESS;
    EGLContext context = create_es(display, attribs, &error);
    REQUIRE(context != EGL_NO_CONTEXT);
    const int got = es_version(display, context);
    CHECK(got >= v.major * 10 + v.minor);
    CHECK(got < 40);  // an OpenGL ES 2.x or 3.x context
    EGLint client_version = 0;
    // EGL 1.5 §3.7.4: EGL_CONTEXT_CLIENT_VERSION is the major version of the context.
    CHECK(eglQueryContext(display, context, EGL_CONTEXT_CLIENT_VERSION, &client_version) == EGL_TRUE);
    CHECK(client_version == got / 10);
    eglDestroyContext(display, context);
  }
  // ES 1.x (fixed function) is not backwards compatible with 2.0+; 3.3 and 4.0 do not exist. The default version is
  // 1.0 (EGL 1.5 §3.7.1.1).
  const EGLint es10[] = {EGL_CONTEXT_MAJOR_VERSION, 1, EGL_NONE};
  const EGLint es33[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  const EGLint es40[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_NONE};
  for (const EGLint* attribs : {es10, es33, es40, static_cast<const EGLint*>(nullptr)}) {
    EGLint error = EGL_SUCCESS;
    EGLContext context = create_es(display, attribs, &error);
    if (context != EGL_NO_CONTEXT) {
      CHECK(es_version(display, context) / 10 == 1);  // only an ES 1.x context could answer these
      eglDestroyContext(display, context);
    } else {
      CHECK(error == EGL_BAD_MATCH);
    }
  }
}

TEST_CASE("OpenGL-only context attributes are EGL_BAD_ATTRIBUTE for an ES context") {
  EGLDisplay display = es_display();
  // EGL_KHR_create_context: the profile mask, forward compatibility and the context flags "are only meaningful for
  // OpenGL contexts, and specifying [them] for other types of contexts, including OpenGL ES contexts, will generate
  // an error"; EGL 1.5 §3.7.1: an attribute not meaningful for the client API is EGL_BAD_ATTRIBUTE.
  const EGLint profile[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  const EGLint forward[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE, EGL_TRUE, EGL_NONE};
  const EGLint flags[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR,
                          EGL_NONE};
  for (const EGLint* attribs : {profile, forward, flags}) {
    EGLint error = EGL_SUCCESS;
    CHECK(create_es(display, attribs, &error) == EGL_NO_CONTEXT);
    CHECK(error == EGL_BAD_ATTRIBUTE);
  }
  // EGL 1.5 §3.7.1: EGL_CONTEXT_OPENGL_DEBUG applies to OpenGL and OpenGL ES contexts; ES 3.2 reports it as
  // CONTEXT_FLAG_DEBUG_BIT.
  const EGLint debug[] = {
      EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE, EGL_NONE};
  EGLint error = EGL_SUCCESS;
  EGLContext context = create_es(display, debug, &error);
  REQUIRE(context != EGL_NO_CONTEXT);
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
  GLint context_flags = 0;
  glGetIntegerv(GL_CONTEXT_FLAGS, &context_flags);
  CHECK((context_flags & GL_CONTEXT_FLAG_DEBUG_BIT) != 0);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
}

TEST_CASE("OpenGL and OpenGL ES contexts do not share objects") {
  EGLDisplay display = es_display();
  REQUIRE(eglBindAPI(EGL_OPENGL_API) == EGL_TRUE);
  const EGLint gl[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext desktop = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, gl);
  REQUIRE(desktop != EGL_NO_CONTEXT);
  const EGLint es[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLint error = EGL_SUCCESS;
  // EGL 1.5 §3.7.1: "If share_context is neither EGL_NO_CONTEXT nor a valid context of the same client API type as
  // the newly created context, then an EGL_BAD_CONTEXT error is generated."
  CHECK(create_es(display, es, &error, desktop) == EGL_NO_CONTEXT);
  CHECK(error == EGL_BAD_CONTEXT);
  EGLContext es_context = create_es(display, es, &error);
  REQUIRE(es_context != EGL_NO_CONTEXT);
  REQUIRE(eglBindAPI(EGL_OPENGL_API) == EGL_TRUE);
  CHECK(eglCreateContext(display, EGL_NO_CONFIG_KHR, es_context, gl) == EGL_NO_CONTEXT);
  CHECK(eglGetError() == EGL_BAD_CONTEXT);
  // Two ES contexts do share.
  EGLContext es_shared = create_es(display, es, &error, es_context);
  CHECK(es_shared != EGL_NO_CONTEXT);
  EGLint type = 0;
  CHECK(eglQueryContext(display, es_context, EGL_CONTEXT_CLIENT_TYPE, &type) == EGL_TRUE);
  CHECK(type == EGL_OPENGL_ES_API);
  eglDestroyContext(display, es_shared);
  eglDestroyContext(display, es_context);
  eglDestroyContext(display, desktop);
}

TEST_CASE("An ES context reports ES strings and lacks desktop-only state") {
  EsContext es(1);
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  // OpenGL ES 3.2 §20.2: "OpenGL ES <version number><space><vendor-specific information>" and "OpenGL ES GLSL ES
  // <version number><space><vendor-specific information>", the numbers matching MAJOR/MINOR_VERSION.
  const std::string version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const std::string glsl = reinterpret_cast<const char*>(glGetString(GL_SHADING_LANGUAGE_VERSION));
  const std::string number = std::to_string(major) + "." + std::to_string(minor);
  CHECK(version.rfind("OpenGL ES " + number + " ", 0) == 0);
  CHECK(glsl.rfind("OpenGL ES GLSL ES " + number + "0 ", 0) == 0);
  // ES keeps GetString(EXTENSIONS): the names glGetStringi lists, separated by spaces.
  const char* extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  REQUIRE(extensions != nullptr);
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  const std::string joined = std::string(" ") + extensions + " ";
  for (GLint i = 0; i < count; ++i) {
    const std::string name = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    CHECK(joined.find(" " + name + " ") != std::string::npos);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // ES 3.2 §20.2: "An INVALID_ENUM error is generated [by GetStringi] if name is not EXTENSIONS".
  CHECK(glGetStringi(GL_SHADING_LANGUAGE_VERSION, 0) == nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // Desktop state ES 3.2's tables do not have: INVALID_ENUM (ES 3.2 §20.1).
  for (GLenum pname : {GL_CONTEXT_PROFILE_MASK, GL_NUM_SHADING_LANGUAGE_VERSIONS, GL_QUERY_BUFFER_BINDING}) {
    GLint value = 0;
    glGetIntegerv(pname, &value);
    CHECK(glGetError() == GL_INVALID_ENUM);
  }
  // ES 3.2 §7.2: a binary format outside SHADER_BINARY_FORMATS is INVALID_ENUM; SPIR-V is GL 4.6's.
  GLint formats = -1;
  glGetIntegerv(GL_NUM_SHADER_BINARY_FORMATS, &formats);
  CHECK(formats == 0);
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const uint32_t module[5] = {0x07230203u, 0x00010000u, 0u, 1u, 0u};
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, module, sizeof module);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glDeleteShader(shader);
  CHECK(es.validation_messages.empty());
}

TEST_CASE("Each context compiles the GLSL versions of its API") {
  {
    EsContext es31(1);
    // GLSL ES 3.20 §3.4: "Any number representing a version of the language a compiler does not support will cause
    // a compile-time error"; ES 3.1 supports GLSL ES up to 3.10.
    CHECK(compile(storage_shader("310 es")).ok);
    const Compile es320 = compile(storage_shader("320 es"));
    CHECK_FALSE(es320.ok);
    CHECK(es320.log.find("320 es") != std::string::npos);
    const Compile desktop = compile(storage_shader("430"));
    CHECK_FALSE(desktop.ok);
    CHECK(desktop.log.find("0:1(") == 0);  // an info-log line at the #version directive
    // GLSL ES 3.00 has no compute shaders; a shader without #version is GLSL ES 1.00, which has none either.
    CHECK_FALSE(compile(storage_shader("300 es")).ok);
    CHECK_FALSE(compile("// no version\nlayout(local_size_x = 1) in;\nvoid main() {}\n").ok);
  }
  {
    EsContext es32(2);
    CHECK(compile(storage_shader("310 es")).ok);
    CHECK(compile(storage_shader("320 es")).ok);
  }
  {
    bismuth::gltest::GlContext desktop;
    // GL 4.6 includes ARB_ES3_1_compatibility: "310 es" compiles and GetStringi lists it (GL 4.6 §22.2).
    CHECK(compile(storage_shader("310 es")).ok);
    GLint versions = 0;
    glGetIntegerv(GL_NUM_SHADING_LANGUAGE_VERSIONS, &versions);
    bool lists_310es = false;
    for (GLint i = 0; i < versions; ++i) {
      lists_310es |=
          std::string(reinterpret_cast<const char*>(glGetStringi(GL_SHADING_LANGUAGE_VERSION, i))) == "310 es";
    }
    CHECK(lists_310es);
    // GLSL ES 3.20 needs ARB_ES3_2_compatibility in desktop GL.
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    bool es32_compatibility = false;
    for (GLint i = 0; i < count; ++i) {
      es32_compatibility |=
          std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i)), "GL_ARB_ES3_2_compatibility") == 0;
    }
    if (!es32_compatibility) CHECK_FALSE(compile(storage_shader("320 es")).ok);
    REQUIRE_NO_GL_VALIDATION_MESSAGES(desktop);
  }
}

TEST_CASE("An ES 3.1 dispatch writes storage buffers that glMapBufferRange reads back") {
  EsContext es(1);
  const GLuint program = bismuth::gltest::make_program(
      "#version 310 es\n"
      "precision mediump float;\n"
      "layout(local_size_x = 32) in;\n"
      "layout(std430, binding = 0) buffer Out { highp uint values[]; };\n"
      "uniform highp uint offset;\n"
      "void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + offset; }\n");
  const GLuint buffer = bismuth::gltest::make_buffer(64 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "offset"), 5u);
  glDispatchCompute(2, 1, 1);
  // ES 3.1 §7.11.2: BUFFER_UPDATE_BARRIER_BIT orders shader writes before buffer reads through mapping.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const auto* values =
      static_cast<const uint32_t*>(glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 64 * 4, GL_MAP_READ_BIT));
  REQUIRE(values != nullptr);
  for (uint32_t i = 0; i < 64; ++i) CHECK(values[i] == i * 3u + 5u);
  CHECK(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  CHECK(es.validation_messages.empty());
}

TEST_CASE("eglGetProcAddress gives KHR_debug's KHR-suffixed names, the names of OpenGL ES 3.1") {
  // KHR_debug: "In OpenGL ES contexts, all entry points have a KHR suffix" (ES 3.2 made them core without it).
  for (const char* name : {"glDebugMessageCallback", "glDebugMessageControl", "glDebugMessageInsert",
                           "glGetDebugMessageLog", "glGetPointerv", "glPushDebugGroup", "glPopDebugGroup",
                           "glObjectLabel", "glGetObjectLabel", "glObjectPtrLabel", "glGetObjectPtrLabel"}) {
    INFO(name);
    const auto core = eglGetProcAddress(name);
    CHECK(core != nullptr);
    CHECK(eglGetProcAddress((std::string(name) + "KHR").c_str()) == core);
  }
  CHECK(eglGetProcAddress("glDispatchComputeKHR") == nullptr);  // not a KHR_debug function
  EsContext es(1);
  // ES 3.2 §20.2 / KHR_debug: GetPointerv(DEBUG_CALLBACK_FUNCTION / _USER_PARAM) return what was installed.
  void* callback = nullptr;
  void* user = nullptr;
  glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &callback);
  glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &user);
  CHECK(callback != nullptr);
  CHECK(user == &es);
  glGetPointerv(GL_ARRAY_BUFFER_BINDING, &user);
  CHECK(glGetError() == GL_INVALID_ENUM);
  // ES 3.2 §7.2: glReleaseShaderCompiler is a hint; compiling afterwards still works.
  glReleaseShaderCompiler();
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(compile(storage_shader("310 es")).ok);
}

TEST_CASE("glGetBufferPointerv returns the mapping's pointer, the only way OpenGL ES has to ask for it") {
  EsContext es(1);
  const GLuint buffer = bismuth::gltest::make_buffer(256);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  void* pointer = &es;
  // ES 3.2 §6.6: BUFFER_MAP_POINTER is NULL while the buffer is not mapped, the mapping's pointer while it is.
  glGetBufferPointerv(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_MAP_POINTER, &pointer);
  CHECK(pointer == nullptr);
  void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 64, 128, GL_MAP_WRITE_BIT);
  REQUIRE(mapped != nullptr);
  glGetBufferPointerv(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_MAP_POINTER, &pointer);
  CHECK(pointer == mapped);
  CHECK(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
  glGetBufferPointerv(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_MAP_POINTER, &pointer);
  CHECK(pointer == nullptr);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetBufferPointerv(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_SIZE, &pointer);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glDeleteBuffers(1, &buffer);
}

TEST_CASE("glGetShaderPrecisionFormat meets GLSL ES's precision minimums") {
  EsContext es(1);
  // GLSL ES 3.10 §4.7.2: the minimum range (as log2 of the magnitudes) and precision (bits) of each qualifier.
  const struct {
    GLenum type;
    GLint min, max, bits;
  } minimums[] = {
      {GL_HIGH_FLOAT, 126, 127, 23}, {GL_MEDIUM_FLOAT, 14, 14, 10}, {GL_LOW_FLOAT, 1, 1, 8},
      {GL_HIGH_INT, 31, 30, 0},      {GL_MEDIUM_INT, 15, 14, 0},    {GL_LOW_INT, 8, 7, 0},
  };
  for (GLenum shader : {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER}) {
    for (const auto& m : minimums) {
      INFO("precision type " << m.type);
      GLint range[2] = {-1, -1}, precision = -1;
      glGetShaderPrecisionFormat(shader, m.type, range, &precision);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      CHECK(range[0] >= m.min);
      CHECK(range[1] >= m.max);
      CHECK(precision >= m.bits);
    }
  }
  GLint range[2], precision;
  glGetShaderPrecisionFormat(GL_VERTEX_SHADER, GL_RGBA, range, &precision);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glGetShaderPrecisionFormat(GL_RGBA, GL_HIGH_FLOAT, range, &precision);
  CHECK(glGetError() == GL_INVALID_ENUM);
}

TEST_CASE("An ES context takes the buffer targets and barrier bits of OpenGL ES") {
  EsContext es31(1);
  const GLuint buffer = bismuth::gltest::make_buffer(16);
  // OpenGL ES 3.1 table 6.1 has no QUERY_BUFFER (desktop GL's) and no TEXTURE_BUFFER (ES 3.2's): "An INVALID_ENUM
  // error is generated if target is not one of the targets in table 6.1".
  glBindBuffer(GL_QUERY_BUFFER, buffer);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, buffer);
  CHECK(glGetError() == GL_NO_ERROR);
  // ES 3.1 §7.11.2: "An INVALID_VALUE error is generated if barriers is not the special value ALL_BARRIER_BITS, and
  // has any bits set other than those described above" — which do not include desktop GL's QUERY_BUFFER barrier
  // bit; CLIENT_MAPPED_BUFFER_BARRIER_BIT_EXT comes with EXT_buffer_storage.
  glMemoryBarrier(GL_QUERY_BUFFER_BARRIER_BIT);
  CHECK(glGetError() == GL_INVALID_VALUE);
  const char* extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  const bool buffer_storage =
      (std::string(" ") + extensions + " ").find(" GL_EXT_buffer_storage ") != std::string::npos;
  glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
  CHECK(glGetError() == (buffer_storage ? GL_NO_ERROR : GL_INVALID_VALUE));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  CHECK(glGetError() == GL_NO_ERROR);
  // With NO_RESET_NOTIFICATION "GetGraphicsResetStatus will always return NO_ERROR" (ES 3.2 §2.3.2).
  GLint strategy = 0;
  glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &strategy);
  if (strategy == GL_NO_RESET_NOTIFICATION) CHECK(glGetGraphicsResetStatus() == GL_NO_ERROR);
  CHECK(glGetError() == GL_NO_ERROR);
  glDeleteBuffers(1, &buffer);
  {
    EsContext es32(2);
    const GLuint texture_buffer = bismuth::gltest::make_buffer(16);
    glBindBuffer(GL_TEXTURE_BUFFER, texture_buffer);  // ES 3.2 table 6.1 has it
    CHECK(glGetError() == GL_NO_ERROR);
    glDeleteBuffers(1, &texture_buffer);
  }
}

TEST_CASE("EXT_buffer_storage gives ES contexts persistent, coherent maps") {
  EsContext es(1);
  const std::string extensions = std::string(" ") + reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS)) + " ";
  REQUIRE(extensions.find(" GL_EXT_buffer_storage ") != std::string::npos);
  // EXT_buffer_storage: BufferStorageEXT, with MAP_PERSISTENT_BIT_EXT / MAP_COHERENT_BIT_EXT (the values of GL's).
  using BufferStorageEXT = void(APIENTRY*)(GLenum, GLsizeiptr, const void*, GLbitfield);
  const auto buffer_storage = reinterpret_cast<BufferStorageEXT>(eglGetProcAddress("glBufferStorageEXT"));
  REQUIRE(buffer_storage != nullptr);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
  buffer_storage(GL_SHADER_STORAGE_BUFFER, 64 * 4, nullptr, flags);
  GLint immutable = 0;
  glGetBufferParameteriv(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE, &immutable);
  CHECK(immutable == GL_TRUE);
  auto* words = static_cast<uint32_t*>(glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 64 * 4, flags));
  REQUIRE(words != nullptr);
  for (uint32_t i = 0; i < 32; ++i) words[i] = i + 1;  // coherent: visible to the next commands without an unmap
  const GLuint program = bismuth::gltest::make_program(
      "#version 310 es\n"
      "layout(local_size_x = 32) in;\n"
      "layout(std430, binding = 0) buffer B { uint v[64]; };\n"
      "void main() { v[32u + gl_LocalInvocationIndex] = v[gl_LocalInvocationIndex] * 10u; }\n");
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  // "CLIENT_MAPPED_BUFFER_BARRIER_BIT_EXT: ... shader writes to persistent maps are visible to the client once a fence
  // issued after the barrier has completed."
  glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
  GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  CHECK(glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull) != GL_WAIT_FAILED);
  glDeleteSync(fence);
  for (uint32_t i = 0; i < 32; ++i) CHECK(words[32 + i] == (i + 1) * 10u);
  CHECK(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteProgram(program);
  glDeleteBuffers(1, &buffer);
  CHECK(es.validation_messages.empty());
}

// OpenGL ES 3.1 §8.8 / ES 3.2 §8.8: TexStorage2DMultisample in both; TexStorage3DMultisample and
// TEXTURE_2D_MULTISAMPLE_ARRAY from ES 3.2 on (ES 3.2 §8.1: an ES 3.1 context has no such target: INVALID_ENUM).
// ES 3.1 §8.8: "An INVALID_ENUM error is generated if internalformat is not color-renderable, depth-renderable, or
// stencil-renderable"; RGBA8_SNORM is not color-renderable in ES (ES 3.2 table 8.10).
TEST_CASE("OpenGL ES multisample textures: 2D from ES 3.1, arrays from ES 3.2", "[textures][multisample]") {
  for (EGLint minor : {1, 2}) {
    CAPTURE(minor);
    EsContext es(minor);
    GLint n = 0;
    glGetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8, GL_NUM_SAMPLE_COUNTS, 1, &n);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    if (n == 0) {
      WARN("no multisample RGBA8 textures on this device: skipped");
      return;
    }
    GLint counts[8] = {};
    glGetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8, GL_SAMPLES, 8, counts);
    GLuint t[2] = {};
    glGenTextures(2, t);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t[0]);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts[0], GL_RGBA8_SNORM, 4, 4, GL_TRUE);
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts[0], GL_RGBA8, 4, 4, GL_TRUE);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    GLint samples = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES, &samples);
    CHECK(samples == counts[0]);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, t[1]);
    REQUIRE_GL_ERROR(minor >= 2 ? GL_NO_ERROR : GL_INVALID_ENUM);
    glTexStorage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, counts[0], GL_RGBA8, 4, 4, 2, GL_TRUE);
    REQUIRE_GL_ERROR(minor >= 2 ? GL_NO_ERROR : GL_INVALID_ENUM);
    glDeleteTextures(2, t);
    CHECK(es.validation_messages.empty());
  }
}

TEST_CASE("An ES 3.2 context has the ETC2 / EAC compressed formats only, and samples them", "[compressed]") {
  EsContext es(2);
  // OpenGL ES 3.2 §8.7 / table 8.19: the ETC2 and EAC formats are the compressed formats of ES; RGTC, BPTC and S3TC
  // are extensions there, so COMPRESSED_TEXTURE_FORMATS lists the ten and CompressedTexImage2D refuses the others
  // ("An INVALID_ENUM error is generated if internalformat is not one of the compressed internal formats").
  GLint count = 0;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &count);
  CHECK(count == 10);
  std::vector<GLint> formats(static_cast<size_t>(count));
  glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, formats.data());
  for (GLint f : formats) CHECK(((f >= GL_COMPRESSED_R11_EAC && f <= GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC)));
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  const uint8_t rgtc[8] = {};
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, rgtc);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // OpenGL ES requires no online compression: TexImage2D takes the internal formats of ES 3.2 tables 8.2 / 8.3,
  // which have no compressed rows ("GL_INVALID_VALUE is generated if internalformat is not one of the accepted
  // resolution and format symbolic constants", the ES 3.0 glTexImage2D reference page).
  const uint8_t pixels[4 * 4 * 4] = {};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // ES 3.2 table 8.1 has no compressed block pixel storage modes.
  glPixelStorei(GL_UNPACK_COMPRESSED_BLOCK_WIDTH, 4);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // R11_EAC: base 100, multiplier 1, table 0, every index 0 -> (100 * 8 + 4 - 3 * 8) / 2047 = 780 / 2047.
  const uint8_t r11[8] = {0x64, 0x10, 0, 0, 0, 0, 0, 0};
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_COMPRESSED_R11_EAC, 4, 4);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_R11_EAC, 8, r11);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint program = bismuth::gltest::make_program(
      "#version 310 es\n"
      "precision highp float;\n"
      "layout(local_size_x = 1) in;\n"
      "uniform highp sampler2D tex;\n"
      "layout(std430, binding = 0) buffer Out { vec4 texel; };\n"
      "void main() { texel = texelFetch(tex, ivec2(2, 1), 0); }\n");
  const GLuint buffer = bismuth::gltest::make_buffer(16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glActiveTexture(GL_TEXTURE0);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const auto* texel = static_cast<const float*>(glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 16, GL_MAP_READ_BIT));
  REQUIRE(texel != nullptr);
  CHECK(texel[0] == Approx(780.0 / 2047.0).margin(1e-4));
  CHECK(texel[3] == 1.0f);
  CHECK(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(es.validation_messages.empty());
}

// OpenGL ES 3.2 §9.4.2: "Depth and stencil attachments, if present, are the same image" — else
// FRAMEBUFFER_UNSUPPORTED (desktop GL 4.6 has no such rule: depth_stencil_framebuffer_test.cpp). One depth-stencil
// image at DEPTH_STENCIL_ATTACHMENT is complete, and its depth and stencil clear (ES 3.2 §15.2.3).
TEST_CASE("An ES framebuffer's depth and stencil attachments are one image (ES 3.2 §9.4.2)",
          "[framebuffer][depth][stencil]") {
  EsContext es(2);
  GLuint depth = 0, stencil = 0, ds = 0, fb = 0;
  glGenTextures(1, &depth);
  glBindTexture(GL_TEXTURE_2D, depth);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT16, 2, 2);
  glGenTextures(1, &stencil);
  glBindTexture(GL_TEXTURE_2D, stencil);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_STENCIL_INDEX8, 2, 2);
  glGenTextures(1, &ds);
  glBindTexture(GL_TEXTURE_2D, ds);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 2, 2);
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  const GLenum none = GL_NONE;
  glDrawBuffers(1, &none);
  glReadBuffer(GL_NONE);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_TEXTURE_2D, stencil, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_UNSUPPORTED);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, ds, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearBufferfi(GL_DEPTH_STENCIL, 0, 0.5f, 0x3C);
  CHECK(glGetError() == GL_NO_ERROR);
  // ES has no glGetTexImage; the stencil is checked through a desktop-only read elsewhere. Here: the clear is
  // accepted and the framebuffer stays complete.
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[3] = {depth, stencil, ds};
  glDeleteTextures(3, textures);
  CHECK(es.validation_messages.empty());
}

// OpenGL ES 3.x filters cube maps seamlessly with no enable (GL's §8.13.1 seamless texel selection, always on), and
// TEXTURE_CUBE_MAP_SEAMLESS is in none of its state tables: Enable, Disable, IsEnabled and GetBooleanv answer
// INVALID_ENUM for it (an enum the command does not accept). A LINEAR lookup whose 2x2 footprint crosses +X's top edge
// takes its upper row from +Y: with every face one value, 0.25 * +Y + 0.75 * +X at (s, t) = (0.4375, 0.0625) of a 4x4
// face (v = −0.25).
TEST_CASE("An ES context filters cube maps seamlessly and has no TEXTURE_CUBE_MAP_SEAMLESS", "[textures]") {
  EsContext es(2);
  glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glDisable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
  CHECK(glGetError() == GL_INVALID_ENUM);
  CHECK(glIsEnabled(GL_TEXTURE_CUBE_MAP_SEAMLESS) == GL_FALSE);
  CHECK(glGetError() == GL_INVALID_ENUM);
  GLboolean b = GL_FALSE;
  glGetBooleanv(GL_TEXTURE_CUBE_MAP_SEAMLESS, &b);
  CHECK(glGetError() == GL_INVALID_ENUM);

  const GLuint program = bismuth::gltest::make_program(
      "#version 310 es\n"
      "precision highp float;\n"
      "layout(local_size_x = 1) in;\n"
      "uniform highp samplerCube c;\n"
      "layout(std430, binding = 0) buffer Out { float r[2]; };\n"
      "void main() {\n"
      "  r[0] = texture(c, vec3(1.0, 0.875, 0.125)).r;\n"  // +X, (s, t) = (0.4375, 0.0625)
      "  r[1] = texture(c, vec3(1.0, 0.125, 0.125)).r;\n"  // +X, inside: +X's value alone
      "}\n");
  auto face_value = [](int face) { return float(face + 1) / 8.0f; };
  GLuint cube = 0;
  glGenTextures(1, &cube);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  glTexStorage2D(GL_TEXTURE_CUBE_MAP, 1, GL_R16F, 4, 4);  // R16F: texture-filterable in OpenGL ES 3.x
  for (int face = 0; face < 6; ++face) {
    const std::vector<float> texels(16, face_value(face));
    glTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + GLenum(face), 0, 0, 0, 4, 4, GL_RED, GL_FLOAT, texels.data());
  }
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  const GLuint buffer = bismuth::gltest::make_buffer(8);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const auto* r = static_cast<const float*>(glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 8, GL_MAP_READ_BIT));
  REQUIRE(r != nullptr);
  CHECK(r[0] == Approx(0.25f * face_value(2) + 0.75f * face_value(0)).margin(1.0 / 256));
  CHECK(r[1] == Approx(face_value(0)).margin(1.0 / 256));
  CHECK(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &cube);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  CHECK(es.validation_messages.empty());
}
