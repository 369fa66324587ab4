/* es_limits.c: the implementation-dependent limits an OpenGL ES 3.1 / 3.2 context must meet for compute work:
 * buffers, uniform blocks and atomic counters (the compute work-group limits are es31_compute.c). The image and
 * texture limits (MAX_COMPUTE_IMAGE_UNIFORMS, MAX_IMAGE_UNITS, ...) are not checked here: Bismuth has no images or
 * textures yet (issue 18), so an ES context does not meet them — a known gap, documented in docs/gl_shim.md.
 *
 * OpenGL ES 3.1 tables 20.44 - 20.49 (ES 3.2 tables 21.52 - 21.58) give minimums (maximums for the offset
 * alignments); ES 3.2 raises the combined ones for its extra shader stages (MAX_UNIFORM_BUFFER_BINDINGS 36 -> 72,
 * MAX_COMBINED_UNIFORM_BLOCKS 24 -> 60). Each limit is read through glGetIntegerv and glGetInteger64v: a limit is
 * ES state, so neither may raise an error. */
#include "conformance.h"

struct Limit {
  const char* name;
  GLenum pname;
  GLint64 es31;   /* the ES 3.1 bound */
  GLint64 es32;   /* the ES 3.2 bound */
  int is_maximum; /* 1: the value must be at most the bound (alignments) */
};

static const struct Limit kLimits[] = {
    {"MAX_COMPUTE_UNIFORM_BLOCKS", GL_MAX_COMPUTE_UNIFORM_BLOCKS, 12, 12, 0},
    {"MAX_COMPUTE_UNIFORM_COMPONENTS", GL_MAX_COMPUTE_UNIFORM_COMPONENTS, 1024, 1024, 0},
    {"MAX_COMPUTE_SHADER_STORAGE_BLOCKS", GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, 4, 4, 0},
    {"MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS", GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS, 1, 1, 0},
    {"MAX_COMPUTE_ATOMIC_COUNTERS", GL_MAX_COMPUTE_ATOMIC_COUNTERS, 8, 8, 0},
    {"MAX_UNIFORM_BUFFER_BINDINGS", GL_MAX_UNIFORM_BUFFER_BINDINGS, 36, 72, 0},
    {"MAX_UNIFORM_BLOCK_SIZE", GL_MAX_UNIFORM_BLOCK_SIZE, 16384, 16384, 0},
    {"MAX_COMBINED_UNIFORM_BLOCKS", GL_MAX_COMBINED_UNIFORM_BLOCKS, 24, 60, 0},
    {"MAX_UNIFORM_LOCATIONS", GL_MAX_UNIFORM_LOCATIONS, 1024, 1024, 0},
    {"MAX_SHADER_STORAGE_BUFFER_BINDINGS", GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, 4, 4, 0},
    {"MAX_SHADER_STORAGE_BLOCK_SIZE", GL_MAX_SHADER_STORAGE_BLOCK_SIZE, 1 << 27, 1 << 27, 0},
    {"MAX_COMBINED_SHADER_STORAGE_BLOCKS", GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS, 4, 4, 0},
    {"MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, 1, 1, 0},
    {"MAX_ATOMIC_COUNTER_BUFFER_SIZE", GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE, 32, 32, 0},
    {"MAX_COMBINED_ATOMIC_COUNTER_BUFFERS", GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS, 1, 1, 0},
    {"MAX_COMBINED_ATOMIC_COUNTERS", GL_MAX_COMBINED_ATOMIC_COUNTERS, 8, 8, 0},
    {"MAX_COMBINED_SHADER_OUTPUT_RESOURCES", GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES, 4, 4, 0},
    {"UNIFORM_BUFFER_OFFSET_ALIGNMENT", GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, 256, 256, 1},
    {"SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT", GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, 256, 256, 1},
};

static void check_limits(int es32) {
  for (size_t i = 0; i < sizeof kLimits / sizeof kLimits[0]; ++i) {
    const struct Limit* l = &kLimits[i];
    const GLint64 bound = es32 ? l->es32 : l->es31;
    GLint value = -1;
    GLint64 value64 = -1;
    glGetIntegerv(l->pname, &value);
    const GLenum error = glGetError();
    glGetInteger64v(l->pname, &value64);
    const GLenum error64 = glGetError();
    CHECK(error == GL_NO_ERROR && error64 == GL_NO_ERROR, "%s is OpenGL ES state (errors 0x%x, 0x%x)", l->name,
          (unsigned)error, (unsigned)error64);
    if (error != GL_NO_ERROR) continue;
    if (l->is_maximum) {
      CHECK(value >= 1 && value <= bound, "ES 3.%d: %s %d <= %lld", es32 ? 2 : 1, l->name, value, (long long)bound);
    } else {
      CHECK(value >= bound, "ES 3.%d: %s %d >= %lld", es32 ? 2 : 1, l->name, value, (long long)bound);
    }
    CHECK(value64 == value || (value == 2147483647 && value64 > value), "%s: glGetInteger64v %lld, glGetIntegerv %d",
          l->name, (long long)value64, value);
  }
}

int main(void) {
  EGLDisplay display = conformance_make_context(EGL_OPENGL_ES_API, 3, 1);
  GLint minor = 0;
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  check_limits(minor >= 2);

  EGLContext es31 = eglGetCurrentContext();
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext es32 = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  CHECK(es32 != EGL_NO_CONTEXT, "an OpenGL ES 3.2 context");
  if (es32 != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, es32)) {
    check_limits(1);
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, es31);
    eglDestroyContext(display, es32);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return conformance_result();
}
