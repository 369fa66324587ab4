// A logical device with one compute queue, used by every other part of the backend.
//
// Two ways to get one:
//  * Device::create: Bismuth creates the VkDevice on a physical device it enumerated (GL shim, CLI, tests) and
//    destroys it in ~Device.
//  * Device::adopt: Bismuth works on a VkDevice + VkQueue that someone else created (a GL-on-Vulkan port, the
//    Vulkan layer). Ownership rules for adoption:
//      - the caller keeps owning the VkInstance, the VkDevice and the VkQueue and destroys them itself, after
//        destroying every Bismuth object built on the Device (PipelineCache, CommandStream, Buffer, Shader) and
//        the Device itself;
//      - Bismuth owns and destroys every object it created on the device (its timeline semaphore, pipelines,
//        pipeline cache, layouts, buffers, memory, pools); ~Device waits only for Bismuth's own submissions,
//        never vkDeviceWaitIdle on a device it does not own;
//      - VkQueue access must be externally synchronised (Vulkan spec, "Threading Behavior"): when the owner
//        also submits to the same queue it passes `queue_mutex`, and Bismuth holds it around vkQueueSubmit.
//
// All Vulkan calls go through the function tables in vk_functions.hpp. VkResult-returning calls go through
// Device::call, which turns results into error values (naming the call and the VkResult), marks the device
// lost on VK_ERROR_DEVICE_LOST (every later call then fails cleanly), and honours the fault-injection hook.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/process_exit.hpp"
#include "bismuth/backend/vk_functions.hpp"
#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

