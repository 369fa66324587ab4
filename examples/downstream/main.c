/* A downstream GL compute program: links only libbismuth-gl (found through its installed CMake package or
 * pkg-config file), or only the system libEGL + libOpenGL (glvnd, which loads Bismuth's EGL vendor), makes a surfaceless OpenGL 4.6 context with EGL and doubles 256 numbers in a compute shader.
 * Exit 0 when every number is right, 1 otherwise, 77 when no context can be made. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#ifdef DOWNSTREAM_LINKS_BISMUTH
#include <bismuth/gl/bismuth_gl.h> /* the installed header (not needed by an EGL program; included to check it) */
#endif
#include <stdio.h>

static const char* kSource =
    "#version 430\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) buffer Values { uint v[]; };\n"
    "void main() { v[gl_GlobalInvocationID.x] *= 2u; }\n";

int main(void) {
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
    fprintf(stderr, "downstream: no EGL display\n");
    return 77;
  }
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    fprintf(stderr, "downstream: no GL 4.6 context\n");
    return 77;
  }
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &kSource, NULL);
  glCompileShader(shader);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  GLuint values[256];
  for (GLuint i = 0; i < 256; ++i) values[i] = i;
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof values, values, GL_DYNAMIC_READ);
  glUseProgram(program);
  glDispatchCompute(4, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof values, values);
  int wrong = 0;
  for (GLuint i = 0; i < 256; ++i) wrong += values[i] != 2 * i;
  printf("downstream: %s: %s, %d wrong\n", (const char*)glGetString(GL_RENDERER), linked ? "linked" : "link failed",
         wrong);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglTerminate(display);
  return linked && wrong == 0 ? 0 : 1;
}
