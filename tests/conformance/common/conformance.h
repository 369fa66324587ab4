/* conformance.h: the little a conformance C program needs to be a GL (or GL ES) client, and nothing Bismuth-specific.
 *
 * Each program under tests/conformance/<point>/ is plain C against EGL/egl.h and GL/glcorearb.h, linked with
 * libbismuth-gl exactly as a user links it (it would build against any libEGL + libGL too). It checks rules quoted
 * from the GL / GLSL / extension specs and exits 0 (all checks held), 1 (a check failed: each failure is printed
 * with its line) or 77 (skipped: the context lacks what the test needs, printed as the reason; ctest counts it as
 * skipped). */
#ifndef BISMUTH_CONFORMANCE_H
#define BISMUTH_CONFORMANCE_H

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFORMANCE_SKIP 77

static int conformance_failures = 0;

/* CHECK(condition, "spec rule or what was expected", ...): records a failure and goes on. */
#define CHECK(cond, ...)                                                     \
  do {                                                                       \
    if (!(cond)) {                                                           \
      ++conformance_failures;                                                \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                          \
      fputc('\n', stderr);                                                   \
    }                                                                        \
  } while (0)

/* CHECK_GL_ERROR(expected, "after what"): glGetError() must return `expected` (GL_NO_ERROR included). */
#define CHECK_GL_ERROR(expected, ...)                                                         \
  do {                                                                                        \
    GLenum conformance_error_ = glGetError();                                                 \
    if (conformance_error_ != (GLenum)(expected)) {                                           \
      ++conformance_failures;                                                                 \
      fprintf(stderr, "%s:%d: GL error 0x%04x, expected 0x%04x: ", __FILE__, __LINE__,        \
              (unsigned)conformance_error_, (unsigned)(expected));                            \
      fprintf(stderr, __VA_ARGS__);                                                           \
      fputc('\n', stderr);                                                                    \
    }                                                                                         \
  } while (0)

static inline void conformance_skip(const char* reason) {
  printf("skip: %s\n", reason);
  exit(CONFORMANCE_SKIP);
}

/* The program's exit: 0 when every check held. */
static inline int conformance_result(void) {
  if (conformance_failures) fprintf(stderr, "%d check(s) failed\n", conformance_failures);
  return conformance_failures ? 1 : 0;
}

/* KHR_debug messages go to stderr: they say why a call failed or a dispatch was skipped. */
static void APIENTRY conformance_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity,
                                                 GLsizei length, const GLchar* message, const void* user) {
  (void)source, (void)id, (void)length, (void)user;
  fprintf(stderr, "GL debug (type 0x%04x, severity 0x%04x): %s\n", (unsigned)type, (unsigned)severity, message);
}

/* A current context without surfaces: api is EGL_OPENGL_API (core profile) or EGL_OPENGL_ES_API; major/minor the
 * version asked for. Skips when EGL cannot give one. */
static inline EGLDisplay conformance_make_context(EGLenum api, EGLint major, EGLint minor) {
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) conformance_skip("no EGL display");
  if (!eglBindAPI(api)) conformance_skip("eglBindAPI refused the API");
  EGLint attribs[8];
  int n = 0;
  attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
  attribs[n++] = major;
  attribs[n++] = EGL_CONTEXT_MINOR_VERSION;
  attribs[n++] = minor;
  if (api == EGL_OPENGL_API) {
    attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
    attribs[n++] = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
  }
  attribs[n++] = EGL_NONE;
  EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    conformance_skip("no context of the asked version without surfaces");
  }
  glEnable(GL_DEBUG_OUTPUT);
  glDebugMessageCallback(conformance_debug_message, NULL);
  return display;
}

static inline int conformance_has_extension(const char* name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const char* e = (const char*)glGetStringi(GL_EXTENSIONS, (GLuint)i);
    if (e && strcmp(e, name) == 0) return 1;
  }
  return 0;
}

/* 1 when `source` compiles as a compute shader. */
static inline int conformance_compiles(const char* source) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  glDeleteShader(shader);
  return ok;
}

/* Links one compiled shader object into a new program and deletes the shader; 0 (and the log on stderr) when the
 * link fails. */
static inline GLuint conformance_link_shader(GLuint shader) {
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096];
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "link failed:\n%s\n", log);
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

/* Compiles and links one compute shader; 0 (and the logs on stderr) when either fails. */
static inline GLuint conformance_compute_program(const char* source) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096];
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "compile failed:\n%s\n", log);
    glDeleteShader(shader);
    return 0;
  }
  return conformance_link_shader(shader);
}

#endif