// Optional device features Bismuth enables when present (and which an adopted device reports as enabled).
struct DeviceFeatures {
  bool timeline_semaphore = false;  // required
  bool push_descriptor = false;
  bool subgroup_size_control = false;
  bool compute_full_subgroups = false;
  bool maintenance4 = false;
  bool host_query_reset = false;
  bool pipeline_creation_cache_control = false;
  bool pipeline_creation_feedback = false;
  // Shader features front ends need (GL_ARB_gpu_shader_int64, fp64, subgroup operations on 8/16/64-bit types).
  bool shader_int64 = false;
  bool shader_float64 = false;
  bool shader_int16 = false;
  bool subgroup_extended_types = false;
  // 32-bit float atomics on storage buffers and shared variables (VK_EXT_shader_atomic_float: load, store,
  // exchange, add; VK_EXT_shader_atomic_float2: min, max): GL_NV_shader_atomic_float,
  // GL_INTEL_shader_atomic_float_minmax.
  bool float32_buffer_atomics = false;         // shaderBufferFloat32Atomics
  bool float32_buffer_atomic_add = false;      // shaderBufferFloat32AtomicAdd
  bool float32_shared_atomics = false;         // shaderSharedFloat32Atomics
  bool float32_shared_atomic_add = false;      // shaderSharedFloat32AtomicAdd
  bool float32_buffer_atomic_min_max = false;  // shaderBufferFloat32AtomicMinMax
  bool float32_shared_atomic_min_max = false;  // shaderSharedFloat32AtomicMinMax
  // The same on storage images (R32F: NV assembly's ATOMIM .F32) and 64-bit float adds on storage buffers (NV
  // assembly's native ATOMB.ADD.F64).
  bool float32_image_atomics = false;      // shaderImageFloat32Atomics
  bool float32_image_atomic_add = false;   // shaderImageFloat32AtomicAdd
  bool float64_buffer_atomic_add = false;  // shaderBufferFloat64AtomicAdd
  // OpReadClockKHR (VK_KHR_shader_clock): Subgroup scope for GL_ARB_shader_clock, Device scope for
  // GL_EXT_shader_realtime_clock.
  bool shader_subgroup_clock = false;  // shaderSubgroupClock
  bool shader_device_clock = false;    // shaderDeviceClock
  // Derivatives in compute shaders (VK_NV_compute_shader_derivatives): GL_NV_compute_shader_derivatives.
  bool compute_derivative_group_quads = false;   // computeDerivativeGroupQuads
  bool compute_derivative_group_linear = false;  // computeDerivativeGroupLinear
  // 64-bit integer atomics (VkPhysicalDeviceShaderAtomicInt64Features, Vulkan 1.2 / VK_KHR_shader_atomic_int64):
  // NV_shader_atomic_int64's ATOMB / ATOMS .U64 / .S64.
  bool int64_buffer_atomics = false;  // shaderBufferInt64Atomics
  bool int64_shared_atomics = false;  // shaderSharedInt64Atomics
  // 8- and 16-bit values in storage buffers (storageBuffer8BitAccess, Vulkan 1.2 / VK_KHR_8bit_storage;
  // storageBuffer16BitAccess, Vulkan 1.1): byte and half-word stores that never touch their neighbours.
  bool storage_buffer_8bit = false;
  bool storage_buffer_16bit = false;
  // Buffer device addresses (bufferDeviceAddress, Vulkan 1.2 / VK_KHR_buffer_device_address, with shaderInt64):
  // shader-visible buffers get SHADER_DEVICE_ADDRESS usage and memory allocated with DEVICE_ADDRESS, and
  // Buffer::device_address() gives their GPU address (GL_NV_shader_buffer_load / _store, NV assembly LOAD STORE
  // ATOM as PhysicalStorageBuffer64 accesses).
  bool buffer_device_address = false;
  // Samplers (sampler.hpp): anisotropic filtering (samplerAnisotropy) and VK_EXT_custom_border_color
  // (customBorderColors and customBorderColorWithoutFormat: GL's border colour is not tied to a format).
  bool sampler_anisotropy = false;
  bool custom_border_color = false;
  // VK_EXT_border_color_swizzle (with custom_border_color): borderColorSwizzle makes custom and opaque-black border
  // colours defined with a non-identity view swizzle — swizzled like a texel, as GL swizzles its border colour —
  // and borderColorSwizzleFromImage means the sampler need not name the swizzle (else SamplerDesc::border_swizzle
  // goes into VkSamplerBorderColorComponentMappingCreateInfoEXT).
  bool border_color_swizzle = false;
  bool border_color_swizzle_from_image = false;
  // VK_EXT_non_seamless_cube_map (nonSeamlessCubeMap): samplers with VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT
  // filter each cube face on its own, wrapping at its edges (desktop GL with TEXTURE_CUBE_MAP_SEAMLESS disabled;
  // SamplerDesc::non_seamless_cube). Without it every cube sampler is seamless.
  bool non_seamless_cube_map = false;
  // VK_KHR_sampler_mirror_clamp_to_edge (enabled where the device has it; Vulkan 1.2 makes it the
  // samplerMirrorClampToEdge feature, and enabling the extension enables that): the MIRROR_CLAMP_TO_EDGE address mode
  // of GL 4.4+. Without it Device::sampler samples that mode as MIRRORED_REPEAT (the same within [-1, 2]).
  bool sampler_mirror_clamp_to_edge = false;
  // Image features GLSL image and texture built-ins need (VkPhysicalDeviceFeatures): format qualifiers beyond the
  // base set (rg16f, r11f_g11f_b10f, ...: shaderStorageImageExtendedFormats), images without a format qualifier
  // (GL_EXT_shader_image_load_formatted, writeonly images: shaderStorageImageRead/WriteWithoutFormat),
  // textureGatherOffset(s) with non-constant offsets (shaderImageGatherExtended), cube map arrays (imageCubeArray).
  bool storage_image_extended_formats = false;
  bool storage_image_read_without_format = false;
  bool storage_image_write_without_format = false;
  bool image_gather_extended = false;
  bool image_cube_array = false;
  // Multisample storage images (image2DMS / image2DMSArray load, store and atomics; SPIR-V StorageImageMultisample
  // and ImageMSArray): shaderStorageImageMultisample. Without it multisample images are sampled only.
  bool storage_image_multisample = false;
  // The MinLod image operand (shaderResourceMinLod): NV assembly's TXD.LODCLAMP.
  bool resource_min_lod = false;
  // Block-compressed images (GL's compressed textures stored natively, docs/gl_shim.md "Compressed textures"):
  // textureCompressionBC (BC1-BC7) and textureCompressionETC2 (ETC2 / EAC). Without one, the formats' features are
  // not to be relied on and GL decodes those blocks on upload.
  bool texture_compression_bc = false;
  bool texture_compression_etc2 = false;
};

enum class MemoryStrategy {
  Automatic,               // device-local + staging when the device has dedicated memory, host-visible on UMA
  HostVisible,             // every buffer host-visible and coherent (UMA style)
  DeviceLocalWithStaging,  // every buffer device-local; uploads and readbacks go through staging buffers
};

struct DeviceOptions {
  MemoryStrategy memory = MemoryStrategy::Automatic;
  // false: bind through descriptor pools even where VK_KHR_push_descriptor exists (tests exercise that path).
  bool use_push_descriptors = true;
};

