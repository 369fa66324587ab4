// Every compute-capable GLSL version × the compute extensions' built-ins, through the GL front
// (GlShader::compile + link_gl_program) and the program's pipeline, the result through spirv-val.
//
// GLSL 4.60 §3.3: "#extension extension_name : enable — Behave as specified by the extension" whatever the
// #version, and each extension spec says from which GLSL version it may be used: ARB_shader_group_vote,
// ARB_shader_ballot, ARB_gpu_shader_int64, ARB_shader_atomic_counter_ops, NV_shader_atomic_int64 (all "requires
// GLSL 1.40" or later; compute shaders below 4.30 need ARB_compute_shader, GL 4.6 §19 and ARB_compute_shader).
// glslang declares several of these only from a later version (issue 15: `#version 150` + ARB_shader_group_vote
// gave "no matching overloaded function"). Each case also checks that a shader which does NOT enable the
// extension is rejected (GLSL 4.60 §3.3: "If an extension is not enabled ... the behavior is as if the extension
// was not supported"), so a case cannot pass by accepting everything.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"

using namespace bismuth::translator;

namespace {

struct ExtensionCase {
  const char* name;
  std::vector<const char*> extensions;  // enabled with `require`, in this order
  const char* declarations;             // after the layout line
  const char* body;                     // main's body
  int lowest_version;                   // the extension's own requirement (desktop)
  // Below this version a shader without the #extension must fail (0: at every version). -1: the front does not
  // check it (docs/gl_shim.md, "Not checked"), so the rejection is not tested.
  int core_version = 0;
};

// Every case writes its results to `o`, so nothing it computes is dead code.
const std::vector<ExtensionCase>& desktop_cases() {
  static const std::vector<ExtensionCase> cases = {
      {"ARB_shader_group_vote",
       {"GL_ARB_shader_group_vote"},
       "",
       "o[0] = uint(anyInvocationARB(o[1] == 1u)) + uint(allInvocationsARB(o[2] == 1u)) +\n"
       "       uint(allInvocationsEqualARB(o[3] == 1u));",
       140},
      {"ARB_shader_ballot",
       {"GL_ARB_gpu_shader_int64", "GL_ARB_shader_ballot"},
       "",
       "uint64_t b = ballotARB(o[1] == 1u) & (gl_SubGroupEqMaskARB | gl_SubGroupGeMaskARB | gl_SubGroupGtMaskARB |\n"
       "             gl_SubGroupLeMaskARB | gl_SubGroupLtMaskARB);\n"
       "o[0] = uint(b) + readInvocationARB(o[2], 0u) + readFirstInvocationARB(o[3]) +\n"
       "       uint(readFirstInvocationARB(vec2(1.0)).x) + gl_SubGroupSizeARB + gl_SubGroupInvocationARB;",
       140},
      {"ARB_gpu_shader_int64",
       {"GL_ARB_gpu_shader_int64", "GL_ARB_gpu_shader_fp64"},  // fp64: the functions on doubles below 4.00
       "",
       "int64_t a = int64_t(o[1]) - 5l; uint64_t b = uint64_t(o[2]) << 40;\n"
       "i64vec2 v = i64vec2(a, 2l); u64vec3 u = u64vec3(b);\n"
       "a = abs(a) + sign(a) + min(a, 1l) + max(v, 3l).y + clamp(a, -1l, 1l) + mix(v, v, bvec2(true)).x;\n"
       "b = min(b, 2ul) + clamp(u, 1ul, 9ul).z + packUint2x32(uvec2(1u, 2u)) + uint64_t(packInt2x32(ivec2(-1)));\n"
       "b += doubleBitsToUint64(1.0) + uint64_t(doubleBitsToInt64(2.0));\n"
       "bool c = any(lessThan(v, v)) || all(greaterThanEqual(u, u)) || any(notEqual(v, v));\n"
       "o[0] = uint(a) + unpackUint2x32(b).x + uint(unpackInt2x32(a).y) + uint(c) + uint(int64BitsToDouble(a)) +\n"
       "       uint(uint64BitsToDouble(b));",
       140},
      {"NV_shader_atomic_int64",
       {"GL_ARB_gpu_shader_int64", "GL_NV_shader_atomic_int64"},
       "layout(std430, binding = 1) buffer Big { int64_t i; uint64_t u; };\nshared int64_t si; shared uint64_t su;\n",
       "o[0] = uint(atomicAdd(i, 1l) + atomicMin(i, -1l) + atomicMax(i, 2l) + atomicAnd(i, 3l) + atomicOr(i, 4l) +\n"
       "       atomicXor(i, 5l) + atomicExchange(i, 6l) + atomicCompSwap(i, 6l, 7l));\n"
       "o[0] += uint(atomicAdd(u, 1ul) + atomicMin(u, 1ul) + atomicMax(u, 2ul) + atomicAnd(u, 3ul) +\n"
       "       atomicOr(u, 4ul) + atomicXor(u, 5ul) + atomicExchange(u, 6ul) + atomicCompSwap(u, 6ul, 7ul));\n"
       "o[0] += uint(atomicAdd(si, 1l) + atomicMin(si, -1l) + atomicMax(si, 2l) + atomicAnd(si, 3l) +\n"
       "       atomicOr(si, 4l) + atomicXor(si, 5l) + atomicExchange(si, 6l) + atomicCompSwap(si, 6l, 7l));\n"
       "o[0] += uint(atomicAdd(su, 1ul) + atomicMin(su, 1ul) + atomicMax(su, 2ul) + atomicAnd(su, 3ul) +\n"
       "       atomicOr(su, 4ul) + atomicXor(su, 5ul) + atomicExchange(su, 6ul) + atomicCompSwap(su, 6ul, 7ul));",
       140},
      {"ARB_shader_atomic_counter_ops",
       {"GL_ARB_shader_atomic_counters", "GL_ARB_shader_atomic_counter_ops"},
       "layout(binding = 0, offset = 0) uniform atomic_uint c;\n",
       "o[0] = atomicCounterAddARB(c, 1u) + atomicCounterSubtractARB(c, 1u) + atomicCounterMinARB(c, 1u) +\n"
       "       atomicCounterMaxARB(c, 1u) + atomicCounterAndARB(c, 1u) + atomicCounterOrARB(c, 1u) +\n"
       "       atomicCounterXorARB(c, 1u) + atomicCounterExchangeARB(c, 1u) + atomicCounterCompSwapARB(c, 1u, 2u);",
       140},
      {"KHR_shader_subgroup",
       {"GL_KHR_shader_subgroup_basic", "GL_KHR_shader_subgroup_vote", "GL_KHR_shader_subgroup_ballot",
        "GL_KHR_shader_subgroup_arithmetic", "GL_KHR_shader_subgroup_shuffle",
        "GL_KHR_shader_subgroup_shuffle_relative", "GL_KHR_shader_subgroup_clustered", "GL_KHR_shader_subgroup_quad"},
       "",
       "o[0] = gl_SubgroupSize + gl_SubgroupInvocationID + gl_NumSubgroups + gl_SubgroupID +\n"
       "       uint(subgroupElect()) + uint(subgroupAny(o[1] == 1u)) + subgroupBallot(true).x + subgroupAdd(o[2]) +\n"
       "       subgroupShuffle(o[3], 0u) + subgroupShuffleUp(o[3], 1u) + subgroupClusteredAdd(o[3], 4u) +\n"
       "       subgroupQuadBroadcast(o[3], 0u);",
       140},
      // ARB_shader_clock ("written against version 4.50" and no other GLSL requirement; clockARB "if
      // GL_ARB_gpu_shader_int64 is supported"), EXT_shader_realtime_clock ("requires OpenGL 4.4"),
      // NV_shader_atomic_float, INTEL_shader_atomic_float_minmax ("OpenGL 4.2, OpenGL ES 3.1,
      // ARB_shader_storage_buffer_object, or ARB_compute_shader is required"): no GLSL version below compute's.
      {"ARB_shader_clock",
       {"GL_ARB_gpu_shader_int64", "GL_ARB_shader_clock"},
       "",
       "uvec2 t = clock2x32ARB(); uint64_t c = clockARB(); o[0] = t.x + t.y + uint(c);",
       140},
      {"ARB_shader_clock without int64", {"GL_ARB_shader_clock"}, "", "o[0] = clock2x32ARB().y;", 140},
      {"EXT_shader_realtime_clock",
       {"GL_ARB_gpu_shader_int64", "GL_EXT_shader_realtime_clock"},
       "",
       "uvec2 t = clockRealtime2x32EXT(); uint64_t c = clockRealtimeEXT(); o[0] = t.x + uint(c >> 32);",
       140},
      {"NV_shader_atomic_float",
       {"GL_NV_shader_atomic_float"},
       "layout(std430, binding = 1) buffer F { float f; };\nshared float s;\n",
       "o[0] = uint(atomicAdd(f, 1.5) + atomicExchange(f, 2.0) + atomicAdd(s, 0.5) + atomicExchange(s, 1.0));",
       140},
      {"INTEL_shader_atomic_float_minmax",
       {"GL_INTEL_shader_atomic_float_minmax"},
       "layout(std430, binding = 1) buffer F { float f; };\nshared float s;\n",
       "o[0] = uint(atomicMin(f, -1.5) + atomicMax(f, 2.0) + atomicMin(s, 0.5) + atomicMax(s, -1.0) +\n"
       "            atomicExchange(f, 3.0) + atomicExchange(s, 4.0));",
       140},
      // NV_compute_shader_derivatives: "can be applied to OpenGL GLSL versions 4.50 (#version 450) and higher".
      {"NV_compute_shader_derivatives",
       {"GL_NV_compute_shader_derivatives"},
       "layout(derivative_group_linearNV) in;\n",
       "float v = float(o[1] + gl_LocalInvocationIndex);\n"
       "o[0] = uint(dFdx(v) + dFdy(v) + fwidth(v) + dFdxFine(v) + dFdyCoarse(v) + fwidthFine(v));",
       450},
      {"ARB_gpu_shader_fp64",
       {"GL_ARB_gpu_shader_fp64"},
       "",
       "double d = double(o[1]) + 0.5lf; dvec3 v = dvec3(d); d = fma(d, d, d) + v.z;\n"
       "o[0] = unpackDouble2x32(d).x;",
       150,
       400},
      {"EXT_shader_integer_mix",
       {"GL_EXT_shader_integer_mix"},
       "",
       "o[0] = mix(o[1], o[2], o[3] == 0u) + uint(mix(1, 2, false)) + mix(uvec2(1u), uvec2(o[2]), bvec2(true)).y;",
       130,
       450},
      {"ARB_shading_language_420pack",
       {"GL_ARB_shading_language_420pack"},
       "const uint table[2] = {3u, 4u};\n",
       "o[0] = table[o[1] & 1u];",
       130,
       420},
      {"ARB_shader_atomic_counters",
       {"GL_ARB_shader_atomic_counters"},
       "layout(binding = 0, offset = 4) uniform atomic_uint counter;\n",
       "o[0] = atomicCounterIncrement(counter) + atomicCounterDecrement(counter) + atomicCounter(counter);",
       140,
       420},
      {"ARB_shader_image_load_store",
       {"GL_ARB_shader_image_load_store"},
       "layout(r32ui, binding = 0) coherent uniform uimage2D img;\n",
       "o[0] = imageAtomicAdd(img, ivec2(o[1]), 1u) + imageLoad(img, ivec2(0)).x;\n"
       "imageStore(img, ivec2(1), uvec4(o[2]));\nmemoryBarrierImage();",
       130,
       420},
      {"ARB_explicit_uniform_location",
       {"GL_ARB_explicit_uniform_location"},
       "layout(location = 3) uniform uint u;\n",
       "o[0] = u;",
       330,
       430},
      {"ARB_enhanced_layouts",
       {"GL_ARB_enhanced_layouts"},
       "layout(std430, binding = 2) buffer E { layout(offset = 16) uint e; layout(align = 32) uint f; };\n",
       "o[0] = e + f;",
       140,
       440},
      {"ARB_gpu_shader5",
       {"GL_ARB_gpu_shader5"},
       "",
       "uint carry; int lsb, msb;\n"
       "o[0] = uaddCarry(o[1], o[2], carry) + carry + bitfieldExtract(o[3], 1, 3) + uint(findMSB(o[1])) +\n"
       "       uint(bitCount(o[2])) + bitfieldReverse(o[3]) + uint(fma(1.0, 2.0, float(o[1])));",
       150,
       -1},
      {"ARB_shader_bit_encoding",
       {"GL_ARB_shader_bit_encoding"},
       "",
       "o[0] = uint(floatBitsToInt(float(o[1]))) + floatBitsToUint(uintBitsToFloat(o[2]));",
       130,
       -1},
  };
  return cases;
}

std::string desktop_source(int version, const ExtensionCase& c, bool enable) {
  std::string s = "#version " + std::to_string(version) + "\n";
  if (version < 430) {
    s += "#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n";
  }
  if (enable) {
    for (const char* e : c.extensions) s += std::string("#extension ") + e + " : require\n";
  }
  s += "layout(local_size_x = 4) in;\nlayout(std430, binding = 0) buffer Out { uint o[]; };\n";
  s += c.declarations;
  s += "void main() {\n";
  s += c.body;
  s += "\n}\n";
  return s;
}

// Compiles, links, runs the program's pipeline and validates the driver's words; the log of what failed.
std::string compile_link_validate(const std::string& source) {
  auto shader = GlShader::compile(source);
  if (!shader->ok()) return "compile: " + shader->info_log();
  std::vector<std::shared_ptr<const GlShader>> shaders{shader};
  auto program = link_gl_program(shaders);
  if (!program) return "link: " + program.error().message;
  bismuth::CompileTarget target;
  target.int64_buffer_atomics = true;
  auto piped = bismuth::spirv_patch::run_pipeline(program->spirv, gl_program_pipeline(*program, target));
  if (!piped) return "pipeline: " + piped.error().message;
  if (auto valid = bismuth::spirv_patch::validate(piped->words, bismuth::spirv_patch::TargetEnv::Vulkan1_1); !valid) {
    return "spirv-val: " + valid.error().message;
  }
  return {};
}

}  // namespace

