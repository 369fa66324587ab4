// CachedParseShader (translator/src/glslang_cached_parse.hpp): its parse must be TShader::parse's, message for
// message and tree for tree, with the resource-dependent built-ins taken from a cache. Each case parses one source
// both ways — GL rules (no SPIR-V rules), relaxed Vulkan rules and plain Vulkan rules, as the GLSL front does — and
// compares success, the info log (diagnostics with their lines), the AST dump and, for the Vulkan parses, the SPIR-V.
#include <catch2/catch.hpp>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bismuth/spirv_patch/validate.hpp"
#include "glslang_cached_parse.hpp"
#include "glslang_extension_behavior.hpp"
#include "glslang_predefined_macros.hpp"
#include "glslang_process.hpp"

using bismuth::translator::CachedParseShader;

namespace {

enum class Rules { Gl, RelaxedVulkan, Vulkan };

// BISMUTH_GLSLANG_DRIVER=stock sends every parse to TShader::parse (the comparisons below still hold).
bool stock_driver() {
  const char* driver = std::getenv("BISMUTH_GLSLANG_DRIVER");
  return driver != nullptr && std::string(driver) == "stock";
}

struct Outcome {
  bool parsed = false;
  bool cached = false;
  std::string log;
  std::string ast;
  std::vector<unsigned> spirv;
};

// The shader's strings as glShaderSource hands them over: the preprocessor reads them as one text.
Outcome parse_strings(const std::vector<std::string>& sources, EShLanguage stage, Rules rules, bool cached,
                      EShMessages extra_messages = EShMsgDefault, const char* preamble = nullptr) {
  bismuth::translator::ensure_glslang_initialized();
  CachedParseShader shader(stage);
  std::vector<const char*> texts;
  for (const std::string& source : sources) texts.push_back(source.c_str());
  shader.setStrings(texts.data(), static_cast<int>(texts.size()));
  EShMessages messages = static_cast<EShMessages>(EShMsgAST | extra_messages);
  if (rules == Rules::Gl) {
    shader.setEnvInput(glslang::EShSourceGlsl, stage, glslang::EShClientNone, 0);
    shader.setPreamble("#define GL_ARB_compute_variable_group_size 1\n");
  } else {
    shader.setEnvInput(glslang::EShSourceGlsl, stage, glslang::EShClientVulkan, 100);
    if (rules == Rules::RelaxedVulkan) {
      shader.setEnvInputVulkanRulesRelaxed();
      shader.setGlobalUniformBlockName("gl_DefaultUniformBlock");
      shader.setAutoMapBindings(true);
      shader.setAutoMapLocations(true);
    }
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    messages = static_cast<EShMessages>(messages | EShMsgSpvRules | EShMsgVulkanRules);
  }
  if (preamble != nullptr) shader.setPreamble(preamble);
  Outcome out;
  out.parsed = cached ? shader.parse_cached(GetDefaultResources(), 450, ENoProfile, false, false, messages)
                      : shader.parse(GetDefaultResources(), 450, ENoProfile, false, false, messages);
  out.cached = shader.took_cached_path();
  out.log = shader.getInfoLog();
  out.ast = shader.getInfoDebugLog();
  if (out.parsed && rules != Rules::Gl) {
    glslang::TProgram program;
    program.addShader(&shader);
    if (program.link(messages) && program.mapIO()) glslang::GlslangToSpv(*program.getIntermediate(stage), out.spirv);
  }
  return out;
}

Outcome parse(const std::string& source, EShLanguage stage, Rules rules, bool cached,
              EShMessages extra_messages = EShMsgDefault, const char* preamble = nullptr) {
  return parse_strings({source}, stage, rules, cached, extra_messages, preamble);
}

void require_same(const std::string& source, EShLanguage stage, Rules rules, bool expect_cached) {
  const Outcome stock = parse(source, stage, rules, false);
  const Outcome cached = parse(source, stage, rules, true);
  CHECK(cached.cached == (expect_cached && !stock_driver()));
  CHECK(cached.parsed == stock.parsed);
  CHECK(cached.log == stock.log);
  CHECK(cached.ast == stock.ast);
  CHECK(cached.spirv == stock.spirv);
  if (!cached.spirv.empty()) {
    const auto valid = bismuth::spirv_patch::validate(cached.spirv, bismuth::spirv_patch::TargetEnv::Vulkan1_1);
    CHECK(valid.has_value());
  }
}

const char* const kComputeCases[] = {
    // The resource built-ins (gl_MaxCompute*, gl_MaxImageUnits) and gl_WorkGroupSize from the layout.
    "#version 450\nlayout(local_size_x = 2, local_size_y = 3) in;\nlayout(std430, binding = 1) buffer B { uvec4 "
    "v[]; };\nvoid main() { v[0] = uvec4(gl_WorkGroupSize + uvec3(gl_MaxComputeWorkGroupCount), "
    "uint(gl_MaxImageUnits)); }\n",
    // Errors: the log's line numbers and order.
    "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  float x = undeclared + 1.0;\n  int y = 1.5;\n}\n",
    "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  float x = ;\n}\n",
    "#version 450\n#if FOO(\n#endif\nvoid main() { }\n",
    // A built-in the shader may not redeclare; one declared late.
    "#version 450\nlayout(local_size_x = 1) in;\nconst uvec3 gl_WorkGroupSize = uvec3(2, 1, 1);\nvoid main() { }\n",
    "#version 450\nlayout(std430, binding = 1) buffer B { uint o[]; };\nvoid main() { o[0] = gl_WorkGroupSize.x; "
    "}\nlayout(local_size_x = 16) in;\n",
    // Extensions: unknown (warning), required and unknown (error), their macros and predefined macros.
    "#version 450\n#extension GL_NOT_AN_EXTENSION : enable\n#extension GL_ARB_gpu_shader_int64 : warn\n"
    "layout(local_size_x = 1) in;\nlayout(std430, binding = 1) buffer B { uint64_t o[]; };\nvoid main() { o[0] = "
    "1ul; }\n",
    "#version 450\n#extension GL_NOT_AN_EXTENSION : require\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
    "#version 460\n#extension GL_KHR_shader_subgroup_basic : require\n#if defined(GL_KHR_shader_subgroup_basic) && "
    "GL_core_profile && __VERSION__ == 460\nlayout(local_size_x = 1) in;\n#endif\n#ifdef GL_ES\nbad\n#endif\n"
    "layout(std430, binding = 1) buffer B { uint o[]; };\nvoid main() { o[0] = gl_SubgroupSize + __LINE__; }\n",
    "#version 430 core\n#line 100 7\nlayout(local_size_x = 1) in;\nvoid main() { bogus(); }\n",
    // ES: precision, versions, an ES 3.x error.
    "#version 310 es\nprecision highp float;\nlayout(local_size_x = 8) in;\nlayout(std430, binding = 0) buffer B { "
    "float v[]; };\nvoid main() { v[gl_GlobalInvocationID.x] = float(gl_MaxComputeWorkGroupCount.x); }\n",
    "#version 320 es\nlayout(local_size_x = 4) in;\nshared float s[4];\nvoid main() { s[gl_LocalInvocationIndex] = "
    "1.0; barrier(); int x = 1.5; }\n",
    // Comments before #version (fine outside ES 3.x).
    "// a comment\n\n#version 450\nlayout(local_size_x = 1) in;\nvoid main() { bogus(); }\n",
};

}  // namespace

