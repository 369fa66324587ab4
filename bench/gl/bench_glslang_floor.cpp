// bench_glslang_floor: what glslang alone costs per parse of the program loop's shader (issue 17), the floor
// under libbismuth-gl's cold front end. A GLSL compile in the shim is two glslang parses — GL's rules (the check
// that reports what a GL driver reports) and the relaxed-Vulkan parse that generates code — plus Bismuth's own
// source scans and, at link, code generation and the SPIR-V passes; a parse costs this much however little the
// shader holds, because glslang declares the built-ins that depend on the resource limits and reads its own
// preamble (hundreds of #defines) in every parse.
//
//   BM_GlslangParse/0   GL rules (EShClientOpenGL), `layout(local_size_x = 64) in;`
//   BM_GlslangParse/1   relaxed Vulkan rules with the size as specialization constants (what the shim's code-
//                       generating parse gets after its variable-group-size rewrite)
//   BM_GlslangParsePair the two, the GL one on a thread started for it beside the other (as the shim runs them)
//
// Each iteration is a new TShader over a source with a new literal, as in examples/program_loop.c; glslang's
// shared built-in symbol tables are made before timing. The parses go through the GLSL front's
// CachedParseShader::parse_cached (translator/src/glslang_cached_parse.hpp: the resource built-ins cached per
// process), as the shim's do; BISMUTH_GLSLANG_DRIVER=stock measures glslang's own TShader::parse. Compare with bench_program_churn's compile_link_us (the
// whole front end) in the same run; docs/performance.md, "The cold front end".
#include <benchmark/benchmark.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "glslang_cached_parse.hpp"
#include "program_template.h"

namespace {

struct ProcessScope {
  ProcessScope() { glslang::InitializeProcess(); }
  ~ProcessScope() { glslang::FinalizeProcess(); }
};

// The template's fixed-size source for the GL parse; for the Vulkan parse the size becomes spec constants, as the
// shim's rewrite makes it (spirv_patch's runtime-group-size variant starts from that form).
std::string source(uint32_t literal, bool vulkan) {
  const uint32_t size[3] = {64, 1, 1};
  char text[1024];
  if (program_template_source(text, sizeof text, PROGRAM_TEMPLATE_FIXED, PROGRAM_TEMPLATE_COUNTER_OPS_460, literal,
                              size) == 0) {
    std::fprintf(stderr, "bench_glslang_floor: the template does not fit\n");
    std::exit(1);
  }
  std::string result = text;
  if (vulkan) {
    const std::string fixed = "local_size_x = 64, local_size_y = 1, local_size_z = 1";
    const size_t at = result.find(fixed);
    if (at == std::string::npos) {
      std::fprintf(stderr, "bench_glslang_floor: the template's layout changed\n");
      std::exit(1);
    }
    result.replace(at, fixed.size(), "local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2");
  }
  return result;
}

bool parse(const std::string& text, bool vulkan) {
  bismuth::translator::CachedParseShader shader(EShLangCompute);
  const char* strings = text.c_str();
  shader.setStrings(&strings, 1);
  if (vulkan) {
    shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
    shader.setEnvInputVulkanRulesRelaxed();
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    shader.setAtomicCounterBlockName("gl_AtomicCounterBlock");
    shader.setAutoMapBindings(true);
  } else {
    shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientOpenGL, 100);
  }
  return shader.parse_cached(GetDefaultResources(), 450, ENoProfile, false, false, EShMsgDefault);
}

uint32_t next_literal() {
  static uint32_t literal = 1;
  return literal++;
}

void BM_GlslangParse(benchmark::State& state) {
  static ProcessScope process;
  const bool vulkan = state.range(0) == 1;
  if (!parse(source(0, vulkan), vulkan)) {  // the shared built-in tables, made once per process
    state.SkipWithError("the template does not parse");
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    const std::string text = source(next_literal(), vulkan);
    state.ResumeTiming();
    if (!parse(text, vulkan)) {
      state.SkipWithError("a parse failed");
      break;
    }
  }
}
BENCHMARK(BM_GlslangParse)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_GlslangParsePair(benchmark::State& state) {
  static ProcessScope process;
  if (!parse(source(0, false), false) || !parse(source(0, true), true)) {
    state.SkipWithError("the template does not parse");
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    const uint32_t literal = next_literal();
    const std::string gl_text = source(literal, false);
    const std::string vulkan_text = source(literal, true);
    state.ResumeTiming();
    bool gl_ok = false;
    std::thread beside([&] { gl_ok = parse(gl_text, false); });
    const bool vulkan_ok = parse(vulkan_text, true);
    beside.join();
    if (!gl_ok || !vulkan_ok) {
      state.SkipWithError("a parse failed");
      break;
    }
  }
}
BENCHMARK(BM_GlslangParsePair)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
