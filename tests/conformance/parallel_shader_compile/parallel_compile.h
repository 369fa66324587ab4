/* parallel_compile.h: KHR_parallel_shader_compile (revision 7) checked in the current context, for gl46_parallel.c
 * and es32_parallel.c. Only the extension's rules are checked, so that any GL driver exposing it passes:
 *  - MAX_SHADER_COMPILER_THREADS_KHR: initial value 0xFFFFFFFF (Table 23.51, "Hints"), set by
 *    MaxShaderCompilerThreadsKHR (and, in GL, MaxShaderCompilerThreadsARB);
 *  - COMPLETION_STATUS_KHR: TRUE for new objects, and TRUE within a bounded time after a compile or link ("FALSE is
 *    returned if the shader is currently being compiled by a background thread, TRUE otherwise");
 *  - every other query behaves as after a synchronous compile and link: 16 programs compiled and linked as a batch
 *    then queried and dispatched, a compile error in the info log, and the link of the state at LinkProgram when the
 *    application detaches, re-sources and recompiles right after it (GL 4.6 / OpenGL ES 3.2 §7.3). */
#ifndef PARALLEL_COMPILE_H
#define PARALLEL_COMPILE_H

#include <time.h>

#include "conformance.h"

#ifndef GL_MAX_SHADER_COMPILER_THREADS_KHR
#define GL_MAX_SHADER_COMPILER_THREADS_KHR 0x91B0
#define GL_COMPLETION_STATUS_KHR 0x91B1
#endif

typedef void(APIENTRY* MaxThreadsProc)(GLuint count);

enum { kWords = 256, kPrograms = 16 };

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Polls COMPLETION_STATUS_KHR of a shader (program == 0) or program for at most 60 s; 1 once TRUE. */
static int pc_complete(int program, GLuint name) {
  const double deadline = seconds_now() + 60.0;
  while (seconds_now() < deadline) {
    GLint done = -1;
    if (program) {
      glGetProgramiv(name, GL_COMPLETION_STATUS_KHR, &done);
    } else {
      glGetShaderiv(name, GL_COMPLETION_STATUS_KHR, &done);
    }
    if (done == GL_TRUE) return 1;
    if (done != GL_FALSE) return 0;
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
  return 0;
}

/* MAX_SHADER_COMPILER_THREADS_KHR exactly: GetInteger64v holds every Z+ value (GetIntegerv clamps 0xFFFFFFFF to
 * 2147483647, GL 4.6 §2.2.2). ES 3.0+ has GetInteger64v too. */
static GLuint pc_threads(void) {
  GLint64 v = -1;
  glGetInteger64v(GL_MAX_SHADER_COMPILER_THREADS_KHR, &v);
  return (GLuint)v;
}

/* A shader writing `value` to values[gl_GlobalInvocationID.x], compiled (not waited for). */
static GLuint pc_writer(const char* version, unsigned value) {
  char source[512];
  snprintf(source, sizeof source,
           "%slayout(local_size_x = 64) in;\n"
           "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
           "void main() { values[gl_GlobalInvocationID.x] = %uu; }\n",
           version, value);
  const char* text = source;
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &text, NULL);
  glCompileShader(shader);
  return shader;
}

/* Dispatches `program` over kWords invocations; 1 when every word is `value`. */
static int pc_writes(GLuint program, unsigned value) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kWords * 4, NULL, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  int ok = 0;
  const GLuint* words = (const GLuint*)glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, kWords * 4, GL_MAP_READ_BIT);
  if (words) {
    ok = 1;
    for (int i = 0; i < kWords; ++i) ok = ok && words[i] == value;
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  }
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
  return ok;
}

