// Contexts, EGL, strings, limits through every Get variant, errors and KHR_debug, the generated stubs.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bismuth/gl/bismuth_gl.h"
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {
std::string str(GLenum name) {
  const GLubyte* s = glGetString(name);
  return s ? reinterpret_cast<const char*>(s) : "";
}
std::vector<std::string> extensions() {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  std::vector<std::string> out;
  for (GLint i = 0; i < n; ++i)
    out.emplace_back(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i))));
  return out;
}
bool has(const std::vector<std::string>& list, const char* name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}
}  // namespace

TEST_CASE("GL_VERSION reports 4.6 with Bismuth and the Vulkan device name") {
  GlContext gl;
  const std::string version = str(GL_VERSION);
  const std::string renderer = str(GL_RENDERER);
  CHECK(version.rfind("4.6", 0) == 0);
  CHECK(version.find("Bismuth") != std::string::npos);
  CHECK(renderer.find("Bismuth") != std::string::npos);
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  CHECK(major == 4);
  CHECK(minor == 6);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("GL_EXTENSIONS lists the compute extensions that work") {
  GlContext gl;
  const auto ext = extensions();
  for (const char* e : {"GL_ARB_compute_shader", "GL_ARB_shader_storage_buffer_object", "GL_ARB_shader_atomic_counters",
                        "GL_KHR_debug", "GL_ARB_compute_variable_group_size"}) {
    INFO(e);
    CHECK(has(ext, e));
  }
  // Ballot and vote come together, and only where a subgroup size <= 64 can be guaranteed.
  CHECK(has(ext, "GL_ARB_shader_ballot") == has(ext, "GL_ARB_shader_group_vote"));
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  CHECK(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(n)) == nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Every Get variant returns the variable-group-size limits") {
  // ARB_compute_variable_group_size: MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB is "accepted by the <pname> parameter
  // of GetIntegeri_v, GetBooleani_v, GetFloati_v, GetDoublei_v and GetInteger64i_v", and
  // MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB by "GetBooleanv, GetIntegerv, GetFloatv, GetDoublev and
  // GetInteger64v"; the minimums are 512, 512, 64 and 512.
  GlContext gl;
  const GLint minimum[3] = {512, 512, 64};
  for (GLuint i = 0; i < 3; ++i) {
    GLint v = 0;
    GLint64 v64 = 0;
    GLfloat f = 0;
    GLdouble d = 0;
    GLboolean b = GL_FALSE;
    glGetIntegeri_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, i, &v);
    glGetInteger64i_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, i, &v64);
    glGetFloati_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, i, &f);
    glGetDoublei_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, i, &d);
    glGetBooleani_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, i, &b);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(v >= minimum[i]);
    CHECK(v64 == v);
    CHECK(f == static_cast<GLfloat>(v));
    CHECK(d == static_cast<GLdouble>(v));
    CHECK(b == GL_TRUE);
    GLint fixed = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &fixed);
    CHECK(v <= fixed);
  }
  GLint v = 0;
  GLint64 v64 = 0;
  GLfloat f = 0;
  GLdouble d = 0;
  GLboolean b = GL_FALSE;
  glGetIntegerv(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &v);
  glGetInteger64v(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &v64);
  glGetFloatv(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &f);
  glGetDoublev(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &d);
  glGetBooleanv(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &b);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(v >= 512);
  CHECK(v64 == v);
  CHECK(f == static_cast<GLfloat>(v));
  CHECK(d == static_cast<GLdouble>(v));
  CHECK(b == GL_TRUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("MAX_COMPUTE_FIXED_GROUP_SIZE_ARB and _INVOCATIONS_ARB alias the GL 4.3 limits") {
  // "MAX_COMPUTE_FIXED_GROUP_INVOCATIONS_ARB 0x90EB, MAX_COMPUTE_FIXED_GROUP_SIZE_ARB 0x91BF" — the same enums as
  // MAX_COMPUTE_WORK_GROUP_INVOCATIONS and MAX_COMPUTE_WORK_GROUP_SIZE.
  GlContext gl;
  STATIC_REQUIRE(GL_MAX_COMPUTE_FIXED_GROUP_SIZE_ARB == GL_MAX_COMPUTE_WORK_GROUP_SIZE);
  STATIC_REQUIRE(GL_MAX_COMPUTE_FIXED_GROUP_INVOCATIONS_ARB == GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
  GLint a = 0, b = 0;
  glGetIntegerv(GL_MAX_COMPUTE_FIXED_GROUP_INVOCATIONS_ARB, &a);
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &b);
  CHECK(a == b);
  CHECK(a >= 1024);
  for (GLuint i = 0; i < 3; ++i) {
    GLint64 x = 0;
    glGetInteger64i_v(GL_MAX_COMPUTE_FIXED_GROUP_SIZE_ARB, i, &x);
    CHECK(x >= (i < 2 ? 1024 : 64));
    GLfloat count = 0;
    glGetFloati_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &count);
    CHECK(count >= 65535.0f);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An indexed limit past its last index is INVALID_VALUE") {
  // GL 4.6 §22.1: "An INVALID_VALUE error is generated if index is outside the valid range for the indexed state
  // target."
  GlContext gl;
  GLint v = 0;
  glGetIntegeri_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, 3, &v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 3, &v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 1000, &v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An indexed-only limit through a non-indexed Get is INVALID_ENUM") {
  GlContext gl;
  GLint v[3] = {};
  glGetIntegerv(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, v);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_COUNT, v);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, 0, v);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Compute limits meet GL 4.6's minimums") {
  GlContext gl;
  struct Limit {
    GLenum pname;
    GLint64 minimum;
  };
  for (Limit l : {Limit{GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, 32768}, Limit{GL_MAX_COMPUTE_UNIFORM_BLOCKS, 14},
                  Limit{GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, 8}, Limit{GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, 8},
                  Limit{GL_MAX_UNIFORM_BUFFER_BINDINGS, 24}, Limit{GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, 1},
                  Limit{GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS, 8}, Limit{GL_MAX_COMPUTE_ATOMIC_COUNTERS, 8},
                  Limit{GL_MAX_SHADER_STORAGE_BLOCK_SIZE, GLint64(1) << 27}, Limit{GL_MAX_UNIFORM_BLOCK_SIZE, 16384},
                  Limit{GL_MAX_COMPUTE_UNIFORM_COMPONENTS, 1024}}) {
    GLint64 v = 0;
    glGetInteger64v(l.pname, &v);
    INFO(std::hex << l.pname);
    CHECK(v >= l.minimum);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An entry point outside the supported surface is INVALID_OPERATION with a message naming it") {
  GlContext gl;
  glGenVertexArrays(1, nullptr);  // exported (programs link) but not a compute call
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(gl.saw_message_containing("glGenVertexArrays"));
  glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);  // rasterization state: outside a compute shim for good
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(gl.saw_message_containing("glPolygonMode"));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("getProcAddress returns NULL for unsupported entry points and the function for supported ones") {
  CHECK(bismuthGetProcAddress("glPolygonMode") == nullptr);
  CHECK(eglGetProcAddress("glPolygonMode") == nullptr);
  CHECK(bismuthGetProcAddress("glNotAFunction") == nullptr);
  CHECK(bismuthGetProcAddress("glDispatchComputeGroupSizeARB") ==
        reinterpret_cast<void (*)(void)>(&glDispatchComputeGroupSizeARB));
  CHECK(eglGetProcAddress("glDispatchCompute") == reinterpret_cast<void (*)(void)>(&glDispatchCompute));
  CHECK(eglGetProcAddress("eglQueryDevicesEXT") != nullptr);
}

