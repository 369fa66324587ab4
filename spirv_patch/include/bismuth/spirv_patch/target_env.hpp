// The Vulkan environments Bismuth emits SPIR-V for, and the SPIR-V versions each allows.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace bismuth::spirv_patch {

enum class TargetEnv {
  Vulkan1_0,  // SPIR-V 1.0
  Vulkan1_1,  // SPIR-V 1.3 (1.4 with VK_KHR_spirv_1_4)
  Vulkan1_2,  // SPIR-V 1.5
  Vulkan1_3,  // SPIR-V 1.6
};

// "vulkan1.0" ... "vulkan1.3"; nullopt for anything else.
std::optional<TargetEnv> parse_target_env(std::string_view name);
std::string_view to_string(TargetEnv env);

// Highest SPIR-V version word (0x00MMmm00) the environment accepts without extensions.
uint32_t max_spirv_version(TargetEnv env);

}  // namespace bismuth::spirv_patch
