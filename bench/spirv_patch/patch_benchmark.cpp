// How long the spirv_patch passes take on a large module (target: well under 10 ms for 1 MB). The module is a
// GLSL compute shader with thousands of ARB ballot / vote calls, compiled once with glslang at start-up.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

namespace {

constexpr int kStatements = 1900;

// About 1 MiB of SPIR-V: `statements` blocks of ballot, broadcast, shuffle and vote, each stored to a buffer.
const std::vector<uint32_t>& large_module() {
  static const std::vector<uint32_t> words = [] {
    std::string source = R"(#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint lane; uint v[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
)";
    for (int k = 0; k < kStatements; ++k) {
      const std::string n = std::to_string(k);
      source += "  v[i * " + std::to_string(kStatements) + "u + " + n + "u] = uint(ballotARB(i > " + n +
                "u)) + readInvocationARB(i + " + n + "u, lane) + readFirstInvocationARB(i * " + n +
                "u) + (anyInvocationARB(i == " + n + "u) ? 1u : 0u);\n";
    }
    source += "}\n";
    auto compiled = bismuth::translator::compile_glsl_compute(source, {.source_name = "large.comp"});
    if (!compiled) {
      std::fprintf(stderr, "%s\n", compiled.error().message.c_str());
      std::abort();
    }
    return *compiled;
  }();
  return words;
}

void set_counters(benchmark::State& state) {
  const auto bytes = static_cast<int64_t>(large_module().size() * sizeof(uint32_t));
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["module_bytes"] = static_cast<double>(bytes);
}

void BM_ParseAndSerialize(benchmark::State& state) {
  const auto& words = large_module();
  for (auto _ : state) {
    auto module = bismuth::spirv_patch::Module::parse(words);
    if (!module) state.SkipWithError(module.error().message.c_str());
    auto out = module->serialize();
    benchmark::DoNotOptimize(out.data());
  }
  set_counters(state);
}
BENCHMARK(BM_ParseAndSerialize)->Unit(benchmark::kMillisecond);

void BM_LowerBallotVote(benchmark::State& state) {
  const auto& words = large_module();
  for (auto _ : state) {
    auto patch = bismuth::spirv_patch::lower_khr_subgroup_ops(words);
    if (!patch) state.SkipWithError(patch.error().message.c_str());
    benchmark::DoNotOptimize(patch->words.data());
  }
  set_counters(state);
}
BENCHMARK(BM_LowerBallotVote)->Unit(benchmark::kMillisecond);

void BM_WorkgroupSizeToSpecConstants(benchmark::State& state) {
  const auto& words = large_module();
  for (auto _ : state) {
    auto patch = bismuth::spirv_patch::workgroup_size_to_spec_constants(words, {});
    if (!patch) state.SkipWithError(patch.error().message.c_str());
    benchmark::DoNotOptimize(patch->words.data());
  }
  set_counters(state);
}
BENCHMARK(BM_WorkgroupSizeToSpecConstants)->Unit(benchmark::kMillisecond);

// What the runtime does per module: parse once, both passes, serialize once.
void BM_BothPassesOneParse(benchmark::State& state) {
  const auto& words = large_module();
  for (auto _ : state) {
    auto module = bismuth::spirv_patch::Module::parse(words);
    if (!module) state.SkipWithError(module.error().message.c_str());
    auto lowered = bismuth::spirv_patch::lower_khr_subgroup_ops(*module);
    auto sized = bismuth::spirv_patch::workgroup_size_to_spec_constants(*module, {});
    if (!lowered || !sized) state.SkipWithError("pass failed");
    auto out = module->serialize();
    benchmark::DoNotOptimize(out.data());
  }
  set_counters(state);
}
BENCHMARK(BM_BothPassesOneParse)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