TEST_CASE("Every desktop version from 150 accepts the built-ins of each enabled compute extension") {
  for (const ExtensionCase& c : desktop_cases()) {
    for (int version : {150, 330, 400, 410, 420, 430, 440, 450, 460}) {
      if (version < c.lowest_version) continue;
      INFO(c.name << " at #version " << version);
      const std::string source = desktop_source(version, c, true);
      INFO(source);
      const std::string failure = compile_link_validate(source);
      INFO(failure);
      CHECK(failure.empty());
    }
  }
}

TEST_CASE("The built-ins of an extension the shader does not enable are not there") {
  for (const ExtensionCase& c : desktop_cases()) {
    if (c.core_version < 0) continue;
    // From its core version on, a shader needs no #extension (GLSL 4.60 has the vote and counter functions only
    // without the ARB suffix: those stay extension-only).
    for (int version : {150, 330, 400, 410, 420, 430, 440, 450, 460}) {
      if (version < c.lowest_version || (c.core_version != 0 && version >= c.core_version)) continue;
      INFO(c.name << " at #version " << version);
      auto shader = GlShader::compile(desktop_source(version, c, false));
      CHECK_FALSE(shader->ok());
    }
  }
}

TEST_CASE("GLSL ES 3.10 and 3.20 accept the built-ins of their compute extensions") {
  // GL_EXT_shader_group_vote (GLSL ES 3.00+): anyInvocationEXT, allInvocationsEXT, allInvocationsEqualEXT;
  // GL_KHR_shader_subgroup_* (GLSL ES 3.10+); GL_EXT_shader_integer_mix (GLSL ES 3.00+; mix(genIType ...) is core
  // in GLSL ES 3.10); GL_OES_shader_image_atomic and GL_EXT_gpu_shader5 (GLSL ES 3.10; core in 3.20).
  struct EsCase {
    const char* extension;
    const char* declarations;
    const char* body;
    const char* core_in;  // the ES version that has the built-ins without the #extension ("" none)
  };
  const EsCase cases[] = {
      {"GL_EXT_shader_group_vote", "",
       "o[0] = uint(anyInvocationEXT(o[1] == 1u)) + uint(allInvocationsEXT(o[2] == 1u)) +\n"
       "       uint(allInvocationsEqualEXT(o[3] == 1u));",
       ""},
      {"GL_KHR_shader_subgroup_arithmetic", "", "o[0] = subgroupAdd(o[1]) + gl_SubgroupSize;", ""},
      {"GL_EXT_shader_integer_mix", "", "o[0] = mix(o[1], o[2], o[3] == 0u);", "310 es"},
      {"GL_OES_shader_image_atomic", "layout(r32ui, binding = 0) coherent uniform highp uimage2D img;\n",
       "o[0] = imageAtomicAdd(img, ivec2(o[1]), 1u) + imageAtomicExchange(img, ivec2(0), o[2]);", "320 es"},
      {"GL_EXT_gpu_shader5", "",
       "highp uint carry;\no[0] = uaddCarry(o[1], o[2], carry) + carry + uint(fma(1.0, 2.0, float(o[3])));", "320 es"},
  };
  for (const char* version : {"310 es", "320 es"}) {
    for (const EsCase& c : cases) {
      INFO(c.extension << " at #version " << version);
      const std::string head = std::string("#version ") + version + "\n";
      const std::string rest = std::string("layout(local_size_x = 4) in;\n") +
                               "layout(std430, binding = 1) buffer Out { highp uint o[]; };\n" + c.declarations +
                               "void main() {\n" + c.body + "\n}\n";
      const std::string source = head + "#extension " + c.extension + " : require\n" + rest;
      const std::string failure = compile_link_validate(source);
      INFO(source << failure);
      CHECK(failure.empty());
      // GLSL ES 3.20 §3.4: without the #extension the built-ins are not there (below the version making them core).
      const bool core = std::string_view(c.core_in) == "310 es" ||
                        (std::string_view(c.core_in) == "320 es" && std::string_view(version) == "320 es");
      if (!core) CHECK_FALSE(GlShader::compile(head + rest)->ok());
    }
  }
}

