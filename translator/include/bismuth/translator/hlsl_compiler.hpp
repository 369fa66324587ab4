// HLSL compute shaders -> Vulkan SPIR-V through glslang's HLSL front end (EShSourceHlsl), with hlsl-specs proposal
// 0054's [numWaves(X)] and [WaveSize(...)] and the wave intrinsics that go with them (docs/hlsl.md).
//
// A [numWaves(X)] entry point's module declares its group size as specialization constants at
// kVariableGroupSizeSpecIds (default 1, 1, 1; the consumer sets (X × wave size, 1, 1)), folds the wave count to the
// literal X, and reads the wave index from the SubgroupId built-in. A [numthreads(x, y, z)] entry point compiles
// as glslang compiles it. Resources keep glslang's HLSL bindings: register(uN), register(tN), register(bN) ->
// binding N of set 0 (space M -> set M).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/target_env.hpp"
#include "bismuth/translator/num_waves.hpp"

namespace bismuth::translator {

struct HlslCompileOptions {
  std::string source_name = "shader.hlsl";  // in diagnostics ("name:line:column: error: ...")
  std::string entry_point = "main";         // the HLSL function; the module's entry point has the same name
  spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1;
};

struct HlslComputeModule {
  std::vector<uint32_t> words;
  std::string entry_point;
  std::optional<NumWavesDeclaration> num_waves;  // [numWaves(X)]
  std::array<uint32_t, 3> fixed_size{};          // [numthreads(x, y, z)] when num_waves is empty
  std::string warnings;  // "name:line:column: warning: ..." lines
};

// Compiles the compute entry point `options.entry_point` of `source`. On failure the message lists every
// diagnostic as "name:line:column: error: text", one per line.
Expected<HlslComputeModule> compile_hlsl_compute(std::string_view source, const HlslCompileOptions& options = {});

}  // namespace bismuth::translator
