// Device-gated GLSL extensions through glCompileShader (GLSL 4.60 §3.3, "Extensions"): the front accepts an
// extension exactly when GL says it is supported — in GL_EXTENSIONS, or for GL_KHR_shader_subgroup_<feature> when
// SUBGROUP_SUPPORTED_FEATURES_KHR has its bit — and handles the others as the spec's behaviors say. Plus the
// GL_KHR_shader_subgroup queries' error rules.
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {


struct Compiled {
  bool ok = false;
  std::string log;
};

Compiled compile(const std::string& source) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  char log[4096] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  glDeleteShader(shader);
  return {ok != 0, log};
}

struct GatedExtension {
  const char* name;
  const char* use;  // a statement using one of its built-ins, in a shader with `B { float f; uint u; uvec2 v; }`
  GLbitfield subgroup_bit = 0;  // KHR_shader_subgroup_<feature>: supported when this feature bit is set
};

const std::vector<GatedExtension>& gated_extensions() {
  static const std::vector<GatedExtension> list = {
      {"GL_ARB_shader_clock", "v = clock2x32ARB();"},
      {"GL_EXT_shader_realtime_clock", "v = clockRealtime2x32EXT();"},
      {"GL_NV_shader_atomic_float", "atomicAdd(f, 1.0);"},
      {"GL_INTEL_shader_atomic_float_minmax", "atomicMin(f, 1.0);"},
      {"GL_NV_compute_shader_derivatives", "f = dFdx(f);"},
      {"GL_KHR_shader_subgroup_basic", "u = uint(subgroupElect());", GL_SUBGROUP_FEATURE_BASIC_BIT_KHR},
      {"GL_KHR_shader_subgroup_vote", "u = uint(subgroupAll(true));", GL_SUBGROUP_FEATURE_VOTE_BIT_KHR},
      {"GL_KHR_shader_subgroup_arithmetic", "u = subgroupAdd(1u);", GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR},
      {"GL_KHR_shader_subgroup_ballot", "u = subgroupBallot(true).x;", GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR},
      {"GL_KHR_shader_subgroup_shuffle", "u = subgroupShuffle(u, 0u);", GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR},
      {"GL_KHR_shader_subgroup_shuffle_relative", "u = subgroupShuffleDown(u, 1u);",
       GL_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT_KHR},
      {"GL_KHR_shader_subgroup_clustered", "u = subgroupClusteredAdd(1u, 2u);", GL_SUBGROUP_FEATURE_CLUSTERED_BIT_KHR},
      {"GL_KHR_shader_subgroup_quad", "u = subgroupQuadBroadcast(u, 0u);", GL_SUBGROUP_FEATURE_QUAD_BIT_KHR},
  };
  return list;
}

// Whether GL says `e` is supported on the current context.
bool supported(const GatedExtension& e) {
  if (e.subgroup_bit == 0) return has_extension(e.name);
  if (!has_extension("GL_KHR_shader_subgroup")) return false;
  GLint features = 0;
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
  return (static_cast<GLbitfield>(features) & e.subgroup_bit) != 0;
}

std::string shader(const std::string& name, const std::string& behavior, const std::string& body) {
  return "#version 450\n#extension " + name + " : " + behavior +
         "\nlayout(local_size_x = 4, local_size_y = 2) in;\n"
         "layout(std430, binding = 0) buffer B { float f; uint u; uvec2 v; };\n"
         "void main() { " +
         body + " }\n";
}

}  // namespace