TEST_CASE("The extension's macro is defined for an extension glslang does not know") {
  // GLSL ES 3.20 §3.4: "each extension ... has an associated macro ... defined to 1 when the implementation
  // supports the extension".
  const std::string source =
      "#version 310 es\n#extension GL_EXT_shader_group_vote : enable\n"
      "#if GL_EXT_shader_group_vote != 1\n#error no macro\n#endif\n"
      "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { highp uint o[]; };\n"
      "void main() { o[0] = uint(anyInvocationEXT(true)); }\n";
  auto shader = GlShader::compile(source);
  INFO(shader->info_log());
  CHECK(shader->ok());
}

TEST_CASE("__VERSION__ is the declared version where the compile is raised for an extension's built-ins") {
  // GLSL 4.60 §3.3: "__VERSION__ will substitute a decimal integer reflecting the version number of the OpenGL
  // Shading Language". glslang compiles this 430 shader at 450 for ballotARB.
  for (int version : {150, 430}) {
    const std::string v = std::to_string(version);
    const std::string source =
        "#version " + v +
        "\n#extension GL_ARB_compute_shader : require\n"
        "#extension GL_ARB_shader_storage_buffer_object : require\n"
        "#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_ARB_shader_ballot : require\n"
        "#if __VERSION__ != " +
        v +
        "\n#error wrong __VERSION__\n#endif\n"
        "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { uint o[]; };\n"
        "void main() { int check[__VERSION__ == " +
        v + " ? 1 : -1]; o[0] = uint(ballotARB(true)); }\n";
    INFO(source);
    const std::string failure = compile_link_validate(source);
    INFO(failure);
    CHECK(failure.empty());
  }
}

