// VK_LAYER_BISMUTH_test_driver_teardown: a test-only layer that behaves like a driver which tears itself down from
// an exit-time handler (as NVIDIA's does). It registers that handler with atexit at vkCreateDevice, or — with
// BISMUTH_TEST_TEARDOWN_AT=first-pipeline / first-submit — lazily at the first vkCreateComputePipelines /
// vkQueueSubmit, as a driver that sets up its compiler or submission thread on first use would; or — with
// first-execution — while the first submission executes, as lavapipe does (its queue thread JITs a pipeline's code
// at its first dispatch, and LLVM then registers the destructor of its GDB JIT listener, which later JIT code
// needs). That last one is emulated by registering inside the first vkWaitSemaphores / vkGetSemaphoreCounterValue
// that reports a submission complete, before it returns: the caller sees the completion after the registration, as
// it sees a real driver's signal after what its queue thread did first. The handler marks
// the driver torn down, then keeps "tearing down" for 50 ms. A call that is inside the driver at that moment, or
// that enters it afterwards — where a real driver would crash — ends the process with exit code 5 and a message
// naming the call. Bismuth must have stopped every thread that calls Vulkan before then.
#include <unistd.h>
#include "support/test_layer_chaining.hpp"

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace {

using bismuth::testlayer::dispatch_key;
using bismuth::testlayer::InstanceChain;

std::mutex g_mutex;
InstanceChain g_instances;
// The next layer's functions, per device dispatch key (shared by the device's queues and command buffers).
struct NextDevice {
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
  PFN_vkCreateComputePipelines create_compute_pipelines = nullptr;
  PFN_vkQueueSubmit queue_submit = nullptr;
  PFN_vkCmdDispatch cmd_dispatch = nullptr;
  PFN_vkEndCommandBuffer end_command_buffer = nullptr;
  PFN_vkWaitSemaphores wait_semaphores = nullptr;
  PFN_vkGetSemaphoreCounterValue get_semaphore_counter_value = nullptr;
};
std::unordered_map<void*, NextDevice> g_devices;

std::atomic<bool> g_torn_down{false};
std::atomic<int> g_in_flight{0};
std::atomic<const char*> g_last_call{""};
std::atomic<bool> g_registered{false};

[[noreturn]] void violation(const char* call, const char* when) {
  std::fprintf(stderr, "driver-teardown layer: %s %s the driver's exit-time teardown (a real driver crashes here)\n",
               call, when);
  std::fflush(stderr);
  _exit(5);
}

extern "C" void teardown_at_exit() {
  g_torn_down.store(true, std::memory_order_seq_cst);
  if (g_in_flight.load(std::memory_order_seq_cst) > 0) violation(g_last_call.load(), "was running during");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a teardown takes a while
  if (g_in_flight.load(std::memory_order_seq_cst) > 0) violation(g_last_call.load(), "was running during");
}

void register_teardown(const char* when) {
  const char* at = std::getenv("BISMUTH_TEST_TEARDOWN_AT");
  const char* wanted = at != nullptr ? at : "device";
  if (std::strcmp(wanted, when) != 0) return;
  if (!g_registered.exchange(true)) std::atexit(teardown_at_exit);
}

// Counts one intercepted call while it is inside the "driver".
class InDriver {
 public:
  explicit InDriver(const char* call) {
    g_in_flight.fetch_add(1, std::memory_order_seq_cst);
    g_last_call.store(call);
    if (g_torn_down.load(std::memory_order_seq_cst)) violation(call, "entered after");
  }
  ~InDriver() { g_in_flight.fetch_sub(1, std::memory_order_seq_cst); }
};

NextDevice next(const void* dispatchable) {
  std::lock_guard lock(g_mutex);
  auto it = g_devices.find(dispatch_key(dispatchable));
  return it == g_devices.end() ? NextDevice{} : it->second;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* instance) {
  return g_instances.create(info, alloc, instance);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* device) {
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
  const VkResult r = bismuth::testlayer::create_device_through_chain(pd, info, alloc, device, &gdpa);
  if (r == VK_SUCCESS) {
    NextDevice n;
    n.gdpa = gdpa;
    n.create_compute_pipelines =
        reinterpret_cast<PFN_vkCreateComputePipelines>(gdpa(*device, "vkCreateComputePipelines"));
    n.queue_submit = reinterpret_cast<PFN_vkQueueSubmit>(gdpa(*device, "vkQueueSubmit"));
    n.cmd_dispatch = reinterpret_cast<PFN_vkCmdDispatch>(gdpa(*device, "vkCmdDispatch"));
    n.end_command_buffer = reinterpret_cast<PFN_vkEndCommandBuffer>(gdpa(*device, "vkEndCommandBuffer"));
    n.wait_semaphores = reinterpret_cast<PFN_vkWaitSemaphores>(gdpa(*device, "vkWaitSemaphores"));
    if (n.wait_semaphores == nullptr) {
      n.wait_semaphores = reinterpret_cast<PFN_vkWaitSemaphores>(gdpa(*device, "vkWaitSemaphoresKHR"));
    }
    n.get_semaphore_counter_value =
        reinterpret_cast<PFN_vkGetSemaphoreCounterValue>(gdpa(*device, "vkGetSemaphoreCounterValue"));
    if (n.get_semaphore_counter_value == nullptr) {
      n.get_semaphore_counter_value =
          reinterpret_cast<PFN_vkGetSemaphoreCounterValue>(gdpa(*device, "vkGetSemaphoreCounterValueKHR"));
    }
    std::lock_guard lock(g_mutex);
    g_devices[dispatch_key(*device)] = n;
  }
  register_teardown("device");
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* alloc, VkPipeline* pipelines) {
  register_teardown("first-pipeline");
  InDriver in("vkCreateComputePipelines");
  return next(device).create_compute_pipelines(device, cache, count, infos, alloc, pipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  register_teardown("first-submit");
  InDriver in("vkQueueSubmit");
  return next(queue).queue_submit(queue, count, submits, fence);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commands, uint32_t x, uint32_t y, uint32_t z) {
  InDriver in("vkCmdDispatch");
  next(commands).cmd_dispatch(commands, x, y, z);
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commands) {
  InDriver in("vkEndCommandBuffer");
  return next(commands).end_command_buffer(commands);
}

VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo* info, uint64_t timeout) {
  InDriver in("vkWaitSemaphores");
  const VkResult r = next(device).wait_semaphores(device, info, timeout);
  if (r == VK_SUCCESS) register_teardown("first-execution");
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t* value) {
  InDriver in("vkGetSemaphoreCounterValue");
  const VkResult r = next(device).get_semaphore_counter_value(device, semaphore, value);
  if (r == VK_SUCCESS && *value > 0) register_teardown("first-execution");
  return r;
}

struct Hook {
  const char* name;
  PFN_vkVoidFunction function;
};
const Hook kDeviceHooks[] = {
    {"vkCreateComputePipelines", reinterpret_cast<PFN_vkVoidFunction>(&CreateComputePipelines)},
    {"vkQueueSubmit", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit)},
    {"vkCmdDispatch", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatch)},
    {"vkEndCommandBuffer", reinterpret_cast<PFN_vkVoidFunction>(&EndCommandBuffer)},
    {"vkWaitSemaphores", reinterpret_cast<PFN_vkVoidFunction>(&WaitSemaphores)},
    {"vkWaitSemaphoresKHR", reinterpret_cast<PFN_vkVoidFunction>(&WaitSemaphores)},
    {"vkGetSemaphoreCounterValue", reinterpret_cast<PFN_vkVoidFunction>(&GetSemaphoreCounterValue)},
    {"vkGetSemaphoreCounterValueKHR", reinterpret_cast<PFN_vkVoidFunction>(&GetSemaphoreCounterValue)},
};

PFN_vkVoidFunction device_hook(const char* name) {
  for (const Hook& h : kDeviceHooks) {
    if (std::strcmp(h.name, name) == 0) return h.function;
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  const PFN_vkGetDeviceProcAddr gdpa = next(device).gdpa;
  if (gdpa == nullptr) return nullptr;
  PFN_vkVoidFunction real = gdpa(device, name);
  if (real == nullptr) return nullptr;  // not enabled on this device: nothing to intercept
  if (PFN_vkVoidFunction hook = device_hook(name)) return hook;
  return real;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance);
  if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice);
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  if (PFN_vkVoidFunction hook = device_hook(name)) return hook;
  return g_instances.next(instance, name);
}

}  // namespace

BISMUTH_TEST_LAYER_EXPORTS(GetInstanceProcAddr, GetDeviceProcAddr)
