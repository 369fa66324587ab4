#include "num_waves_module_form.hpp"

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "bismuth/translator/gl_program.hpp"

// spirv_patch's marker pass (docs/spirv_patch.md, "num_waves"): bound when this build has it (translator/CMakeLists.txt
// sets BISMUTH_HAS_NUM_WAVES_PASS). TODO(issue 16, merge): the pass comes from nw-layer's branch; without it the
// marker stays (HlslComputeModule::wave_index_marker_unbound).
#if BISMUTH_HAS_NUM_WAVES_PASS
#include "bismuth/spirv_patch/passes/num_waves.hpp"
#endif

namespace bismuth::translator {

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
#if BISMUTH_HAS_NUM_WAVES_PASS
  auto bound = spirv_patch::bind_marker_builtins(*module);
  if (!bound) return bound.error();
  out.marker_unbound = false;
#endif
  out.words = module->serialize();
  return out;
}

}  // namespace bismuth::translator
