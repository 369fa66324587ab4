/* es31_atomic_counters.c: atomic counters in OpenGL ES 3.1 compute shaders, as ES ports use them (counting work
 * items, allocating output slots).
 *
 * OpenGL ES 3.1 §7.7 (Atomic Counter Buffers) and GLSL ES 3.10 §4.4.6 / §8.10: `layout(binding = b, offset = o)
 * uniform atomic_uint c;` is backed by the buffer bound to ATOMIC_COUNTER_BUFFER binding b at byte offset o;
 * atomicCounterIncrement returns the value before the increment, atomicCounterDecrement the value after the
 * decrement, atomicCounter the current value. The counters are read back with glMapBufferRange after
 * glMemoryBarrier(BUFFER_UPDATE_BARRIER_BIT) (ES 3.1 §7.11.2). */
#include "conformance.h"

static const char* const kShader =
    "#version 310 es\n"
    "layout(local_size_x = 64) in;\n"
    "layout(binding = 0, offset = 0) uniform atomic_uint up;\n"
    "layout(binding = 0, offset = 4) uniform atomic_uint down;\n"
    "layout(std430, binding = 0) buffer Slots { highp uint taken[]; };\n"
    "layout(std430, binding = 1) buffer Seen { highp uint seen[]; };\n"
    "void main() {\n"
    "  highp uint slot = atomicCounterIncrement(up);\n"
    "  taken[slot] = 1u;\n"
    "  highp uint after = atomicCounterDecrement(down);\n"
    "  seen[gl_GlobalInvocationID.x] = after;\n"
    "}\n";

/* atomicCounter reads the counter without changing it. */
static const char* const kReadShader =
    "#version 310 es\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0, offset = 0) uniform atomic_uint up;\n"
    "layout(std430, binding = 0) buffer Out { highp uint value; };\n"
    "void main() { value = atomicCounter(up); }\n";

enum { kGroups = 4, kCount = 64 * kGroups, kDownStart = 1000 };

static const GLuint* map_read(GLenum target, GLuint buffer, GLsizeiptr size) {
  glBindBuffer(target, buffer);
  return (const GLuint*)glMapBufferRange(target, 0, size, GL_MAP_READ_BIT);
}

int main(void) {
  EGLDisplay display = conformance_make_context(EGL_OPENGL_ES_API, 3, 1);
  GLint counter_buffers = 0;
  glGetIntegerv(GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS, &counter_buffers);
  /* ES 3.1 table 20.45: MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS is at least 1, MAX_COMPUTE_ATOMIC_COUNTERS at least 8. */
  CHECK(counter_buffers >= 1, "MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS %d >= 1", counter_buffers);

  GLuint program = conformance_compute_program(kShader);
  CHECK(program != 0, "the GLSL ES 3.10 atomic-counter shader compiles and links");
  GLuint buffers[4];
  glGenBuffers(4, buffers);
  const GLuint start[2] = {0u, kDownStart};
  glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, buffers[0]);
  glBufferData(GL_ATOMIC_COUNTER_BUFFER, sizeof start, start, GL_DYNAMIC_READ);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, buffers[0]);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[1]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kCount * sizeof(GLuint), NULL, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers[1]);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[2]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kCount * sizeof(GLuint), NULL, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffers[2]);
  if (program != 0) {
    glUseProgram(program);
    glDispatchCompute(kGroups, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    CHECK_GL_ERROR(GL_NO_ERROR, "the atomic-counter dispatch");

    const GLuint* counters = map_read(GL_ATOMIC_COUNTER_BUFFER, buffers[0], sizeof start);
    CHECK(counters != NULL, "glMapBufferRange of the counters");
    if (counters != NULL) {
      CHECK(counters[0] == kCount, "up counted %d invocations (got %u)", kCount, counters[0]);
      CHECK(counters[1] == kDownStart - kCount, "down went from %d to %d (got %u)", kDownStart, kDownStart - kCount,
            counters[1]);
      glUnmapBuffer(GL_ATOMIC_COUNTER_BUFFER);
    }
    /* Increment returns each value 0 .. count-1 exactly once: every slot is taken. */
    const GLuint* taken = map_read(GL_SHADER_STORAGE_BUFFER, buffers[1], kCount * sizeof(GLuint));
    if (taken != NULL) {
      int missing = 0;
      for (int i = 0; i < kCount; ++i) missing += taken[i] != 1u;
      CHECK(missing == 0, "%d of %d slots not taken: atomicCounterIncrement returns distinct prior values", missing,
            kCount);
      glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    }
    /* Decrement returns the value after the decrement: each of start-1 .. start-count exactly once. */
    const GLuint* seen = map_read(GL_SHADER_STORAGE_BUFFER, buffers[2], kCount * sizeof(GLuint));
    if (seen != NULL) {
      static unsigned char hit[kCount];
      int wrong = 0;
      for (int i = 0; i < kCount; ++i) {
        const GLuint v = seen[i];
        if (v >= kDownStart || v < kDownStart - kCount || hit[kDownStart - 1 - v]++) ++wrong;
      }
      CHECK(wrong == 0, "%d of %d atomicCounterDecrement results are not the distinct post-decrement values", wrong,
            kCount);
      glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    }
    glDeleteProgram(program);
  }

  GLuint read = conformance_compute_program(kReadShader);
  CHECK(read != 0, "the atomicCounter() shader compiles and links");
  if (read != 0) {
    const GLuint seven[2] = {7u, 0u};
    glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, buffers[0]);
    glBufferSubData(GL_ATOMIC_COUNTER_BUFFER, 0, sizeof seven, seven);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[3]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(GLuint), NULL, GL_DYNAMIC_READ);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers[3]);
    glUseProgram(read);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const GLuint* value = map_read(GL_SHADER_STORAGE_BUFFER, buffers[3], sizeof(GLuint));
    CHECK(value != NULL && *value == 7u, "atomicCounter reads 7 (got %u)", value ? *value : 0u);
    if (value != NULL) glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    glDeleteProgram(read);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "the atomic-counter checks");
  glDeleteBuffers(4, buffers);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return conformance_result();
}
