// A GL program that exits the ways real programs do — with Bismuth's threads busy — and checks, from an exit
// handler that runs after Bismuth's exit stop, that the stop did its job: no thread Bismuth started is alive
// (they are named "bismuth-*"), and the stop did not wait for the queued compiles.
//
//   exit_program link-many N     links N distinct variable-size programs (prewarm queues compiles for each),
//                                dispatches one, then calls exit(0) with the compiles still queued or running
//   exit_program mid-dispatch    a second thread dispatches and reads back in a loop on its own context; the main
//                                thread calls exit(0) in the middle of it
//   exit_program compile-in-flight N   compiles and links N distinct programs without waiting for any
//                                (GL_KHR_parallel_shader_compile: they queue on the compiler threads), then calls
//                                exit(0) with the compiles and links queued or running
//   exit_program no-terminate    dispatches, checks the result and returns from main with the context current,
//                                without eglDestroyContext or eglTerminate
//
// Exit codes: 0 fine, 1 a GL check failed, 3 a Bismuth thread outlived the exit stop, 4 the exit stop took longer
// than the limit (BISMUTH_TEST_EXIT_LIMIT_MS, default 3000). Built against libbismuth-gl (it links the GL and EGL
// entry points directly, as ported programs do).
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "exit_check.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "exit_program: %s (GL error 0x%x, EGL error 0x%x)\n", what, glGetError(), eglGetError());
  std::fflush(stderr);
  _exit(1);
}

EGLDisplay open_display() {
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) fail("no EGL display");
  return display;
}

EGLContext make_context(EGLDisplay display) {
  if (!eglBindAPI(EGL_OPENGL_API)) fail("eglBindAPI");  // per thread (EGL 1.5 §3.7)
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT) fail("eglCreateContext");
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) fail("eglMakeCurrent");
  return context;
}

// A variable-size program writing id * factor + offset; distinct `offset`s make distinct programs (and distinct
// prewarm compiles).
GLuint variable_size_program(unsigned offset) {
  const std::string source =
      "#version 450\n"
      "#extension GL_ARB_compute_variable_group_size : require\n"
      "layout(local_size_variable) in;\n"
      "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
      "void main() { uint i = gl_GlobalInvocationID.x; values[i] = i * 3u + " +
      std::to_string(offset) + "u; }\n";
  const char* text = source.c_str();
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) fail("glCompileShader");
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) fail("glLinkProgram");
  return program;
}

constexpr GLuint kWords = 4096;  // 16 KiB

GLuint output_buffer() {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kWords * 4, nullptr, GL_DYNAMIC_READ);
  return buffer;
}

void dispatch_and_check(GLuint program, unsigned offset, bool check) {
  glUseProgram(program);
  glDispatchComputeGroupSizeARB(kWords / 64, 1, 1, 64, 1, 1);
  if (!check) return;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<GLuint> words(kWords);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, kWords * 4, words.data());
  for (GLuint i = 0; i < kWords; ++i) {
    if (words[i] != i * 3u + offset) fail("wrong result");
  }
}

void exit_now() {
  bismuth::exittest::mark_exit_called();
  std::exit(0);
}

int link_many(int count) {
  EGLDisplay display = open_display();
  make_context(display);
  output_buffer();
  GLuint last = 0;
  for (int i = 0; i < count; ++i) last = variable_size_program(static_cast<unsigned>(i));
  dispatch_and_check(last, static_cast<unsigned>(count - 1), true);
  if (glGetError() != GL_NO_ERROR) fail("GL error");
  std::fprintf(stderr, "exit_program: linked %d variable-size programs; exit(0) with their compiles queued\n", count);
  exit_now();
  return 0;
}

int mid_dispatch() {
  EGLDisplay display = open_display();
  std::atomic<int> dispatches{0};
  std::thread worker([&] {
    make_context(display);
    output_buffer();
    GLuint program = variable_size_program(7);
    for (int i = 0;; ++i) {
      dispatch_and_check(program, 7, i % 8 == 0);
      dispatches.fetch_add(1);
    }
  });
  worker.detach();  // the process exits with it running: that is the point
  while (dispatches.load() < 40) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::fprintf(stderr, "exit_program: exit(0) while a second thread dispatches (%d dispatches so far)\n",
               dispatches.load());
  exit_now();
  return 0;
}

int compile_in_flight(int count) {
  EGLDisplay display = open_display();
  make_context(display);
  for (int i = 0; i < count; ++i) {
    const std::string source =
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
        "void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 5u + " +
        std::to_string(i) + "u; }\n";
    const char* text = source.c_str();
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glDeleteShader(shader);
  }
  if (glGetError() != GL_NO_ERROR) fail("GL error");
  std::fprintf(stderr, "exit_program: exit(0) with %d compiles and links queued or running\n", count);
  exit_now();
  return 0;
}

int no_terminate() {
  EGLDisplay display = open_display();
  make_context(display);
  output_buffer();
  GLuint program = variable_size_program(11);
  for (int i = 0; i < 4; ++i) dispatch_and_check(program, 11, i == 3);
  if (glGetError() != GL_NO_ERROR) fail("GL error");
  std::fprintf(stderr, "exit_program: returning from main with the context current, no eglTerminate\n");
  bismuth::exittest::mark_exit_called();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bismuth::exittest::install_exit_check();
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "link-many") return link_many(argc > 2 ? std::atoi(argv[2]) : 100);
  if (mode == "mid-dispatch") return mid_dispatch();
  if (mode == "no-terminate") return no_terminate();
  if (mode == "compile-in-flight") return compile_in_flight(argc > 2 ? std::atoi(argv[2]) : 64);
  std::fprintf(stderr, "usage: exit_program link-many [N] | mid-dispatch | compile-in-flight [N] | no-terminate\n");
  return 2;
}
