#include "variable_size.hpp"

#include <cstdlib>
#include <string>
#include <string_view>

#include "bismuth/spirv_patch/variant_memo.hpp"

namespace bismuth::gl {

namespace {

std::string_view env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string_view(value) : std::string_view();
}

}  // namespace

bool runtime_group_size_enabled() {
  return env("BISMUTH_RUNTIME_GROUP_SIZE") != "0";
}

bool shared_variants_enabled() {
  return env("BISMUTH_SHARED_VARIANTS") != "0";
}

bool uniform_parameters_enabled() {
  return env("BISMUTH_VARIANT_PARAMETERS") != "push";
}

spirv_patch::VariantMemo* variant_memo() {
  // Never destroyed: links on other threads may use it while statics go.
  static spirv_patch::VariantMemo* const memo =
      env("BISMUTH_VARIANT_MEMO") == "0" ? nullptr : new spirv_patch::VariantMemo;
  return memo;
}

void set_runtime_group_size(backend::ShaderDesc& desc, const spirv_patch::PipelineResult& piped) {
  if (!piped.runtime_group_size) return;
  const spirv_patch::RuntimeGroupSizeVariant& variant = *piped.runtime_group_size;
  desc.runtime_group_size = backend::ShaderDesc::RuntimeGroupSize{variant.words,
                                                                  variant.report.push_constant_offset,
                                                                  variant.report.exact_only,
                                                                  variant.literals.values,
                                                                  variant.literals.push_constant_offset,
                                                                  false,
                                                                  variant.parameters_binding,
                                                                  variant.parameters_bytes};
}

std::chrono::milliseconds prewarm_delay() {
  const std::string value(env("BISMUTH_PREWARM_DELAY_MS"));
  if (!value.empty() && value.size() <= 6 && value.find_first_not_of("0123456789") == std::string::npos)
    return std::chrono::milliseconds(std::stoul(value));  // digits only, at most 6: cannot throw
  return kDefaultPrewarmDelay;
}

std::unique_ptr<PrewarmTicket> stand_in_ticket(backend::PipelineCache& cache,
                                               const std::shared_ptr<backend::Shader>& shader) {
  if (!cache.has_workers()) return nullptr;
  return std::make_unique<PrewarmTicket>(cache, std::vector<std::shared_ptr<const backend::Shader>>{shader});
}

std::unique_ptr<PrewarmTicket> prewarm_variable_size(backend::PipelineCache& cache,
                                                     const std::shared_ptr<backend::Shader>& shader,
                                                     uint32_t subgroup_size) {
  const backend::DeviceInfo& info = cache.device().info();
  const size_t count =
      backend::PipelineCache::parse_prewarm_setting(env("BISMUTH_PREWARM")).value_or(info.is_gpu() ? 64 : 0);
  if (!cache.has_workers()) return nullptr;
  std::shared_ptr<const backend::Shader> target = shader->runtime_variant() != nullptr
                                                      ? shader->runtime_variant_ref()
                                                      : std::shared_ptr<const backend::Shader>(shader);
  if (count != 0) {
    std::vector<backend::GroupSize> sizes = cache.device_prewarm_sizes(count);
    cache.prewarm(target, std::move(sizes), subgroup_size, prewarm_delay());
  }
  std::vector<std::shared_ptr<const backend::Shader>> shaders{target};
  if (target.get() != shader.get()) shaders.push_back(shader);
  return std::make_unique<PrewarmTicket>(cache, std::move(shaders));
}

}  // namespace bismuth::gl