TEST_CASE("Errors next to an extension's built-ins keep the user's line and column") {
  // The renamed and raised sources keep every line and column: an undeclared identifier after
  // atomicCounterAddARB (renamed for the Vulkan compile) is reported where the user wrote it.
  const std::string source =
      "#version 150\n#extension GL_ARB_compute_shader : require\n"
      "#extension GL_ARB_shader_atomic_counters : require\n#extension GL_ARB_shader_atomic_counter_ops : require\n"
      "layout(local_size_x = 1) in;\nlayout(binding = 0, offset = 0) uniform atomic_uint c;\n"
      "void main() {\n"
      "  uint x = atomicCounterAddARB(c, 1u) + undeclared_name;\n"
      "}\n";
  auto shader = GlShader::compile(source);
  CHECK_FALSE(shader->ok());
  INFO(shader->info_log());
  CHECK_THAT(shader->info_log(), Catch::Contains("0:8(41)"));
  CHECK_THAT(shader->info_log(), Catch::Contains("undeclared_name"));
}

TEST_CASE("64-bit atomic memory functions take only buffer or shared variables") {
  // GLSL 4.60 §8.11: "A shader will fail to compile if the value passed to the mem argument of an atomic memory
  // function does not correspond to a buffer or shared variable." (NV_shader_atomic_int64 extends these
  // functions to 64-bit integers.)
  for (int version : {150, 430, 450}) {
    INFO("#version " << version);
    const std::string source =
        "#version " + std::to_string(version) +
        "\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_gpu_shader_int64 : require\n"
        "#extension GL_NV_shader_atomic_int64 : require\nlayout(local_size_x = 1) in;\n"
        "void main() { int64_t local_value = 0l; atomicAdd(local_value, 1l); }\n";
    CHECK_FALSE(GlShader::compile(source)->ok());
  }
}