TEST_CASE("The first error is kept until glGetError reads it") {
  // GL 4.6 §2.3.1: "When an error is detected, a flag is set and the code is recorded. Further errors, if they
  // occur, do not affect this recorded code until GetError is called".
  GlContext gl;
  glGetStringi(GL_EXTENSIONS, 100000);  // INVALID_VALUE
  glGetString(0x1234);                  // INVALID_ENUM
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Errors are reported through KHR_debug as API errors") {
  GlContext gl;
  glGetString(0x1234);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  const auto messages = gl.messages();
  REQUIRE(!messages.empty());
  CHECK(messages.back().source == GL_DEBUG_SOURCE_API);
  CHECK(messages.back().type == GL_DEBUG_TYPE_ERROR);
  CHECK(messages.back().text.find("glGetString") != std::string::npos);
}

TEST_CASE("glDebugMessageInsert delivers application messages and checks its source") {
  // KHR_debug: "An INVALID_ENUM error will be generated if <source> is not DEBUG_SOURCE_APPLICATION or
  // DEBUG_SOURCE_THIRD_PARTY."
  GlContext gl;
  glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 7, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                       "hello");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(gl.saw_message_containing("hello"));
  glDebugMessageInsert(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_MARKER, 7, GL_DEBUG_SEVERITY_NOTIFICATION, -1, "x");
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
}

