/* Every compute-capable GLSL version x every advertised compute extension, through glCompileShader/glLinkProgram.
 *
 * GLSL 4.60 §3.3: "#extension extension_name : require — Behave as specified by the extension" and "If an
 * extension is not enabled ... the behavior is as if the extension was not supported"; each extension below says
 * from which GLSL version it may be used (1.40 for the ARB ones), and compute shaders below GLSL 4.30 need
 * GL_ARB_compute_shader (GL 4.6 §19). GL 4.6 core contexts compile GLSL ES 3.10 and 3.20 shaders too (GL 4.6 §7.1,
 * "OpenGL Shading Language ES versions 1.00, 3.00, 3.10 and 3.20"). For each pair where the context advertises the
 * extension:
 *  - the shader using the extension's built-ins compiles and links;
 *  - the same shader without its #extension lines fails to compile (the check cannot pass by accepting
 *    everything).
 * Extensions not advertised are listed as not checked. */
#include "conformance.h"

struct Case {
  const char* extension; /* the one the context must advertise */
  const char* directives;
  const char* declarations;
  const char* body;
  int lowest_version; /* the extension's own requirement (desktop versions) */
  int es;             /* 1: also at 310 es / 320 es; 2: only there */
  int lowest_es;      /* the extension's own ES requirement (0: 310 es) */
};

static const struct Case kCases[] = {
    {"GL_ARB_shader_group_vote", "#extension GL_ARB_shader_group_vote : require\n", "",
     "o[0] = uint(anyInvocationARB(o[1] == 1u)) + uint(allInvocationsARB(o[2] == 1u)) +"
     " uint(allInvocationsEqualARB(o[3] == 1u));",
     140, 0},
    {"GL_ARB_shader_ballot",
     "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_ARB_shader_ballot : require\n", "",
     "o[0] = uint(ballotARB(o[1] == 1u) & gl_SubGroupLtMaskARB) + readInvocationARB(o[2], 0u) +"
     " readFirstInvocationARB(o[3]) + gl_SubGroupSizeARB + gl_SubGroupInvocationARB;",
     140, 0},
    {"GL_ARB_gpu_shader_int64", "#extension GL_ARB_gpu_shader_int64 : require\n", "",
     "int64_t a = int64_t(o[1]) - 5l; u64vec2 b = u64vec2(o[2]);"
     " o[0] = uint(abs(a) + min(a, 3l) + clamp(a, -1l, 1l)) + unpackUint2x32(packUint2x32(uvec2(o[3])) + b.y).x +"
     " uint(any(lessThan(b, b)));",
     140, 0},
    {"GL_NV_shader_atomic_int64",
     "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_NV_shader_atomic_int64 : require\n",
     "layout(std430, binding = 1) buffer Big { int64_t i; uint64_t u; };\nshared int64_t si;\n",
     "o[0] = uint(atomicMin(i, -1l) + atomicCompSwap(si, 0l, 1l)) + uint(atomicXor(u, 3ul));", 140, 0},
    {"GL_ARB_shader_atomic_counter_ops",
     "#extension GL_ARB_shader_atomic_counters : require\n#extension GL_ARB_shader_atomic_counter_ops : require\n",
     "layout(binding = 0, offset = 0) uniform atomic_uint c;\n",
     "o[0] = atomicCounterAddARB(c, 1u) + atomicCounterCompSwapARB(c, 1u, 2u) + atomicCounterXorARB(c, 3u);", 140, 0},
    {"GL_KHR_shader_subgroup",
     "#extension GL_KHR_shader_subgroup_basic : require\n#extension GL_KHR_shader_subgroup_arithmetic : require\n", "",
     "o[0] = subgroupAdd(o[1]) + gl_SubgroupSize + uint(subgroupElect());", 140, 1},
    /* The device-backed ones (docs/gl_shim.md, "Extensions and the device features behind them"): ARB_shader_clock
     * and EXT_shader_realtime_clock name no GLSL version, INTEL_shader_atomic_float_minmax "OpenGL 4.2, OpenGL ES
     * 3.1, ARB_shader_storage_buffer_object, or ARB_compute_shader"; NV_compute_shader_derivatives "can be applied
     * to OpenGL GLSL versions 4.50 (#version 450) and higher" and "OpenGL ES ESSL versions 3.20". */
    {"GL_ARB_shader_clock", "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_ARB_shader_clock : require\n",
     "", "o[0] = clock2x32ARB().x + uint(clockARB());", 140, 0},
    {"GL_EXT_shader_realtime_clock",
     "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_EXT_shader_realtime_clock : require\n", "",
     "o[0] = clockRealtime2x32EXT().x + uint(clockRealtimeEXT());", 140, 0},
    {"GL_NV_shader_atomic_float", "#extension GL_NV_shader_atomic_float : require\n",
     "layout(std430, binding = 1) buffer F { float f; };\nshared float s;\n",
     "o[0] = uint(atomicAdd(f, 1.5) + atomicExchange(s, 2.0));", 140, 0},
    {"GL_INTEL_shader_atomic_float_minmax", "#extension GL_INTEL_shader_atomic_float_minmax : require\n",
     "layout(std430, binding = 1) buffer F { float f; };\nshared float s;\n",
     "o[0] = uint(atomicMin(f, -1.5) + atomicMax(s, 2.0) + atomicExchange(f, 1.0));", 140, 0},
    {"GL_NV_compute_shader_derivatives", "#extension GL_NV_compute_shader_derivatives : require\n",
     "layout(derivative_group_linearNV) in;\n",
     "float v = float(o[1] + gl_LocalInvocationIndex); o[0] = uint(dFdx(v) + dFdy(v) + fwidth(v));", 450, 1, 320},
    {"GL_EXT_shader_group_vote", "#extension GL_EXT_shader_group_vote : require\n", "",
     "o[0] = uint(anyInvocationEXT(o[1] == 1u)) + uint(allInvocationsEqualEXT(o[2] == 1u));", 300, 2},
};

