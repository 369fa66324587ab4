#include "bismuth/spirv_patch/validate.hpp"

#include <spirv-tools/libspirv.hpp>

#include <string>

namespace bismuth::spirv_patch {

namespace {

thread_local uint64_t t_validations = 0;  // validations_on_this_thread

spv_target_env to_spv_env(TargetEnv env) {
  switch (env) {
    case TargetEnv::Vulkan1_0: return SPV_ENV_VULKAN_1_0;
    case TargetEnv::Vulkan1_1: return SPV_ENV_VULKAN_1_1;
    case TargetEnv::Vulkan1_2: return SPV_ENV_VULKAN_1_2;
    case TargetEnv::Vulkan1_3: return SPV_ENV_VULKAN_1_3;
  }
  return SPV_ENV_VULKAN_1_0;
}

}  // namespace

std::optional<TargetEnv> parse_target_env(std::string_view name) {
  if (name == "vulkan1.0") return TargetEnv::Vulkan1_0;
  if (name == "vulkan1.1") return TargetEnv::Vulkan1_1;
  if (name == "vulkan1.2") return TargetEnv::Vulkan1_2;
  if (name == "vulkan1.3") return TargetEnv::Vulkan1_3;
  return std::nullopt;
}

std::string_view to_string(TargetEnv env) {
  switch (env) {
    case TargetEnv::Vulkan1_0: return "vulkan1.0";
    case TargetEnv::Vulkan1_1: return "vulkan1.1";
    case TargetEnv::Vulkan1_2: return "vulkan1.2";
    case TargetEnv::Vulkan1_3: return "vulkan1.3";
  }
  return "unknown";
}

uint32_t max_spirv_version(TargetEnv env) {
  switch (env) {
    case TargetEnv::Vulkan1_0: return 0x00010000;
    case TargetEnv::Vulkan1_1: return 0x00010300;
    case TargetEnv::Vulkan1_2: return 0x00010500;
    case TargetEnv::Vulkan1_3: return 0x00010600;
  }
  return 0x00010000;
}

uint64_t validations_on_this_thread() {
  return t_validations;
}

Status validate(std::span<const uint32_t> words, TargetEnv env) {
  ++t_validations;
  spvtools::SpirvTools tools(to_spv_env(env));
  std::string diagnostics;
  tools.SetMessageConsumer([&diagnostics](spv_message_level_t, const char*, const spv_position_t& position,
                                          const char* message) {
    if (!diagnostics.empty()) diagnostics += '\n';
    diagnostics += "word " + std::to_string(position.index) + ": " + message;
  });
  if (words.empty()) return fail("spirv-val (" + std::string(to_string(env)) + "): empty module");
  if (!tools.Validate(words.data(), words.size())) {
    return fail("spirv-val (" + std::string(to_string(env)) + "): " +
                (diagnostics.empty() ? std::string("invalid module") : diagnostics));
  }
  return {};
}

Expected<std::string> disassemble(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string diagnostics;
  tools.SetMessageConsumer([&diagnostics](spv_message_level_t, const char*, const spv_position_t& position,
                                          const char* message) {
    if (diagnostics.empty()) diagnostics = "word " + std::to_string(position.index) + ": " + message;
  });
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER)) {
    return fail("spirv-dis: " + (diagnostics.empty() ? std::string("cannot disassemble") : diagnostics));
  }
  return text;
}

}  // namespace bismuth::spirv_patch
