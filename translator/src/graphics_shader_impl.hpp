// What a compiled graphics-stage shader keeps for linking (graphics_shader.cpp compiles, graphics_link.cpp links).
#pragma once

#include <glslang/Public/ShaderLang.h>

#include <memory>
#include <string>

#include "bismuth/translator/graphics_program.hpp"

namespace bismuth::translator {

// A link parses the source once more into a TShader of its own: glslang's link writes into the tree of a stage
// that has one shader object (its final check fixes implicit layouts there), so a tree linked once would not link
// the same way again, and GL lets one shader object be linked into any number of programs, any number of times.
struct GlGraphicsShader::Impl {
  std::string source;      // as compiled successfully
  size_t stack_bytes = 0;  // what glslang may need for this shader's depth (a link walks its tree too)
};

// Parses `source` as a shader of `stage` with GL's rules; the shader holds the info log. `text` must point to the
// source's characters while the shader parses.
std::unique_ptr<glslang::TShader> parse_gl_stage(ShaderStage stage, const char* const* text, bool& parsed);

// glslang's stage for a graphics stage.
EShLanguage glslang_stage(ShaderStage stage);

}  // namespace bismuth::translator