// Vulkan objects owned by someone else that Bismuth should work on (see the ownership rules above).
struct ExternalDevice {
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t instance_api_version = VK_API_VERSION_1_1;
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;  // inside a layer: the next layer's
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkGetDeviceProcAddr get_device_proc_addr = nullptr;  // inside a layer: the next layer's
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  // What the owner enabled at vkCreateDevice; timeline_semaphore is required.
  DeviceFeatures enabled;
  // Held around every vkQueueSubmit when the owner shares the queue; may be null when it does not.
  std::mutex* queue_mutex = nullptr;
  // The owner never submits through Bismuth and bounds the lifetime of what Bismuth creates itself (the Vulkan
  // layer: the application's vkDestroyPipeline rules cover its size pipelines). Then timeline_semaphore and
  // `queue` are not required, no timeline semaphore is created, submit()/submit_with() fail, and defer() runs
  // at once (nothing Bismuth submitted can be pending).
  bool no_submissions = false;
};

// Error classification for callers (the code of an Error is the VkResult).
inline bool is_out_of_memory(const Error& e) {
  return e.code == VK_ERROR_OUT_OF_HOST_MEMORY || e.code == VK_ERROR_OUT_OF_DEVICE_MEMORY;
}
inline bool is_device_lost(const Error& e) {
  return e.code == VK_ERROR_DEVICE_LOST;
}

class Shader;
struct BindingLayout;
struct SamplerDesc;
struct SamplerCache;
struct PipelineLayoutCache;

