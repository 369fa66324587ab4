#include "bismuth/translator/glsl_compiler.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>

#include "glslang_diagnostics.hpp"

namespace bismuth::translator {

namespace {

// glslang needs one process-wide initialisation before the first shader; it is never finalised because other
// threads may still be compiling when static destructors run.
void ensure_glslang_initialized() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

struct GlslangTarget {
  glslang::EShTargetClientVersion client;
  glslang::EShTargetLanguageVersion spirv;
};

GlslangTarget glslang_target(spirv::TargetEnv env) {
  switch (env) {
    case spirv::TargetEnv::Vulkan1_0: return {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0};
    case spirv::TargetEnv::Vulkan1_1: return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
    case spirv::TargetEnv::Vulkan1_2: return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
    case spirv::TargetEnv::Vulkan1_3: return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
  }
  return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
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
    return fail(format_glslang_log(shader.getInfoLog(), source, options.source_name));
  }

  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    return fail(format_glslang_log(program.getInfoLog(), source, options.source_name));
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