TEST_CASE("A supported device-gated extension compiles with require and its built-ins", "[vulkan]") {
  GlContext gl;
  int count = 0;
  for (const GatedExtension& e : gated_extensions()) {
    if (!supported(e)) continue;
    ++count;
    INFO(e.name);
    std::string body = e.use;
    // derivative_group_*NV is required for derivatives in compute (NV_compute_shader_derivatives).
    std::string source = shader(e.name, "require", body);
    if (std::string(e.name) == "GL_NV_compute_shader_derivatives") {
      source.insert(source.find("layout(std430"), "layout(derivative_group_quadsNV) in;\n");
    }
    const Compiled c = compile(source);
    CHECK(c.ok);
    CHECK(c.log.find("error") == std::string::npos);
  }
  WARN(count << " of " << gated_extensions().size() << " device-gated extensions supported here");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An unsupported device-gated extension: require is an error, enable/warn/disable warn", "[vulkan]") {
  GlContext gl;
  int count = 0;
  for (const GatedExtension& e : gated_extensions()) {
    if (supported(e)) continue;
    ++count;
    INFO(e.name);
    // GLSL 4.60 §3.3: "require ... Give a compile-time error on the #extension if the extension extension_name is
    // not supported." The error is at the directive: line 2, column 12 (the name).
    const Compiled required = compile(shader(e.name, "require", ""));
    CHECK_FALSE(required.ok);
    CHECK(required.log.find("0:2(12): error:") != std::string::npos);
    CHECK(required.log.find(e.name) != std::string::npos);
    // "enable ... Warn on the #extension if the extension extension_name is not supported"; "warn ... Warn on the
    // #extension if the extension extension_name is not supported"; "disable ... Warn on the #extension if the
    // extension extension_name is not supported".
    for (const char* behavior : {"enable", "warn", "disable"}) {
      INFO(behavior);
      const Compiled c = compile(shader(e.name, behavior, ""));
      CHECK(c.ok);
      CHECK(c.log.find("0:2(12): warning:") != std::string::npos);
    }
    // Not supported is not enabled: its built-ins stay unknown.
    const Compiled used = compile(shader(e.name, "enable", e.use));
    CHECK_FALSE(used.ok);
  }
  if (count == 0) WARN("every device-gated extension is supported here: nothing to refuse");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An extension's macro is defined exactly when it is supported", "[vulkan]") {
  GlContext gl;
  for (const GatedExtension& e : gated_extensions()) {
    INFO(e.name);
    const std::string name = e.name;
    // Each extension spec's "New preprocessor #defines" section adds "#define GL_<name> 1" (e.g.
    // INTEL_shader_atomic_float_minmax: "#define GL_INTEL_shader_atomic_float_minmax 1") where it is supported.
    const std::string probe =
        "#version 450\nlayout(local_size_x = 1) in;\n"
        "layout(std430, binding = 0) buffer B { uint r[4]; };\n"
        "void main() {\n"
        "#ifdef " +
        name +
        "\n  r[0] = 1u;\n#endif\n"
        "#if defined(" +
        name + ") && " + name +
        " == 1\n  r[1] = 1u;\n#endif\n"
        "#ifndef " +
        name +
        "\n  r[2] = 1u;\n#endif\n"
        "#if 0\n#elif defined " +
        name +
        "\n  r[3] = 1u;\n#endif\n"
        "}\n";
    const GLuint program = make_program(probe);
    const uint32_t zeros[4] = {0, 0, 0, 0};
    const GLuint buffer = make_buffer(16, zeros);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    glUseProgram(program);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto r = read_words(buffer, 4);
    const uint32_t yes = supported(e) ? 1u : 0u;
    CHECK(r == std::vector<uint32_t>{yes, yes, 1u - yes, yes});
    glDeleteBuffers(1, &buffer);
    glDeleteProgram(program);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Refusing an extension keeps the lines and columns of later diagnostics", "[vulkan]") {
  GlContext gl;
  for (const GatedExtension& e : gated_extensions()) {
    if (supported(e)) continue;
    INFO(e.name);
    // The directive is blanked for glslang; an error further down still names its own line.
    const Compiled c = compile("#version 450\n#extension " + std::string(e.name) +
                               " : enable\nlayout(local_size_x = 1) in;\nvoid main() {\n  undeclared_name = 1;\n}\n");
    CHECK_FALSE(c.ok);
    CHECK(c.log.find("0:5(") != std::string::npos);
    break;  // one is enough: the mechanism is the same for each
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("INTEL_shader_atomic_float_minmax disabled again leaves float atomicMin unknown", "[vulkan]") {
  GlContext gl;
  if (!has_extension("GL_INTEL_shader_atomic_float_minmax")) {
    WARN("GL_INTEL_shader_atomic_float_minmax is not supported here");
    return;
  }
  // GLSL 4.60 §3.3: "disable: Behave (including issuing errors and warnings) as if the extension extension_name is
  // not part of the language definition."
  const Compiled c = compile(shader("GL_INTEL_shader_atomic_float_minmax", "disable", "atomicMin(f, 1.0);"));
  CHECK_FALSE(c.ok);
  // And enabled, the functions exist on float buffer and shared variables.
  const Compiled enabled = compile(
      "#version 450\n#extension GL_INTEL_shader_atomic_float_minmax : enable\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { float f; };\nshared float s;\n"
      "void main() { s = 0.0; atomicMax(s, 2.0); atomicMin(f, s); atomicExchange(f, 1.0); }\n");
  CHECK(enabled.ok);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("KHR_shader_subgroup state: GL's values and errors", "[vulkan]") {
  GlContext gl;
  const GLenum pnames[] = {GL_SUBGROUP_SIZE_KHR, GL_SUBGROUP_SUPPORTED_STAGES_KHR, GL_SUBGROUP_SUPPORTED_FEATURES_KHR,
                           GL_SUBGROUP_QUAD_ALL_STAGES_KHR};
  if (!has_extension("GL_KHR_shader_subgroup")) {
    for (GLenum pname : pnames) {
      GLint v = 0;
      glGetIntegerv(pname, &v);
      CHECK(glGetError() == GL_INVALID_ENUM);
    }
    return;
  }
  for (GLenum pname : pnames) {
    INFO(pname);
    GLint i = -1;
    GLint64 i64 = -1;
    GLboolean b = 2;
    GLfloat f = -1;
    GLdouble d = -1;
    glGetIntegerv(pname, &i);
    glGetInteger64v(pname, &i64);
    glGetBooleanv(pname, &b);
    glGetFloatv(pname, &f);
    glGetDoublev(pname, &d);
    CHECK(glGetError() == GL_NO_ERROR);
    // GL 4.6 §2.2.2 conversions: the same state through each Get.
    CHECK(i64 == i);
    CHECK(f == static_cast<GLfloat>(i));
    CHECK(d == static_cast<GLdouble>(i));
    CHECK(b == (i != 0 ? GL_TRUE : GL_FALSE));
    // GL 4.6 §22.1: "An INVALID_ENUM error is generated if target is not indexed state" (for Get*i_v).
    GLint indexed = 0;
    glGetIntegeri_v(pname, 0, &indexed);
    CHECK(glGetError() == GL_INVALID_ENUM);
  }
  GLint size = 0, stages = 0, features = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
  // KHR_shader_subgroup's minimums: a power-of-two size of at least 1, compute among the stages, basic among the
  // features; only the stage and feature bits it names.
  CHECK(size >= 1);
  CHECK((size & (size - 1)) == 0);
  CHECK((stages & GL_COMPUTE_SHADER_BIT) != 0);
  CHECK((stages & ~(GL_VERTEX_SHADER_BIT | GL_TESS_CONTROL_SHADER_BIT | GL_TESS_EVALUATION_SHADER_BIT |
                    GL_GEOMETRY_SHADER_BIT | GL_FRAGMENT_SHADER_BIT | GL_COMPUTE_SHADER_BIT)) == 0);
  CHECK((features & GL_SUBGROUP_FEATURE_BASIC_BIT_KHR) != 0);
  CHECK((features & ~0xFF) == 0);
  // What a shader sees is what the query says.
  const GLuint program = make_program(
      "#version 450\n#extension GL_KHR_shader_subgroup_basic : require\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer B { uint size; };\n"
      "void main() { if (gl_LocalInvocationIndex == 0u) size = gl_SubgroupSize; }\n");
  const GLuint buffer = make_buffer(4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  CHECK(read_words(buffer, 1)[0] == static_cast<uint32_t>(size));
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A program needing a device feature beyond its extension fails to link instead of reaching Vulkan",
          "[vulkan]") {
  GlContext gl;
  if (!has_extension("GL_NV_shader_atomic_float")) {
    WARN("GL_NV_shader_atomic_float is not supported here");
    return;
  }
  // NV_shader_atomic_float gives atomicAdd on 32-bit float only ("float atomicAdd(inout float mem, float data)").
  // glslang's GL_EXT_shader_atomic_float, through which Bismuth compiles it, also has a double overload, whose
  // SPIR-V (AtomicFloat64AddEXT) needs a feature Bismuth never enables: the link refuses it with a message.
  const std::string source =
      "#version 450\n#extension GL_NV_shader_atomic_float : require\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { double d; };\nvoid main() { atomicAdd(d, 1.0lf); }\n";
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  const GLuint program = glCreateProgram();
  if (ok) {
    glAttachShader(program, shader);
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    CHECK_FALSE(ok);
    char log[2048] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    CHECK(std::string(log).find("AtomicFloat64AddEXT") != std::string::npos);
  }
  glDeleteProgram(program);
  glDeleteShader(shader);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
