// VK_BISMUTH_num_waves (docs/VK_BISMUTH_num_waves.adoc): a compute stage whose workgroup is X waves.
//
// At pipeline creation the layer commits to one wave size w (backend::choose_wave_size against the caps recorded
// at vkCreateDevice), gives a copy of the module the literal size (X*w,1,1) and binds the HLSL front's marker
// variables (spirv_patch's num_waves pass, through run_pipeline), and creates the pipeline from that copy with
// VkPipelineShaderStageRequiredSubgroupSizeCreateInfo{w} and REQUIRE_FULL_SUBGROUPS where the device's enabled
// features allow them. The application's pipeline is that pipeline: dispatches need no help from the layer; only
// vkGetPipelineNumWavesPropertiesBISMUTH reads what was committed.
#include <string>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "hooks.hpp"

namespace bismuth::vk_layer {

namespace {

constexpr const char* kVuidNumWaves = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-numWaves-10101";
constexpr const char* kVuidPowerOfTwo = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-minWaveSize-10102";
constexpr const char* kVuidRange = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-minWaveSize-10103";
constexpr const char* kVuidPreferred = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-preferredWaveSize-10104";
constexpr const char* kVuidFlags = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-flags-10105";
constexpr const char* kVuidFeature = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-numWaves-10106";
constexpr const char* kVuidSubgroupSize = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-pNext-10107";
constexpr const char* kVuidVariable = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-pNext-10108";
constexpr const char* kVuidModule = "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-module-10109";
constexpr const char* kVuidQueryPipeline = "VUID-vkGetPipelineNumWavesPropertiesBISMUTH-pipeline-10110";
constexpr const char* kVuidQuerySType = "VUID-VkPipelineNumWavesPropertiesBISMUTH-sType-10111";
constexpr const char* kUnsupported = "BISMUTH-num-waves-unsupported";

constexpr VkNumWavesCreateFlagsBISMUTH kKnownFlags = VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH |
                                                     VK_NUM_WAVES_CREATE_PREFER_SMALL_WAVE_SIZE_BIT_BISMUTH |
                                                     VK_NUM_WAVES_CREATE_PREFER_LARGE_WAVE_SIZE_BIT_BISMUTH;

void error(const DeviceData& d, const char* vuid, const std::string& message) {
  report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, vuid, "vkCreateComputePipelines: " + message);
}

bool zero_or_power_of_two(uint32_t value) {
  return (value & (value - 1)) == 0;
}

// The valid usage of the structure and of its stage; the first violation is reported.
bool valid_request(const DeviceData& d, const VkComputePipelineCreateInfo& info,
                   const VkPipelineShaderStageNumWavesCreateInfoBISMUTH& request) {
  if (!d.num_waves) {
    error(d, kVuidFeature,
          "VkPipelineShaderStageNumWavesCreateInfoBISMUTH needs VK_BISMUTH_num_waves and its numWaves feature "
          "enabled on the device");
    return false;
  }
  if (request.numWaves == 0) {
    error(d, kVuidNumWaves, "VkPipelineShaderStageNumWavesCreateInfoBISMUTH::numWaves is 0");
    return false;
  }
  if (!zero_or_power_of_two(request.minWaveSize) || !zero_or_power_of_two(request.maxWaveSize) ||
      !zero_or_power_of_two(request.preferredWaveSize)) {
    error(d, kVuidPowerOfTwo,
          "minWaveSize, maxWaveSize and preferredWaveSize must each be 0 or a power of two (they are " +
              std::to_string(request.minWaveSize) + ", " + std::to_string(request.maxWaveSize) + ", " +
              std::to_string(request.preferredWaveSize) + ")");
    return false;
  }
  if (request.minWaveSize != 0 && request.maxWaveSize != 0 && request.minWaveSize > request.maxWaveSize) {
    error(d, kVuidRange,
          "minWaveSize " + std::to_string(request.minWaveSize) + " is greater than maxWaveSize " +
              std::to_string(request.maxWaveSize));
    return false;
  }
  if (request.preferredWaveSize != 0 &&
      ((request.minWaveSize != 0 && request.preferredWaveSize < request.minWaveSize) ||
       (request.maxWaveSize != 0 && request.preferredWaveSize > request.maxWaveSize))) {
    error(d, kVuidPreferred,
          "preferredWaveSize " + std::to_string(request.preferredWaveSize) + " is outside [minWaveSize, maxWaveSize]");
    return false;
  }
  const bool both_hints = (request.flags & VK_NUM_WAVES_CREATE_PREFER_SMALL_WAVE_SIZE_BIT_BISMUTH) &&
                          (request.flags & VK_NUM_WAVES_CREATE_PREFER_LARGE_WAVE_SIZE_BIT_BISMUTH);
  if ((request.flags & ~kKnownFlags) != 0 || both_hints) {
    error(d, kVuidFlags,
          "flags must be a combination of VkNumWavesCreateFlagBitsBISMUTH without both PREFER_SMALL "
          "and PREFER_LARGE");
    return false;
  }
  if (find_in_chain<const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          info.stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO) ||
      (info.stage.flags & VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT)) {
    error(d, kVuidSubgroupSize,
          "a numWaves stage must not chain VkPipelineShaderStageRequiredSubgroupSizeCreateInfo nor set "
          "VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT: the layer commits the wave size");
    return false;
  }
  auto* variable = find_in_chain<const VkComputePipelineVariableGroupSizeCreateInfoBISMUTH>(
      info.pNext, VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH);
  if (variable != nullptr && variable->variableGroupSize == VK_TRUE) {
    error(d, kVuidVariable, "a numWaves pipeline cannot also have a variable group size");
    return false;
  }
  return true;
}

