// Feature 2: VK_BISMUTH_variable_group_size (docs/VK_BISMUTH_variable_group_size.adoc).
//
// A variable-size pipeline is a real VkPipeline created from a copy of its module whose workgroup size was turned
// into specialization constants (spirv_patch), at the module's own size. vkCmdDispatchGroupSizeBISMUTH looks up
// (or compiles) the pipeline specialised to the requested size, binds it and dispatches. Size pipelines belong to
// their parent: vkDestroyPipeline of the parent destroys them. The application may destroy the parent only after
// every command buffer that used it completed (VUID-vkDestroyPipeline-pipeline-00765), and every command buffer
// that used a size pipeline used the parent, so that is also when the size pipelines are no longer in use.
#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <span>
#include <string>

#include "bismuth/spirv_patch/workgroup_size.hpp"
#include "hooks.hpp"

namespace bismuth::layer {

using Size = std::array<uint32_t, 3>;

struct VariablePipeline {
  VkPipeline parent = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;  // the layer's respecialisable copy
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipelineCreateFlags flags = 0;
  VkPipelineShaderStageCreateFlags stage_flags = 0;
  std::string entry;
  Size spec_ids{};
  Size default_size{};
  std::vector<VkSpecializationMapEntry> app_entries;  // the application's, minus the group size ids
  std::vector<uint8_t> app_data;
  bool has_required_subgroup_size = false;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required_subgroup_size{};

