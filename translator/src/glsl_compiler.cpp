#include "bismuth/translator/glsl_compiler.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "diagnostics.hpp"
#include "glslang_cached_parse.hpp"
#include "glslang_process.hpp"
#include "large_stack.hpp"
#include "nesting_limits.hpp"

namespace bismuth::translator {

namespace {

constexpr auto kMessages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);

// The diagnostics of a failed compile; glslang's raw log when it holds no parsable diagnostic.
std::string compile_failure(const char* log, std::string_view source, const std::string& name) {
  std::string formatted = format_file_line_column(parse_glslang_log(log, source, name));
  return formatted.empty() ? name + ": error: " + std::string(log) : formatted;
}

// glslang keeps the addresses of `text`, `length` and `name`: the caller's variables must outlive the shader.
void configure(glslang::TShader& shader, const char* const& text, const int& length, const char* const& name,
               spirv_patch::TargetEnv env) {
  const GlslangTarget target = glslang_target(env);
  shader.setStringsWithLengthsAndNames(&text, &length, &name, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);
}

// The compile proper, once the source is known to be within the nesting limits (large_stack.hpp says where it
// runs).
Expected<std::vector<uint32_t>> compile_on_this_thread(std::string_view source, const GlslCompileOptions& options,
                                                       const NestingReport& nesting) {
  const char* text = source.data();
  const int length = static_cast<int>(source.size());
  const char* name = options.source_name.c_str();
  if (nesting.needs_expansion) {
    glslang::TShader preprocessor(EShLangCompute);
    configure(preprocessor, text, length, name, options.target);
    glslang::TShader::ForbidIncluder includer;
    std::string expanded;
    preprocessor.preprocess(GetDefaultResources(), 450, ENoProfile, false, false, kMessages, &expanded, includer);
    if (auto too_deep = check_nesting_limits(expanded, options.source_name, true).error) {
      return fail(format_file_line_column({*too_deep}));
    }
  }

  CachedParseShader shader(EShLangCompute);
  configure(shader, text, length, name, options.target);
  if (!shader.parse_cached(GetDefaultResources(), 450, ENoProfile, false, false, kMessages)) {
    return fail(compile_failure(shader.getInfoLog(), source, options.source_name));
  }

  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(kMessages)) {
    return fail(compile_failure(program.getInfoLog(), source, options.source_name));
  }

  std::vector<uint32_t> words;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;
  spv_options.validate = false;  // callers validate with spirv_patch::validate for their own target
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), words, &logger, &spv_options);
  if (words.empty()) {
    return fail(options.source_name + ": glslang produced no SPIR-V: " + logger.getAllMessages());
  }
  return words;
}

}  // namespace

Expected<std::vector<uint32_t>> compile_glsl_compute(std::string_view source, const GlslCompileOptions& options) {
  ensure_glslang_initialized();
  // A source beyond the front's nesting limits never reaches glslang (nesting_limits.hpp); the depth of one within
  // them says how much stack glslang needs (the deepest's when only preprocessing tells the depth).
  const NestingReport nesting = check_nesting_limits(source, options.source_name);
  if (nesting.error) return fail(format_file_line_column({*nesting.error}));
  const size_t stack = nesting.needs_expansion ? kDeepestSourceStackBytes : nesting.stack_bytes();
  Expected<std::vector<uint32_t>> words = fail("not compiled");
  if (Status ran = run_with_stack(stack, [&] { words = compile_on_this_thread(source, options, nesting); }); !ran) {
    return fail(options.source_name + ": error: internal error: " + ran.error().message);
  }
  return words;
}

}  // namespace bismuth::translator