static int pc_run(const char* version, int desktop) {
  if (!conformance_has_extension("GL_KHR_parallel_shader_compile") &&
      !(desktop && conformance_has_extension("GL_ARB_parallel_shader_compile"))) {
    conformance_skip("no GL_KHR_parallel_shader_compile");
  }
  MaxThreadsProc khr = (MaxThreadsProc)eglGetProcAddress("glMaxShaderCompilerThreadsKHR");
  MaxThreadsProc arb = (MaxThreadsProc)eglGetProcAddress("glMaxShaderCompilerThreadsARB");
  MaxThreadsProc set_threads = conformance_has_extension("GL_KHR_parallel_shader_compile") ? khr : arb;
  CHECK(set_threads != NULL, "the extension's MaxShaderCompilerThreads entry point resolves");
  if (!set_threads) return conformance_result();

  /* Table 23.51: MAX_SHADER_COMPILER_THREADS_KHR, initial value 0xFFFFFFFF. */
  CHECK(pc_threads() == 0xFFFFFFFFu, "initial MAX_SHADER_COMPILER_THREADS_KHR is 0xFFFFFFFF, got 0x%x", pc_threads());
  set_threads(0);
  CHECK(pc_threads() == 0u, "MaxShaderCompilerThreadsKHR(0) sets the hint to 0");
  set_threads(2);
  CHECK(pc_threads() == 2u, "MaxShaderCompilerThreadsKHR(2) sets the hint to 2");
  if (desktop && arb && conformance_has_extension("GL_ARB_parallel_shader_compile")) {
    arb(5);
    CHECK(pc_threads() == 5u, "MaxShaderCompilerThreadsARB(5) sets the same hint");
  }
  set_threads(0xFFFFFFFFu);
  CHECK(pc_threads() == 0xFFFFFFFFu, "MaxShaderCompilerThreadsKHR(0xFFFFFFFF) sets the hint back");
  CHECK_GL_ERROR(GL_NO_ERROR, "after the hint");

  /* COMPLETION_STATUS_KHR of objects nothing compiles or links: TRUE. */
  GLuint fresh_shader = glCreateShader(GL_COMPUTE_SHADER);
  GLuint fresh_program = glCreateProgram();
  GLint status = -1;
  glGetShaderiv(fresh_shader, GL_COMPLETION_STATUS_KHR, &status);
  CHECK(status == GL_TRUE, "COMPLETION_STATUS_KHR of a new shader is TRUE");
  status = -1;
  glGetProgramiv(fresh_program, GL_COMPLETION_STATUS_KHR, &status);
  CHECK(status == GL_TRUE, "COMPLETION_STATUS_KHR of a new program is TRUE");
  glDeleteShader(fresh_shader);
  glDeleteProgram(fresh_program);

  /* A batch: compile all, link all, then poll and query. */
  GLuint programs[kPrograms];
  for (unsigned i = 0; i < kPrograms; ++i) {
    GLuint shader = pc_writer(version, 1000 + i);
    programs[i] = glCreateProgram();
    glAttachShader(programs[i], shader);
    glLinkProgram(programs[i]);
    glDeleteShader(shader);
  }
  for (unsigned i = 0; i < kPrograms; ++i) {
    CHECK(pc_complete(1, programs[i]), "program %u: COMPLETION_STATUS_KHR becomes TRUE", i);
    GLint linked = GL_FALSE;
    glGetProgramiv(programs[i], GL_LINK_STATUS, &linked);
    CHECK(linked == GL_TRUE, "program %u links", i);
    if (linked) CHECK(pc_writes(programs[i], 1000 + i), "program %u writes %u", i, 1000 + i);
    glDeleteProgram(programs[i]);
  }

  /* A compile error: COMPILE_STATUS FALSE and an info log, as for a synchronous compile (GL 4.6 §7.1). */
  {
    char source[256];
    snprintf(source, sizeof source, "%slayout(local_size_x = 1) in;\nvoid main() { undeclared_name = 1; }\n", version);
    const char* text = source;
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &text, NULL);
    glCompileShader(shader);
    CHECK(pc_complete(0, shader), "COMPLETION_STATUS_KHR of a failing compile becomes TRUE");
    GLint compiled = -1, length = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    CHECK(compiled == GL_FALSE, "an undeclared name fails to compile");
    CHECK(length > 1, "the failed compile has an info log");
    glDeleteShader(shader);
  }

  /* GL 4.6 §7.3: the link uses the shaders attached at LinkProgram; detaching, re-sourcing and recompiling right
   * after it does not change what was linked. */
  {
    GLuint a = pc_writer(version, 7);
    GLuint b = pc_writer(version, 8);
    GLuint program = glCreateProgram();
    glAttachShader(program, a);
    glLinkProgram(program);
    glDetachShader(program, a);
    glAttachShader(program, b);
    char source[512];
    snprintf(source, sizeof source,
             "%slayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer Out { uint values[]; };\n"
             "void main() { values[gl_GlobalInvocationID.x] = 9u; }\n",
             version);
    const char* text = source;
    glShaderSource(a, 1, &text, NULL);
    glCompileShader(a);
    GLint linked = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    CHECK(linked == GL_TRUE, "the program links with the shader attached at LinkProgram");
    if (linked) CHECK(pc_writes(program, 7), "the program runs the shader as it was at LinkProgram");
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    CHECK(linked == GL_TRUE, "the relink links");
    if (linked) CHECK(pc_writes(program, 8), "the relink runs the shader attached now");
    glDeleteShader(a);
    glDeleteShader(b);
    glDeleteProgram(program);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "at the end");
  return conformance_result();
}

#endif
