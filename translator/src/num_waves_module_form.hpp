// The module form of an HLSL entry point (docs/hlsl.md, "Module form"): for [numWaves], glslang's 1x1x1 LocalSize
// becomes specialization constants at kVariableGroupSizeSpecIds; for any entry point the wave-index marker is bound
// to SubgroupId by spirv_patch's bind_marker_builtins.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::translator {

struct NumWavesModule {
  std::vector<uint32_t> words;
};

Expected<NumWavesModule> hlsl_num_waves_module_form(const std::vector<uint32_t>& words, const std::string& entry_point,
                                                    bool num_waves);

}  // namespace bismuth::translator
