// workgroup_size_to_runtime on every compute entry point of the input, after workgroup_size_to_spec_constants where
// the input's size is not already specializable, at several push-constant offsets. The output must parse again,
// keep the entry point and report the offset it was given; refusals must say why.
#include <cstdlib>
#include <string>
#include <vector>

#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(runtime_group_size) {
  using namespace bismuth::spirv_patch;
  const auto words = bismuth::fuzz::words_of(data, size);
  auto module = Module::parse(words);
  if (!module) return 0;
  std::vector<std::string> names{"main"};
  for (const auto& entry : module->entry_points()) names.push_back(entry.name);
  for (const auto& name : names) {
    std::vector<uint32_t> input = words;
    WorkgroupSizeOptions size_options;
    size_options.entry_point = name;
    if (auto specializable = workgroup_size_to_spec_constants(words, size_options)) input = specializable->words;
    for (uint32_t offset : {0u, 16u, 128u}) {
      RuntimeGroupSizeOptions options;
      options.entry_point = name;
      options.push_constant_offset = offset;
      auto patch = workgroup_size_to_runtime(input, options);
      if (!patch) {
        if (patch.error().message.empty()) std::abort();
        continue;
      }
      if (patch->report.push_constant_offset != offset || patch->report.push_constant_end != offset + 12) std::abort();
      auto again = Module::parse(patch->words);
      if (!again) std::abort();
      bool found = false;
      for (const auto& entry : again->entry_points()) found |= entry.name == name;
      if (!found) std::abort();
    }
  }
  return 0;
}