TEST_CASE("GL_ARB_gpu_shader_int64's functions on doubles need doubles") {
  // ARB_gpu_shader_int64 "interacts with ARB_gpu_shader_fp64": doubleBitsToInt64 and the like take and return
  // doubles, which GLSL below 4.00 has only with GL_ARB_gpu_shader_fp64.
  const std::string head =
      "#version 150\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_gpu_shader_int64 : require\n";
  const std::string rest = "layout(local_size_x = 1) in;\nvoid main() { int64_t i = doubleBitsToInt64(1.0); }\n";
  CHECK_FALSE(GlShader::compile(head + rest)->ok());
  auto with_fp64 = GlShader::compile(head + "#extension GL_ARB_gpu_shader_fp64 : require\n" + rest);
  INFO(with_fp64->info_log());
  CHECK(with_fp64->ok());
}

TEST_CASE("GLSL ES 3.10 and 3.20 atomic counter functions compile") {
  // GLSL ES 3.20 §8.10: atomicCounterIncrement, atomicCounterDecrement ("Atomically decrements the counter for c
  // and returns the value resulting from the decrement operation") and atomicCounter.
  for (const char* version : {"310 es", "320 es"}) {
    INFO(version);
    const std::string source = std::string("#version ") + version +
                               "\nlayout(local_size_x = 4) in;\n"
                               "layout(binding = 0, offset = 0) uniform atomic_uint c;\n"
                               "layout(std430, binding = 0) buffer Out { highp uint o[]; };\n"
                               "void main() { o[0] = atomicCounterIncrement(c) + atomicCounterDecrement(c) + "
                               "atomicCounter(c); }\n";
    const std::string failure = compile_link_validate(source);
    INFO(failure);
    CHECK(failure.empty());
  }
}

