#include "variable_size.hpp"

#include <cstdlib>
#include <string>
#include <string_view>

#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "bismuth/spirv_patch/validate.hpp"

namespace bismuth::gl {

namespace {

std::string_view env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string_view(value) : std::string_view();
}

}  // namespace

void add_runtime_group_size(backend::ShaderDesc& desc, std::vector<uint32_t>& storage) {
  if (env("BISMUTH_RUNTIME_GROUP_SIZE") == "0") return;
  spirv_patch::RuntimeGroupSizeOptions options;
  options.entry_point = desc.entry_point;
  options.push_constant_offset = (desc.layout.push_constant_bytes + 15u) / 16u * 16u;
  auto patched = spirv_patch::workgroup_size_to_runtime(desc.spirv, options);
  if (!patched) return;
  // The variant is an optimisation: a module spirv-val would refuse is dropped, not reported.
  if (!spirv_patch::validate(patched->words, spirv_patch::TargetEnv::Vulkan1_1)) return;
  storage = std::move(patched->words);
  desc.runtime_group_size =
      backend::ShaderDesc::RuntimeGroupSize{storage, patched->report.push_constant_offset, patched->report.exact_only};
}

std::unique_ptr<PrewarmTicket> prewarm_variable_size(backend::PipelineCache& cache,
                                                     const std::shared_ptr<backend::Shader>& shader,
                                                     uint32_t subgroup_size) {
  const backend::DeviceInfo& info = cache.device().info();
  const size_t count =
      backend::PipelineCache::parse_prewarm_setting(env("BISMUTH_PREWARM")).value_or(info.is_gpu() ? 64 : 0);
  if (count == 0 || !cache.has_workers()) return nullptr;
  std::shared_ptr<const backend::Shader> target = shader->runtime_variant() != nullptr
                                                      ? shader->runtime_variant_ref()
                                                      : std::shared_ptr<const backend::Shader>(shader);
  std::vector<backend::GroupSize> sizes = backend::PipelineCache::default_prewarm_sizes(info, count);
  cache.prewarm(target, std::move(sizes), subgroup_size);
  return std::make_unique<PrewarmTicket>(cache, std::move(target));
}

}  // namespace bismuth::gl
