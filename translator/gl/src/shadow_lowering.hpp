// Shadow samplers compared in the shader (issue 18). On a device that cannot compare the colour formats depth
// textures are stored in (a compute-only queue: docs/gl_shim.md, "Depth textures"), a program's dispatch runs a
// second module in which spirv_patch's lower_shadow_samplers does the comparison of GL 4.6 §8.23.1 for every shadow
// sampler (GLSL sampler*Shadow uniforms, assembly texture[n] used with SHADOW targets). The compare function and
// filters are sampler state that changes without a relink: each lowered binding's state word is a specialization
// constant given per dispatch (backend::DispatchInfo::spec_values, part of the pipeline key), so a state seen before
// reuses its pipeline and a new one compiles one pipeline, never the program.
#pragma once

#include <cstdint>

#include "gl_internal.hpp"

namespace bismuth::gl {

// The lowered shader of a GLSL executable or an assembly program, made on first use, and ctx->spec_values_scratch
// filled from ctx->shadow_states_scratch (the state words the bindings wrote, indexed by resource for GLSL, by
// texture[n] binding for assembly). Null, with a KHR_debug message, when the program cannot be lowered or the
// elements of one shadow sampler array have different comparison state: the dispatch is skipped.
const backend::Shader* shadow_lowered_shader(Context* ctx, Executable& exe, const char* func);
const backend::Shader* shadow_lowered_shader(Context* ctx, AsmExecutable& exe, const char* func);

}  // namespace bismuth::gl
