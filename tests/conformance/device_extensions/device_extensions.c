/* device_extensions.c: the compute extensions a Vulkan device can back (issue 15, point 4) — GL_ARB_shader_clock,
 * GL_EXT_shader_realtime_clock, GL_NV_shader_atomic_float, GL_INTEL_shader_atomic_float_minmax,
 * GL_NV_compute_shader_derivatives, GL_KHR_shader_subgroup — checked through the GL API as a user sees them:
 *  - an extension in GL_EXTENSIONS compiles with `#extension X : require` and its built-ins give the results its
 *    spec defines when dispatched;
 *  - one not in GL_EXTENSIONS is refused as GLSL 4.60 §3.3 says: "require: ... Give a compile-time error on the
 *    #extension if the extension extension_name is not supported", "enable: ... Warn on the #extension if the
 *    extension extension_name is not supported" (the shader compiles while it does not use the extension), and its
 *    macro is not defined (each extension spec's "New preprocessor #defines", "#define GL_<name> 1", holds only
 *    where the extension is supported);
 *  - KHR_shader_subgroup's four queries, consistent with each other and with what shaders see. */
#include "conformance.h"

static GLuint compile_shader(const char* source, GLint* ok, char* log, GLsizei log_size) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  glGetShaderiv(shader, GL_COMPILE_STATUS, ok);
  log[0] = '\0';
  glGetShaderInfoLog(shader, log_size, NULL, log);
  return shader;
}

/* Whether `source` compiles; the info log goes to `log`. */
static int compiles(const char* source, char* log, GLsizei log_size) {
  GLint ok = 0;
  glDeleteShader(compile_shader(source, &ok, log, log_size));
  return ok != 0;
}

/* Runs `program` once as groups x 1 x 1 with a zero-filled (or `init`-filled) buffer of `size` bytes at
 * GL_SHADER_STORAGE_BUFFER binding 0 and reads it back into `out`. */
