#include "glslang_process.hpp"

#include <mutex>

namespace bismuth::translator {

void ensure_glslang_initialized() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

GlslangTarget glslang_target(spirv_patch::TargetEnv env) {
  switch (env) {
    case spirv_patch::TargetEnv::Vulkan1_0: return {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0};
    case spirv_patch::TargetEnv::Vulkan1_1: return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
    case spirv_patch::TargetEnv::Vulkan1_2: return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
    case spirv_patch::TargetEnv::Vulkan1_3: return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
  }
  return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
}

}  // namespace bismuth::translator
