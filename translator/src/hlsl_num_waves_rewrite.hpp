// hlsl-specs proposal 0054 (numWaves) for glslang's HLSL front end, which lacks it: a token-level rewrite of one
// HLSL source that keeps every line where the user wrote it, so glslang's diagnostics point at the user's lines.
//   [numWaves(X)]                 -> [numthreads(1, 1, 1)]   (the caller turns the size into spec constants)
//   [WaveSize(a)], [WaveSize(a, b)], [WaveSize(a, b, p)]     -> blanked, recorded in the declaration
//   GetGroupWaveIndex(), GroupGetWaveIndex(), WaveGetWaveIndex()     -> the marker bismuth_builtin_SubgroupId
//   GetGroupNumWaves(), GroupGetWaveCount(), GetGroupWaveCount(), WaveGetNumWaves() -> (Xu)
// (the last two as macros of the preamble, so the text keeps its columns), and the proposal's compile errors.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/translator/num_waves.hpp"
#include "diagnostics.hpp"

namespace bismuth::translator {

// The Private variable the HLSL front reads the wave index from; spirv_patch's bind_marker_builtins turns it into
// the SubgroupId built-in (docs/hlsl.md, "Wave index").
inline constexpr std::string_view kSubgroupIdMarker = "bismuth_builtin_SubgroupId";

struct HlslNumWavesRewrite {
  std::string source;                              // same number of lines as the input
  std::string preamble;                            // macros for the intrinsics, the marker's declaration
  std::optional<NumWavesDeclaration> declaration;  // [numWaves(X)] on the entry point
  bool entry_found = false;                        // a function named as the entry point was seen
  bool uses_wave_index = false;                    // the marker is read
  std::vector<Diagnostic> diagnostics;
};

HlslNumWavesRewrite rewrite_hlsl_num_waves(std::string_view source, std::string_view entry_point,
                                           std::string_view source_name);

}  // namespace bismuth::translator