TEST_CASE("CachedParseShader parses compute shaders as TShader::parse does", "[glslang_cached_parse]") {
  for (const char* source : kComputeCases) {
    INFO(source);
    for (Rules rules : {Rules::Gl, Rules::RelaxedVulkan, Rules::Vulkan}) {
      INFO(static_cast<int>(rules));
      require_same(source, EShLangCompute, rules, true);
    }
  }
}

TEST_CASE("CachedParseShader parses GL graphics stages as TShader::parse does", "[glslang_cached_parse]") {
  struct Case {
    EShLanguage stage;
    const char* source;
  };
  const Case cases[] = {
      {EShLangVertex,
       "#version 110\nattribute vec4 p;\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * p "
       "+ vec4(float(gl_MaxLights)); }\n"},
      {EShLangFragment, "#version 120\nvoid main() { gl_FragColor = vec4(gl_MaxDrawBuffers); }\n"},
      {EShLangVertex,
       "#version 150\nin vec4 p;\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() { gl_Position "
       "= p; }\n"},
      {EShLangFragment,
       "#version 330 core\nlayout(location = 0) out vec4 o;\nlayout(origin_upper_left) in vec4 "
       "gl_FragCoord;\nvoid main() { o = gl_FragCoord; }\n"},
      {EShLangFragment,
       "#version 100\nprecision mediump float;\nuniform sampler2D t;\nvoid main() { gl_FragColor = "
       "texture2D(t, vec2(0.5)) * float(gl_MaxDrawBuffers); }\n"},
      {EShLangFragment, "#version 100\nvoid main() { float x = 1.0; gl_FragColor = vec4(x); }\n"},
      {EShLangVertex,
       "#version 300 es\nin vec4 p;\ninvariant gl_Position;\nvoid main() { gl_Position = p * "
       "float(gl_MaxVertexAttribs); }\n"},
      {EShLangFragment, "#version 450 compatibility\nvoid main() { gl_FragColor = gl_Color; }\n"},
  };
  for (const Case& c : cases) {
    INFO(c.source);
    require_same(c.source, c.stage, Rules::Gl, true);
  }
}

