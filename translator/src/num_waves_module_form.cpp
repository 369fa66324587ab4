#include "num_waves_module_form.hpp"

#include <algorithm>
#include <string_view>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "bismuth/translator/gl_program.hpp"

// spirv_patch's marker pass (docs/spirv_patch.md, "num_waves").
#include "bismuth/spirv_patch/passes/num_waves.hpp"

namespace bismuth::translator {

namespace {

// The markers' OpNames, dropped once they are bound: the front's output never contains markers (a consumer that
// binds markers again, as the layer's num_waves pass does, would take a bound one for a malformed marker).
std::vector<uint32_t> without_marker_names(const std::vector<uint32_t>& words) {
  constexpr std::string_view kPrefix = "bismuth_builtin_";
  constexpr uint32_t kOpName = 5;
  std::vector<uint32_t> out(words.begin(), words.begin() + std::min<size_t>(5, words.size()));
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) {  // malformed: keep the rest as it is
      out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(at), words.end());
      break;
    }
    const bool marker_name =
        (words[at] & 0xffff) == kOpName && count > 2 &&
        std::string_view(reinterpret_cast<const char*>(&words[at + 2]), (count - 2) * 4).starts_with(kPrefix);
    if (!marker_name) {
      out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(at),
                 words.begin() + static_cast<std::ptrdiff_t>(at + count));
    }
    at += count;
  }
  return out;
}

}  // namespace

Expected<NumWavesModule> hlsl_num_waves_module_form(const std::vector<uint32_t>& words, const std::string& entry_point,
                                                    bool num_waves) {
  auto module = spirv_patch::Module::parse(words);
  if (!module) return module.error();
  if (num_waves) {
    spirv_patch::WorkgroupSizeOptions size;
    size.entry_point = entry_point;
    for (size_t i = 0; i < 3; ++i) size.preferred_spec_ids[i] = kVariableGroupSizeSpecIds[i];
    auto report = spirv_patch::workgroup_size_to_spec_constants(*module, size);
    if (!report) return report.error();
    if (report->spec_ids != kVariableGroupSizeSpecIds) {
      return fail("internal error: the group size did not get the SpecIds " +
                  std::to_string(kVariableGroupSizeSpecIds[0]) + ".." + std::to_string(kVariableGroupSizeSpecIds[2]));
    }
  }
  NumWavesModule out;
  auto bound = spirv_patch::bind_marker_builtins(*module);
  if (!bound) return bound.error();
  out.words = without_marker_names(module->serialize());
  return out;
}

}  // namespace bismuth::translator