backend::WaveSizeRequest wave_size_request(const VkPipelineShaderStageNumWavesCreateInfoBISMUTH& request) {
  backend::WaveSizeRequest out;
  out.num_waves = request.numWaves;
  out.min = request.minWaveSize;
  out.max = request.maxWaveSize;
  out.preferred = request.preferredWaveSize;
  if (request.flags & VK_NUM_WAVES_CREATE_PREFER_SMALL_WAVE_SIZE_BIT_BISMUTH)
    out.hint = backend::WaveSizePreference::Small;
  if (request.flags & VK_NUM_WAVES_CREATE_PREFER_LARGE_WAVE_SIZE_BIT_BISMUTH)
    out.hint = backend::WaveSizePreference::Large;
  return out;
}

// The layer's module, destroyed once the pipeline exists (a pipeline does not use its module afterwards).
class TemporaryModule {
 public:
  TemporaryModule(DeviceData& d, const std::vector<uint32_t>& words, const VkAllocationCallbacks* allocator)
      : d_(d), allocator_(allocator) {
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = words.size() * sizeof(uint32_t);
    info.pCode = words.data();
    result_ = d.CreateShaderModule(d.device, &info, allocator, &module_);
  }
  ~TemporaryModule() {
    if (module_ != VK_NULL_HANDLE) d_.DestroyShaderModule(d_.device, module_, allocator_);
  }
  TemporaryModule(const TemporaryModule&) = delete;
  TemporaryModule& operator=(const TemporaryModule&) = delete;
  VkResult result() const { return result_; }
  VkShaderModule module() const { return module_; }

 private:
  DeviceData& d_;
  const VkAllocationCallbacks* allocator_;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkResult result_ = VK_SUCCESS;
};

}  // namespace

const VkPipelineShaderStageNumWavesCreateInfoBISMUTH* num_waves_info(const VkComputePipelineCreateInfo& info) {
  return find_in_chain<const VkPipelineShaderStageNumWavesCreateInfoBISMUTH>(
      info.stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_NUM_WAVES_CREATE_INFO_BISMUTH);
}

