/* es_shader_extensions.c: the device-backed shader extensions whose specs apply to OpenGL ES, in OpenGL ES 3.1 and
 * 3.2 contexts with #version 310 es / 320 es compute shaders (issue 15: GLSL ES got "no matching overloaded
 * function" for their built-ins):
 *  - GL_EXT_shader_realtime_clock (revision 3 applies it to ESSL 3.10): clockRealtime2x32EXT() reads the device's
 *    real-time clock as a uvec2, low word first, and the clock only counts up;
 *  - GL_INTEL_shader_atomic_float_minmax (Dependencies: "OpenGL 4.2, OpenGL ES 3.1, ... is required"): "float
 *    atomicMin(inout float mem, float data) Computes a new value by taking the minimum of the value of data and the
 *    contents of mem", atomicMax likewise, and atomicExchange on float, "to floating-point buffer variables and
 *    shared variables".
 * An extension the ES context lists in GL_EXTENSIONS compiles with `#extension X : require` and gives its spec's
 * results; one it does not list is refused (GLSL ES 3.20 §3.4: "require ... Give a compile-time error on the
 * #extension if the extension extension_name is not supported"). The GLSL ES rules still hold around the float
 * overloads (GLSL ES 3.20 §4.1.10: no implicit conversions, so atomicAdd(int, uint) matches nothing), and GL_ES is
 * defined (GLSL ES 3.20 §3.4: "GL_ES ... defined and set to 1"). */
#include "conformance.h"

/* The compile status of `source` as an ES compute shader; its info log in `log`. */
static int compiles(const char* source, char* log, GLsizei log_size) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  log[0] = '\0';
  glGetShaderInfoLog(shader, log_size, NULL, log);
  glDeleteShader(shader);
  return ok != 0;
}

/* Runs `program` as `groups` x 1 x 1 on a buffer initialised from `init` (`size` bytes) at storage binding 0 and
 * reads it back with glMapBufferRange (ES 3.1 has no glGetBufferSubData). */
static void dispatch(GLuint program, GLuint groups, const void* init, GLsizeiptr size, void* out) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, size, init, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(groups, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, size, GL_MAP_READ_BIT);
  CHECK(mapped != NULL, "glMapBufferRange of the result");
  if (mapped != NULL) memcpy(out, mapped, (size_t)size);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
}

static void check_refused(const char* version, const char* name) {
  char source[1024], log[4096];
  snprintf(source, sizeof source,
           "#version %s\n#extension %s : require\nlayout(local_size_x = 1) in;\nvoid main() {}\n", version, name);
  CHECK(!compiles(source, log, sizeof log), "%s is not in the ES context's GL_EXTENSIONS: 'require' must fail", name);
}

static void check_realtime_clock(const char* version) {
  const char* name = "GL_EXT_shader_realtime_clock";
  if (!conformance_has_extension(name)) {
    check_refused(version, name);
    return;
  }
  char source[2048];
  snprintf(source, sizeof source,
           "#version %s\n#extension GL_EXT_shader_realtime_clock : require\n"
           "#if GL_EXT_shader_realtime_clock != 1 || GL_ES != 1\n#error macros\n#endif\n"
           "layout(local_size_x = 64) in;\n"
           "layout(std430, binding = 0) buffer Out { highp uint ok_count; highp uint work; };\n"
           "bool later(uvec2 a, uvec2 b) { return b.y > a.y || (b.y == a.y && b.x >= a.x); }\n"
           "void main() {\n"
           "  uvec2 t0 = clockRealtime2x32EXT();\n"
           "  atomicAdd(work, 1u);\n"
           "  uvec2 t1 = clockRealtime2x32EXT();\n"
           "  if (later(t0, t1)) atomicAdd(ok_count, 1u);\n"
           "}\n",
           version);
  GLuint program = conformance_compute_program(source);
  CHECK(program != 0, "#version %s: %s is listed, so clockRealtime2x32EXT() must compile and link", version, name);
  if (program == 0) return;
  GLuint out[2] = {0, 0};
  dispatch(program, 4, out, sizeof out, out);
  CHECK(out[1] == 256, "every invocation ran (%u of 256)", out[1]);
  CHECK(out[0] == 256, "a later read of the real-time clock is never earlier (%u of 256)", out[0]);
  glDeleteProgram(program);
}