TEST_CASE("CachedParseShader leaves unusual #version lines to TShader::parse", "[glslang_cached_parse]") {
  // DeduceVersionProfile's diagnostics (and a missing #version) are TShader::parse's own path.
  for (const char* source : {
           "layout(local_size_x = 1) in;\nvoid main() { }\n",
           "int a;\n#version 450\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
           "#version 451\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
           "#version 330\nvoid main() { }\n",
           "\n#version 310 es\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
           "#version 300\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
       }) {
    INFO(source);
    for (Rules rules : {Rules::Gl, Rules::RelaxedVulkan}) require_same(source, EShLangCompute, rules, false);
  }
}

TEST_CASE("CachedParseShader leaves resource levels with unsized arrays to TShader::parse", "[glslang_cached_parse]") {
  // Tessellation's gl_in[gl_MaxPatchVertices] block is in the resource level: glslang sizes it in place there, and a
  // read-only cached copy would be copied up instead (one more linker object).
  require_same(
      "#version 400\nlayout(triangles) in;\nvoid main() { gl_Position = gl_in[0].gl_Position + "
      "gl_in[1].gl_Position; }\n",
      EShLangTessEvaluation, Rules::Gl, false);
  require_same(
      "#version 450\nlayout(vertices = 3) out;\nvoid main() { gl_out[gl_InvocationID].gl_Position = "
      "gl_in[gl_InvocationID].gl_Position; gl_TessLevelOuter[0] = 1.0; }\n",
      EShLangTessControl, Rules::Gl, false);
  // Geometry's gl_in[] is not in it: the cached path, same result.
  require_same(
      "#version 150\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\nvoid main() { "
      "for (int i = 0; i < gl_in.length(); ++i) { gl_Position = gl_in[i].gl_Position; EmitVertex(); } "
      "EndPrimitive(); }\n",
      EShLangGeometry, Rules::Gl, true);
}

