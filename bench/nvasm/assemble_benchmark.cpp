// Assembly time of NVIDIA's largest corpus program (tests/data/corpus/nvidia-h100/subgroup_khr, 383 lines).
//   .../assembler   lex, parse, checks and SPIR-V emission: the assembler's own work
//   .../validated   plus spirv-val on the unoptimized module
//   .../optimized   the default assemble(): emission, spvtools::Optimizer performance passes, spirv-val
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "bismuth/nvasm/assembler.hpp"

namespace {

std::string read_program(const char* name) {
  // The source tree it was built from, else the working directory (a bundled binary runs from a repository copy).
  std::filesystem::path dir = std::filesystem::path(BISMUTH_SOURCE_DIR) / "tests/data/corpus/nvidia-h100";
  if (!std::filesystem::exists(dir)) dir = std::filesystem::current_path() / "tests/data/corpus/nvidia-h100";
  std::ifstream in(dir / name / "program.nvcp5");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void BM_Assemble(benchmark::State& state, const char* name, bool optimize, bool validate) {
  const std::string source = read_program(name);
  bismuth::nvasm::AssembleOptions options;
  options.subgroup_size_32_available = true;
  options.optimize = optimize;
  options.validate = validate;
  size_t words = 0;
  for (auto _ : state) {
    auto program = bismuth::nvasm::assemble(source, options);
    if (!program) {
      state.SkipWithError(program.error().message.c_str());
      return;
    }
    words = program->spirv.size();
    benchmark::DoNotOptimize(program->spirv.data());
  }
  state.counters["spirv_words"] = static_cast<double>(words);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * source.size()));
}

BENCHMARK_CAPTURE(BM_Assemble, subgroup_khr/assembler, "subgroup_khr", false, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Assemble, subgroup_khr/validated, "subgroup_khr", false, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Assemble, subgroup_khr/optimized, "subgroup_khr", true, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Assemble, iota_store/assembler, "iota_store", false, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Assemble, iota_store/optimized, "iota_store", true, true)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