  std::mutex mutex;
  std::map<Size, VkPipeline> sizes;  // includes the parent at default_size
};

namespace {

constexpr const char* kVuidNotVariable = "VUID-vkCmdDispatchGroupSizeBISMUTH-None-10001";
constexpr const char* kVuidGroupSize[3] = {"VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeX-10002",
                                           "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeY-10003",
                                           "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeZ-10004"};
constexpr const char* kVuidInvocations = "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeX-10005";
constexpr const char* kVuidGroupCount[3] = {"VUID-vkCmdDispatchGroupSizeBISMUTH-groupCountX-10006",
                                            "VUID-vkCmdDispatchGroupSizeBISMUTH-groupCountY-10007",
                                            "VUID-vkCmdDispatchGroupSizeBISMUTH-groupCountZ-10008"};
constexpr const char* kVuidFixedDispatch = "VUID-vkCmdDispatch-None-10009";
constexpr const char* kVuidFeature = "VUID-VkComputePipelineVariableGroupSizeCreateInfoBISMUTH-variableGroupSize-10010";
constexpr const char* kVuidModule = "VUID-VkComputePipelineVariableGroupSizeCreateInfoBISMUTH-module-10011";

void error(const DeviceData& d, const char* vuid, const std::string& message) {
  report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, vuid, message);
}

const VkComputePipelineVariableGroupSizeCreateInfoBISMUTH* variable_info(const VkComputePipelineCreateInfo& info) {
  auto* v = find_in_chain<const VkComputePipelineVariableGroupSizeCreateInfoBISMUTH>(
      info.pNext, VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH);
  return v != nullptr && v->variableGroupSize == VK_TRUE ? v : nullptr;
}

std::shared_ptr<VariablePipeline> find_variable(DeviceData& d, VkPipeline pipeline) {
  std::lock_guard lock(d.mutex);
  auto it = d.variable_pipelines.find(pipeline);
  return it == d.variable_pipelines.end() ? nullptr : it->second;
}

VkResult create_size_pipeline(DeviceData& d, const VariablePipeline& vp, const Size& size, VkPipelineCache cache,
                              const VkAllocationCallbacks* allocator, const void* stage_pnext,
                              const void* create_pnext, VkPipeline* out) {
  std::vector<VkSpecializationMapEntry> entries = vp.app_entries;
  std::vector<uint8_t> data = vp.app_data;
  const auto base = static_cast<uint32_t>(data.size());
  data.resize(data.size() + sizeof(size));
  std::memcpy(data.data() + base, size.data(), sizeof(size));
  for (uint32_t i = 0; i < 3; ++i)
    entries.push_back({vp.spec_ids[i], base + i * static_cast<uint32_t>(sizeof(uint32_t)), sizeof(uint32_t)});
  VkSpecializationInfo spec{static_cast<uint32_t>(entries.size()), entries.data(), data.size(), data.data()};

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.pNext = create_pnext;
  info.flags = vp.flags;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.pNext = stage_pnext;
  info.stage.flags = vp.stage_flags;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = vp.module;
  info.stage.pName = vp.entry.c_str();
  info.stage.pSpecializationInfo = &spec;
  info.layout = vp.layout;
  info.basePipelineIndex = -1;
  return d.CreateComputePipelines(d.device, cache, 1, &info, allocator, out);
}

VkResult create_variable_pipeline(DeviceData& d, VkPipelineCache cache, const VkComputePipelineCreateInfo& app_info,
                                  const VkAllocationCallbacks* allocator, VkPipeline* out) {
  *out = VK_NULL_HANDLE;
  const VkPipelineShaderStageCreateInfo& stage = app_info.stage;
  // The module's words: recorded at vkCreateShaderModule (already lowered), or the inline create info.
  std::shared_ptr<const std::vector<uint32_t>> words;
  if (stage.module != VK_NULL_HANDLE) {
    std::lock_guard lock(d.mutex);
    auto it = d.module_words.find(stage.module);
    if (it != d.module_words.end()) words = it->second;
  } else if (auto* inline_info = find_in_chain<const VkShaderModuleCreateInfo>(
                 stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)) {
    std::vector<uint32_t> lowered;
    if (rewrite_module(d, inline_info->pCode, inline_info->codeSize, lowered))
      words = std::make_shared<const std::vector<uint32_t>>(std::move(lowered));
    else
      words = std::make_shared<const std::vector<uint32_t>>(inline_info->pCode,
                                                            inline_info->pCode + inline_info->codeSize / 4);
  }
  if (!words || words->size() < 5) {
    error(d, kVuidModule, "vkCreateComputePipelines: the variable-size pipeline's shader module is unknown to the "
                          "layer (created before the device enabled VK_BISMUTH_variable_group_size?)");
    return VK_ERROR_UNKNOWN;
  }

  spirv::WorkgroupSizeOptions options;
  options.entry_point = stage.pName ? stage.pName : "main";
  const uint32_t version = (*words)[1];
  if (version >= 0x00010600u) {
    if (!d.maintenance4) {
      error(d, kVuidModule, "vkCreateComputePipelines: a SPIR-V 1.6 module can only take a variable group size "
                            "through LocalSizeId, which needs the maintenance4 feature enabled");
      return VK_ERROR_UNKNOWN;
    }
    options.output_form = spirv::WorkgroupSizeForm::LocalSizeId;
  }
  auto patch = spirv::workgroup_size_to_spec_constants(*words, options);
  if (!patch) {
    error(d, kVuidModule, "vkCreateComputePipelines: cannot make the group size of entry point '" +
                              options.entry_point + "' variable: " + patch.error().message);
    return VK_ERROR_UNKNOWN;
  }
  if (patch->report.input_was_fixed)
    report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, "BISMUTH-variable-group-size-fixed-input",
           "vkCreateComputePipelines: the module's group size was fixed; values the compiler folded from "
           "gl_WorkGroupSize keep the original size (use local_size_x_id)");

  auto vp = std::make_shared<VariablePipeline>();
  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = patch->words.size() * sizeof(uint32_t);
  module_info.pCode = patch->words.data();
  VkResult result = d.CreateShaderModule(d.device, &module_info, nullptr, &vp->module);
  if (result != VK_SUCCESS) return result;

