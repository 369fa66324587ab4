// Runs a reference corpus case (corpus_case.hpp) through libbismuth-gl: the GLSL front (shader.comp through
// glCompileShader/glLinkProgram) or the NV assembly front (program.nvcp5 through the GL assembly-program entry
// points of NV_compute_program5, looked up with bismuthGetProcAddress).
#pragma once

#include <string>

#include "corpus_case.hpp"
#include "gl_session.hpp"
#include "status.hpp"

namespace bismuth::tools::runner {

enum class Front { Glsl, Hlsl, Nvasm };
const char* to_string(Front front);
Front front_named(const std::string& name);  // "hlsl", "nvasm"; anything else is Glsl

// PASS when the output matches expected.bin by the case's rule. SKIP with the reason when the front cannot take
// the program (an NVIDIA-only GLSL extension, no assembly-program entry points) or when requires_subgroup_size
// differs from the device's subgroup size — such a case still runs first, so a crash, a GL error or a validation
// message is still a failure; it is never compared with expected.bin.
Outcome execute_corpus_case(const CorpusCase& c, Front front, GlSession& gl);

}  // namespace bismuth::tools::runner
