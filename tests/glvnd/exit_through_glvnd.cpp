// Process exit through glvnd (docs/gl_shim.md, "Process exit"; docs/glvnd.md): a program linked against the system
// libEGL + libOpenGL, running on Bismuth's vendor library, that ends
//  * no-terminate: by returning from main with its context current after dispatches, without eglTerminate,
//    eglMakeCurrent(EGL_NO_CONTEXT) or eglDestroyContext — EGL 1.5 §3.2: "eglTerminate ... Termination marks all
//    EGL-specific resources ... for deletion", which a program need not ask for before it ends;
//  * mid-dispatch: by exit() while a second thread, with its own context, dispatches and reads back.
// Here libEGL's destructor also dlcloses the vendor at exit and drops libGLdispatch's current state. The exit check
// (tests/exit/exit_check.hpp) fails the run when a Bismuth thread outlives the exit stop or the exit takes more than
// 3 s; a crash, a hang or a wrong result fails it too.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "exit/exit_check.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "exit_through_glvnd: %s (EGL error 0x%x)\n", what, eglGetError());
  std::fflush(stderr);
  _exit(1);
}

EGLDisplay open_display() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) fail("no EGL display");
  return display;
}

void make_context(EGLDisplay display) {
  if (!eglBindAPI(EGL_OPENGL_API)) fail("eglBindAPI");  // per thread (EGL 1.5 §3.7)
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT) fail("eglCreateContext");
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) fail("eglMakeCurrent");
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (renderer == nullptr || std::string(renderer).find("Bismuth") == std::string::npos) fail("not Bismuth's GL");
}

constexpr GLuint kWords = 4096;

GLuint store_program(unsigned offset) {
  const std::string source =
      "#version 430\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
      "void main() { uint i = gl_GlobalInvocationID.x; values[i] = i * 3u + " +
      std::to_string(offset) + "u; }\n";
  const char* text = source.c_str();
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) fail("glLinkProgram");
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kWords * 4, nullptr, GL_DYNAMIC_READ);
  glUseProgram(program);
  return program;
}

void dispatch_and_check(unsigned offset, bool check) {
  glDispatchCompute(kWords / 64, 1, 1);
  if (!check) return;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<GLuint> words(kWords);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, kWords * 4, words.data());
  for (GLuint i = 0; i < kWords; ++i) {
    if (words[i] != i * 3u + offset) fail("wrong result");
  }
  if (glGetError() != GL_NO_ERROR) fail("GL error");
}

int no_terminate() {
  make_context(open_display());
  store_program(11);
  for (int i = 0; i < 4; ++i) dispatch_and_check(11, i == 3);
  dispatch_and_check(11, false);  // still in flight at exit
  bismuth::exittest::mark_exit_called();
  return 0;
}

int mid_dispatch() {
  EGLDisplay display = open_display();
  std::atomic<int> rounds{0};
  std::thread worker([&] {
    make_context(display);
    store_program(5);
    for (;;) {
      dispatch_and_check(5, true);
      rounds.fetch_add(1);
    }
  });
  while (rounds.load() < 3) std::this_thread::yield();
  worker.detach();
  bismuth::exittest::mark_exit_called();
  std::exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  bismuth::exittest::install_exit_check();
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "no-terminate") return no_terminate();
  if (mode == "mid-dispatch") return mid_dispatch();
  std::fprintf(stderr, "usage: exit_through_glvnd no-terminate | mid-dispatch\n");
  return 2;
}