  vp->layout = app_info.layout;
  vp->flags = app_info.flags & ~VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  vp->stage_flags = stage.flags;
  vp->entry = options.entry_point;
  vp->spec_ids = patch->report.spec_ids;
  vp->default_size = patch->report.original_size;
  if (const VkSpecializationInfo* spec = stage.pSpecializationInfo) {
    for (uint32_t i = 0; i < spec->mapEntryCount; ++i)
      if (std::find(vp->spec_ids.begin(), vp->spec_ids.end(), spec->pMapEntries[i].constantID) == vp->spec_ids.end())
        vp->app_entries.push_back(spec->pMapEntries[i]);
    const auto* bytes = static_cast<const uint8_t*>(spec->pData);
    if (bytes != nullptr) vp->app_data.assign(bytes, bytes + spec->dataSize);
  }
  if (auto* required = find_in_chain<const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)) {
    vp->has_required_subgroup_size = true;
    vp->required_subgroup_size = *required;
    vp->required_subgroup_size.pNext = nullptr;
  }

  // The parent: the application's chains minus the layer's structure and any inline module.
  VkComputePipelineCreateInfo copy = app_info;
  {
    ChainUnlinker strip_ours(&copy.pNext, VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH);
    ChainUnlinker strip_module(&copy.stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    result = create_size_pipeline(d, *vp, vp->default_size, cache, allocator, copy.stage.pNext, copy.pNext,
                                  &vp->parent);
  }
  if (result != VK_SUCCESS) {
    d.DestroyShaderModule(d.device, vp->module, nullptr);
    return result;
  }
  vp->sizes[vp->default_size] = vp->parent;
  *out = vp->parent;
  std::lock_guard lock(d.mutex);
  d.variable_pipelines[vp->parent] = std::move(vp);
  return VK_SUCCESS;
}

void destroy(DeviceData& d, VariablePipeline& vp, const VkAllocationCallbacks* parent_allocator) {
  std::lock_guard lock(vp.mutex);
  for (const auto& [size, pipeline] : vp.sizes)
    d.DestroyPipeline(d.device, pipeline, pipeline == vp.parent ? parent_allocator : nullptr);
  vp.sizes.clear();
  d.DestroyShaderModule(d.device, vp.module, nullptr);
  vp.module = VK_NULL_HANDLE;
}

VkPipeline bound_pipeline(DeviceData& d, VkCommandBuffer cb) {
  std::lock_guard lock(d.mutex);
  auto it = d.bound_compute_pipeline.find(cb);
  return it == d.bound_compute_pipeline.end() ? VK_NULL_HANDLE : it->second;
}

