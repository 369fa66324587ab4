// workgroup_size_to_spec_constants, both output forms, on every compute entry point of the input.
#include <cstdio>
#include <cstdlib>

#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(workgroup_size) {
  using namespace bismuth::spirv_patch;
  const auto words = bismuth::fuzz::words_of(data, size);
  auto module = Module::parse(words);
  if (!module) return 0;
  std::vector<std::string> names{"main"};
  for (const auto& entry : module->entry_points()) names.push_back(entry.name);
  for (const auto& name : names) {
    for (auto form : {WorkgroupSizeForm::WorkgroupSizeBuiltIn, WorkgroupSizeForm::LocalSizeId}) {
      WorkgroupSizeOptions options;
      options.entry_point = name;
      options.output_form = form;
      options.preferred_spec_ids = {words.size() > 5 ? std::optional<uint32_t>(words[5]) : std::nullopt, 1u, 2u};
      auto patch = workgroup_size_to_spec_constants(words, options);
      if (!patch) {
        if (patch.error().message.empty()) std::abort();
        continue;
      }
      // What the pass writes must parse again and say what the report says.
      auto again = Module::parse(patch->words);
      if (!again) {
    std::fprintf(stderr, "pass output does not parse: %s\n", again.error().message.c_str());
    std::abort();
  }
      for (const auto& entry : again->entry_points()) {
        if (entry.name != name || entry.model != spv::ExecutionModel::GLCompute) continue;
        auto info = find_workgroup_size(*again, entry);
        if (!info || info->size != patch->report.original_size) std::abort();
        break;
      }
    }
  }
  return 0;
}
