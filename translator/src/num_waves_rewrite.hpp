// GL_BISMUTH_num_waves for glslang, which lacks it: a token-level rewrite of one compute shader's source that keeps
// every line where the user wrote it, so glslang's diagnostics point at the user's lines.
//   #extension GL_BISMUTH_num_waves : b                 -> blanked (its behaviour is honoured here)
//   layout(num_waves = X, wave_size_min = a, ...) in;   -> layout(<size_layout>) in;   (the size as the caller asks)
//   gl_NumWaves, gl_WaveIndex, gl_WaveLaneIndex, gl_WaveSize -> macros of the preamble (the literal Xu, and
//     gl_SubgroupID / gl_SubgroupInvocationID / gl_SubgroupSize of GL_KHR_shader_subgroup_basic), so the source
//     text and its columns stay the user's
// and the compile-time errors of the extension's GLSL rules (docs/GL_BISMUTH_num_waves.txt, "Errors").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/translator/num_waves.hpp"
#include "diagnostics.hpp"

namespace bismuth::translator {

struct NumWavesRewrite {
  std::string source;                              // same number of lines as the input
  std::string preamble;                            // the extension's macro, and when it is enabled its built-ins
  std::optional<NumWavesDeclaration> declaration;  // layout(num_waves = X) in;
  std::vector<Diagnostic> diagnostics;             // errors and warnings, positions in the user's source
};

// `size_layout` replaces the num_waves qualifier: spec-constant sizes for code generation (spec_constant_size_layout)
// or a plain fixed size for the GL-rules check. `source_name` labels diagnostics.
NumWavesRewrite rewrite_num_waves(std::string_view source, std::string_view size_layout, std::string_view source_name);

}  // namespace bismuth::translator