TEST_CASE("GL_NV_compute_shader_derivatives below GLSL 4.50 and GLSL ES 3.20 is an error that names its rule") {
  // NV_compute_shader_derivatives, Dependencies: "This extension can be applied to OpenGL GLSL versions 4.50
  // (#version 450) and higher" and "to OpenGL ES ESSL versions 3.20 (#version 320) and higher". Below them the
  // extension is not supported, and GLSL 4.60 §3.3 says "require ... Give a compile-time error on the #extension
  // if the extension extension_name is not supported" and "enable ... Warn on the #extension".
  for (const char* version : {"150", "330", "400", "410", "420", "430", "440", "310 es"}) {
    INFO("#version " << version);
    const bool es = std::string_view(version).ends_with("es");
    const std::string head = std::string("#version ") + version + "\n" +
                             (es || std::atoi(version) >= 430 ? "" : "#extension GL_ARB_compute_shader : require\n");
    const std::string rest =
        "layout(local_size_x = 4) in;\nlayout(derivative_group_linearNV) in;\n"
        "shared float s;\nvoid main() { s = dFdx(s); }\n";
    auto required = GlShader::compile(head + "#extension GL_NV_compute_shader_derivatives : require\n" + rest);
    CHECK_FALSE(required->ok());
    INFO(required->info_log());
    CHECK_THAT(required->info_log(), Catch::Contains("GL_NV_compute_shader_derivatives") &&
                                         Catch::Contains("4.50 (#version 450) and higher") && Catch::Contains("error"));
    // `enable` warns, and the extension stays off: its layout and dFdx in compute are not there.
    auto enabled = GlShader::compile(head + "#extension GL_NV_compute_shader_derivatives : enable\n" + rest);
    CHECK_FALSE(enabled->ok());
    CHECK_THAT(enabled->info_log(), Catch::Contains("warning") && Catch::Contains("(#version 450) and higher"));
    auto unused = GlShader::compile(head + "#extension GL_NV_compute_shader_derivatives : enable\n" +
                                    "layout(local_size_x = 4) in;\nvoid main() {}\n");
    INFO(unused->info_log());
    CHECK(unused->ok());
  }
}

TEST_CASE("GLSL ES 3.20 accepts GL_NV_compute_shader_derivatives") {
  // NV_compute_shader_derivatives: "can be applied to OpenGL ES ESSL versions 3.20 (#version 320) and higher".
  const std::string head = "#version 320 es\n";
  const std::string rest =
      "layout(local_size_x = 2, local_size_y = 2) in;\nlayout(derivative_group_quadsNV) in;\n"
      "layout(std430, binding = 0) buffer Out { highp float o[]; };\n"
      "void main() { highp float v = o[gl_LocalInvocationIndex]; o[0] = dFdx(v) + dFdy(v) + fwidth(v); }\n";
  const std::string failure =
      compile_link_validate(head + "#extension GL_NV_compute_shader_derivatives : require\n" + rest);
  INFO(failure);
  CHECK(failure.empty());
  CHECK_FALSE(GlShader::compile(head + rest)->ok());
}

TEST_CASE("GLSL ES 3.10 and 3.20 accept the clock and the float atomics of their extensions") {
  // (GL_ARB_shader_clock is a desktop extension: an OpenGL ES context refuses it, es_shader_extensions.c.)
  // EXT_shader_realtime_clock (revision 3) can be applied to ESSL 3.10; INTEL_shader_atomic_float_minmax,
  // Dependencies: "OpenGL 4.2, OpenGL ES 3.1, ARB_shader_storage_buffer_object, or ARB_compute_shader is
  // required"; "Minimum, maximum, exchange ... are enabled" (float atomicMin, atomicMax, atomicExchange on buffer
  // and shared variables). GL_NV_shader_atomic_float: float atomicAdd and atomicExchange. GLSL ES has no 64-bit
  // integer type, so the clocks' uvec2 forms are the ones there.
  struct EsCase {
    const char* extension;
    const char* declarations;
    const char* body;
  };
  const EsCase cases[] = {
      {"GL_EXT_shader_realtime_clock", "", "uvec2 t = clockRealtime2x32EXT(); o[0] = t.x ^ t.y;"},
      {"GL_NV_shader_atomic_float",
       "layout(std430, binding = 2) buffer F { highp float f; highp int i; };\nshared highp float s;\n",
       "o[0] = uint(atomicAdd(f, 1.5) + atomicExchange(f, 2.0) + atomicAdd(s, 0.5) + atomicExchange(s, 1.0)) +\n"
       "       uint(atomicAdd(i, 1) + atomicExchange(i, 2)) + atomicAdd(o[1], 1u);"},
      {"GL_INTEL_shader_atomic_float_minmax",
       "layout(std430, binding = 2) buffer F { highp float f; highp int i; };\nshared highp float s;\n",
       "o[0] = uint(atomicMin(f, -1.5) + atomicMax(f, 2.0) + atomicMin(s, 0.5) + atomicMax(s, -1.0) +\n"
       "            atomicExchange(f, 3.0) + atomicExchange(s, 4.0)) + uint(atomicMin(i, 1) + atomicMax(i, 2)) +\n"
       "       atomicMax(o[1], 3u);"},
  };
  for (const char* version : {"310 es", "320 es"}) {
    for (const EsCase& c : cases) {
      INFO(c.extension << " at #version " << version);
      const std::string head = std::string("#version ") + version + "\n";
      const std::string rest = std::string("layout(local_size_x = 4) in;\n") +
                               "layout(std430, binding = 1) buffer Out { highp uint o[]; };\n" + c.declarations +
                               "void main() {\n" + c.body + "\n}\n";
      const std::string source = head + "#extension " + c.extension + " : require\n" + rest;
      const std::string failure = compile_link_validate(source);
      INFO(source << failure);
      CHECK(failure.empty());
      // GLSL ES 3.20 §3.4: without the #extension its built-ins are not there.
      CHECK_FALSE(GlShader::compile(head + rest)->ok());
    }
  }
}