static void dispatch(GLuint program, GLuint groups, const void* init, GLsizeiptr size, void* out) {
  GLuint buffer = 0;
  glCreateBuffers(1, &buffer);
  glNamedBufferData(buffer, size, init, GL_DYNAMIC_COPY);
  if (init == NULL) glClearNamedBufferData(buffer, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(groups, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetNamedBufferSubData(buffer, 0, size, out);
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
}

/* A device-gated extension that is not exposed: `require` is a compile error, `enable` of an unused one compiles
 * (with a warning), a use of its built-ins after `enable` does not compile, and its macro is undefined. */
static void check_refused(const char* name, const char* use) {
  char source[2048], log[4096];
  snprintf(source, sizeof source,
           "#version 450\n#extension %s : require\nlayout(local_size_x = 1) in;\nvoid main() {}\n", name);
  CHECK(!compiles(source, log, sizeof log), "%s is not in GL_EXTENSIONS: '#extension %s : require' must fail", name,
        name);
  snprintf(source, sizeof source,
           "#version 450\n#extension %s : enable\nlayout(local_size_x = 1) in;\nvoid main() {}\n", name);
  CHECK(compiles(source, log, sizeof log), "'#extension %s : enable' of an unsupported extension only warns: %s", name,
        log);
  CHECK(strstr(log, "warning") != NULL, "'#extension %s : enable' must warn that it is not supported (log: '%s')", name,
        log);
  snprintf(source, sizeof source,
           "#version 450\n#extension %s : enable\nlayout(local_size_x = 1) in;\n"
           "layout(std430, binding = 0) buffer B { float f; uint u; uvec2 v; };\nshared float s;\n"
           "void main() { %s }\n",
           name, use);
  CHECK(!compiles(source, log, sizeof log), "%s is not supported: its built-ins must not compile ('%s')", name, use);
  snprintf(source, sizeof source,
           "#version 450\nlayout(local_size_x = 1) in;\n#ifdef %s\n#error %s is defined\n#endif\nvoid main() {}\n",
           name, name);
  CHECK(compiles(source, log, sizeof log), "an unsupported extension's macro %s must not be defined: %s", name, log);
}

/* A supported extension's macro is 1 (GLSL 4.60 §3.3). */
static void check_macro(const char* name) {
  char source[1024], log[4096];
  snprintf(source, sizeof source,
           "#version 450\nlayout(local_size_x = 1) in;\n#if !defined(%s) || %s != 1\n#error %s is not 1\n#endif\n"
           "void main() {}\n",
           name, name, name);
  CHECK(compiles(source, log, sizeof log), "%s is in GL_EXTENSIONS, so its macro must be 1: %s", name, log);
}

/* ARB_shader_clock: "clockARB() ... returns a 64-bit value representing the current execution clock as seen by
 * the shader processor ... monotonically incrementing"; clock2x32ARB() returns the same as a uvec2 (low, high).
 * EXT_shader_realtime_clock's clockRealtimeEXT / clockRealtime2x32EXT likewise for a device-wide clock. */
static void check_clock(const char* extension, const char* fn2x32, const char* fn64) {
  if (!conformance_has_extension(extension)) {
    char use[128];
    snprintf(use, sizeof use, "v = %s();", fn2x32);
    check_refused(extension, use);
    return;
  }
  check_macro(extension);
  /* The 64-bit form only where ARB_gpu_shader_int64 gives the type; it reads the same clock. */
  const int int64 = conformance_has_extension("GL_ARB_gpu_shader_int64");
  char int64_lines[512] = "";
  if (int64) {
    snprintf(int64_lines, sizeof int64_lines,
             "  uint64_t c0 = %s();\n  uint64_t c1 = %s();\n  ok = ok && c1 >= c0 && later(t1, unpackUint2x32(c0));\n",
             fn64, fn64);
  }
  char source[2048];
  snprintf(source, sizeof source,
           "#version 450\n#extension %s : require\n%s"
           "layout(local_size_x = 64) in;\n"
           "layout(std430, binding = 0) buffer Out { uint ok_count; uint work; };\n"
           "bool later(uvec2 a, uvec2 b) { return b.y > a.y || (b.y == a.y && b.x >= a.x); }\n"
           "void main() {\n"
           "  uvec2 t0 = %s();\n"
           "  atomicAdd(work, 1u);\n"
           "  uvec2 t1 = %s();\n"
           "  bool ok = later(t0, t1);\n"
           "%s"
           "  if (ok) atomicAdd(ok_count, 1u);\n"
           "}\n",
           extension, int64 ? "#extension GL_ARB_gpu_shader_int64 : require\n" : "", fn2x32, fn2x32, int64_lines);
  GLuint program = conformance_compute_program(source);
  CHECK(program != 0, "%s is in GL_EXTENSIONS: a shader using %s() must compile and link", extension, fn2x32);
  if (program == 0) return;
  GLuint out[2] = {0, 0};
  dispatch(program, 4, NULL, sizeof out, out);
  CHECK(out[1] == 256, "all 256 invocations ran (%u)", out[1]);
  CHECK(out[0] == 256, "%s: the clock read later in an invocation is not smaller (%u of 256 held)", extension, out[0]);
  glDeleteProgram(program);
}

/* NV_shader_atomic_float: "atomicAdd(inout float mem, float data)" and "atomicExchange(inout float mem, float
 * data)" on buffer and shared variables, returning the value before the operation. */
static void check_atomic_float(void) {
  const char* name = "GL_NV_shader_atomic_float";
  if (!conformance_has_extension(name)) {
    check_refused(name, "atomicAdd(f, 1.0);");
    return;
  }
  check_macro(name);
  GLuint program = conformance_compute_program(
      "#version 450\n#extension GL_NV_shader_atomic_float : require\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Out { float sum; float shared_sum; float exchanged; uint seen; };\n"
      "shared float s;\n"
      "void main() {\n"
      "  if (gl_LocalInvocationIndex == 0u) s = 0.0;\n"
      "  barrier();\n"
      "  atomicAdd(sum, 0.5);\n"
      "  atomicAdd(s, 0.25);\n"
      "  barrier();\n"
      "  if (gl_LocalInvocationIndex == 0u) atomicAdd(shared_sum, s);\n"
      "  float before = atomicExchange(exchanged, 7.0);\n"
      "  if (before == 0.0 || before == 7.0) atomicAdd(seen, 1u);\n"
      "}\n");
  CHECK(program != 0, "GL_NV_shader_atomic_float is in GL_EXTENSIONS: float atomicAdd/atomicExchange must compile");
  if (program == 0) return;
  float out[4] = {0, 0, 0, 0};
  dispatch(program, 4, NULL, sizeof out, out);
  /* 256 x 0.5 and 4 groups x 64 x 0.25 are exact in float whatever the order. */
  CHECK(out[0] == 128.0f, "buffer atomicAdd: 256 x 0.5 = 128 (got %g)", out[0]);
  CHECK(out[1] == 64.0f, "shared atomicAdd: 4 groups of 64 x 0.25 = 64 (got %g)", out[1]);
  CHECK(out[2] == 7.0f, "atomicExchange stored 7 (got %g)", out[2]);
  GLuint seen = 0;
  memcpy(&seen, &out[3], sizeof seen);
  CHECK(seen == 256, "atomicExchange returned the value before (0 or 7) to every invocation (%u of 256)", seen);
  glDeleteProgram(program);
}

/* INTEL_shader_atomic_float_minmax: "float atomicMin(inout float mem, float data)" / atomicMax on buffer and shared
 * variables ("Computes a new value by taking the minimum of the value of data and the contents of mem"). */
static void check_atomic_float_minmax(void) {
  const char* name = "GL_INTEL_shader_atomic_float_minmax";
  if (!conformance_has_extension(name)) {
    check_refused(name, "atomicMin(f, 1.0);");
    return;
  }
  check_macro(name);
  GLuint program = conformance_compute_program(
      "#version 450\n#extension GL_INTEL_shader_atomic_float_minmax : require\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Out { float lo; float hi; float shared_lo; float shared_hi; };\n"
      "shared float s_lo, s_hi;\n"
      "void main() {\n"
      "  float v = float(gl_GlobalInvocationID.x) - 100.5;\n"
      "  if (gl_LocalInvocationIndex == 0u) { s_lo = 1e30; s_hi = -1e30; }\n"
      "  barrier();\n"
      "  atomicMin(lo, v);\n"
      "  atomicMax(hi, v);\n"
      "  atomicMin(s_lo, v);\n"
      "  atomicMax(s_hi, v);\n"
      "  barrier();\n"
      "  if (gl_LocalInvocationIndex == 0u) { atomicMin(shared_lo, s_lo); atomicMax(shared_hi, s_hi); }\n"
      "}\n");
  CHECK(program != 0, "%s is in GL_EXTENSIONS: float atomicMin/atomicMax must compile", name);
  if (program == 0) return;
  const float init[4] = {1e30f, -1e30f, 1e30f, -1e30f};
  float out[4] = {0, 0, 0, 0};
  dispatch(program, 4, init, sizeof out, out);
  CHECK(out[0] == -100.5f, "buffer atomicMin over x - 100.5, x in 0..255 (got %g)", out[0]);
  CHECK(out[1] == 154.5f, "buffer atomicMax (got %g)", out[1]);
  CHECK(out[2] == -100.5f, "shared atomicMin, then per group into the buffer (got %g)", out[2]);
  CHECK(out[3] == 154.5f, "shared atomicMax (got %g)", out[3]);
  glDeleteProgram(program);
}

/* NV_compute_shader_derivatives: "derivative_group_quadsNV ... the invocations with local invocation IDs (2x, 2y),
 * (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1) form a quad"; "derivative_group_linearNV ... each group of four invocations
 * with consecutive local invocation indices 4n .. 4n+3 forms a quad" (left to right, top to bottom). A value linear
 * in the quad's x and y has exact derivatives. */
static void check_derivatives(void) {
  const char* name = "GL_NV_compute_shader_derivatives";
  if (!conformance_has_extension(name)) {
    check_refused(name, "f = dFdx(f);");
    return;
  }
  check_macro(name);
  const char* layouts[2] = {
      "layout(local_size_x = 4, local_size_y = 2) in;\nlayout(derivative_group_quadsNV) in;\n"
      "uvec2 quad_xy() { return gl_LocalInvocationID.xy % 2u; }\n",
      "layout(local_size_x = 8) in;\nlayout(derivative_group_linearNV) in;\n"
      "uvec2 quad_xy() { uint i = gl_LocalInvocationIndex % 4u; return uvec2(i % 2u, i / 2u); }\n"};
  for (int i = 0; i < 2; ++i) {
    char source[2048];
    snprintf(source, sizeof source,
             "#version 450\n#extension GL_NV_compute_shader_derivatives : require\n%s"
             "layout(std430, binding = 0) buffer Out { uint ok_count; };\n"
             "void main() {\n"
             "  uvec2 q = quad_xy();\n"
             "  float v = 3.0 * float(q.x) + 5.0 * float(q.y) + float(gl_WorkGroupID.x);\n"
             "  bool ok = dFdx(v) == 3.0 && dFdy(v) == 5.0 && dFdxFine(v) == 3.0 && dFdyCoarse(v) == 5.0 &&\n"
             "            fwidth(v) == 8.0;\n"
             "  if (ok) atomicAdd(ok_count, 1u);\n"
             "}\n",
             layouts[i]);
    GLuint program = conformance_compute_program(source);
    CHECK(program != 0, "%s is in GL_EXTENSIONS: %s must compile", name, i == 0 ? "quads" : "linear");
    if (program == 0) continue;
    GLuint out = 0;
    dispatch(program, 2, NULL, sizeof out, &out);
    CHECK(out == 16, "%s: every invocation sees dFdx = 3, dFdy = 5 (%u of 16)", i == 0 ? "quads" : "linear", out);
    glDeleteProgram(program);
  }
}

/* KHR_shader_subgroup (GL): "SUBGROUP_SIZE_KHR ... the number of invocations in a subgroup" (a power of two, at
 * least 1); SUBGROUP_SUPPORTED_STAGES_KHR has at least COMPUTE_SHADER_BIT, SUBGROUP_SUPPORTED_FEATURES_KHR at
 * least SUBGROUP_FEATURE_BASIC_BIT_KHR, SUBGROUP_QUAD_ALL_STAGES_KHR is a boolean; each feature bit says whether
 * the GLSL extension GL_KHR_shader_subgroup_<feature> is supported. */
static void check_subgroup(void) {
  static const struct {
    GLbitfield bit;
    const char* glsl;
    const char* use;
  } features[] = {
      {GL_SUBGROUP_FEATURE_BASIC_BIT_KHR, "GL_KHR_shader_subgroup_basic", "u = uint(subgroupElect());"},
      {GL_SUBGROUP_FEATURE_VOTE_BIT_KHR, "GL_KHR_shader_subgroup_vote", "u = uint(subgroupAll(true));"},
      {GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR, "GL_KHR_shader_subgroup_arithmetic", "u = subgroupAdd(1u);"},
      {GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR, "GL_KHR_shader_subgroup_ballot", "u = subgroupBallot(true).x;"},
      {GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR, "GL_KHR_shader_subgroup_shuffle", "u = subgroupShuffle(u, 0u);"},
      {GL_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT_KHR, "GL_KHR_shader_subgroup_shuffle_relative",
       "u = subgroupShuffleDown(u, 1u);"},
      {GL_SUBGROUP_FEATURE_CLUSTERED_BIT_KHR, "GL_KHR_shader_subgroup_clustered", "u = subgroupClusteredAdd(1u, 2u);"},
      {GL_SUBGROUP_FEATURE_QUAD_BIT_KHR, "GL_KHR_shader_subgroup_quad", "u = subgroupQuadBroadcast(u, 0u);"},
  };
  const GLenum pnames[4] = {GL_SUBGROUP_SIZE_KHR, GL_SUBGROUP_SUPPORTED_STAGES_KHR, GL_SUBGROUP_SUPPORTED_FEATURES_KHR,
                            GL_SUBGROUP_QUAD_ALL_STAGES_KHR};
  if (!conformance_has_extension("GL_KHR_shader_subgroup")) {
    /* GL 4.6 §2.3.1: an enum a command does not accept is INVALID_ENUM — the pnames exist only with the extension. */
    for (int i = 0; i < 4; ++i) {
      GLint v = 0;
      glGetIntegerv(pnames[i], &v);
      CHECK_GL_ERROR(GL_INVALID_ENUM, "pname 0x%04x without GL_KHR_shader_subgroup", pnames[i]);
    }
    for (size_t i = 0; i < sizeof features / sizeof features[0]; ++i) check_refused(features[i].glsl, features[i].use);
    return;
  }
  GLint size = 0, stages = 0, feature_bits = 0;
  GLboolean quad_all = 7;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &feature_bits);
  glGetBooleanv(GL_SUBGROUP_QUAD_ALL_STAGES_KHR, &quad_all);
  CHECK_GL_ERROR(GL_NO_ERROR, "the four KHR_shader_subgroup queries");
  CHECK(size >= 1 && (size & (size - 1)) == 0, "SUBGROUP_SIZE_KHR is a power of two >= 1 (%d)", size);
  CHECK((stages & GL_COMPUTE_SHADER_BIT) != 0, "SUBGROUP_SUPPORTED_STAGES_KHR includes COMPUTE_SHADER_BIT (0x%x)",
        stages);
  const GLbitfield all_stages = GL_VERTEX_SHADER_BIT | GL_TESS_CONTROL_SHADER_BIT | GL_TESS_EVALUATION_SHADER_BIT |
                                GL_GEOMETRY_SHADER_BIT | GL_FRAGMENT_SHADER_BIT | GL_COMPUTE_SHADER_BIT;
  CHECK(((GLbitfield)stages & ~all_stages) == 0, "SUBGROUP_SUPPORTED_STAGES_KHR holds only shader stage bits (0x%x)",
        stages);
  CHECK((feature_bits & GL_SUBGROUP_FEATURE_BASIC_BIT_KHR) != 0,
        "SUBGROUP_SUPPORTED_FEATURES_KHR includes SUBGROUP_FEATURE_BASIC_BIT_KHR (0x%x)", feature_bits);
  CHECK(quad_all == GL_TRUE || quad_all == GL_FALSE, "SUBGROUP_QUAD_ALL_STAGES_KHR is a boolean");
  /* The same state through the other Get commands (GL 4.6 §22.1 conversions). */
  GLint64 size64 = 0;
  glGetInteger64v(GL_SUBGROUP_SIZE_KHR, &size64);
  GLfloat size_f = 0;
  glGetFloatv(GL_SUBGROUP_SIZE_KHR, &size_f);
  CHECK(size64 == size && size_f == (GLfloat)size, "SUBGROUP_SIZE_KHR through GetInteger64v / GetFloatv");
  CHECK_GL_ERROR(GL_NO_ERROR, "GetInteger64v / GetFloatv");
  /* Not indexed state: GL 4.6 §22.1 "An INVALID_ENUM error is generated if target is not indexed state". */
  GLint indexed = 0;
  glGetIntegeri_v(GL_SUBGROUP_SIZE_KHR, 0, &indexed);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "glGetIntegeri_v(GL_SUBGROUP_SIZE_KHR, 0)");

  /* Each feature bit is exactly whether its GLSL extension is supported. */
  for (size_t i = 0; i < sizeof features / sizeof features[0]; ++i) {
    if (feature_bits & features[i].bit) {
      char source[1024], log[4096];
      snprintf(source, sizeof source,
               "#version 450\n#extension %s : require\nlayout(local_size_x = 64) in;\n"
               "layout(std430, binding = 0) buffer B { uint u; };\nvoid main() { %s }\n",
               features[i].glsl, features[i].use);
      CHECK(compiles(source, log, sizeof log), "feature bit 0x%x is set: %s must compile: %s", features[i].bit,
            features[i].glsl, log);
      check_macro(features[i].glsl);
    } else {
      check_refused(features[i].glsl, features[i].use);
    }
  }

  /* What a dispatch sees: "gl_SubgroupSize ... the number of invocations in a subgroup", the queried value; with
   * a work group that is a whole number of subgroups every subgroup is full, so subgroupAdd(1) is that size and
   * gl_SubgroupInvocationID < gl_SubgroupSize. */
  const int arithmetic = (feature_bits & GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR) != 0;
  char source[2048];
  snprintf(source, sizeof source,
           "#version 450\n#extension GL_KHR_shader_subgroup_basic : require\n%s"
           "layout(local_size_x = 128) in;\n"
           "layout(std430, binding = 0) buffer Out { uint size; uint ok_count; uint elected; };\n"
           "void main() {\n"
           "  bool ok = gl_SubgroupInvocationID < gl_SubgroupSize;\n"
           "%s"
           "  if (ok) atomicAdd(ok_count, 1u);\n"
           "  if (subgroupElect()) atomicAdd(elected, 1u);\n"
           "  if (gl_LocalInvocationIndex == 0u) size = gl_SubgroupSize;\n"
           "}\n",
           arithmetic ? "#extension GL_KHR_shader_subgroup_arithmetic : require\n" : "",
           arithmetic ? "  ok = ok && subgroupAdd(1u) == gl_SubgroupSize;\n" : "");
  GLuint program = conformance_compute_program(source);
  CHECK(program != 0, "GL_KHR_shader_subgroup_basic must compile");
  if (program == 0) return;
  GLuint out[3] = {0, 0, 0};
  dispatch(program, 2, NULL, sizeof out, out);
  CHECK(out[0] == (GLuint)size, "gl_SubgroupSize (%u) equals SUBGROUP_SIZE_KHR (%d)", out[0], size);
  CHECK(out[1] == 256, "every invocation's subgroup checks held (%u of 256)", out[1]);
  if (size > 0 && 128 % size == 0) {
    CHECK(out[2] == 256 / (GLuint)size, "subgroupElect: one invocation per subgroup (%u for size %d)", out[2], size);
  }
  glDeleteProgram(program);
}

