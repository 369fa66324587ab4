// Shaders the spirv_patch tests compile at test time with glslang, and a helper that fails the test on errors.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

namespace bismuth::test {

inline std::vector<uint32_t> compile_or_fail(std::string_view source,
                                             spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1) {
  auto words = translator::compile_glsl_compute(source, {.source_name = "test.comp", .target = target});
  if (!words) FAIL(words.error().message);
  return *words;
}

#define REQUIRE_VALID(words, env)                                         \
  do {                                                                    \
    auto bismuth_valid_ = bismuth::spirv_patch::validate((words), (env));       \
    if (!bismuth_valid_) FAIL(bismuth_valid_.error().message);           \
  } while (false)

#define REQUIRE_OK(expected)                                              \
  do {                                                                    \
    if (!(expected)) FAIL((expected).error().message);                    \
  } while (false)

}  // namespace bismuth::test

#include <spirv-tools/libspirv.hpp>

namespace bismuth::test {

// SPIR-V assembly -> words through SPIRV-Tools, for inputs GLSL cannot express (several entry points, LocalSizeId
// with plain constants).
inline std::vector<uint32_t> assemble_or_fail(const char* text, spv_target_env env = SPV_ENV_UNIVERSAL_1_3) {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& p, const char* m) {
    messages += "line " + std::to_string(p.line) + ": " + m + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words)) FAIL(messages);
  return words;
}

}  // namespace bismuth::test

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::test {

// Drops the BuiltIn WorkgroupSize decoration glslang adds, leaving the LocalSize execution mode as the only
// statement of the size: the LocalSize input form (glslang folds every use of the composite for fixed sizes).
inline std::vector<uint32_t> strip_workgroup_size_builtin(const std::vector<uint32_t>& words) {
  auto module = spirv_patch::Module::parse(words);
  if (!module) FAIL(module.error().message);
  for (auto h : module->instructions(spirv_patch::Section::Annotation)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpDecorate && w.size() == 4 &&
        w[2] == static_cast<uint32_t>(spv::Decoration::BuiltIn) &&
        w[3] == static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)) {
      module->erase(h);
    }
  }
  return module->serialize();
}

// How many instructions of `op` the module holds.
inline size_t count_op(const std::vector<uint32_t>& words, spv::Op op) {
  auto module = spirv_patch::Module::parse(words);
  REQUIRE(module);
  size_t n = 0;
  for (auto h : module->instructions()) n += module->opcode(h) == op ? 1 : 0;
  return n;
}

}  // namespace bismuth::test