TEST_CASE("CachedParseShader's built-in tables are TShader::parse's", "[glslang_cached_parse]") {
  // EShMsgBuiltinSymbolTable: TShader::parse dumps every built-in level (common, stage, resource limits) with the
  // symbols' types and extensions into the debug log; the cached path dumps the table it adopts.
  struct Case {
    EShLanguage stage;
    const char* version;
  };
  const Case cases[] = {{EShLangCompute, "430"},      {EShLangCompute, "450"},
                        {EShLangCompute, "460 core"}, {EShLangCompute, "450 compatibility"},
                        {EShLangCompute, "310 es"},   {EShLangCompute, "320 es"},
                        {EShLangVertex, "110"},       {EShLangFragment, "330"},
                        {EShLangFragment, "100"},     {EShLangVertex, "300 es"},
                        {EShLangGeometry, "450"}};
  for (const Case& c : cases) {
    const std::string source = std::string("#version ") + c.version + "\n" +
                               (c.stage == EShLangCompute ? "layout(local_size_x = 1) in;\n" : "") +
                               "void main() { }\n";
    INFO(source);
    for (Rules rules : {Rules::Gl, Rules::RelaxedVulkan}) {
      // SPIR-V rules refuse the compatibility profile (a version diagnostic: TShader::parse's own path).
      if (rules != Rules::Gl && (c.stage != EShLangCompute || std::string(c.version).ends_with("compatibility")))
        continue;
      INFO(static_cast<int>(rules));
      const Outcome stock = parse(source, c.stage, rules, false, EShMsgBuiltinSymbolTable);
      const Outcome cached = parse(source, c.stage, rules, true, EShMsgBuiltinSymbolTable);
      CHECK(cached.cached != stock_driver());
      CHECK(stock.ast.find("BuiltinSymbolTable {") != std::string::npos);
      CHECK(cached.ast == stock.ast);
      CHECK(cached.log == stock.log);
    }
  }
}

