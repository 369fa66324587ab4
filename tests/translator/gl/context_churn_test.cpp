// Threads that create, use and destroy contexts of one display at the same time, as multi-threaded GL programs
// (and test runners that give each worker thread its own context) do. EGL 1.5 §3.7.1: "a rendering context may be
// current to one thread at a time"; contexts, displays and the objects EGL keeps for them are otherwise usable
// from any thread, so the implementation must guard its own state. Before 2026-11 four such threads corrupted the
// heap (the display's context list was changed without a lock); this test runs them under the default build and
// under the asan and tsan presets (`make sanitize`, docs/building.md).
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

namespace {

using bismuth::gltest::kValidationMessageId;

// Failures and validation messages from the worker threads: Catch2's assertions are for the main thread only.
struct Findings {
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::string> validation;
  void fail(std::string what) {
    std::lock_guard lock(mutex);
    failures.push_back(std::move(what));
  }
};

void APIENTRY on_message(GLenum, GLenum, GLuint id, GLenum, GLsizei length, const GLchar* message, const void* user) {
  if (id != kValidationMessageId) return;
  auto* findings = static_cast<Findings*>(const_cast<void*>(user));
  std::lock_guard lock(findings->mutex);
  findings->validation.emplace_back(message, static_cast<size_t>(length));
}

constexpr GLuint kWords = 4096;  // a 16 KiB buffer

// One iteration: create a context, compile, dispatch on a 16 KiB buffer, read back, destroy the context.
void churn_once(EGLDisplay display, int thread, int iteration, Findings& findings) {
  const std::string where = "thread " + std::to_string(thread) + " iteration " + std::to_string(iteration) + ": ";
  if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) return findings.fail(where + "eglBindAPI");
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT) return findings.fail(where + "eglCreateContext");
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
    eglDestroyContext(display, context);
    return findings.fail(where + "eglMakeCurrent");
  }
  glDebugMessageCallback(on_message, &findings);
  const unsigned seed = static_cast<unsigned>(thread * 1000 + iteration);
  const std::string source = "#version 430\nlayout(local_size_x = 64) in;\n"
                             "layout(std430, binding = 0) buffer B { uint words[]; };\n"
                             "void main() { uint i = gl_GlobalInvocationID.x; words[i] = i ^ " +
                             std::to_string(seed) + "u; }\n";
  const char* text = source.c_str();
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) findings.fail(where + "link failed");
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kWords * 4, nullptr, GL_DYNAMIC_READ);
  glUseProgram(program);
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<GLuint> words(kWords);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, kWords * 4, words.data());
  for (GLuint i = 0; i < kWords; ++i) {
    if (words[i] != (i ^ seed)) {
      findings.fail(where + "word " + std::to_string(i) + " is " + std::to_string(words[i]));
      break;
    }
  }
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) findings.fail(where + "GL error " + std::to_string(error));
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  glDeleteShader(shader);
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) != EGL_TRUE) {
    findings.fail(where + "release");
  }
  if (eglDestroyContext(display, context) != EGL_TRUE) findings.fail(where + "eglDestroyContext");
}

}  // namespace

TEST_CASE("Four threads create, use and destroy contexts of one display concurrently", "[concurrency]") {
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(display != EGL_NO_DISPLAY);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  Findings findings;
  constexpr int kThreads = 4, kIterations = 30;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIterations; ++i) churn_once(display, t, i, findings);
      eglReleaseThread();
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& f : findings.failures) UNSCOPED_INFO(f);
  REQUIRE(findings.failures.empty());
  for (const auto& m : findings.validation) UNSCOPED_INFO(m);
  REQUIRE(findings.validation.empty());
}

TEST_CASE("Four threads create, make current, release and destroy contexts of one display in a tight loop",
          "[concurrency]") {
  // The EGL bookkeeping alone, as fast as it goes: the display's context list is read (eglMakeCurrent,
  // eglQueryContext) and changed (eglCreateContext, eglDestroyContext) by all threads at once.
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      eglBindAPI(EGL_OPENGL_API);
      for (int i = 0; i < 300; ++i) {
        EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, nullptr);
        if (context == EGL_NO_CONTEXT) {
          ++failures;
          continue;
        }
        EGLint value = 0;
        if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) ++failures;
        if (eglQueryContext(display, context, EGL_CONTEXT_CLIENT_TYPE, &value) != EGL_TRUE) ++failures;
        if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) != EGL_TRUE) ++failures;
        if (eglDestroyContext(display, context) != EGL_TRUE) ++failures;
      }
      eglReleaseThread();
    });
  }
  for (auto& thread : threads) thread.join();
  REQUIRE(failures == 0);
}

TEST_CASE("A context destroyed while current in another thread is deleted when that thread releases it",
          "[concurrency]") {
  // EGL 1.5 §3.7.1.5: "If the context is current to any thread, then it is not deleted until it is no longer
  // current", and the handle is invalid at once.
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  for (int round = 0; round < 50; ++round) {
    REQUIRE(eglBindAPI(EGL_OPENGL_API) == EGL_TRUE);
    EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, nullptr);
    REQUIRE(context != EGL_NO_CONTEXT);
    std::atomic<int> step{0};
    std::atomic<bool> made_current{false}, released{false};
    std::thread user([&] {
      eglBindAPI(EGL_OPENGL_API);
      made_current = eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE;
      step = 1;
      while (step.load() != 2) std::this_thread::yield();
      // Still usable here: it is current in this thread.
      GLuint buffer = 0;
      glGenBuffers(1, &buffer);
      released = eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) == EGL_TRUE;
    });
    while (step.load() != 1) std::this_thread::yield();
    REQUIRE(made_current);
    REQUIRE(eglDestroyContext(display, context) == EGL_TRUE);
    // The handle is invalid at once: making it current again fails.
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_FALSE);
    REQUIRE(eglGetError() == EGL_BAD_CONTEXT);
    step = 2;
    user.join();
    REQUIRE(released);
  }
}
