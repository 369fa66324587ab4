#include "analysis/entry_points.hpp"

#include <string>

namespace bismuth::spirv_patch {

std::vector<Module::EntryPoint> compute_entry_points(const Module& module) {
  std::vector<Module::EntryPoint> out;
  for (auto& entry : module.entry_points()) {
    if (entry.model == spv::ExecutionModel::GLCompute) out.push_back(entry);
  }
  return out;
}

Expected<Module::EntryPoint> find_compute_entry_point(const Module& module, std::string_view name) {
  std::string seen;
  for (auto& entry : module.entry_points()) {
    if (entry.model == spv::ExecutionModel::GLCompute && entry.name == name) return entry;
    seen += (seen.empty() ? "" : ", ") + ("\"" + entry.name + "\"");
  }
  return fail("no GLCompute entry point named \"" + std::string(name) +
              "\" (entry points: " + (seen.empty() ? "none" : seen) + ")");
}

}  // namespace bismuth::spirv_patch
