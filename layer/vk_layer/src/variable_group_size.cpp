// Feature 2: VK_BISMUTH_variable_group_size (docs/VK_BISMUTH_variable_group_size.adoc).
//
// A variable-size pipeline is a real VkPipeline created from a copy of its module whose workgroup size was turned
// into specialization constants (spirv_patch), at the module's own size. That copy becomes a backend::Shader
// carrying the application's pipeline layout, its other specialization constants and its flags, and
// vkCmdDispatchGroupSizeBISMUTH gets the pipeline for the requested size from the backend's PipelineCache
// (size_pipeline_cache.cpp: single-flight compiles, sharded lookups, disk persistence, prewarm, statistics), binds
// it and dispatches. Size pipelines belong to their parent: vkDestroyPipeline of the parent erases them from the
// cache, which destroys them. The application may destroy the parent only after every command buffer that used
// it completed (VUID-vkDestroyPipeline-pipeline-00765), and every command buffer that used a size pipeline bound
// the parent, so that is also when the size pipelines are no longer in use.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <span>
#include <string>

#include "bismuth/backend/process_exit.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "hooks.hpp"
#include "size_pipeline_cache.hpp"

namespace bismuth::vk_layer {

using Size = std::array<uint32_t, 3>;

struct VariablePipeline {
  VkPipeline parent = VK_NULL_HANDLE;
  // The layer's respecialisable copy of the module, with everything fixed about the pipeline; it owns the
  // VkShaderModule. Its key identity is unique to this parent, so erasing it never touches another's pipelines.
  std::shared_ptr<backend::Shader> shader;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  Size default_size{};
  uint32_t required_subgroup_size = 0;  // VkPipelineShaderStageRequiredSubgroupSizeCreateInfo, 0 = none
  std::atomic<bool> layout_destroyed{false};
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
constexpr const char* kVuidLayout = "VUID-vkCmdDispatchGroupSizeBISMUTH-layout-10012";

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

// The parent: the application's own create info (its chains, allocator and pipeline cache) with the layer's module.
VkResult create_parent_pipeline(DeviceData& d, const backend::Shader& shader, const VkComputePipelineCreateInfo& app,
                                const VkAllocationCallbacks* allocator, VkPipelineCache cache, const Size& size,
                                VkPipeline* out) {
  std::vector<VkSpecializationMapEntry> entries = shader.specialization_entries();
  std::vector<uint8_t> data = shader.specialization_data();
  const auto base = static_cast<uint32_t>(data.size());
  data.resize(data.size() + sizeof(size));
  std::memcpy(data.data() + base, size.data(), sizeof(size));
  for (uint32_t i = 0; i < 3; ++i)
    entries.push_back(
        {shader.group_size_spec_ids()[i], base + i * static_cast<uint32_t>(sizeof(uint32_t)), sizeof(uint32_t)});
  VkSpecializationInfo spec{static_cast<uint32_t>(entries.size()), entries.data(), data.size(), data.data()};

  VkComputePipelineCreateInfo info = app;
  ChainUnlinker strip_ours(&info.pNext, VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH);
  ChainUnlinker strip_module(&info.stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.flags = app.flags & ~VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  auto module = shader.module();  // created at the first pipeline (Shader::module)
  if (!module) {
    return module.error().code < 0 ? static_cast<VkResult>(module.error().code) : VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  info.stage.module = *module;
  info.stage.pName = shader.entry_point().c_str();
  info.stage.pSpecializationInfo = &spec;
  info.basePipelineHandle = VK_NULL_HANDLE;
  info.basePipelineIndex = -1;
  const VkResult result = d.CreateComputePipelines(d.device, cache, 1, &info, allocator, out);
  // The driver may have set up its exit-time teardown in this call (a lazily started compiler): the backend's exit
  // stop, which stops the prewarm workers this pipeline is about to get, must run before it (process_exit.hpp).
  backend::ensure_exit_handler_after(backend::DriverMilestone::FirstPipeline);
  return result;
}

std::atomic<uint64_t> g_next_identity{1};

VkResult to_vk_result(const Error& e) {
  return e.code < 0 ? static_cast<VkResult>(e.code) : VK_ERROR_INITIALIZATION_FAILED;
}

// Background compiles of likely sizes (BISMUTH_PREWARM): the backend's default set within the device limits, minus
// the parent's own size and, for REQUIRE_FULL_SUBGROUPS stages, sizes whose x is not a whole number of subgroups.
void prewarm(DeviceData& d, const VariablePipeline& vp, VkPipelineShaderStageCreateFlags stage_flags) {
  SizePipelineCache& spc = *d.size_pipelines;
  if (spc.prewarm_sizes == 0) return;
  const backend::DeviceInfo& info = spc.device->info();
  uint32_t full = 0;
  if (stage_flags & VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT)
    full = vp.required_subgroup_size != 0 ? vp.required_subgroup_size : std::max(info.max_subgroup_size, 1u);
  std::vector<backend::GroupSize> sizes;
  for (const backend::GroupSize& s : backend::PipelineCache::default_prewarm_sizes(info, spc.prewarm_sizes)) {
    if (Size{s.x, s.y, s.z} == vp.default_size) continue;
    if (full != 0 && s.x % full != 0) continue;
    sizes.push_back(s);
  }
  if (!sizes.empty()) spc.cache->prewarm(vp.shader, std::move(sizes), vp.required_subgroup_size);
}

VkResult create_variable_pipeline(DeviceData& d, VkPipelineCache cache, const VkComputePipelineCreateInfo& app_info,
                                  const VkAllocationCallbacks* allocator, VkPipeline* out) {
  *out = VK_NULL_HANDLE;
  const VkPipelineShaderStageCreateInfo& stage = app_info.stage;
  const std::shared_ptr<const std::vector<uint32_t>> words = stage_module_words(d, stage);
  if (!words || words->size() < 5) {
    error(d, kVuidModule,
          "vkCreateComputePipelines: the variable-size pipeline's shader module is unknown to the "
          "layer (created before the device enabled VK_BISMUTH_variable_group_size?)");
    return VK_ERROR_UNKNOWN;
  }

  spirv_patch::WorkgroupSizeOptions options;
  options.entry_point = stage.pName ? stage.pName : "main";
  const uint32_t version = (*words)[1];
  if (version >= 0x00010600u) {
    if (!d.maintenance4) {
      error(d, kVuidModule,
            "vkCreateComputePipelines: a SPIR-V 1.6 module can only take a variable group size "
            "through LocalSizeId, which needs the maintenance4 feature enabled");
      return VK_ERROR_UNKNOWN;
    }
    options.output_form = spirv_patch::WorkgroupSizeForm::LocalSizeId;
  }
  // The module was lowered when it was created (shader_module_rewrite.cpp): only the group size changes here.
  spirv_patch::PipelineOptions pipeline;
  pipeline.lower_khr_subgroup_ops = false;
  pipeline.group_size_to_spec_constants = options;
  pipeline.validate.reset();
  auto patch = spirv_patch::run_pipeline(*words, pipeline);
  if (!patch) {
    error(d, kVuidModule,
          "vkCreateComputePipelines: cannot make the group size of entry point '" + options.entry_point +
              "' variable: " + patch.error().message);
    return VK_ERROR_UNKNOWN;
  }
  if (patch->group_size->input_was_fixed)
    report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, "BISMUTH-variable-group-size-fixed-input",
           "vkCreateComputePipelines: the module's group size was fixed; values the compiler folded from "
           "gl_WorkGroupSize keep the original size (use local_size_x_id)");

  auto vp = std::make_shared<VariablePipeline>();
  backend::ShaderDesc desc;
  desc.spirv = patch->words;
  desc.entry_point = options.entry_point;
  desc.group_size_spec_ids = patch->group_size->spec_ids;
  desc.external_layout = app_info.layout;
  desc.external_layout_identity = g_next_identity.fetch_add(1, std::memory_order_relaxed);
  desc.name = "variable-size pipeline (entry point '" + options.entry_point + "')";
  if (const VkSpecializationInfo* spec = stage.pSpecializationInfo) {
    for (uint32_t i = 0; i < spec->mapEntryCount; ++i) {
      const VkSpecializationMapEntry& e = spec->pMapEntries[i];
      if (std::find(desc.group_size_spec_ids.begin(), desc.group_size_spec_ids.end(), e.constantID) ==
          desc.group_size_spec_ids.end())
        desc.specialization_entries.push_back(e);
    }
    const auto* bytes = static_cast<const uint8_t*>(spec->pData);
    if (bytes != nullptr) desc.specialization_data.assign(bytes, bytes + spec->dataSize);
  }
  // Size pipelines keep the application's flags except those that make no sense for a pipeline it never sees:
  // derivatives, and "fail instead of compiling" (a size pipeline must be compiled when it is first needed).
  desc.pipeline_flags =
      app_info.flags & ~(VK_PIPELINE_CREATE_DERIVATIVE_BIT | VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                         VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT);
  desc.stage_flags = stage.flags;
  auto shader = backend::Shader::create(*d.size_pipelines->device, desc);
  if (!shader) {
    error(d, kVuidModule, "vkCreateComputePipelines: " + shader.error().message);
    return to_vk_result(shader.error());
  }
  vp->shader = std::move(*shader);
  vp->layout = app_info.layout;
  vp->default_size = patch->group_size->original_size;
  if (auto* required = find_in_chain<const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO))
    vp->required_subgroup_size = required->requiredSubgroupSize;

  VkResult result = create_parent_pipeline(d, *vp->shader, app_info, allocator, cache, vp->default_size, &vp->parent);
  if (result != VK_SUCCESS) return result;  // vp->shader's destructor destroys the module
  *out = vp->parent;
  try {
    prewarm(d, *vp, stage.flags);
  } catch (...) {
    // Prewarm is an optimisation: without memory for it, sizes compile at first use.
  }
  std::lock_guard lock(d.mutex);
  d.variable_pipelines[vp->parent] = std::move(vp);
  return VK_SUCCESS;
}

// The parent and its size pipelines. Erasing first cancels the pipeline's prewarm compiles (and waits for a running
// one), so none uses the module or the application's layout afterwards.
void destroy(DeviceData& d, VariablePipeline& vp, const VkAllocationCallbacks* parent_allocator) noexcept {
  try {
    if (vp.shader && d.size_pipelines) d.size_pipelines->cache->erase(*vp.shader);
  } catch (...) {
    // No memory to cancel the prewarm: its entries stay in the cache until vkDestroyDevice destroys them.
  }
  d.DestroyPipeline(d.device, vp.parent, parent_allocator);
  vp.parent = VK_NULL_HANDLE;
  vp.shader.reset();  // destroys the module (nothing of the backend's is pending: it never submits)
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
          std::string(command) +
              ": the bound compute pipeline was created with "
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
                                                      const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
  auto data = device_data(device);
  if (!data) return VK_ERROR_INITIALIZATION_FAILED;
  DeviceData& d = *data;
  try {
    bool any_variable = false;
    bool any_num_waves = false;
    for (uint32_t i = 0; i < createInfoCount; ++i) {
      any_variable = any_variable || variable_info(pCreateInfos[i]);
      any_num_waves = any_num_waves || num_waves_info(pCreateInfos[i]);
    }
    if (!any_variable && !any_num_waves) {
      InlineModuleRewrites rewrites;
      for (uint32_t i = 0; i < createInfoCount; ++i) rewrites.apply(d, pCreateInfos[i].stage);
      return d.CreateComputePipelines(device, pipelineCache, createInfoCount, pCreateInfos, pAllocator, pPipelines);
    }
    // One at a time: every variable or numWaves pipeline is the layer's work, the others go down unchanged.
    VkResult first_error = VK_SUCCESS;
    for (uint32_t i = 0; i < createInfoCount; ++i) {
      VkResult result;
      if (num_waves_info(pCreateInfos[i])) {
        VkComputePipelineCreateInfo copy = pCreateInfos[i];
        if ((copy.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) && copy.basePipelineIndex >= 0 &&
            static_cast<uint32_t>(copy.basePipelineIndex) < i) {
          copy.basePipelineHandle = pPipelines[copy.basePipelineIndex];
          copy.basePipelineIndex = -1;
        }
        result = create_num_waves_pipeline(d, pipelineCache, copy, pAllocator, &pPipelines[i]);
      } else if (variable_info(pCreateInfos[i]) && d.variable_group_size) {
        result = create_variable_pipeline(d, pipelineCache, pCreateInfos[i], pAllocator, &pPipelines[i]);
      } else {
        if (variable_info(pCreateInfos[i]))
          error(d, kVuidFeature,
                "vkCreateComputePipelines: VkComputePipelineVariableGroupSizeCreateInfoBISMUTH "
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
  if (pipeline != VK_NULL_HANDLE) forget_num_waves_pipeline(*data, pipeline);
  data->DestroyPipeline(device, pipeline, pAllocator);
}

// A variable-size pipeline compiles its sizes with the application's layout: once the layout is gone, its prewarm
// stops and its dispatches are reported (VUID-vkCmdDispatchGroupSizeBISMUTH-layout-10012) instead of compiling
// with a destroyed handle.
VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice device, VkPipelineLayout pipelineLayout,
                                                 const VkAllocationCallbacks* pAllocator) {
  auto data = device_data(device);
  if (!data) return;
  if (pipelineLayout != VK_NULL_HANDLE && data->size_pipelines) {
    try {
      std::vector<std::shared_ptr<VariablePipeline>> users;
      {
        std::lock_guard lock(data->mutex);
        for (auto& [handle, vp] : data->variable_pipelines)
          if (vp->layout == pipelineLayout) users.push_back(vp);
      }
      for (auto& vp : users) {
        vp->layout_destroyed.store(true, std::memory_order_release);
        data->size_pipelines->cache->cancel_prewarm(*vp->shader);
      }
    } catch (...) {
      // Without memory for the list nothing can be cancelled; the layout goes all the same.
    }
  }
  data->DestroyPipelineLayout(device, pipelineLayout, pAllocator);
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

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
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
                                                       uint32_t groupCountY, uint32_t groupCountZ, uint32_t groupSizeX,
                                                       uint32_t groupSizeY, uint32_t groupSizeZ) {
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
      return skip(kVuidNotVariable,
                  "the bound compute pipeline was not created with "
                  "VkComputePipelineVariableGroupSizeCreateInfoBISMUTH");
    const Size size{groupSizeX, groupSizeY, groupSizeZ};
    const Size count{groupCountX, groupCountY, groupCountZ};
    const VkPhysicalDeviceLimits& limits = d.support.limits;
    static constexpr char kAxis[3] = {'X', 'Y', 'Z'};
    for (int i = 0; i < 3; ++i) {
      if (size[i] == 0 || size[i] > limits.maxComputeWorkGroupSize[i])
        return skip(kVuidGroupSize[i], std::string("groupSize") + kAxis[i] + " (" + std::to_string(size[i]) +
                                           ") must be between 1 and maxVariableGroupSize[" + std::to_string(i) + "] (" +
                                           std::to_string(limits.maxComputeWorkGroupSize[i]) + ")");
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

    if (vp->layout_destroyed.load(std::memory_order_acquire))
      return skip(kVuidLayout,
                  "the VkPipelineLayout the bound variable-size pipeline was created with has been "
                  "destroyed; size pipelines are created with it");
    VkPipeline pipeline = vp->parent;  // the module's own size: the application's pipeline itself
    if (size != vp->default_size) {
      // The backend's cache: a sharded lookup on a hit; on a miss one compile, which concurrent recorders of the
      // same size (and a prewarm compile of it) join.
      const backend::PipelineRequest request{
          vp->shader.get(), {size[0], size[1], size[2]}, vp->required_subgroup_size, {}};
      auto compiled = d.size_pipelines->cache->get_or_compile(request);
      if (!compiled) {
        report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-size-pipeline-creation-failed",
               "vkCmdDispatchGroupSizeBISMUTH: " + compiled.error().message + ". The command is skipped.");
        return;
      }
      // The cache keeps the entry (it is pinned until the parent is destroyed), so the handle stays valid.
      pipeline = (*compiled)->handle();
    }
    d.CmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    d.CmdDispatch(commandBuffer, groupCountX, groupCountY, groupCountZ);
  } catch (...) {
    report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-out-of-host-memory",
           "vkCmdDispatchGroupSizeBISMUTH: out of host memory. The command is skipped.");
  }
}

}  // namespace bismuth::vk_layer
