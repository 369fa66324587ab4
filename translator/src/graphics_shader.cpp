// glCompileShader for vertex, tessellation, geometry and fragment shaders: glslang as a GL front end (OpenGL
// semantics, no Vulkan rules), behind the same nesting limits and stack as the compute front (nesting_limits.hpp,
// large_stack.hpp), so that bad input is a compile error, never a crash.
#include "diagnostics.hpp"
#include "glslang_cached_parse.hpp"
#include "glslang_process.hpp"
#include "graphics_shader_impl.hpp"
#include "large_stack.hpp"
#include "nesting_limits.hpp"
#include "resource_limits.hpp"

namespace bismuth::translator {

namespace {

// Diagnostics name the source string: GL concatenates glShaderSource's strings into string 0.
constexpr std::string_view kSourceName = "0";
// GLSL 4.60 §3.3: "Shaders that do not include a #version directive will be treated as targeting version 1.10."
constexpr int kVersionWithoutDirective = 110;

void configure(glslang::TShader& shader, ShaderStage stage, const char* const* text) {
  shader.setStrings(text, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, glslang_stage(stage), glslang::EShClientNone, 0);
}

// `source` as glslang's preprocessor expands it (lines kept), for the depth check of macro-built sources.
std::string preprocess(ShaderStage stage, const std::string& source) {
  glslang::TShader shader(glslang_stage(stage));
  const char* text = source.c_str();
  configure(shader, stage, &text);
  glslang::TShader::ForbidIncluder includer;
  std::string expanded;
  // A preprocessing error leaves the rest expanded; the parse that follows reports it.
  shader.preprocess(gl_resource_limits(), kVersionWithoutDirective, ENoProfile, false, false, EShMsgDefault, &expanded,
                    includer);
  return expanded;
}

}  // namespace

EShLanguage glslang_stage(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return EShLangVertex;
    case ShaderStage::TessControl: return EShLangTessControl;
    case ShaderStage::TessEvaluation: return EShLangTessEvaluation;
    case ShaderStage::Geometry: return EShLangGeometry;
    case ShaderStage::Fragment: return EShLangFragment;
  }
  return EShLangVertex;
}

const char* stage_name(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return "vertex";
    case ShaderStage::TessControl: return "tessellation control";
    case ShaderStage::TessEvaluation: return "tessellation evaluation";
    case ShaderStage::Geometry: return "geometry";
    case ShaderStage::Fragment: return "fragment";
  }
  return "unknown";
}

GlGraphicsShader::GlGraphicsShader(ShaderStage stage) : stage_(stage), impl_(std::make_unique<Impl>()) {}
GlGraphicsShader::~GlGraphicsShader() = default;

std::shared_ptr<const GlGraphicsShader> GlGraphicsShader::compile(ShaderStage stage, std::string_view source) {
  ensure_glslang_initialized();
  std::shared_ptr<GlGraphicsShader> self(new GlGraphicsShader(stage));
  // Depth first: a source beyond the front's limits never reaches glslang, and the depth of one within them says
  // how much stack glslang needs (nesting_limits.hpp).
  const NestingReport nesting = check_nesting_limits(source, kSourceName);
  if (nesting.error) {
    self->info_log_ = format_gl_info_log({*nesting.error});
    return self;
  }
  size_t stack = nesting.stack_bytes();
  if (nesting.needs_expansion) {
    // Function-like macros and conditional code: measure what glslang will parse.
    std::string expanded;
    if (Status ran =
            run_with_stack(kDeepestSourceStackBytes, [&] { expanded = preprocess(stage, std::string(source)); });
        ran) {
      const NestingReport deep = check_nesting_limits(expanded, kSourceName, true);
      if (deep.error) {
        self->info_log_ = format_gl_info_log({*deep.error});
        return self;
      }
      stack = std::max(stack, deep.stack_bytes());
    } else {
      stack = kDeepestSourceStackBytes;
    }
  }
  if (Status ran = run_with_stack(stack, [&] { self->compile_source(source, stack); }); !ran) {
    // An internal failure is a failed compile that says why: never an exception out of glCompileShader.
    self->ok_ = false;
    self->impl_ = std::make_unique<Impl>();
    self->info_log_ = format_gl_info_log(
        {{Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, "internal error: " + ran.error().message}});
  }
  return self;
}

std::unique_ptr<glslang::TShader> parse_gl_stage(ShaderStage stage, const char* const* text, bool& parsed) {
  auto shader = std::make_unique<CachedParseShader>(glslang_stage(stage));
  configure(*shader, stage, text);
  parsed = shader->parse_cached(gl_resource_limits(), kVersionWithoutDirective, ENoProfile, false, false,
                                EShMsgDefault);
  return shader;
}

void GlGraphicsShader::compile_source(std::string_view source, size_t stack_bytes) {
  impl_->source = std::string(source);
  impl_->stack_bytes = stack_bytes;
  const char* text = impl_->source.c_str();
  bool parsed = false;
  auto shader = parse_gl_stage(stage_, &text, parsed);
  std::vector<Diagnostic> diagnostics = parse_glslang_log(shader->getInfoLog(), impl_->source, kSourceName);
  if (!parsed && !has_errors(diagnostics)) {
    diagnostics.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1,
                           std::string("compilation failed: ") + shader->getInfoLog()});
  }
  info_log_ = format_gl_info_log(diagnostics);
  ok_ = parsed;
}

}  // namespace bismuth::translator
