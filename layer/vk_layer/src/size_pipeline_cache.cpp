// Size pipelines come from the backend's PipelineCache (docs/layer.md, "Size pipelines and the backend's cache").
//
// At vkCreateDevice (VK_BISMUTH_variable_group_size enabled) the application's device is adopted into a
// backend::Device through the NEXT layer's GetProcAddr, with ExternalDevice::no_submissions: the layer never
// submits work of its own, so the backend needs no timeline semaphore (nothing is enabled on the application's
// device behind its back) and destroys what it created at once when asked. The cache is unbounded (no LRU
// eviction): every entry belongs to one variable-size pipeline and is erased with it at vkDestroyPipeline, which
// the application may only call once the command buffers that used the pipeline completed
// (VUID-vkDestroyPipeline-pipeline-00765); every command buffer that dispatched a size pipeline bound its parent.
// Persistence is the backend's: $BISMUTH_CACHE_DIR (else $XDG_CACHE_HOME/bismuth, else ~/.cache/bismuth; off),
// file pipelines-<vendor>-<device>-<driver>-<pipelineCacheUUID>.bin, validated header, atomic replace.
#include "size_pipeline_cache.hpp"

#include <cstdio>
#include <limits>
#include <string>

#include "hooks.hpp"

namespace bismuth::vk_layer {

namespace {

VkResult open(DeviceData& d) {
  const InstanceData& instance = *d.instance;
  auto owned = std::make_shared<SizePipelineCache>();
  backend::ExternalDevice external;
  external.instance = instance.instance;
  external.instance_api_version = instance.api_version;
  external.get_instance_proc_addr = instance.next_gipa;
  external.physical_device = d.physical_device;
  external.device = d.device;
  external.get_device_proc_addr = d.next_gdpa;
  external.no_submissions = true;
  external.enabled.subgroup_size_control = d.subgroup_size_control;
  external.enabled.pipeline_creation_feedback = d.pipeline_creation_feedback;
  external.enabled.maintenance4 = d.maintenance4;
  auto device = backend::Device::adopt(external);
  if (!device) {
    report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-size-pipeline-cache",
           "vkCreateDevice: VK_BISMUTH_variable_group_size cannot work on this device: " + device.error().message);
    return device.error().code < 0 ? static_cast<VkResult>(device.error().code) : VK_ERROR_INITIALIZATION_FAILED;
  }
  owned->device = std::move(*device);

  backend::PipelineCacheOptions options;
  // Pinned: entries leave the cache only with their variable-size pipeline (see above), never by LRU eviction.
  options.max_entries = std::numeric_limits<size_t>::max();
  options.max_bytes = std::numeric_limits<size_t>::max();
  if (!instance.settings.cache_dir.empty()) options.cache_dir = instance.settings.cache_dir;
  options.print_stats_at_exit = instance.settings.stats;
  options.max_prewarm_sizes = instance.settings.prewarm_sizes;
  // Prewarm is background work on the application's process: at most two low-priority threads.
  options.prewarm_threads = instance.settings.prewarm_sizes == 0 ? 1 : 2;
  std::shared_ptr<const InstanceData> keep = d.instance;
  options.on_warning = [keep](const std::string& message) {
    report(*keep, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, "BISMUTH-pipeline-cache-file",
           "pipeline cache: " + message);
  };
  auto cache = backend::PipelineCache::create(*owned->device, options);
  if (!cache) {
    report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-size-pipeline-cache",
           "vkCreateDevice: cannot create the size pipeline cache: " + cache.error().message);
    return cache.error().code < 0 ? static_cast<VkResult>(cache.error().code) : VK_ERROR_INITIALIZATION_FAILED;
  }
  owned->cache = std::move(*cache);
  owned->prewarm_sizes = instance.settings.prewarm_sizes;
  d.size_pipelines = std::move(owned);
  return VK_SUCCESS;
}

}  // namespace

VkResult open_size_pipeline_cache(DeviceData& d) {
  try {
    return open(d);
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;  // vkCreateDevice destroys the device again
  }
}

void close_size_pipeline_cache(DeviceData& d) {
  // ~PipelineCache joins the prewarm workers, writes the file when something was compiled, prints the backend's
  // statistics (BISMUTH_STATS=1) and destroys the pipelines left; then the adopted Device goes (the VkDevice stays).
  d.size_pipelines.reset();
}

}  // namespace bismuth::vk_layer
