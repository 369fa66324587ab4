// Built-ins of enabled extensions that glslang 12 lacks at the version it parses a shader at. GLSL 4.60 §3.3:
// an enabled extension provides its built-ins whatever the #version; glslang declares some only from a later
// version (GL_ARB_shader_group_vote from 430, GL_NV_shader_atomic_int64 from 440, GL_ARB_shader_ballot and
// GL_ARB_gpu_shader_int64's functions from 450, GL_ARB_shader_atomic_counter_ops at 450 only and never under its
// relaxed Vulkan rules, GL_ARB_shader_clock and GL_EXT_shader_realtime_clock from 450, GL_EXT_shader_atomic_float
// and _float2 — what GL_NV_shader_atomic_float and GL_INTEL_shader_atomic_float_minmax become — from 440) or not at
// all (GL_EXT_shader_group_vote, an OpenGL ES extension).
//
// The front parses each shader twice (gl_program.cpp), and each parse gets what it needs:
//  * the GL-rules check keeps the shader's version and sees the missing built-ins as declarations in its preamble
//    (prototypes, and macros for built-in variables): the check only parses, so a declared function needs no body,
//    and glslang still applies every rule of the declared version to the rest of the shader;
//  * the Vulkan compile (code generation) is parsed at the lowest version where glslang declares the built-ins,
//    with the ARB/EXT names glslang does not know replaced by the core or KHR function of the same meaning (padded
//    with spaces to the same width). The GL rules were checked already; __VERSION__ keeps the declared version.
// GLSL ES: glslang 12 declares the clocks and the float atomics for desktop GLSL only, although
// GL_EXT_shader_realtime_clock (revision 3) and GL_INTEL_shader_atomic_float_minmax apply to GLSL ES 3.10 too. An ES
// shader that enables one of them is checked at its ES version (the clocks as prototypes; the float atomics, whose
// names GLSL ES forbids overloading, under same-width stand-in names with every integer and float overload, mapped
// back in the messages), and its Vulkan compile is parsed as desktop GLSL 4.50 (the ES rules were checked;
// `GL_ES` stays defined, __VERSION__ the declared version).
// One glslang bug is worked around here too: under relaxed Vulkan rules it rejects atomicCounterDecrement in
// GLSL ES (its rewrite mixes int and uint); the ES Vulkan compile gets implicit conversions for it.
// Every rewrite keeps lines and columns where the user wrote them. Directives of extensions glslang does not know
// are blanked (spaces) in both sources, and their macros defined in both preambles.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bismuth::translator {

struct ExtensionBuiltins {
  std::string check_source;         // for the GL-rules check: unknown extension directives blanked
  std::string check_preamble;       // macros of the extensions glslang does not know, for the GL-rules check
  std::string check_declarations;   // #extension lines and prototypes for the GL-rules check, after the preamble
  std::string compile_source;       // for the Vulkan compile: its #version raised where needed, names replaced
  std::string compile_preamble;     // #extension lines and macros for the Vulkan compile
  int compile_version = 0;          // the version the Vulkan compile parses at
  bool compile_as_desktop = false;  // an ES shader whose Vulkan compile is parsed as desktop GLSL
  // Stand-in names of the GL-rules check (GLSL ES float atomics) and the built-in each stands for, so that the
  // check's messages name what the user wrote.
  std::vector<std::pair<std::string, std::string>> check_stand_ins;
};

// `message` with every stand-in name of `builtins`' check replaced by the built-in's own.
std::string restore_builtin_names(std::string message, const ExtensionBuiltins& builtins);

// `source` is the shader after the version rewrite, which glslang parses at `glslang_version` (420 for a raised
// shader); `user_version` is the version the shader declared; `es` says it is an ES shader. `float_compare_swap`:
// GL_INTEL_shader_atomic_float_minmax is enabled, so the check also knows `float atomicCompSwap(inout float mem,
// float compare, float data)` (the Vulkan compile gets it from gl_program.cpp as a spirv_patch marker).
ExtensionBuiltins shim_extension_builtins(std::string_view source, int glslang_version, int user_version, bool es,
                                          bool float_compare_swap = false);

}  // namespace bismuth::translator