TEST_CASE("GLSL ES rules still hold where the float atomics come from desktop GLSL") {
  // GLSL ES 3.20 §5.4.1 / §6.1: no implicit conversions; atomicAdd(int, uint) matches no overload. The message
  // names the function the user called. GLSL ES 3.20 §3.4: GL_ES is defined (to 1) in every ES shader.
  const std::string head =
      "#version 310 es\n#extension GL_NV_shader_atomic_float : require\n"
      "#ifndef GL_ES\n#error GL_ES is not defined\n#endif\n"
      "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { highp int i; highp float f; };\n";
  auto mixed = GlShader::compile(head + "void main() { atomicAdd(i, 1u); }\n");
  CHECK_FALSE(mixed->ok());
  INFO(mixed->info_log());
  CHECK_THAT(mixed->info_log(), Catch::Contains("atomicAdd") && !Catch::Contains("bsm_"));
  // GLSL ES 3.20 §8.11: "the value passed to the mem argument of an atomic memory function" must "correspond to a
  // buffer or shared variable".
  auto local = GlShader::compile(head + "void main() { highp float l = 0.0; atomicAdd(l, 1.0); f = l; }\n");
  CHECK_FALSE(local->ok());
  auto good = GlShader::compile(head + "void main() { atomicAdd(f, 1.0); }\n");
  INFO(good->info_log());
  CHECK(good->ok());
  // A macro may call the function (GLSL ES 3.20 §3.4: the macro body is replaced where the macro is used).
  auto macro = GlShader::compile(head +
                                 "#define ACCUMULATE(m, v) atomicAdd(m, v)\n"
                                 "void main() { ACCUMULATE(f, 1.0); ACCUMULATE(i, 2); }\n");
  INFO(macro->info_log());
  CHECK(macro->ok());
}

TEST_CASE("GL_ARB_arrays_of_arrays gives arrays of arrays to every compute version below 4.30") {
  // ARB_arrays_of_arrays (GLSL 1.20+, core in 4.30): "float a[2][3]" is "an array of size 2 of arrays of size 3";
  // a.length() is 2 and a[x].length() is 3. Without the extension GLSL below 4.30 declares one-dimensional arrays
  // only (GLSL 4.20 §4.1.9).
  for (int version : {150, 330, 400, 410, 420}) {
    INFO("#version " << version);
    const std::string head = "#version " + std::to_string(version) +
                             "\n#extension GL_ARB_compute_shader : require\n"
                             "#extension GL_ARB_shader_storage_buffer_object : require\n";
    const std::string rest =
        "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { uint grid[2][3]; int n[2]; };\n"
        "shared uint cells[2][3];\n"
        "void main() { uint l[2][3]; l[1][2] = 5u; cells[1][2] = l[1][2]; grid[1][2] = cells[1][2];\n"
        "  n[0] = grid.length(); n[1] = grid[0].length(); }\n";
    const std::string source = head + "#extension GL_ARB_arrays_of_arrays : require\n" + rest;
    const std::string failure = compile_link_validate(source);
    INFO(source << failure);
    CHECK(failure.empty());
    CHECK_FALSE(GlShader::compile(head + rest)->ok());
  }
}

TEST_CASE("A shader raised to 430 for arrays of arrays still needs the extensions of GLSL 4.30's features") {
  // Raising the parse to 430 must not give GLSL 4.30's other features away: `buffer` needs
  // GL_ARB_shader_storage_buffer_object and `location` on a uniform GL_ARB_explicit_uniform_location below 4.30
  // (GLSL 4.60 §3.3: without the #extension, "the behavior is as if the extension was not supported").
  const std::string head =
      "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_arrays_of_arrays : require\n"
      "layout(local_size_x = 1) in;\n";
  auto buffer = GlShader::compile(head +
                                  "layout(std430, binding = 0) buffer B { uint b[2][2]; };\n"
                                  "void main() { b[1][1] = 1u; }\n");
  CHECK_FALSE(buffer->ok());
  CHECK_THAT(buffer->info_log(), Catch::Contains("GL_ARB_shader_storage_buffer_object"));
  auto location = GlShader::compile(head +
                                    "layout(location = 2) uniform uint u;\nshared uint s[2][2];\n"
                                    "void main() { s[1][1] = u; }\n");
  CHECK_FALSE(location->ok());
  CHECK_THAT(location->info_log(), Catch::Contains("GL_ARB_explicit_uniform_location"));
  auto macro = GlShader::compile(head +
                                 "#if GL_ARB_arrays_of_arrays != 1\n#error no macro\n#endif\n"
                                 "shared uint s[2][2];\nvoid main() { s[1][1] = 1u; }\n");
  INFO(macro->info_log());
  CHECK(macro->ok());
}