TEST_CASE("Without a callback, debug messages go to the message log") {
  GlContext gl;
  glDebugMessageCallback(nullptr, nullptr);
  glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 42, GL_DEBUG_SEVERITY_HIGH, -1, "logged");
  GLint count = 0;
  glGetIntegerv(GL_DEBUG_LOGGED_MESSAGES, &count);
  REQUIRE(count == 1);
  char text[64] = {};
  GLuint id = 0;
  REQUIRE(glGetDebugMessageLog(1, sizeof text, nullptr, nullptr, &id, nullptr, nullptr, text) == 1);
  CHECK(id == 42);
  CHECK(std::string(text) == "logged");
}

TEST_CASE("A context is current per thread") {
  GlContext gl;
  EGLContext here = eglGetCurrentContext();
  CHECK(here == gl.context);
  std::thread([&] {
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    // GL calls without a current context do nothing (and do not crash).
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(glGetString(GL_VERSION) == nullptr);
    // EGL 1.5 §3.7.3: "If ctx is current to some other thread, an EGL_BAD_ACCESS error is generated."
    CHECK(eglMakeCurrent(gl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl.context) == EGL_FALSE);
    CHECK(eglGetError() == EGL_BAD_ACCESS);
    eglReleaseThread();
  }).join();
  CHECK(eglGetCurrentContext() == gl.context);
}

TEST_CASE("Share contexts share programs and buffers") {
  GlContext gl;
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext shared = eglCreateContext(gl.display, gl.config, gl.context, attribs);
  REQUIRE(shared != EGL_NO_CONTEXT);
  const GLuint program = make_program(
      "#version 450\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 77u; }\n");
  const uint32_t zero = 0;
  const GLuint buffer = make_buffer(4, &zero);
  glFinish();
  std::thread([&] {
    REQUIRE(eglMakeCurrent(gl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, shared) == EGL_TRUE);
    CHECK(glIsProgram(program) == GL_TRUE);
    CHECK(glIsBuffer(buffer) == GL_TRUE);
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    glDispatchCompute(1, 1, 1);
    glFinish();
    CHECK(glGetError() == GL_NO_ERROR);
    eglMakeCurrent(gl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }).join();
  CHECK(read_words(buffer, 1)[0] == 77u);
  CHECK(eglDestroyContext(gl.display, shared) == EGL_TRUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("EGL devices: one per Vulkan physical device, each a display") {
  EGLint count = 0;
  REQUIRE(eglQueryDevicesEXT(0, nullptr, &count) == EGL_TRUE);
  REQUIRE(count >= 1);
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  REQUIRE(eglQueryDevicesEXT(count, devices.data(), &count) == EGL_TRUE);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
  REQUIRE(display != EGL_NO_DISPLAY);
  EGLint major = 0, minor = 0;
  REQUIRE(eglInitialize(display, &major, &minor) == EGL_TRUE);
  CHECK(major == 1);
  CHECK(minor == 5);
  CHECK(std::string(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)).find("EGL_EXT_platform_device") !=
        std::string::npos);
  REQUIRE(eglBindAPI(EGL_OPENGL_API));
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, nullptr);
  REQUIRE(context != EGL_NO_CONTEXT);
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context));
  CHECK(std::string(reinterpret_cast<const char*>(glGetString(GL_VENDOR))) == "Bismuth");
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK(eglDestroyContext(display, context));
  CHECK(eglTerminate(display));
}

