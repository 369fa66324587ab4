// Looking up compute entry points by name, with the error message every pass gives for a missing one.
#pragma once

#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// Every GLCompute entry point, in module order.
std::vector<Module::EntryPoint> compute_entry_points(const Module& module);

// The first GLCompute entry point named `name`; the error lists the names the module has.
Expected<Module::EntryPoint> find_compute_entry_point(const Module& module, std::string_view name);

}  // namespace bismuth::spirv_patch