static const char* const kVersions[] = {"150", "330", "400", "410", "420", "430", "440", "450", "460", "310 es", "320 es"};

static void build(char* out, size_t size, const char* version, const struct Case* c, int with_directives) {
  const int es = strstr(version, "es") != NULL;
  const int below_430 = !es && atoi(version) < 430;
  snprintf(out, size,
           "#version %s\n%s%s"
           "layout(local_size_x = 4) in;\n"
           "layout(std430, binding = 0) buffer Out { %suint o[]; };\n"
           "%s"
           "void main() { %s }\n",
           version,
           below_430 ? "#extension GL_ARB_compute_shader : require\n"
                       "#extension GL_ARB_shader_storage_buffer_object : require\n"
                     : "",
           with_directives ? c->directives : "", es ? "highp " : "", c->declarations, c->body);
}

/* Checks every case at the versions `accept` lets through in the current context; returns the pairs checked. */
static int check_cases(int (*accept)(const char* version)) {
  int checked = 0;
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; ++i) {
    const struct Case* c = &kCases[i];
    if (!conformance_has_extension(c->extension)) {
      printf("not checked: %s is not advertised\n", c->extension);
      continue;
    }
    for (size_t v = 0; v < sizeof kVersions / sizeof kVersions[0]; ++v) {
      const char* version = kVersions[v];
      if (!accept(version)) continue;
      const int es = strstr(version, "es") != NULL;
      if (es ? (c->es == 0 || atoi(version) < c->lowest_es) : (c->es == 2 || atoi(version) < c->lowest_version)) {
        continue;
      }
      char source[4096];
      build(source, sizeof source, version, c, 1);
      GLuint program = conformance_compute_program(source);
      CHECK(program != 0, "%s at #version %s: the extension's built-ins compile and link", c->extension, version);
      if (program) glDeleteProgram(program);
      build(source, sizeof source, version, c, 0);
      CHECK(!conformance_compiles(source), "%s at #version %s: without the #extension the built-ins are not there", c->extension,
            version);
      ++checked;
    }
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "after the compiles");
  return checked;
}

/* GL 4.6 takes desktop GLSL and, through ARB_ES3_1_compatibility, "#version 310 es"; "#version 320 es" needs an
 * OpenGL ES 3.2 context (GL 4.6 has no ARB_ES3_2_compatibility in Bismuth). */
static int desktop_context_version(const char* version) { return strcmp(version, "320 es") != 0; }
static int es32_context_version(const char* version) { return strcmp(version, "320 es") == 0; }

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  int checked = check_cases(desktop_context_version);
  conformance_make_context(EGL_OPENGL_ES_API, 3, 2);
  checked += check_cases(es32_context_version);
  printf("%d version/extension pairs checked\n", checked);
  if (checked == 0) conformance_skip("the context advertises none of the extensions");
  return conformance_result();
}
