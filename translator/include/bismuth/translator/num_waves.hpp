// A compute shader's workgroup declared in waves (subgroups) instead of invocations: GLSL
// `layout(num_waves = X) in;` (GL_BISMUTH_num_waves, docs/GL_BISMUTH_num_waves.txt) and HLSL `[numWaves(X)]`
// (hlsl-specs proposal 0054). The group has X × w invocations, w the wave size the pipeline commits to; the module a
// front emits declares its size as specialization constants at kVariableGroupSizeSpecIds (gl_program.hpp) and the
// consumer (the layer, the GL shim) specializes it to (X × w, 1, 1).
#pragma once

#include <cstdint>

namespace bismuth::translator {

struct NumWavesDeclaration {
  uint32_t num_waves = 0;      // X > 0
  uint32_t wave_size_min = 0;  // 0: no lower bound (layout(wave_size_min = a) or [WaveSize(a, ...)])
  uint32_t wave_size_max = 0;  // 0: no upper bound
  // [WaveSize(a, b, preferred)] (Shader Model 6.8's third argument) when given; 0 otherwise.
  uint32_t wave_size_preferred = 0;

  friend bool operator==(const NumWavesDeclaration&, const NumWavesDeclaration&) = default;
};

}  // namespace bismuth::translator
