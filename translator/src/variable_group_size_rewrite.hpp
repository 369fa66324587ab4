// GL_ARB_compute_variable_group_size for glslang, which lacks it: a token-level rewrite of one compute shader's
// source that keeps every line where the user wrote it, so glslang's diagnostics point at the user's lines.
//   #extension GL_ARB_compute_variable_group_size : b   -> blanked (its behaviour is honoured here)
//   layout(local_size_variable) in;                      -> layout(<variable_size_layout>) in;
//   gl_LocalGroupSizeARB                                 -> gl_WorkGroupSize (the spec-constant size), padded
// and the compile-time errors the extension's GLSL rules add.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"

namespace bismuth::translator {

enum class GroupSizeDeclaration { None, Fixed, Variable };

struct VariableGroupSizeRewrite {
  std::string source;  // same number of lines as the input
  GroupSizeDeclaration declaration = GroupSizeDeclaration::None;
  std::vector<Diagnostic> diagnostics;  // errors and warnings, positions in the user's source
};

// `variable_size_layout` replaces the local_size_variable qualifier: spec-constant sizes for code generation
// ("local_size_x_id = X, local_size_y_id = Y, local_size_z_id = Z"), or a plain fixed size for a GL-rules check.
// `source_name` labels diagnostics.
VariableGroupSizeRewrite rewrite_variable_group_size(std::string_view source, std::string_view variable_size_layout,
                                                     std::string_view source_name);

// The layout text for spec-constant sizes with these SpecIds.
std::string spec_constant_size_layout(const std::array<uint32_t, 3>& spec_ids);

}  // namespace bismuth::translator
