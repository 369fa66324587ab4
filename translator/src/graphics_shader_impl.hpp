// What a compiled graphics-stage shader keeps for linking (graphics_shader.cpp compiles, graphics_link.cpp links).
#pragma once

#include <glslang/Public/ShaderLang.h>

#include <memory>
#include <string>

#include "bismuth/translator/graphics_program.hpp"

namespace bismuth::translator {

struct GlGraphicsShader::Impl {
  std::string source;  // glslang keeps pointers into it
  std::unique_ptr<glslang::TShader> shader;
  size_t stack_bytes = 0;  // what glslang may need for this shader's depth (a link walks its tree too)
};

// glslang's stage for a graphics stage.
EShLanguage glslang_stage(ShaderStage stage);

}  // namespace bismuth::translator