VkResult create_num_waves_pipeline(DeviceData& d, VkPipelineCache cache, const VkComputePipelineCreateInfo& app,
                                   const VkAllocationCallbacks* allocator, VkPipeline* out) {
  *out = VK_NULL_HANDLE;
  const VkPipelineShaderStageNumWavesCreateInfoBISMUTH& request = *num_waves_info(app);
  if (!valid_request(d, app, request)) return VK_ERROR_UNKNOWN;

  // An impossible request is the device's limit, not the application's error: VK_ERROR_FEATURE_NOT_PRESENT.
  auto choice = backend::choose_wave_size(wave_size_request(request), d.wave_size_caps);
  if (!choice) {
    error(d, kUnsupported, choice.error().message);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const auto words = stage_module_words(d, app.stage);
  if (!words || words->size() < 5) {
    error(d, kVuidModule,
          "the numWaves stage's shader module is unknown to the layer (created before a device with "
          "VK_BISMUTH_num_waves?)");
    return VK_ERROR_UNKNOWN;
  }
  spirv_patch::PipelineOptions options;
  options.lower_khr_subgroup_ops = false;  // done at vkCreateShaderModule
  options.num_waves =
      spirv_patch::NumWavesOptions{app.stage.pName ? app.stage.pName : "main", request.numWaves, choice->wave_size};
  options.validate.reset();  // the application's module is its own responsibility, as for any pipeline
  auto patched = spirv_patch::run_pipeline(*words, options);
  if (!patched) {
    error(d, kVuidModule,
          "cannot give entry point '" + options.num_waves->entry_point + "' " + std::to_string(request.numWaves) +
              " waves of " + std::to_string(choice->wave_size) + ": " + patched.error().message);
    return VK_ERROR_UNKNOWN;
  }
  TemporaryModule module(d, patched->words, allocator);
  if (module.result() != VK_SUCCESS) return module.result();

  VkComputePipelineCreateInfo info = app;
  ChainUnlinker strip_ours(&info.stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_NUM_WAVES_CREATE_INFO_BISMUTH);
  ChainUnlinker strip_inline(&info.stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  ChainUnlinker strip_variable(&info.pNext, VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH);
  info.stage.module = module.module();
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{};
  required.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
  required.requiredSubgroupSize = choice->wave_size;
  if (choice->require_size) {
    required.pNext = const_cast<void*>(info.stage.pNext);
    info.stage.pNext = &required;
  }
  if (choice->require_full_subgroups) info.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  const VkResult result = d.CreateComputePipelines(d.device, cache, 1, &info, allocator, out);
  if (result != VK_SUCCESS) return result;

  NumWavesPipeline committed;
  committed.wave_size = choice->wave_size;
  committed.num_waves = request.numWaves;
  committed.group_size = patched->num_waves->group_size;
  committed.required_subgroup_size = choice->require_size;
  committed.full_subgroups = choice->require_full_subgroups;
  committed.report_wave_size = (request.flags & VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH) != 0;
  report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, "BISMUTH-num-waves-committed",
         "vkCreateComputePipelines: " + std::to_string(request.numWaves) + " waves of " +
             std::to_string(choice->wave_size) +
             (choice->require_size ? " (required subgroup size" : " (subgroupSize") +
             (choice->require_full_subgroups ? ", full subgroups)" : ")"));
  std::lock_guard lock(d.mutex);
  d.num_waves_pipelines[*out] = committed;
  return VK_SUCCESS;
}

void forget_num_waves_pipeline(DeviceData& d, VkPipeline pipeline) {
  std::lock_guard lock(d.mutex);
  d.num_waves_pipelines.erase(pipeline);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineNumWavesPropertiesBISMUTH(VkDevice device, VkPipeline pipeline,
                                                                    VkPipelineNumWavesPropertiesBISMUTH* pProperties) {
  auto data = device_data(device);
  if (!data) return VK_ERROR_INITIALIZATION_FAILED;
  try {
    if (pProperties == nullptr || pProperties->sType != VK_STRUCTURE_TYPE_PIPELINE_NUM_WAVES_PROPERTIES_BISMUTH) {
      report(*data->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, kVuidQuerySType,
             "vkGetPipelineNumWavesPropertiesBISMUTH: pProperties must be a VkPipelineNumWavesPropertiesBISMUTH "
             "with sType VK_STRUCTURE_TYPE_PIPELINE_NUM_WAVES_PROPERTIES_BISMUTH");
      return VK_ERROR_UNKNOWN;
    }
    NumWavesPipeline committed;
    {
      std::lock_guard lock(data->mutex);
      auto it = data->num_waves_pipelines.find(pipeline);
      if (it != data->num_waves_pipelines.end()) committed = it->second;
    }
    if (!committed.report_wave_size) {
      report(*data->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, kVuidQueryPipeline,
             "vkGetPipelineNumWavesPropertiesBISMUTH: the pipeline was not created with "
             "VkPipelineShaderStageNumWavesCreateInfoBISMUTH and VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH (or "
             "a layer above VK_LAYER_BISMUTH_compute wraps pipeline handles)");
      return VK_ERROR_UNKNOWN;
    }
    pProperties->waveSize = committed.wave_size;
    pProperties->numWaves = committed.num_waves;
    for (int i = 0; i < 3; ++i) pProperties->groupSize[i] = committed.group_size[i];
    pProperties->requiredSubgroupSize = committed.required_subgroup_size ? VK_TRUE : VK_FALSE;
    pProperties->fullSubgroups = committed.full_subgroups ? VK_TRUE : VK_FALSE;
    return VK_SUCCESS;
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

}  // namespace bismuth::vk_layer
