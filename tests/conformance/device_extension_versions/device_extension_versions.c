/* device_extension_versions.c: the built-ins of the device-backed compute extensions at every compute-capable GLSL
 * version their specs allow, dispatched through the GL API, with the results their specs define (issue 15, points 2
 * and 4). GLSL 4.60 §3.3: an enabled extension behaves "as specified by the extension" whatever the #version;
 * compute shaders below GLSL 4.30 need GL_ARB_compute_shader (GL 4.6 §19).
 *  - GL_ARB_shader_clock (no GLSL version of its own): clockARB / clock2x32ARB never go back within an invocation
 *    ("Time monotonically increments as the processor executes instructions");
 *  - GL_EXT_shader_realtime_clock ("requires OpenGL 4.4 or OpenGL ES 3.1"): the same for clockRealtimeEXT /
 *    clockRealtime2x32EXT;
 *  - GL_NV_shader_atomic_float: atomicAdd sums of representable values are exact, atomicExchange returns the
 *    previous value;
 *  - GL_INTEL_shader_atomic_float_minmax ("OpenGL 4.2, OpenGL ES 3.1, ARB_shader_storage_buffer_object, or
 *    ARB_compute_shader is required"): atomicMin / atomicMax over negative and positive values and -0.0;
 *  - GL_NV_compute_shader_derivatives ("can be applied to OpenGL GLSL versions 4.50 (#version 450) and higher"):
 *    dFdx / dFdy / fwidth over derivative_group_linearNV groups; below 4.50 `require` must fail to compile.
 * An extension not in GL_EXTENSIONS is listed as not checked. */
#include "conformance.h"

struct Case {
  const char* extension;
  const char* directives;
  const char* declarations; /* after `layout(local_size_x = 64) in;` and the Out block at binding 0 */
  const char* body;
  int lowest_version; /* the extension spec's own GLSL requirement */
  unsigned words;     /* 32-bit words of Out the probe reads */
  const unsigned* init;
  const unsigned* expected; /* bit patterns */
};

/* Float results as bit patterns (IEEE-754 binary32), so -0.0 is told from +0.0. */
#define kMinus100_5 0xC2C90000u /* -100.5 */
#define kPlus154_5 0x431A8000u  /* 154.5 */
#define kPlus1e30 0x7149F2CAu   /* 1.0e30 */
#define kMinus1e30 0xF149F2CAu  /* -1.0e30 */
#define kPlusOne 0x3F800000u
#define kMinusOne 0xBF800000u
#define kMinusZero 0x80000000u
#define kPlus128 0x43000000u
#define kPlus64 0x42800000u
#define kPlus7 0x40E00000u

/* Out.w[0] counts invocations whose readings were in order; 4 groups x 64 invocations. */
static const unsigned kAllGood[] = {256};
/* min(1.0, -0.0) and max(-1.0, -0.0) are -0.0 exactly: no +0.0 takes part, so no ordering of zeros is needed. */
static const unsigned kMinMaxInit[] = {kPlus1e30, kMinus1e30, kPlusOne, kMinusOne, kPlus1e30, kMinus1e30};
static const unsigned kMinMaxExpected[] = {kMinus100_5, kPlus154_5, kMinusZero, kMinusZero, kMinus100_5, kPlus154_5};
/* 256 x 0.5; 128 x 1.25 - 128 x 0.75; 4 groups x (64 x 0.25); the last exchange; 256 exchanges saw 0.0 or 7.0 */
static const unsigned kAddExpected[] = {kPlus128, kPlus64, kPlus64, kPlus7, 256};

static const struct Case kCases[] = {
    {"GL_ARB_shader_clock", "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_ARB_shader_clock : require\n",
     "",
     "uvec2 t0 = clock2x32ARB(); atomicAdd(w[1], 1u); uint64_t c1 = clockARB(); atomicAdd(w[1], 1u);\n"
     "uint64_t c2 = packUint2x32(clock2x32ARB());\n"
     "if (packUint2x32(t0) <= c1 && c1 <= c2) atomicAdd(w[0], 1u);",
     140, 1, NULL, kAllGood},
    {"GL_EXT_shader_realtime_clock",
     "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_EXT_shader_realtime_clock : require\n", "",
     "uint64_t c0 = clockRealtimeEXT(); atomicAdd(w[1], 1u); uvec2 t1 = clockRealtime2x32EXT();\n"
     "atomicAdd(w[1], 1u); uint64_t c2 = clockRealtimeEXT();\n"
     "if (c0 <= packUint2x32(t1) && packUint2x32(t1) <= c2) atomicAdd(w[0], 1u);",
     140, 1, NULL, kAllGood},
    {"GL_NV_shader_atomic_float", "#extension GL_NV_shader_atomic_float : require\n",
     "layout(std430, binding = 1) buffer F { float sum; float mixed_sum; float shared_sum; float exchanged; };\n"
     "shared float s;\n",
     "if (gl_LocalInvocationIndex == 0u) s = 0.0; barrier();\n"
     "atomicAdd(sum, 0.5); atomicAdd(mixed_sum, gl_GlobalInvocationID.x % 2u == 0u ? 1.25 : -0.75);\n"
     "atomicAdd(s, 0.25); barrier(); if (gl_LocalInvocationIndex == 0u) atomicAdd(shared_sum, s);\n"
     "float before = atomicExchange(exchanged, 7.0); if (before == 0.0 || before == 7.0) atomicAdd(w[0], 1u);",
     140, 5, NULL, kAddExpected},
    {"GL_INTEL_shader_atomic_float_minmax", "#extension GL_INTEL_shader_atomic_float_minmax : require\n",
     "layout(std430, binding = 1) buffer F { float lo; float hi; float zero_lo; float zero_hi; float s_lo_out;"
     " float s_hi_out; };\nshared float s_lo; shared float s_hi;\n",
     "float v = float(gl_GlobalInvocationID.x) - 100.5;\n"
     "if (gl_LocalInvocationIndex == 0u) { s_lo = 1.0e30; s_hi = -1.0e30; } barrier();\n"
     "atomicMin(lo, v); atomicMax(hi, v); atomicMin(zero_lo, -0.0); atomicMax(zero_hi, -0.0);\n"
     "atomicMin(s_lo, v); atomicMax(s_hi, v); barrier();\n"
     "if (gl_LocalInvocationIndex == 0u) { atomicMin(s_lo_out, s_lo); atomicMax(s_hi_out, s_hi); }",
     140, 6, kMinMaxInit, kMinMaxExpected},
    {"GL_NV_compute_shader_derivatives", "#extension GL_NV_compute_shader_derivatives : require\n",
     "layout(derivative_group_linearNV) in;\n",
     /* linear: the quad is 4n + 2n' + m; v = 3m + 5n' + 11 * quad index has exact derivatives 3 and 5 */
     "uint i = gl_LocalInvocationIndex;\n"
     "float v = 3.0 * float(i % 2u) + 5.0 * float((i / 2u) % 2u) + 11.0 * float(i / 4u);\n"
     "if (dFdxFine(v) == 3.0 && dFdyFine(v) == 5.0 && fwidthFine(v) == 8.0 && dFdx(v) == 3.0) atomicAdd(w[0], 1u);",
     450, 1, NULL, kAllGood},
};