TEST_CASE("CachedParseShader parses on several threads at once", "[glslang_cached_parse]") {
  std::vector<Outcome> expected;
  for (const char* source : kComputeCases)
    expected.push_back(parse(source, EShLangCompute, Rules::RelaxedVulkan, false));
  // The cached levels are shared: a parse that adopts them must not allocate from their pool (TPoolAllocator is
  // not thread-safe). A first cached round builds every entry these sources need.
  for (const char* source : kComputeCases) parse(source, EShLangCompute, Rules::RelaxedVulkan, true);
  const int cache_allocations = bismuth::translator::glslang_cache_pool_allocations();
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 2; ++round) {
        for (size_t i = 0; i < std::size(kComputeCases); ++i) {
          const Outcome got = parse(kComputeCases[i], EShLangCompute, Rules::RelaxedVulkan, true);
          if (got.cached == stock_driver() || got.parsed != expected[i].parsed || got.log != expected[i].log ||
              got.spirv != expected[i].spirv)
            ++mismatches;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(mismatches == 0);
  CHECK(bismuth::translator::glslang_cache_pool_allocations() == cache_allocations);
}

namespace {

// GLSL 4.60 section 3.3, "Preprocessor": "#define and #undef functionality are defined as is standard for C++
// preprocessors for macro definitions both with and without macro parameters", "All macro names containing two
// consecutive underscores ( __ ) are reserved", "All macro names prefixed with "GL_" ("GL" followed by a single
// underscore) are also reserved, and defining or undefining such a name results in a compile-time error", and
// "GL_ES will be defined and set to 1 [for ES shaders]" (its __VERSION__, GL_core_profile likewise); section 3.3
// of GL_KHR_vulkan_glsl: "#define VULKAN 100"; ARB_gl_spirv: "#define GL_SPIRV 100". The cached path defines these
// from a cache instead of preprocessing glslang's text: every use below must behave as in TShader::parse, messages
// (with their lines) included.
const char* const kPredefinedMacroCases[] = {
    // Conditionals on the predefined macros, and their values in code.
    "#version 450\n#if defined(GL_core_profile) && GL_core_profile == 1 && __VERSION__ == 450\n"
    "layout(local_size_x = 1) in;\n#endif\n#ifdef GL_ES\nes_only\n#endif\n"
    "#if defined(VULKAN)\nconst int client = VULKAN;\n#elif defined(GL_SPIRV)\nconst int client = GL_SPIRV;\n#else\n"
    "const int client = 0;\n#endif\n#ifdef GL_ARB_gpu_shader_int64\nconst int has_int64 = GL_ARB_gpu_shader_int64;\n"
    "#else\nconst int has_int64 = 2;\n#endif\nlayout(std430, binding = 0) buffer B { int o[]; };\n"
    "void main() { o[0] = client + has_int64 + GL_FRAGMENT_PRECISION_HIGH + __LINE__; }\n",
    // An extension macro and the #extension that turns it on; an unknown extension's macro stays undefined.
    "#version 450\n#ifdef GL_KHR_shader_subgroup_ballot\n#extension GL_KHR_shader_subgroup_ballot : enable\n#endif\n"
    "#ifdef GL_NOT_AN_EXTENSION\n#error not defined\n#endif\nlayout(local_size_x = 32) in;\n"
    "layout(std430, binding = 0) buffer B { uvec4 o[]; };\nvoid main() { o[0] = subgroupBallot(true); }\n",
    // Reserved names: defining or undefining a GL_ name is an error; redefining VULKAN or GL_SPIRV differently is
    // an error, identically is not; #undef of a non-GL_ predefined name is allowed.
    "#version 450\n#define GL_ES 1\n#undef GL_core_profile\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
    "#version 450\n#define VULKAN 200\n#define GL_SPIRV 100\n#define VULKAN 100\nlayout(local_size_x = 1) in;\n"
    "void main() { }\n",
    "#version 450\n#undef VULKAN\n#undef GL_SPIRV\n#if VULKAN || GL_SPIRV\n#error still defined\n#endif\n"
    "layout(local_size_x = 1) in;\nvoid main() { int x = VULKAN; }\n",
    // Errors after the macros: their lines, and a #line that renumbers them.
    "#version 450\n#define M(a) (a + GL_core_profile)\nlayout(local_size_x = 1) in;\nvoid main() {\n"
    "  int x = M(1);\n  int y = M(GL_NOT_DEFINED);\n}\n",
    "#version 430\n#line 41\n#if __LINE__ != 41\n#error bad line\n#endif\nlayout(local_size_x = 1) in;\n"
    "void main() { int x = __FILE__ + GL_FRAGMENT_PRECISION_HIGH; float y = GL_core_profile; bogus(); }\n",
    // ES: GL_ES and the ES extension macros.
    "#version 310 es\n#if GL_ES != 1 || __VERSION__ != 310\n#error bad\n#endif\n#ifdef GL_core_profile\n#error core\n"
    "#endif\n#ifdef GL_OES_shader_image_atomic\n#extension GL_OES_shader_image_atomic : enable\n#endif\n"
    "precision highp float;\nlayout(local_size_x = 1) in;\nvoid main() { int x = GL_ES + GL_OES_shader_image_atomic; "
    "x = y; }\n",
};

}  // namespace

TEST_CASE("CachedParseShader's predefined macros are TShader::parse's", "[glslang_cached_parse]") {
  for (const char* source : kPredefinedMacroCases) {
    INFO(source);
    for (Rules rules : {Rules::Gl, Rules::RelaxedVulkan, Rules::Vulkan}) {
      INFO(static_cast<int>(rules));
      require_same(source, EShLangCompute, rules, true);
    }
  }
  // A graphics stage's and compatibility profile's macros too.
  require_same(
      "#version 450 compatibility\n#if GL_compatibility_profile && GL_core_profile\nout vec4 c;\n#endif\n"
      "void main() { c = vec4(GL_compatibility_profile); gl_Position = gl_Vertex; }\n",
      EShLangVertex, Rules::Gl, true);
  require_same(
      "#version 100\n#if GL_ES && GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#endif\n"
      "void main() { gl_FragColor = vec4(GL_ES); }\n",
      EShLangFragment, Rules::Gl, true);
  // The cases above went through the cache, and each preamble text it met was one it reproduces.
  const auto stats = bismuth::translator::predefined_macro_cache_stats();
  if (!stock_driver()) CHECK(stats.entries >= 4);
  CHECK(stats.unusable == 0);
}

TEST_CASE("CachedParseShader's predefined macro cache fills from several threads at once", "[glslang_cached_parse]") {
  // Versions no other case of this file parses with Vulkan rules: the threads below make those cache entries
  // (the built-ins' and the macros') while the others read them.
  const char* const sources[] = {
      "#version 440\n#ifdef VULKAN\nlayout(local_size_x = VULKAN / 100) in;\n#endif\n"
      "layout(std430, binding = 0) buffer B { int o[]; };\nvoid main() { o[0] = GL_core_profile; }\n",
      "#version 320 es\n#if GL_ES\nlayout(local_size_x = 2) in;\n#endif\nlayout(std430, binding = 0) buffer B { int "
      "o[]; };\nvoid main() { o[0] = VULKAN + GL_ES; }\n",
  };
  std::vector<Outcome> expected;
  for (const char* source : sources) expected.push_back(parse(source, EShLangCompute, Rules::Vulkan, false));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        const size_t i = size_t(t + round) % std::size(sources);
        const Outcome got = parse(sources[i], EShLangCompute, Rules::Vulkan, true);
        if (got.cached == stock_driver() || got.parsed != expected[i].parsed || got.log != expected[i].log ||
            got.ast != expected[i].ast || got.spirv != expected[i].spirv)
          ++mismatches;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(mismatches == 0);
}

TEST_CASE("CachedParseShader's extension tables are glslang's", "[glslang_cached_parse]") {
  // Every extension's initial behavior (what #extension NAME : ... starts from), the SPIR-V version some need and
  // the SPIR-V-only ones: the cached copy must equal what initializeExtensionBehavior makes, for any settings.
  struct Case {
    int version;
    EProfile profile;
    bool vulkan;
    EShLanguage stage;
  };
  for (const Case& c :
       {Case{450, ECoreProfile, false, EShLangCompute}, Case{460, ECoreProfile, true, EShLangCompute},
        Case{310, EEsProfile, true, EShLangCompute}, Case{100, EEsProfile, false, EShLangFragment},
        Case{110, ENoProfile, false, EShLangVertex}, Case{450, ECompatibilityProfile, false, EShLangGeometry}}) {
    INFO(c.version << " " << c.profile << " " << c.vulkan << " " << c.stage);
    CHECK(bismuth::translator::extension_behavior_matches_glslang(c.version, c.profile, c.vulkan, c.stage));
  }
}

TEST_CASE("CachedParseShader defines the #define lines its preamble opens with as TShader::parse does",
          "[glslang_cached_parse]") {
  // The front's preamble opens with `#define GL_xxx 1` lines (the extensions it adds); the cached path defines them
  // with glslang's own macros instead of preprocessing them. GLSL 4.60 section 3.3: "#define and #undef
  // functionality are defined as is standard for C++ preprocessors for macro definitions both with and without macro
  // parameters": the shader sees the same macros, values and diagnostics as when the preprocessor reads the text.
  struct Case {
    const char* preamble;
    const char* source;
  };
  const Case cases[] = {
      // Object-like macros, one built on another and one of glslang's own names, then used in code and #if.
      {"#define A_ONE 1\n#define TWO (A_ONE + 1)\n#define GL_ARB_compute_variable_group_size 1\n",
       "#version 450\n#if TWO == 2 && GL_ARB_compute_variable_group_size\nlayout(local_size_x = TWO) in;\n#endif\n"
       "layout(std430, binding = 0) buffer B { int o[]; };\nvoid main() { o[0] = A_ONE + TWO; }\n"},
      // Defines, then a declaration the preamble keeps as text; a macro expanding to __LINE__ where it is used.
      {"#define SIZE 4\n#define WHERE __LINE__\nconst int kFromPreamble = SIZE;\n",
       "#version 450\nlayout(local_size_x = SIZE) in;\nlayout(std430, binding = 0) buffer B { int o[]; };\n"
       "void main() { o[0] = kFromPreamble + WHERE; }\n"},
      // What the cache does not take: a function-like macro, a continued line, a redefinition of one of glslang's
      // macros with another value (a diagnostic); and a preamble without a newline at its end.
      {"#define TWICE(x) ((x) * 2)\n#define B_THREE 3\n",
       "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { int o[]; };\n"
       "void main() { o[0] = TWICE(B_THREE); }\n"},
      {"#define LONG 1 + \\\n  2\n#define C_FIVE 5\n",
       "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { int o[]; };\n"
       "void main() { o[0] = LONG + C_FIVE; }\n"},
      {"#define GL_core_profile 2\n",
       "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { int o[]; };\n"
       "void main() { o[0] = GL_core_profile; }\n"},
      {"#define D_SIX 6",
       "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { int o[]; };\n"
       "void main() { o[0] = D_SIX; }\n"},
  };
  for (const Case& c : cases) {
    INFO(c.preamble);
    for (Rules rules : {Rules::Gl, Rules::RelaxedVulkan, Rules::Vulkan}) {
      INFO(static_cast<int>(rules));
      const Outcome stock = parse(c.source, EShLangCompute, rules, false, EShMsgDefault, c.preamble);
      const Outcome cached = parse(c.source, EShLangCompute, rules, true, EShMsgDefault, c.preamble);
      CHECK(cached.cached == !stock_driver());
      CHECK(cached.parsed == stock.parsed);
      CHECK(cached.log == stock.log);
      CHECK(cached.ast == stock.ast);
      CHECK(cached.spirv == stock.spirv);
    }
  }
  // The first two cases parse (their macros are what the code uses) and the redefinition is an error both ways.
  CHECK(parse(cases[0].source, EShLangCompute, Rules::Vulkan, true, EShMsgDefault, cases[0].preamble).parsed);
  CHECK(parse(cases[1].source, EShLangCompute, Rules::Vulkan, true, EShMsgDefault, cases[1].preamble).parsed);
  CHECK_FALSE(parse(cases[4].source, EShLangCompute, Rules::Gl, true, EShMsgDefault, cases[4].preamble).parsed);
}

TEST_CASE("CachedParseShader defines only the predefined macros the shader can name", "[glslang_cached_parse]") {
  // A macro is looked up only where a name is: a parse that defines just the macros its text names (and those their
  // replacement lists name) is TShader::parse's. GLSL 4.60 section 3.3: "Each number sign (#) can be preceded in its
  // line only by spaces or horizontal tabs", "##" is the token-pasting operator, and "Lines separated by the
  // line-continuation character preceding a new-line are concatenated together": both may form a name the text does
  // not spell, so their parses define every macro.
  struct Case {
    std::vector<std::string> strings;
    const char* preamble;
    bool every_macro;  // expected: the text can form names
  };
  const char* const kMain = "layout(std430, binding = 0) buffer B { int o[]; };\n";
  const Case cases[] = {
      // No predefined name at all, and names in code, in #if and after a number.
      {{std::string("#version 450\nlayout(local_size_x = 1) in;\n") + kMain + "void main() { o[0] = 1; }\n"},
       nullptr,
       false},
      {{std::string("#version 450\n#if GL_core_profile && defined(GL_ARB_gpu_shader_int64)\nlayout(local_size_x = "
                    "1) in;\n#endif\n") +
        kMain + "void main() { o[0] = GL_ARB_gpu_shader_int64 + GL_core_profile; }\n"},
       nullptr,
       false},
      // A name in a comment only; a name that runs from one string into the next; an undefined GL_ name.
      {{std::string("#version 450\n// GL_ES and GL_core_profile\nlayout(local_size_x = 1) in;\n") + kMain +
            "void main() { o[0] = GL_core_",
        "profile + GL_NOT_DEFINED; }\n"},
       nullptr,
       false},
      // Token pasting and a continued line each form a predefined name.
      {{std::string("#version 450\n#define CAT(a, b) a##b\nlayout(local_size_x = 1) in;\n") + kMain +
        "void main() { o[0] = CAT(GL_ARB_gpu_shader, _int64) + CAT(GL_core, _profile); }\n"},
       nullptr,
       true},
      {{std::string("#version 450\n#if GL_core_\\\nprofile\nlayout(local_size_x = 1) in;\n#endif\n") + kMain +
        "void main() { o[0] = GL_ARB_gpu_\\\nshader_int64; }\n"},
       nullptr,
       true},
      // The front's preamble: a macro that names another one (only the first is named by the shader), and text after
      // the #define lines that names a predefined macro.
      {{std::string("#version 450\nlayout(local_size_x = 1) in;\n") + kMain + "void main() { o[0] = TWO; }\n"},
       "#define A_ONE 1\n#define TWO (A_ONE + GL_core_profile)\n",
       false},
      {{std::string("#version 450\nlayout(local_size_x = 1) in;\n") + kMain + "void main() { o[0] = kCore; }\n"},
       "#define E_SEVEN 7\n#ifdef GL_core_profile\nconst int kCore = GL_core_profile;\n#else\nconst int kCore = 0;\n"
       "#endif\n",
       false},
      // A name right after a number: the scanner ends the number where the name begins.
      {{std::string("#version 450\nlayout(local_size_x = 1) in;\n") + kMain +
        "void main() { o[0] = 1uGL_core_profile; }\n"},
       nullptr,
       false},
  };
  for (const Case& c : cases) {
    INFO(c.strings.front());
    for (Rules rules : {Rules::Gl, Rules::RelaxedVulkan, Rules::Vulkan}) {
      INFO(static_cast<int>(rules));
      const Outcome stock = parse_strings(c.strings, EShLangCompute, rules, false, EShMsgDefault, c.preamble);
      const auto before = bismuth::translator::predefined_macro_cache_stats();
      const Outcome cached = parse_strings(c.strings, EShLangCompute, rules, true, EShMsgDefault, c.preamble);
      const auto after = bismuth::translator::predefined_macro_cache_stats();
      CHECK(cached.cached == !stock_driver());
      CHECK(cached.parsed == stock.parsed);
      CHECK(cached.log == stock.log);
      CHECK(cached.ast == stock.ast);
      CHECK(cached.spirv == stock.spirv);
      if (!stock_driver()) {
        CHECK(after.every_macro - before.every_macro == (c.every_macro ? 1 : 0));
        CHECK(after.named_only - before.named_only == (c.every_macro ? 0 : 1));
      }
    }
  }
  // The cases that use the macros they name parse, and see their values.
  CHECK(parse_strings(cases[1].strings, EShLangCompute, Rules::Vulkan, true).parsed);
  CHECK(parse_strings(cases[3].strings, EShLangCompute, Rules::Vulkan, true).parsed);
  CHECK(parse_strings(cases[5].strings, EShLangCompute, Rules::Vulkan, true, EShMsgDefault, cases[5].preamble).parsed);
  CHECK_FALSE(parse_strings(cases[2].strings, EShLangCompute, Rules::Vulkan, true).parsed);  // GL_NOT_DEFINED
}
