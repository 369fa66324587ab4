// Compute shaders below `#version 420` (GL_ARB_compute_shader at #version 140 .. 410) for glslang, which refuses
// any desktop compute shader below 420 whatever the target. A token-level rewrite that keeps every line and
// column where the user wrote it:
//   #version 140|150|330|400|410 [profile]   -> #version 420 [profile] (a number with leading zeros, "00150", is
//                                                the same integer, as glslang reads it; "420" is padded to its width)
//   __VERSION__                               -> the user's version, padded to the same width
// glslang at 420 still enforces the features of GLSL 4.30 behind their extensions (GL_ARB_compute_shader,
// GL_ARB_shader_storage_buffer_object, GL_ARB_explicit_uniform_location, ...). What 4.20 and earlier versions
// made core, and the raised version would silently allow, is checked here as a GL driver (Mesa) checks it:
// compute shaders below 430 need GL_ARB_compute_shader; `binding` below 420 needs GL_ARB_shading_language_420pack,
// GL_ARB_shader_atomic_counters or GL_ARB_shader_storage_buffer_object; `atomic_uint` below 420 needs
// GL_ARB_shader_atomic_counters; image types below 420 need GL_ARB_shader_image_load_store; initializer lists
// below 420 need GL_ARB_shading_language_420pack; double types below 400 need GL_ARB_gpu_shader_fp64; a profile
// argument below 150 is an error. Atomic memory functions on shared variables need only GL_ARB_compute_shader.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"

namespace bismuth::translator {

struct VersionRewrite {
  std::string source;       // same lines and columns as the input
  int user_version = 0;     // the version the user declared; 0 when no #version directive was found
  bool raised = false;      // the #version line was raised to 420
  int glslang_version = 0;  // the version glslang parses the rewritten source at (420 where raised)
  bool es = false;          // an ES shader (`#version 310 es`): returned as written
  // Directives for glslang's preamble: glslang offers atomicAdd() etc. below 430 only with
  // GL_ARB_shader_storage_buffer_object, where a GL driver offers them to every compute shader (on shared
  // variables); the front then enables the extension itself and reports `buffer` the user did not enable.
  std::string preamble;
  std::vector<Diagnostic> diagnostics;
};

// The lowest desktop GLSL version glslang compiles compute shaders at.
inline constexpr int kLowestGlslangComputeVersion = 420;

VersionRewrite rewrite_compute_version(std::string_view source, std::string_view source_name);

// `source` with the number of its first #version directive replaced by `glslang_version` (padded with spaces to
// the number's width: give a version no wider than the user's number, i.e. three digits) and every __VERSION__,
// in code and in directives, by `user_version` padded to its width: lines and columns stay where the user put
// them, and the shader still sees the version it declared.
std::string set_glslang_version(std::string_view source, int glslang_version, int user_version);

// set_glslang_version for a GLSL ES shader parsed as desktop GLSL: the profile of the #version directive ("es")
// becomes spaces as well.
std::string set_glslang_desktop_version(std::string_view source, int glslang_version, int user_version);

}  // namespace bismuth::translator
