// Runs a parsed shader_test through the GL API of libbismuth-gl, as piglit's shader_runner does: [require]
// against what the context reports, compile + link the compute shaders, then the [test] commands in order.
#pragma once

#include "gl_session.hpp"
#include "shader_test.hpp"
#include "status.hpp"

namespace bismuth::tools::runner {

// PASS when every command succeeded and every probe held; FAIL with the first failing probe (expected vs
// observed) or GL error, naming file:line; SKIP with the reason when a requirement is not met or the test needs
// more than compute. Validation messages (BISMUTH_VALIDATION=1) turn a PASS into a FAIL.
Outcome execute_shader_test(const ShaderTest& test, GlSession& gl);

}  // namespace bismuth::tools::runner