// VUID-vkCmdDispatch-None-10009 and its siblings: a variable-size pipeline needs vkCmdDispatchGroupSizeBISMUTH.
bool fixed_dispatch_allowed(DeviceData& d, VkCommandBuffer cb, const char* command) {
  const VkPipeline bound = bound_pipeline(d, cb);
  if (bound == VK_NULL_HANDLE || !find_variable(d, bound)) return true;
  try {
    error(d, kVuidFixedDispatch,
          std::string(command) + ": the bound compute pipeline was created with "
                                 "VkComputePipelineVariableGroupSizeCreateInfoBISMUTH; dispatch it with "
                                 "vkCmdDispatchGroupSizeBISMUTH. The command is skipped.");
  } catch (...) {
    // No memory for the message: the command is skipped all the same.
  }
  d.stats.invalid_commands_skipped.fetch_add(1, std::memory_order_relaxed);
  return false;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                      uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator,
                                                      VkPipeline* pPipelines) {
  auto data = device_data(device);
  if (!data) return VK_ERROR_INITIALIZATION_FAILED;
  DeviceData& d = *data;
  try {
    bool any_variable = false;
    for (uint32_t i = 0; i < createInfoCount; ++i) any_variable = any_variable || variable_info(pCreateInfos[i]);
    if (!any_variable) {
      InlineModuleRewrites rewrites;
      for (uint32_t i = 0; i < createInfoCount; ++i) rewrites.apply(d, pCreateInfos[i].stage);
      return d.CreateComputePipelines(device, pipelineCache, createInfoCount, pCreateInfos, pAllocator, pPipelines);
    }
    // One at a time: every variable pipeline is the layer's work, the others go down unchanged.
    VkResult first_error = VK_SUCCESS;
    for (uint32_t i = 0; i < createInfoCount; ++i) {
      VkResult result;
      if (variable_info(pCreateInfos[i]) && d.variable_group_size) {
        result = create_variable_pipeline(d, pipelineCache, pCreateInfos[i], pAllocator, &pPipelines[i]);
      } else {
        if (variable_info(pCreateInfos[i]))
          error(d, kVuidFeature, "vkCreateComputePipelines: VkComputePipelineVariableGroupSizeCreateInfoBISMUTH "
                                 "needs VK_BISMUTH_variable_group_size and its variableGroupSize feature enabled; "
                                 "the pipeline is created with its fixed size");
        VkComputePipelineCreateInfo copy = pCreateInfos[i];
        // Created one at a time: a derivative naming an earlier element of this array names its handle instead.
        if ((copy.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) && copy.basePipelineIndex >= 0 &&
            static_cast<uint32_t>(copy.basePipelineIndex) < i) {
          copy.basePipelineHandle = pPipelines[copy.basePipelineIndex];
          copy.basePipelineIndex = -1;
        }
        ChainUnlinker strip(&copy.pNext, VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH);
        InlineModuleRewrites rewrites;
        rewrites.apply(d, copy.stage);
        result = d.CreateComputePipelines(device, pipelineCache, 1, &copy, pAllocator, &pPipelines[i]);
      }
      if (result != VK_SUCCESS) {
        pPipelines[i] = VK_NULL_HANDLE;
        if (first_error == VK_SUCCESS) first_error = result;
      }
    }
    return first_error;
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
  auto data = device_data(device);
  if (!data) return;
  std::shared_ptr<VariablePipeline> vp;
  if (pipeline != VK_NULL_HANDLE) {
    std::lock_guard lock(data->mutex);
    auto it = data->variable_pipelines.find(pipeline);
    if (it != data->variable_pipelines.end()) {
      vp = std::move(it->second);
      data->variable_pipelines.erase(it);
    }
  }
  if (vp) return destroy(*data, *vp, pAllocator);
  data->DestroyPipeline(device, pipeline, pAllocator);
}

void destroy_variable_pipelines(DeviceData& d) {
  std::unordered_map<VkPipeline, std::shared_ptr<VariablePipeline>> left;
  {
    std::lock_guard lock(d.mutex);
    left.swap(d.variable_pipelines);
  }
  for (auto& [handle, vp] : left) destroy(d, *vp, nullptr);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                  const VkCommandBufferBeginInfo* pBeginInfo) {
  auto data = device_data(commandBuffer);
  if (!data) return VK_ERROR_INITIALIZATION_FAILED;
  {
    std::lock_guard lock(data->mutex);
    data->bound_compute_pipeline.erase(commandBuffer);  // beginning resets all state (spec "Command Buffer Lifecycle")
  }
  return data->BeginCommandBuffer(commandBuffer, pBeginInfo);
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                                              uint32_t commandBufferCount, const VkCommandBuffer* pCommandBuffers) {
  auto data = device_data(device);
  if (!data) return;
  {
    std::lock_guard lock(data->mutex);
    for (uint32_t i = 0; i < commandBufferCount; ++i) data->bound_compute_pipeline.erase(pCommandBuffers[i]);
  }
  data->FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
}

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                           VkPipeline pipeline) {
  auto data = device_data(commandBuffer);
  if (!data) return;
  if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
    try {
      std::lock_guard lock(data->mutex);
      data->bound_compute_pipeline[commandBuffer] = pipeline;
    } catch (...) {
      // Without the record the layer cannot check this command buffer's dispatches; binding still works.
    }
  }
  data->CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t groupCountX, uint32_t groupCountY,
                                       uint32_t groupCountZ) {
  auto data = device_data(commandBuffer);
  if (!data || !fixed_dispatch_allowed(*data, commandBuffer, "vkCmdDispatch")) return;
  data->CmdDispatch(commandBuffer, groupCountX, groupCountY, groupCountZ);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
  auto data = device_data(commandBuffer);
  if (!data || !fixed_dispatch_allowed(*data, commandBuffer, "vkCmdDispatchIndirect")) return;
  data->CmdDispatchIndirect(commandBuffer, buffer, offset);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
                                           uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
                                           uint32_t groupCountZ) {
  auto data = device_data(commandBuffer);
  if (!data || data->CmdDispatchBase == nullptr || !fixed_dispatch_allowed(*data, commandBuffer, "vkCmdDispatchBase"))
    return;
  data->CmdDispatchBase(commandBuffer, baseGroupX, baseGroupY, baseGroupZ, groupCountX, groupCountY, groupCountZ);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchGroupSizeBISMUTH(VkCommandBuffer commandBuffer, uint32_t groupCountX,
                                                       uint32_t groupCountY, uint32_t groupCountZ,
                                                       uint32_t groupSizeX, uint32_t groupSizeY,
                                                       uint32_t groupSizeZ) {
  auto data = device_data(commandBuffer);
  if (!data) return;
  DeviceData& d = *data;
  auto skip = [&](const char* vuid, const std::string& message) {
    error(d, vuid, "vkCmdDispatchGroupSizeBISMUTH: " + message + ". The command is skipped.");
    d.stats.invalid_commands_skipped.fetch_add(1, std::memory_order_relaxed);
  };
  try {
    if (!d.variable_group_size) return skip(kVuidNotVariable, "VK_BISMUTH_variable_group_size is not enabled");
    const VkPipeline bound = bound_pipeline(d, commandBuffer);
    auto vp = bound == VK_NULL_HANDLE ? nullptr : find_variable(d, bound);
    if (!vp)
      return skip(kVuidNotVariable, "the bound compute pipeline was not created with "
                                    "VkComputePipelineVariableGroupSizeCreateInfoBISMUTH");
    const Size size{groupSizeX, groupSizeY, groupSizeZ};
    const Size count{groupCountX, groupCountY, groupCountZ};
    const VkPhysicalDeviceLimits& limits = d.support.limits;
    static constexpr char kAxis[3] = {'X', 'Y', 'Z'};
    for (int i = 0; i < 3; ++i) {
      if (size[i] == 0 || size[i] > limits.maxComputeWorkGroupSize[i])
        return skip(kVuidGroupSize[i], std::string("groupSize") + kAxis[i] + " (" + std::to_string(size[i]) +
                                           ") must be between 1 and maxVariableGroupSize[" + std::to_string(i) +
                                           "] (" + std::to_string(limits.maxComputeWorkGroupSize[i]) + ")");
      if (count[i] > limits.maxComputeWorkGroupCount[i])
        return skip(kVuidGroupCount[i], std::string("groupCount") + kAxis[i] + " (" + std::to_string(count[i]) +
                                            ") exceeds maxComputeWorkGroupCount[" + std::to_string(i) + "] (" +
                                            std::to_string(limits.maxComputeWorkGroupCount[i]) + ")");
    }
    const uint64_t invocations = uint64_t{size[0]} * size[1] * size[2];
    if (invocations > limits.maxComputeWorkGroupInvocations)
      return skip(kVuidInvocations, "groupSizeX * groupSizeY * groupSizeZ (" + std::to_string(invocations) +
                                        ") exceeds maxVariableGroupInvocations (" +
                                        std::to_string(limits.maxComputeWorkGroupInvocations) + ")");

    VkPipeline pipeline = VK_NULL_HANDLE;
    {
      std::lock_guard lock(vp->mutex);
      auto it = vp->sizes.find(size);
      if (it != vp->sizes.end()) {
        pipeline = it->second;
        d.stats.size_pipeline_hits.fetch_add(1, std::memory_order_relaxed);
      } else {
        // Compiled under the pipeline's lock: concurrent recorders asking for the same size wait for one compile.
        const void* stage_pnext = vp->has_required_subgroup_size ? &vp->required_subgroup_size : nullptr;
        const VkResult result =
            create_size_pipeline(d, *vp, size, d.pipeline_cache, nullptr, stage_pnext, nullptr, &pipeline);
        if (result != VK_SUCCESS) {
          report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-size-pipeline-creation-failed",
                 "vkCmdDispatchGroupSizeBISMUTH: creating the pipeline for group size " + std::to_string(size[0]) +
                     "x" + std::to_string(size[1]) + "x" + std::to_string(size[2]) + " failed (VkResult " +
                     std::to_string(result) + "). The command is skipped.");
          return;
        }
        vp->sizes.emplace(size, pipeline);
        d.stats.size_pipelines_compiled.fetch_add(1, std::memory_order_relaxed);
      }
    }
    d.CmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    d.CmdDispatch(commandBuffer, groupCountX, groupCountY, groupCountZ);
  } catch (...) {
    report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-out-of-host-memory",
           "vkCmdDispatchGroupSizeBISMUTH: out of host memory. The command is skipped.");
  }
}

}  // namespace bismuth::layer