static void check_float_minmax(const char* version) {
  const char* name = "GL_INTEL_shader_atomic_float_minmax";
  if (!conformance_has_extension(name)) {
    check_refused(version, name);
    return;
  }
  char source[4096];
  snprintf(source, sizeof source,
           "#version %s\n#extension GL_INTEL_shader_atomic_float_minmax : require\n"
           "layout(local_size_x = 64) in;\n"
           "layout(std430, binding = 0) buffer Out {\n"
           "  highp float lo; highp float hi; highp float shared_lo; highp float shared_hi; highp float exchanged;\n"
           "  highp int int_lo; highp uint uint_hi;\n"
           "};\n"
           "shared highp float s_lo;\nshared highp float s_hi;\n"
           "void main() {\n"
           "  if (gl_LocalInvocationIndex == 0u) { s_lo = 1.0e30; s_hi = -1.0e30; }\n"
           "  barrier();\n"
           "  highp float v = 0.5 * float(gl_GlobalInvocationID.x) - 20.25;\n"
           "  atomicMin(lo, v);\n  atomicMax(hi, v);\n  atomicMin(s_lo, v);\n  atomicMax(s_hi, v);\n"
           "  atomicMin(int_lo, int(gl_GlobalInvocationID.x) - 3);\n"
           "  atomicMax(uint_hi, gl_GlobalInvocationID.x);\n"
           "  barrier();\n"
           "  if (gl_LocalInvocationIndex == 0u) { atomicMin(shared_lo, s_lo); atomicMax(shared_hi, s_hi); }\n"
           "  atomicExchange(exchanged, 7.5);\n"
           "}\n",
           version);
  GLuint program = conformance_compute_program(source);
  CHECK(program != 0, "#version %s: %s is listed, so float atomicMin/Max/Exchange must compile and link", version,
        name);
  if (program == 0) return;
  union {
    float f[7];
    GLint i[7];
    GLuint u[7];
  } data;
  data.f[0] = 1.0e30f, data.f[1] = -1.0e30f, data.f[2] = 1.0e30f, data.f[3] = -1.0e30f, data.f[4] = 0.0f;
  data.i[5] = 0, data.u[6] = 0;
  dispatch(program, 2, &data, sizeof data, &data);
  /* 128 invocations: v = 0.5 * id - 20.25 for id 0..127. */
  CHECK(data.f[0] == -20.25f && data.f[1] == 43.25f, "buffer atomicMin / atomicMax: %g %g (expected -20.25 43.25)",
        data.f[0], data.f[1]);
  CHECK(data.f[2] == -20.25f && data.f[3] == 43.25f,
        "shared atomicMin / atomicMax, folded per group: %g %g (expected -20.25 43.25)", data.f[2], data.f[3]);
  CHECK(data.f[4] == 7.5f, "atomicExchange(float) stores data: %g", data.f[4]);
  CHECK(data.i[5] == -3 && data.u[6] == 127, "the integer overloads beside the float ones: %d %u", data.i[5],
        data.u[6]);
  glDeleteProgram(program);

  /* GLSL ES 3.20 §4.1.10 "There are no implicit conversions": atomicAdd(int, uint) matches no overload, and the
   * message names the function as written. */
  char log[4096];
  snprintf(source, sizeof source,
           "#version %s\n#extension GL_INTEL_shader_atomic_float_minmax : require\nlayout(local_size_x = 1) in;\n"
           "layout(std430, binding = 0) buffer Out { highp int i; };\nvoid main() { atomicMin(i, 1u); }\n",
           version);
  CHECK(!compiles(source, log, sizeof log), "atomicMin(int, uint) is an error in GLSL ES (no implicit conversion)");
  CHECK(strstr(log, "atomicMin") != NULL, "the error names atomicMin: %s", log);
  /* GLSL ES 3.20 §8.11: the mem argument must "correspond to a buffer or shared variable". */
  snprintf(source, sizeof source,
           "#version %s\n#extension GL_INTEL_shader_atomic_float_minmax : require\nlayout(local_size_x = 1) in;\n"
           "layout(std430, binding = 0) buffer Out { highp float f; };\n"
           "void main() { highp float l = f; atomicMax(l, 1.0); f = l; }\n",
           version);
  CHECK(!compiles(source, log, sizeof log), "atomicMax on a local variable must not compile");
}