static unsigned validation_messages = 0;

static void APIENTRY on_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                              const GLchar* message, const void* user) {
  (void)id, (void)severity, (void)length, (void)user;
  /* A driver-side (Vulkan validation) error shows up as an API error message without a GL error to go with it. */
  if (source == GL_DEBUG_SOURCE_API && type == GL_DEBUG_TYPE_ERROR && strstr(message, "Vulkan") != NULL) {
    ++validation_messages;
    fprintf(stderr, "debug: %s\n", message);
  }
}

int main(void) {
  setenv("BISMUTH_VALIDATION", "1", 0);
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_debug, NULL);
  check_clock("GL_ARB_shader_clock", "clock2x32ARB", "clockARB");
  check_clock("GL_EXT_shader_realtime_clock", "clockRealtime2x32EXT", "clockRealtimeEXT");
  check_atomic_float();
  check_atomic_float_minmax();
  check_derivatives();
  check_subgroup();
  CHECK(validation_messages == 0, "no Vulkan validation message (%u)", validation_messages);
  printf("device extensions:");
  const char* names[] = {"GL_ARB_shader_clock",
                         "GL_EXT_shader_realtime_clock",
                         "GL_NV_shader_atomic_float",
                         "GL_INTEL_shader_atomic_float_minmax",
                         "GL_NV_compute_shader_derivatives",
                         "GL_KHR_shader_subgroup"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    printf(" %s=%s", names[i], conformance_has_extension(names[i]) ? "yes" : "no");
  }
  printf("\n");
  return conformance_result();
}
