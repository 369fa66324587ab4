// The workgroup size of a compute entry point as the module states it, in any of the three forms SPIR-V has for it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// Where a module states an entry point's workgroup size (SPIR-V 1.6 sections 3.6 and 3.21).
enum class WorkgroupSizeForm {
  LocalSize,             // OpExecutionMode %main LocalSize x y z (literals)
  LocalSizeId,           // OpExecutionModeId %main LocalSizeId %x %y %z (SPIR-V >= 1.2)
  WorkgroupSizeBuiltIn,  // a constant composite decorated BuiltIn WorkgroupSize; wins over both modes above
};

std::string_view to_string(WorkgroupSizeForm form);

struct WorkgroupSizeInfo {
  WorkgroupSizeForm form = WorkgroupSizeForm::LocalSize;
  std::array<uint32_t, 3> size{};                     // spec constant defaults where specializable
  std::array<std::optional<uint32_t>, 3> spec_ids{};  // set where the dimension is a spec constant with SpecId
};
// Reads the size without changing anything.
Expected<WorkgroupSizeInfo> find_workgroup_size(const Module& module, const Module::EntryPoint& entry_point);

}  // namespace bismuth::spirv_patch