TEST_CASE("An ES shader compiled as desktop GLSL for its extensions keeps __VERSION__, lines and columns") {
  // GLSL ES 3.20 §3.4: "__VERSION__ will substitute a decimal integer reflecting the version number of the OpenGL
  // ES shading language" (310 here); a diagnostic names the line and column the user wrote, whichever of the front's
  // parses finds it (the stand-in names of the check keep the width of the built-ins they stand for).
  const std::string head =
      "#version 310 es\n#extension GL_INTEL_shader_atomic_float_minmax : require\n"
      "#extension GL_EXT_shader_realtime_clock : require\n"
      "#if __VERSION__ != 310\n#error wrong __VERSION__\n#endif\n"
      "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { highp float f; highp uint u; };\n";
  const std::string good = head +
                           "void main() { int check[__VERSION__ == 310 ? 1 : -1]; atomicMax(f, 1.0);\n"
                           "  u = clockRealtime2x32EXT().x + uint(check.length()); }\n";
  const std::string failure = compile_link_validate(good);
  INFO(failure);
  CHECK(failure.empty());
  auto undeclared = GlShader::compile(head + "void main() {\n  atomicMax(f, 1.0) + undeclared_name;\n}\n");
  CHECK_FALSE(undeclared->ok());
  INFO(undeclared->info_log());
  CHECK_THAT(undeclared->info_log(), Catch::Contains("0:10(23)") && Catch::Contains("undeclared_name"));
}

TEST_CASE("GL_INTEL_shader_atomic_float_minmax's float atomicCompSwap at every version") {
  // INTEL_shader_atomic_float_minmax: "Minimum, maximum, exchange, and compare-and-swap are enabled", adding
  // "float atomicCompSwap(inout float mem, float compare, float data)" to GLSL 4.60 §8.11 for buffer and shared
  // variables. The front declares it for the GL check and as a marker for the Vulkan compile; the program's pipeline
  // lowers the marker (spirv_patch lower_float_compare_swap), and spirv-val takes the result.
  const std::string declarations = "layout(std430, binding = 2) buffer F { highp float f[2]; highp int i; };\n"
                                   "shared highp float s[3];\n";
  const std::string body = "void main() {\n"
                           "  highp float a = atomicCompSwap(f[o[1]], 1.0, 2.0) + atomicCompSwap(s[o[2]], 0.0, 1.5);\n"
                           "  o[0] = uint(a) + uint(atomicCompSwap(i, 1, 2)) + atomicCompSwap(o[3], 4u, 5u);\n"
                           "}\n";
  auto lowered = [&](const std::string& source) {
    auto shader = GlShader::compile(source);
    INFO(source << shader->info_log());
    REQUIRE(shader->ok());
    std::vector<std::shared_ptr<const GlShader>> shaders{shader};
    auto program = link_gl_program(shaders);
    REQUIRE(program);
    auto piped = bismuth::spirv_patch::run_pipeline(program->spirv, gl_program_pipeline(*program, {}));
    REQUIRE(piped);
    CHECK(piped->float_compare_swap.lowered == 2);
    CHECK(piped->float_compare_swap.buffer_views == 1);
    CHECK(piped->float_compare_swap.shared_retyped == 1);
    auto valid = bismuth::spirv_patch::validate(piped->words, bismuth::spirv_patch::TargetEnv::Vulkan1_1);
    INFO((valid ? std::string() : valid.error().message));
    CHECK(valid);
  };
  for (const char* version : {"150", "330", "430", "450", "460", "310 es", "320 es"}) {
    INFO("#version " << version);
    const bool es = std::string(version).find("es") != std::string::npos;
    std::string head = std::string("#version ") + version + "\n";
    if (!es && std::string(version) < "430") {
      head += "#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n";
    }
    const std::string rest = "layout(local_size_x = 4) in;\n"
                             "layout(std430, binding = 1) buffer Out { highp uint o[]; };\n" +
                             declarations + body;
    lowered(head + "#extension GL_INTEL_shader_atomic_float_minmax : require\n" + rest);
    // Without the #extension there is no float overload (GLSL 4.60 §3.3); the integer ones stay.
    auto without = GlShader::compile(head + rest);
    CHECK_FALSE(without->ok());
    CHECK_THAT(without->info_log(), Catch::Contains("atomicCompSwap") && !Catch::Contains("bsm_"));
  }
}

TEST_CASE("GLSL ES rules hold for float atomicCompSwap's stand-in") {
  // GLSL ES 3.20 §5.4.1: no implicit conversions, so atomicCompSwap(float, int, float) matches no overload; the
  // message names the function the user called.
  auto mixed = GlShader::compile(
      "#version 310 es\n#extension GL_INTEL_shader_atomic_float_minmax : require\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { highp float f; };\nvoid main() { atomicCompSwap(f, 1, 2.0); }\n");
  CHECK_FALSE(mixed->ok());
  INFO(mixed->info_log());
  CHECK_THAT(mixed->info_log(), Catch::Contains("atomicCompSwap") && !Catch::Contains("bsm_"));
}
