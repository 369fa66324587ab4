#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"

#include "analysis/workgroup_size_sources.hpp"

namespace bismuth::spirv_patch {

std::string_view to_string(WorkgroupSizeForm form) {
  switch (form) {
    case WorkgroupSizeForm::LocalSize: return "LocalSize";
    case WorkgroupSizeForm::LocalSizeId: return "LocalSizeId";
    case WorkgroupSizeForm::WorkgroupSizeBuiltIn: return "WorkgroupSize";
  }
  return "?";
}

Expected<WorkgroupSizeInfo> find_workgroup_size(const Module& module, const Module::EntryPoint& entry_point) {
  auto sources = find_workgroup_size_sources(module, entry_point.function_id);
  if (!sources) return sources.error();
  WorkgroupSizeInfo info;
  info.form = sources->form;
  for (int d = 0; d < 3; ++d) {
    info.size[d] = sources->dimensions[d].value;
    if (sources->dimensions[d].is_spec_constant) info.spec_ids[d] = sources->dimensions[d].spec_id;
  }
  return info;
}

}  // namespace bismuth::spirv_patch