TEST_CASE("EGL device queries: the display's device, attributes and persistent IDs") {
  EGLint count = 0;
  REQUIRE(eglQueryDevicesEXT(0, nullptr, &count) == EGL_TRUE);
  REQUIRE(count >= 1);
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  REQUIRE(eglQueryDevicesEXT(count, devices.data(), &count) == EGL_TRUE);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  // EGL_EXT_device_query: "If <attribute> is EGL_DEVICE_EXT, the EGL device associated with <dpy> is returned in
  // <value>. All displays have an associated EGL device, regardless of how they were created."
  EGLAttrib attrib = 0;
  CHECK(eglQueryDisplayAttribEXT(display, EGL_DEVICE_EXT, &attrib) == EGL_TRUE);
  CHECK(reinterpret_cast<EGLDeviceEXT>(attrib) == devices[0]);
  EGLDisplay surfaceless = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(eglInitialize(surfaceless, nullptr, nullptr) == EGL_TRUE);
  attrib = 0;
  CHECK(eglQueryDisplayAttribEXT(surfaceless, EGL_DEVICE_EXT, &attrib) == EGL_TRUE);
  CHECK(std::find(devices.begin(), devices.end(), reinterpret_cast<EGLDeviceEXT>(attrib)) != devices.end());
  // "An EGL_BAD_ATTRIBUTE error is generated if <attribute> is not a valid value."
  CHECK(eglQueryDisplayAttribEXT(display, EGL_VENDOR, &attrib) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
  CHECK(eglQueryDisplayAttribEXT(reinterpret_cast<EGLDisplay>(&count), EGL_DEVICE_EXT, &attrib) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_DISPLAY);
  // eglQueryDeviceAttribEXT: "An EGL_BAD_ATTRIBUTE error is generated if <attribute> is not a valid attribute. An
  // EGL_BAD_DEVICE_EXT error is generated if <device> is not a valid EGLDeviceEXT."
  CHECK(eglQueryDeviceAttribEXT(devices[0], EGL_CUDA_DEVICE_NV, &attrib) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
  CHECK(eglQueryDeviceAttribEXT(reinterpret_cast<EGLDeviceEXT>(&count), EGL_CUDA_DEVICE_NV, &attrib) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_DEVICE_EXT);
  // EGL_EXT_device_persistent_id, where the Vulkan device reports its IDs (every Vulkan 1.1 device does).
  const std::string extensions = eglQueryDeviceStringEXT(devices[0], EGL_EXTENSIONS);
  REQUIRE(extensions.find("EGL_EXT_device_persistent_id") != std::string::npos);
  EGLint size = 0;
  CHECK(eglQueryDeviceBinaryEXT(devices[0], EGL_DEVICE_UUID_EXT, 0, nullptr, &size) == EGL_TRUE);
  CHECK(size == 16);
  std::array<uint8_t, 16> device_uuid{}, driver_uuid{};
  CHECK(eglQueryDeviceBinaryEXT(devices[0], EGL_DEVICE_UUID_EXT, 16, device_uuid.data(), &size) == EGL_TRUE);
  CHECK(eglQueryDeviceBinaryEXT(devices[0], EGL_DRIVER_UUID_EXT, 16, driver_uuid.data(), &size) == EGL_TRUE);
  CHECK(size == 16);
  // The driver UUID names Bismuth's build on the Vulkan driver's: it is not the Vulkan device's UUID.
  CHECK(device_uuid != driver_uuid);
  CHECK(eglQueryDeviceBinaryEXT(devices[0], EGL_VENDOR, 16, device_uuid.data(), &size) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
  const char* driver_name = eglQueryDeviceStringEXT(devices[0], EGL_DRIVER_NAME_EXT);
  REQUIRE(driver_name != nullptr);
  CHECK(std::string(driver_name).rfind("bismuth", 0) == 0);
  CHECK(eglTerminate(display));
}

TEST_CASE("EGL rejects what a compute-only EGL cannot do") {
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  eglTerminate(display);  // other tests in this process may have initialized it
  CHECK(eglCreateContext(display, nullptr, EGL_NO_CONTEXT, nullptr) == EGL_NO_CONTEXT);
  CHECK(eglGetError() == EGL_NOT_INITIALIZED);
  REQUIRE(eglInitialize(display, nullptr, nullptr));
  // EGL 1.5 §3.7: "an EGL_BAD_PARAMETER error is generated ... if the client API specified by api is not supported
  // by the implementation" (Bismuth has OpenGL and OpenGL ES, not OpenVG).
  CHECK(eglBindAPI(EGL_OPENVG_API) == EGL_FALSE);
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  REQUIRE(eglBindAPI(EGL_OPENGL_API));
  const EGLint too_new[] = {EGL_CONTEXT_MAJOR_VERSION, 5, EGL_NONE};
  CHECK(eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, too_new) == EGL_NO_CONTEXT);
  CHECK(eglGetError() == EGL_BAD_MATCH);
  CHECK(eglGetPlatformDisplayEXT(0x1234, nullptr, nullptr) == EGL_NO_DISPLAY);
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
}

TEST_CASE("The C API creates contexts on a Bismuth-created device") {
  BismuthGLContextOptions options{};
  options.enable_validation = 1;
  BismuthGLContext a = bismuthCreateContext(&options);
  INFO(bismuthGetLastErrorString());
  REQUIRE(a != nullptr);
  options.share_context = a;
  BismuthGLContext b = bismuthCreateContext(&options);
  REQUIRE(b != nullptr);
  REQUIRE(bismuthMakeCurrent(a) == 1);
  CHECK(bismuthGetCurrentContext() == a);
  const GLuint buffer = make_buffer(16);
  REQUIRE(bismuthMakeCurrent(b) == 1);
  CHECK(glIsBuffer(buffer) == GL_TRUE);
  REQUIRE(bismuthMakeCurrent(nullptr) == 1);
  bismuthDestroyContext(b);
  bismuthDestroyContext(a);
}
