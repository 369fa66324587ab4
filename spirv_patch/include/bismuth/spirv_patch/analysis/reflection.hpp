// What the runtime needs to know about each entry point before it builds a pipeline.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/analysis/descriptor_binding.hpp"
#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"

namespace bismuth::spirv_patch {

struct EntryPointReflection {
  std::string name;
  spv::ExecutionModel model = spv::ExecutionModel::GLCompute;
  std::optional<WorkgroupSizeInfo> workgroup_size;  // GLCompute entry points only
  // Over the functions the entry point reaches through OpFunctionCall:
  bool uses_barriers = false;             // OpControlBarrier
  bool uses_workgroup_storage = false;    // a Workgroup-storage variable is loaded, stored, accessed or passed
  bool uses_subgroup_operations = false;  // OpGroupNonUniform* or a KHR subgroup instruction
  bool uses_atomics = false;              // OpAtomic*
  EntryPointResources resources;          // statically used descriptors and push constants (SPIRV-Cross)
};

struct ModuleReflection {
  uint32_t version = 0;
  std::vector<spv::Capability> capabilities;
  std::vector<std::string> extensions;
  std::vector<EntryPointReflection> entry_points;
};

// Checks the module (Module::parse, then the SPIRV-Tools validator with Vulkan 1.3 rules, which accept SPIR-V 1.0 to
// 1.6, so SPIRV-Cross only ever sees valid Vulkan input) and reflects every entry point.
Expected<ModuleReflection> reflect(std::span<const uint32_t> words);

}  // namespace bismuth::spirv_patch
