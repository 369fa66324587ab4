#include "bismuth/translator/hlsl_compiler.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "diagnostics.hpp"
#include "glslang_process.hpp"
#include "hlsl_num_waves_rewrite.hpp"
#include "large_stack.hpp"
#include "nesting_limits.hpp"
#include "num_waves_module_form.hpp"

namespace bismuth::translator {

namespace {

constexpr auto kMessages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules | EShMsgReadHlsl);

std::string compile_failure(const char* log, std::string_view source, const std::string& name,
                            std::vector<Diagnostic> earlier) {
  std::vector<Diagnostic> parsed = parse_glslang_log(log, source, name);
  earlier.insert(earlier.end(), parsed.begin(), parsed.end());
  std::string formatted = format_file_line_column(earlier);
  return formatted.empty() || !has_errors(earlier) ? name + ": error: " + std::string(log) : formatted;
}

Expected<HlslComputeModule> compile_on_this_thread(std::string_view source, const HlslCompileOptions& options) {
  HlslNumWavesRewrite rewrite = rewrite_hlsl_num_waves(source, options.entry_point, options.source_name);
  if (has_errors(rewrite.diagnostics)) return fail(format_file_line_column(rewrite.diagnostics));
  if (!rewrite.entry_found) {
    return fail(options.source_name + ": error: no function named '" + options.entry_point + "' (the entry point)");
  }
  std::vector<Diagnostic> warnings = rewrite.diagnostics;

  const GlslangTarget target = glslang_target(options.target);
  glslang::TShader shader(EShLangCompute);
  const char* text = rewrite.source.c_str();
  const int length = static_cast<int>(rewrite.source.size());
  const char* name = options.source_name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &name, 1);
  shader.setEnvInput(glslang::EShSourceHlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);
  shader.setEntryPoint(options.entry_point.c_str());
  shader.setSourceEntryPoint(options.entry_point.c_str());
  shader.setPreamble(rewrite.preamble.c_str());
  if (!shader.parse(GetDefaultResources(), 100, false, kMessages)) {
    return fail(compile_failure(shader.getInfoLog(), rewrite.source, options.source_name, warnings));
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(kMessages) || !program.mapIO()) {
    return fail(compile_failure(program.getInfoLog(), rewrite.source, options.source_name, warnings));
  }
  const glslang::TIntermediate* intermediate = program.getIntermediate(EShLangCompute);
  HlslComputeModule out;
  out.entry_point = options.entry_point;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;
  spv_options.validate = false;  // callers validate for their own target
  glslang::GlslangToSpv(*intermediate, out.words, &logger, &spv_options);
  if (out.words.empty()) return fail(options.source_name + ": glslang produced no SPIR-V: " + logger.getAllMessages());
  for (int i = 0; i < 3; ++i) out.fixed_size[i] = intermediate->getLocalSize(i);
  if (rewrite.declaration) {
    out.num_waves = rewrite.declaration;
    out.fixed_size = {};
  }
  auto formed = hlsl_num_waves_module_form(out.words, out.entry_point, out.num_waves.has_value());
  if (!formed) return fail(options.source_name + ": error: " + formed.error().message);
  out.words = std::move(formed->words);
  out.warnings = format_file_line_column(warnings);
  return out;
}

}  // namespace

Expected<HlslComputeModule> compile_hlsl_compute(std::string_view source, const HlslCompileOptions& options) {
  ensure_glslang_initialized();
  const NestingReport nesting = check_nesting_limits(source, options.source_name);
  if (nesting.error) return fail(format_file_line_column({*nesting.error}));
  const size_t stack = nesting.needs_expansion ? kDeepestSourceStackBytes : nesting.stack_bytes();
  Expected<HlslComputeModule> module = fail("not compiled");
  if (Status ran = run_with_stack(stack, [&] { module = compile_on_this_thread(source, options); }); !ran) {
    return fail(options.source_name + ": error: internal error: " + ran.error().message);
  }
  return module;
}

}  // namespace bismuth::translator