static const int kVersions[] = {150, 330, 400, 410, 420, 430, 440, 450, 460};

static void build(char* out, size_t size, int version, const struct Case* c, int with_directives) {
  snprintf(out, size,
           "#version %d\n%s%s"
           "layout(local_size_x = 64) in;\n"
           "layout(std430, binding = 0) buffer Out { uint w[]; };\n"
           "%s"
           "void main() {\n%s\n}\n",
           version,
           version < 430 ? "#extension GL_ARB_compute_shader : require\n"
                           "#extension GL_ARB_shader_storage_buffer_object : require\n"
                         : "",
           with_directives ? c->directives : "", c->declarations, c->body);
}

/* Runs the case's program as 4 x 1 x 1 groups; the counters go to binding 0, the float results to binding 1. */
static void run(GLuint program, const struct Case* c, unsigned* out) {
  const int floats = c->words > 1 || c->init != NULL; /* the float cases keep their values in block F */
  GLuint buffers[2] = {0, 0};
  glCreateBuffers(2, buffers);
  const unsigned zero[8] = {0};
  glNamedBufferData(buffers[0], sizeof zero, zero, GL_DYNAMIC_COPY);
  glNamedBufferData(buffers[1], sizeof zero, zero, GL_DYNAMIC_COPY);
  if (c->init != NULL) glNamedBufferSubData(buffers[1], 0, c->words * sizeof(unsigned), c->init);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers[0]);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffers[1]);
  glUseProgram(program);
  glDispatchCompute(4, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (floats && c->init == NULL) {
    /* atomic float add: four floats in F, then the count of in-order exchanges in Out.w[0] */
    glGetNamedBufferSubData(buffers[1], 0, 4 * sizeof(unsigned), out);
    glGetNamedBufferSubData(buffers[0], 0, sizeof(unsigned), out + 4);
  } else if (floats) {
    glGetNamedBufferSubData(buffers[1], 0, c->words * sizeof(unsigned), out);
  } else {
    glGetNamedBufferSubData(buffers[0], 0, c->words * sizeof(unsigned), out);
  }
  glUseProgram(0);
  glDeleteBuffers(2, buffers);
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  int checked = 0;
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; ++i) {
    const struct Case* c = &kCases[i];
    if (!conformance_has_extension(c->extension)) {
      printf("not checked: %s is not advertised\n", c->extension);
      continue;
    }
    for (size_t v = 0; v < sizeof kVersions / sizeof kVersions[0]; ++v) {
      const int version = kVersions[v];
      char source[4096];
      build(source, sizeof source, version, c, 1);
      if (version < c->lowest_version) {
        CHECK(!conformance_compiles(source), "%s at #version %d: the extension spec does not apply below %d, so 'require' fails",
              c->extension, version, c->lowest_version);
        continue;
      }
      GLuint program = conformance_compute_program(source);
      CHECK(program != 0, "%s at #version %d: the extension's built-ins compile and link", c->extension, version);
      if (program == 0) continue;
      unsigned out[8] = {0};
      run(program, c, out);
      for (unsigned k = 0; k < c->words; ++k) {
        CHECK(out[k] == c->expected[k], "%s at #version %d: result word %u is 0x%08x, the spec's result is 0x%08x",
              c->extension, version, k, out[k], c->expected[k]);
      }
      glDeleteProgram(program);
      build(source, sizeof source, version, c, 0);
      CHECK(!conformance_compiles(source), "%s at #version %d: without the #extension the built-ins are not there", c->extension,
            version);
      ++checked;
    }
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "after the dispatches");
  printf("%d version/extension pairs run\n", checked);
  if (checked == 0) conformance_skip("the context advertises none of the extensions");
  return conformance_result();
}