int main(void) {
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = conformance_make_context(EGL_OPENGL_ES_API, 3, 1);
  check_realtime_clock("310 es");
  check_float_minmax("310 es");
  /* An ES 3.2 context for #version 320 es. */
  EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext es32 = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  CHECK(es32 != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, es32),
        "an OpenGL ES 3.2 context");
  if (es32 != EGL_NO_CONTEXT) {
    check_realtime_clock("320 es");
    check_float_minmax("320 es");
    /* Desktop OpenGL extensions are not OpenGL ES extensions: the ES context lists none of them, so "require" of
     * each is a compile-time error (GLSL ES 3.20 §3.4), even where the device backs its desktop form. */
    const char* desktop_only[] = {"GL_ARB_shader_clock", "GL_ARB_gpu_shader_int64", "GL_ARB_shader_ballot",
                                  "GL_ARB_shader_group_vote", "GL_NV_shader_atomic_int64"};
    for (size_t i = 0; i < sizeof desktop_only / sizeof desktop_only[0]; ++i) {
      CHECK(!conformance_has_extension(desktop_only[i]), "the ES context does not list %s", desktop_only[i]);
      check_refused("320 es", desktop_only[i]);
    }
    /* "enable ... Warn on the #extension if the extension extension_name is not supported": the shader compiles
     * with a warning, and the extension stays off, so its built-ins are not there. */
    char log[4096];
    const char* unused = "#version 320 es\n#extension GL_ARB_shader_clock : enable\nlayout(local_size_x = 1) in;\n"
                         "void main() {}\n";
    CHECK(compiles(unused, log, sizeof log) && strstr(log, "warning") && strstr(log, "GL_ARB_shader_clock"),
          "enable of a desktop extension in an ES context warns and compiles: \"%s\"", log);
    const char* used = "#version 320 es\n#extension GL_ARB_shader_clock : enable\nlayout(local_size_x = 1) in;\n"
                       "layout(std430, binding = 0) buffer B { highp uint o; };\n"
                       "void main() { uvec2 t = clock2x32ARB(); o = t.x; }\n";
    CHECK(!compiles(used, log, sizeof log), "the built-ins of an enabled desktop extension are not there in ES");
  }
  const int es_clock = conformance_has_extension("GL_EXT_shader_realtime_clock");
  const int es_minmax = conformance_has_extension("GL_INTEL_shader_atomic_float_minmax");
  printf("ES extensions: GL_EXT_shader_realtime_clock=%s GL_INTEL_shader_atomic_float_minmax=%s\n",
         es_clock ? "yes" : "no", es_minmax ? "yes" : "no");
  /* Both extensions are backed by device features, not by the API: an ES context on the device lists them exactly
   * where a desktop GL context on it does. */
  eglBindAPI(EGL_OPENGL_API);
  EGLint gl46[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext desktop = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, gl46);
  if (desktop != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, desktop)) {
    CHECK(conformance_has_extension("GL_EXT_shader_realtime_clock") == es_clock,
          "GL_EXT_shader_realtime_clock is listed in the ES context exactly where the desktop context lists it");
    CHECK(conformance_has_extension("GL_INTEL_shader_atomic_float_minmax") == es_minmax,
          "GL_INTEL_shader_atomic_float_minmax is listed in the ES context exactly where the desktop one lists it");
  }
  return conformance_result();
}
