// The C API for ports (bismuth/gl/bismuth_gl.h): contexts on a device Bismuth creates or on an application's own
// Vulkan device, without EGL. bismuthGetProcAddress is proc_address.cpp.
#include <mutex>
#include <optional>
#include <string>

#include "bismuth/backend/vk_functions.hpp"
#include "bismuth/gl/bismuth_gl.h"
#include "context.hpp"
#include "context_version.hpp"
#include "device_state.hpp"

using namespace bismuth;
using namespace bismuth::gl;

struct BismuthGLContext_T {};  // never defined as an object: handles are Context pointers

namespace {
thread_local std::string t_last_error;
Context* from_handle(BismuthGLContext h) { return reinterpret_cast<Context*>(h); }
BismuthGLContext to_handle(Context* c) { return reinterpret_cast<BismuthGLContext>(c); }

// The version options->es_version asks for (0: desktop GL 4.6; 31, 32: OpenGL ES 3.1, 3.2); nullopt for any
// other value.
std::optional<ContextVersion> requested_version(const BismuthGLContextOptions* options) {
  const int es = options ? options->es_version : 0;
  if (es == 0) return ContextVersion{};
  if (es == 31 || es == 32) return es_context_version(es / 10, es % 10);
  return std::nullopt;
}
}  // namespace

extern "C" BismuthGLContext bismuthCreateContext(const BismuthGLContextOptions* options) {
  EglCall call;
  try {
    t_last_error.clear();
    const bool validation = validation_requested() || (options && options->enable_validation);
    const auto selector = options && options->device ? backend::DeviceSelector::parse(options->device)
                                                     : backend::DeviceSelector::from_environment();
    Context* share = options ? from_handle(options->share_context) : nullptr;
    if (share != nullptr && !is_live(share)) {
      t_last_error = "bismuthCreateContext: share_context is not a live context";
      return nullptr;
    }
    const auto version = requested_version(options);
    if (!version) {
      t_last_error = "bismuthCreateContext: es_version is " + std::to_string(options->es_version) +
                     "; it is 0 (OpenGL 4.6), 31 or 32 (OpenGL ES 3.1 or 3.2)";
      return nullptr;
    }
    if (share != nullptr && share->version.es != version->es) {
      t_last_error = "bismuthCreateContext: share_context is a context of the other client API (OpenGL / OpenGL ES)";
      return nullptr;
    }
    std::shared_ptr<DeviceState> state;
    if (share != nullptr) {
      state = share->share->device_state;
    } else {
      auto s = device_state_for(validation, selector);
      if (!s) {
        t_last_error = "bismuthCreateContext: " + s.error().message;
        return nullptr;
      }
      state = *s;
    }
    auto ctx = create_context(state, share, options && options->debug, GL_CONTEXT_CORE_PROFILE_BIT, *version);
    if (!ctx) {
      t_last_error = "bismuthCreateContext: " + ctx.error().message;
      return nullptr;
    }
    return to_handle(*ctx);
  } catch (...) {
    t_last_error = "bismuthCreateContext: out of memory";
    return nullptr;
  }
}

extern "C" BismuthGLContext bismuthCreateContextOnVulkan(const BismuthGLVulkanDevice* vk,
                                                         const BismuthGLContextOptions* options) {
  EglCall call;
  try {
    t_last_error.clear();
    if (vk == nullptr || vk->instance == nullptr || vk->device == nullptr || vk->queue == nullptr ||
        vk->get_instance_proc_addr == nullptr || vk->physical_device == nullptr) {
      t_last_error = "bismuthCreateContextOnVulkan: instance, get_instance_proc_addr, physical_device, device and "
                     "queue are required";
      return nullptr;
    }
    Context* share = options ? from_handle(options->share_context) : nullptr;
    if (share != nullptr) {
      t_last_error = "bismuthCreateContextOnVulkan: share contexts are created with bismuthCreateContext";
      return nullptr;
    }
    const auto version = requested_version(options);
    if (!version) {
      t_last_error = "bismuthCreateContextOnVulkan: es_version is " + std::to_string(options->es_version) +
                     "; it is 0 (OpenGL 4.6), 31 or 32 (OpenGL ES 3.1 or 3.2)";
      return nullptr;
    }
    auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(vk->get_instance_proc_addr);
    auto instance = static_cast<VkInstance>(vk->instance);
    auto gdpa = reinterpret_cast<PFN_vkGetDeviceProcAddr>(gipa(instance, "vkGetDeviceProcAddr"));
    backend::ExternalDevice external;
    external.instance = instance;
    external.instance_api_version = vk->instance_api_version ? vk->instance_api_version : VK_API_VERSION_1_1;
    external.get_instance_proc_addr = gipa;
    external.physical_device = static_cast<VkPhysicalDevice>(vk->physical_device);
    external.device = static_cast<VkDevice>(vk->device);
    external.get_device_proc_addr = gdpa;
    external.queue = static_cast<VkQueue>(vk->queue);
    external.queue_family = vk->queue_family;
    external.enabled.timeline_semaphore = true;
    external.enabled.subgroup_size_control = vk->subgroup_size_control != 0;
    external.enabled.compute_full_subgroups = vk->compute_full_subgroups != 0;
    external.queue_mutex = static_cast<std::mutex*>(vk->queue_mutex);
    auto device = backend::Device::adopt(external);
    if (!device) {
      t_last_error = "bismuthCreateContextOnVulkan: " + device.error().message;
      return nullptr;
    }
    register_exit_stop();
    auto state = std::make_shared<DeviceState>();
    state->device = std::move(*device);
    auto cache = backend::PipelineCache::create(*state->device);
    if (!cache) {
      t_last_error = "bismuthCreateContextOnVulkan: " + cache.error().message;
      return nullptr;
    }
    state->cache = std::move(*cache);
    fill_caps(*state, vk->shader_int64 != 0, vk->shader_float64 != 0, vk->shader_buffer_float32_atomic_add != 0);
    auto ctx = create_context(state, nullptr, options && options->debug, GL_CONTEXT_CORE_PROFILE_BIT, *version);
    if (!ctx) {
      t_last_error = "bismuthCreateContextOnVulkan: " + ctx.error().message;
      return nullptr;
    }
    return to_handle(*ctx);
  } catch (...) {
    t_last_error = "bismuthCreateContextOnVulkan: out of memory";
    return nullptr;
  }
}

extern "C" int bismuthMakeCurrent(BismuthGLContext context) {
  EglCall call;
  return make_current(from_handle(context)) ? 1 : 0;
}

extern "C" BismuthGLContext bismuthGetCurrentContext(void) { return to_handle(current_context()); }

extern "C" void bismuthDestroyContext(BismuthGLContext context) {
  EglCall call;
  Context* ctx = from_handle(context);
  if (ctx == nullptr) return;
  destroy_context(ctx);  // nothing when it is not live
}

extern "C" const char* bismuthGetLastErrorString(void) { return t_last_error.c_str(); }

