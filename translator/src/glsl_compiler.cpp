#include "bismuth/translator/glsl_compiler.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "diagnostics.hpp"
#include "glslang_process.hpp"

namespace bismuth::translator {

namespace {

// The diagnostics of a failed compile; glslang's raw log when it holds no parsable diagnostic.
std::string compile_failure(const char* log, std::string_view source, const std::string& name) {
  std::string formatted = format_file_line_column(parse_glslang_log(log, source, name));
  return formatted.empty() ? name + ": error: " + std::string(log) : formatted;
}

}  // namespace

Expected<std::vector<uint32_t>> compile_glsl_compute(std::string_view source, const GlslCompileOptions& options) {
  ensure_glslang_initialized();
  const GlslangTarget target = glslang_target(options.target);

  glslang::TShader shader(EShLangCompute);
  const char* text = source.data();
  const int length = static_cast<int>(source.size());
  const char* name = options.source_name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &name, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);

  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!shader.parse(GetDefaultResources(), 450, false, messages)) {
    return fail(compile_failure(shader.getInfoLog(), source, options.source_name));
  }

  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
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

}  // namespace bismuth::translator