class Device final : private ExitParticipant {
 public:
  static Expected<std::unique_ptr<Device>> create(const Instance& instance, const DeviceInfo& info,
                                                  const DeviceOptions& options = {});
  static Expected<std::unique_ptr<Device>> adopt(const ExternalDevice& external, const DeviceOptions& options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceFunctions& vk() const { return vk_; }
  const InstanceFunctions& vki() const { return vki_; }
  VkDevice handle() const { return device_; }
  VkPhysicalDevice physical_device() const { return info_.handle; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const DeviceInfo& info() const { return info_; }
  const DeviceFeatures& features() const { return features_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  bool owns_device() const { return owns_device_; }
  // Buffers are device-local and reached through staging copies (false: host-visible coherent).
  bool uses_staging() const { return uses_staging_; }
  bool uses_push_descriptors() const { return uses_push_descriptors_; }
  // Bits of a timestamp the queue family writes; 0 when timestamps are unsupported on it.
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }
  // The queue does graphics too. Bismuth prefers a compute-only family (pick_queue_family), where Vulkan has no
  // depth/stencil buffer-image copies or clears and no vkCmdBlitImage: CommandStream refuses those there.
  bool graphics_queue() const { return graphics_queue_; }

  // ---- errors ----
  bool lost() const { return lost_.load(std::memory_order_acquire); }
  // The error every call returns once the device is lost.
  Error lost_error() const;
  Status alive() const;
  // VK_SUCCESS (and other non-negative results) → ok; otherwise an error naming `call` and the result.
  // VK_ERROR_DEVICE_LOST marks the device lost.
  Status check(VkResult result, const char* call);
  // Calls `fn(args...)` unless a fault is injected for it; then the injected result is returned instead.
  template <class Fn, class... Args>
  Status call(const char* name, Fn fn, Args&&... args) {
    if (lost()) return lost_error();
    VkResult result;
    if (fault_armed_.load(std::memory_order_relaxed) && take_fault(name, &result)) return check(result, name);
    result = fn(std::forward<Args>(args)...);
    return check(result, name);
  }
  // Test hook: the next Vulkan call that the backend makes through call() on this device — or the next call
  // named `call_name`, when given (e.g. "vkAllocateMemory", "vkQueueSubmit") — returns `result` without
  // reaching the driver.
  void inject_fault(VkResult result, std::string call_name = {});

  // ---- samplers (sampler.hpp; sampler.cpp) ----
  // The VkSampler for `desc`, created on first use and shared by every later request of the same value; it lives
  // until the Device is destroyed. Thread-safe. Error: a value the device cannot sample with (anisotropy off on
  // the device, an out-of-range LOD), or more distinct samplers than maxSamplerAllocationCount.
  Expected<VkSampler> sampler(const SamplerDesc& desc);
  // The description a VkSampler of sampler() was made from (false for any other handle).
  bool sampler_desc(VkSampler sampler, SamplerDesc* out) const;
  size_t sampler_count() const;

  // ---- pipeline layouts (pipeline_layouts.cpp) ----
  // The descriptor set layout (with the push-descriptor flag when `push_descriptors`) and the pipeline layout (one
  // compute push-constant range of layout.push_constant_bytes) of `layout`. Shared: every request of one
  // description gets the same pair, which lives until the Device is destroyed (shared = true; the caller never
  // destroys it). Past PipelineLayoutCache::kMaxEntries descriptions, or with BISMUTH_SHARED_LAYOUTS=0, a new pair
  // comes back with shared = false and the caller destroys it. Thread-safe.
  struct PipelineLayouts {
    VkDescriptorSetLayout set = VK_NULL_HANDLE;
    VkPipelineLayout pipeline = VK_NULL_HANDLE;
    bool shared = false;
  };
  Expected<PipelineLayouts> pipeline_layouts(const BindingLayout& layout, bool push_descriptors);
  size_t pipeline_layout_count() const;  // the shared descriptions

  // ---- submission and completion: one timeline semaphore per Device ----
  // Every submission signals the next value of the Device's timeline. Values are *reserved* in order (reserve();
  // submit()/submit_with() reserve and submit in one call) and reach vkQueueSubmit in that order — Vulkan wants
  // each signal value above the semaphore's current and pending values — so the submission of value v first
  // waits until v - 1 was submitted (usually at once). A CommandStream with a recording thread reserves the
  // value in flush() and its thread submits it later; Device::wait waits for that submission, then for the GPU.
  // Every reserved value must be passed to submit_reserved() exactly once; it is then always *settled*: signalled
  // by its submission, or — when that fails — by an empty submission in its place (or, when even that fails, the
  // device is marked lost), so no waiter hangs on it.
  Expected<uint64_t> reserve();
  // Submits `command_buffers` (may be empty) signalling the reserved `value`, after value - 1. On failure
  // `on_failure` (optional) runs with the error before `value` settles — whoever sees the value complete also sees
  // what it recorded — and the error is returned.
  Status submit_reserved(uint64_t value, std::span<const VkCommandBuffer> command_buffers,
                         const std::function<void(const Error&)>& on_failure = nullptr);
  // Submits `command_buffers` to the queue; the returned timeline value is signalled when they complete.
  Expected<uint64_t> submit(std::span<const VkCommandBuffer> command_buffers);
  // For the Vulkan layer, whose submissions are the application's: runs `submit(timeline, value)` under the
  // queue lock; the callback must make its vkQueueSubmit also signal `timeline` with `value` (add it to the
  // application's signal semaphores) and return the VkResult. On success `value` counts as submitted, so
  // pipelines and buffers marked with it are destroyed only after that submission completes.
  Expected<uint64_t> submit_with(const std::function<VkResult(VkSemaphore timeline, uint64_t value)>& submit,
                                 const char* call = "vkQueueSubmit");
  // The latest timeline value handed out (reserved): everything Bismuth recorded so far completes by it. Its
  // submission may still be on its way (a recording thread submits it); waiting on it is valid.
  uint64_t last_submitted() const { return reserved_.load(std::memory_order_acquire); }
  // The latest value whose submission call returned (or that settled after a failed one): a command buffer
  // submitted with a value <= this is no longer used by the submitting thread.
  uint64_t last_queued() const { return queued_.load(std::memory_order_acquire); }
  // The highest completed timeline value (polls the semaphore when `value` is not yet known to be complete).
  uint64_t completed();
  // Records that the submission with timeline value `value` executes a pipeline for the first time. Drivers
  // initialize parts lazily from their own threads while they execute it (lavapipe's queue thread JITs the
  // pipeline's code then, and LLVM registers exit-time destructors): once `value` is seen complete, the exit
  // handler is registered again, so that the exit stop still runs before those (process_exit.hpp).
  void note_first_execution(uint64_t value);
  bool is_complete(uint64_t value) {
    return value <= completed_.load(std::memory_order_acquire) || value <= completed();
  }
  // Waits until `value` completed: first until its submission call returned (last_queued() >= value) when it is
  // only reserved yet (a recording thread submits it), then for the GPU. Fails when `value` was never reserved
  // or the device is lost; when `timeout_ns` passes first it returns success (check is_complete; glClientWaitSync
  // does).
  Status wait(uint64_t value, uint64_t timeout_ns = UINT64_MAX);
  // Waits only for the first part of that: until the submission of `value` was made (last_queued() >= value). When
  // `timeout_ns` passes first it returns success with last_queued() < value.
  Status wait_queued(uint64_t value, uint64_t timeout_ns = UINT64_MAX);
  // Waits for everything Bismuth submitted.
  Status wait_all() { return wait(last_submitted()); }
  VkSemaphore timeline() const { return timeline_; }
  // Runs `destroy` once the submission with timeline value `value` has completed (at once when it has).
  // Used for pipelines and buffers, so that nothing is destroyed while a submission that used it is in flight.
  void defer(uint64_t value, std::function<void()> destroy);
  // Runs the deferred destructions whose submissions completed. Called by submit/wait; cheap when none due.
  void collect();
  size_t deferred_count() const;
  // After the device was marked lost, waits (bounded) for whatever Bismuth submitted to stop, so that objects
  // can be destroyed; a fault-injected loss leaves the real device running.
  void drain_after_loss();

  // Stand-in variants shared by content (Shader::create): the programs of one template share one variant Shader —
  // its layouts and module — not only its pipelines. `key` is the variant's content hash; the registry holds weak
  // references, so a variant goes with the last program that uses it. Returns the live variant registered under
  // `key`, else registers `variant` and returns it.
  std::shared_ptr<Shader> share_variant(std::pair<uint64_t, uint64_t> key, std::shared_ptr<Shader> variant);
  // The live variant registered under `key`, or null.
  std::shared_ptr<Shader> shared_variant(std::pair<uint64_t, uint64_t> key);

 private:
  Device() = default;
  Status finish_setup();
  Expected<PipelineLayouts> create_pipeline_layouts(const BindingLayout& layout, bool push_descriptors);
  // At process exit (process_exit.hpp): waits (bounded) until Bismuth's own submissions completed.
  void stop_for_exit() noexcept override;
  // Waits (up to `timeout_ns`) for the last timeline value whose signal reached the queue.
  void wait_signalled(uint64_t timeout_ns);
  bool take_fault(const char* name, VkResult* result);
  // Waits for value's turn, runs `submit` (through call(), so faults can be injected), signals `value` with an
  // empty submission when that failed, and settles `value` (see reserve()).
  // `submit` is called as submit() -> VkResult (a template: no std::function per submission; device.cpp only).
  template <class Submit>
  Status submit_in_turn(uint64_t value, const char* call_name, const Submit& submit,
                        const std::function<void(const Error&)>& on_failure);

  InstanceFunctions vki_;
  DeviceFunctions vk_;
  DeviceInfo info_;
  DeviceFeatures features_;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  bool graphics_queue_ = false;
  uint32_t timestamp_valid_bits_ = 0;
  bool owns_device_ = false;
  bool uses_staging_ = false;
  bool uses_push_descriptors_ = false;
  bool no_submissions_ = false;
  uint64_t wait_spin_ns_ = 0;  // wait(): how long to read the counter before sleeping (device.cpp, wait_spin_ns)
  std::mutex* external_queue_mutex_ = nullptr;

  std::atomic<bool> lost_{false};
  std::atomic<bool> fault_armed_{false};
  std::mutex fault_mutex_;
  VkResult fault_result_ = VK_SUCCESS;
  std::string fault_call_;

  VkSemaphore timeline_ = VK_NULL_HANDLE;
  std::atomic<uint64_t> reserved_{0};  // the last value reserve() handed out
  // Submission turns: the holder of value queued_ + 1 submits; queued_ is written under turn_mutex_ and
  // turn_cv_ wakes the next holder and Device::wait. Only the turn's holder calls vkQueueSubmit.
  std::mutex turn_mutex_;
  std::condition_variable turn_cv_;
  std::atomic<uint64_t> queued_{0};
  std::atomic<uint64_t> signalled_{0};  // the last value whose signal operation reached the queue
  std::atomic<uint64_t> completed_{0};
  // The highest value noted by note_first_execution whose completion was not seen yet; 0: none.
  std::atomic<uint64_t> first_execution_pending_{0};

  mutable std::mutex deferred_mutex_;
  std::vector<std::pair<uint64_t, std::function<void()>>> deferred_;
  std::atomic<uint64_t> earliest_deferred_{UINT64_MAX};

  // Created with the device; a shared_ptr so that this header needs no complete SamplerCache.
  std::shared_ptr<SamplerCache> samplers_;
  std::shared_ptr<PipelineLayoutCache> pipeline_layouts_;

  std::mutex shared_variants_mutex_;
  std::map<std::pair<uint64_t, uint64_t>, std::weak_ptr<Shader>> shared_variants_;
  size_t shared_variants_pruned_at_ = 0;  // the map's size after the last sweep of expired entries
};

}  // namespace bismuth::backend
