// Devices, contexts, the current context per thread, the C API for ports, and the minimal EGL.
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/process_exit.hpp"
#include "bismuth/backend/vk_functions.hpp"
#include "bismuth/gl/bismuth_gl.h"
#include "gl_internal.hpp"

namespace bismuth::gl {

namespace {

thread_local Context* t_current = nullptr;
thread_local std::string t_last_error;

void register_exit_stop();

// Validation messages go to the context current in the reporting thread (KHR_debug) and to stderr.
constexpr GLuint kValidationMessageId = 0xB15B0001u;

void on_vulkan_message(const backend::DebugMessage& message) {
  const bool validation = (message.types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0;
  const bool error = (message.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
  std::fprintf(stderr, "bismuth-gl: Vulkan %s: %s\n", validation ? "validation" : "message", message.text.c_str());
  if (Context* ctx = t_current) {
    ctx->debug(GL_DEBUG_SOURCE_API, validation ? GL_DEBUG_TYPE_ERROR : GL_DEBUG_TYPE_PERFORMANCE,
               kValidationMessageId, error ? GL_DEBUG_SEVERITY_HIGH : GL_DEBUG_SEVERITY_MEDIUM,
               "Vulkan validation: " + message.text);
  }
}

// One Bismuth-created instance per validation setting, and one DeviceState per physical device on it, shared by
// every display and context that names the same device.
struct Driver {
  std::mutex mutex;
  std::shared_ptr<backend::Instance> instance[2];
  std::vector<backend::DeviceInfo> devices[2];
  std::map<std::pair<int, uint32_t>, std::weak_ptr<DeviceState>> states;
};
Driver& driver() {
  static Driver* d = new Driver;  // never destroyed: EGL objects may be used from atexit handlers
  return *d;
}

Expected<std::shared_ptr<backend::Instance>> driver_instance(bool validation, std::vector<backend::DeviceInfo>** devices) {
  Driver& d = driver();
  const int slot = validation ? 1 : 0;
  if (!d.instance[slot]) {
    backend::InstanceOptions options;
    options.application_name = "libbismuth-gl";
    options.enable_validation = validation;
    options.on_debug_message = on_vulkan_message;
    auto instance = backend::Instance::create(options);
    if (!instance) return instance.error();
    auto list = backend::enumerate_devices(**instance);
    if (!list) return list.error();
    d.instance[slot] = std::shared_ptr<backend::Instance>(std::move(*instance));
    d.devices[slot] = std::move(*list);
  }
  *devices = &d.devices[slot];
  return d.instance[slot];
}

void fill_caps(DeviceState& state, bool int64, bool float64, bool float_atomic) {
  const backend::DeviceInfo& d = state.device->info();
  Caps& c = state.caps;
  c.device_name = d.name;
  c.renderer = "Bismuth on " + d.name;
  c.version = "4.6.0 Bismuth " + std::string(BISMUTH_GL_VERSION) + " (Vulkan: " + d.name + ")";
  c.max_group_count = d.max_compute_work_group_count;
  for (auto& v : c.max_group_count) v = std::min<uint32_t>(v, 0x7fffffffu);
  c.max_group_size = d.max_compute_work_group_size;
  c.max_group_invocations = d.max_compute_work_group_invocations;
  for (int i = 0; i < 3; ++i) c.max_variable_group_size[i] = std::min(c.max_group_size[i], c.max_group_invocations);
  c.max_variable_group_invocations = c.max_group_invocations;
  c.max_shared_memory = d.max_compute_shared_memory_size;
  c.ssbo_alignment = static_cast<uint32_t>(std::max<VkDeviceSize>(1, d.min_storage_buffer_offset_alignment));
  c.ubo_alignment = static_cast<uint32_t>(std::max<VkDeviceSize>(1, d.min_uniform_buffer_offset_alignment));
  c.subgroup_size = d.subgroup_size;
  // ARB_compute_variable_group_size minimums: 512 x 512 x 64 and 512 invocations.
  c.variable_group_size = c.max_variable_group_size[0] >= 512 && c.max_variable_group_size[1] >= 512 &&
                          c.max_variable_group_size[2] >= 64 && c.max_variable_group_invocations >= 512;
  const VkSubgroupFeatureFlags ops = d.compute_subgroup_operations();
  const bool has_ops = (ops & VK_SUBGROUP_FEATURE_BALLOT_BIT) && (ops & VK_SUBGROUP_FEATURE_VOTE_BIT);
  // GL_ARB_shader_ballot's 64-bit masks are correct only on subgroups of at most 64 invocations.
  if (has_ops && state.device->features().subgroup_size_control &&
      (d.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT) && d.min_subgroup_size <= 64 &&
      d.min_subgroup_size > 0) {
    c.ballot_vote = true;
    c.ballot_subgroup_size = std::min<uint32_t>(64, d.max_subgroup_size);
    // The largest power of two in [min, min(64, max)].
    uint32_t size = d.min_subgroup_size;
    while (size * 2 <= c.ballot_subgroup_size) size *= 2;
    c.ballot_subgroup_size = size;
    if (d.subgroup_size == size && d.min_subgroup_size == d.max_subgroup_size) c.ballot_subgroup_size = 0;
  } else if (has_ops && d.subgroup_size > 0 && d.subgroup_size <= 64 &&
             (!d.subgroup_size_control || d.max_subgroup_size <= 64)) {
    c.ballot_vote = true;
    c.ballot_subgroup_size = 0;
  }
  c.int64 = int64;
  c.float64 = float64;
  c.float_atomic_add = float_atomic;
  // NV_shader_thread_group / NV_shader_thread_shuffle programs need 32-lane subgroups (docs/nvasm.md).
  if (d.min_subgroup_size == 32 && d.max_subgroup_size == 32 && d.subgroup_size == 32) {
    c.subgroup32 = true;
    c.subgroup32_required = 0;
  } else if (state.device->features().subgroup_size_control &&
             (d.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT) && d.min_subgroup_size <= 32 &&
             d.max_subgroup_size >= 32) {
    c.subgroup32 = true;
    c.subgroup32_required = 32;
  }
  c.thread_group_ops = (ops & VK_SUBGROUP_FEATURE_BASIC_BIT) && (ops & VK_SUBGROUP_FEATURE_BALLOT_BIT) &&
                       (ops & VK_SUBGROUP_FEATURE_VOTE_BIT);
  c.thread_shuffle_ops = (ops & VK_SUBGROUP_FEATURE_BASIC_BIT) && (ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
  c.split_fma = d.driver_name.find("llvmpipe") != std::string::npos || d.name.find("llvmpipe") != std::string::npos;
  c.extensions = {"GL_ARB_compute_shader", "GL_ARB_shader_storage_buffer_object", "GL_ARB_shader_atomic_counters"};
  if (c.variable_group_size) c.extensions.push_back("GL_ARB_compute_variable_group_size");
  if (c.ballot_vote) {
    c.extensions.push_back("GL_ARB_shader_ballot");
    c.extensions.push_back("GL_ARB_shader_group_vote");
  }
  if (c.int64) c.extensions.push_back("GL_ARB_gpu_shader_int64");
  c.extensions.push_back("GL_ARB_gl_spirv");
  c.extensions.push_back("GL_KHR_debug");
  // NV assembly compute programs (glProgramStringARB, translator/nvasm): NV_gpu_program5 has 64-bit integer
  // types, so it needs shaderInt64; the option extensions only where their programs can run.
  if (c.int64) {
    c.extensions.push_back("GL_NV_gpu_program4");
    c.extensions.push_back("GL_NV_gpu_program5");
    c.extensions.push_back("GL_NV_compute_program5");
    c.extensions.push_back("GL_NV_shader_storage_buffer_object");
    if (c.float64) c.extensions.push_back("GL_NV_gpu_program_fp64");
    if (c.subgroup32 && c.thread_group_ops) c.extensions.push_back("GL_NV_shader_thread_group");
    if (c.subgroup32 && c.thread_shuffle_ops) c.extensions.push_back("GL_NV_shader_thread_shuffle");
    // CBUFFER/BUFFER/BUFFER4 and LDC over program.buffer[a] (uniform buffer bindings; docs/nvasm.md).
    c.extensions.push_back("GL_NV_parameter_buffer_object");
    c.extensions.push_back("GL_NV_parameter_buffer_object2");
    // 64-bit ATOMB: the assembler accepts it only where the device has shaderBufferInt64Atomics.
    if (state.device->features().int64_buffer_atomics) c.extensions.push_back("GL_NV_shader_atomic_int64");
  }
}

// The backend's device on `d`: it enables every feature GL compute programs need that the device has (int64,
// float64, float atomics for GL_NV_shader_atomic_float, subgroup size control, ...).
Expected<std::shared_ptr<DeviceState>> create_device_state(std::shared_ptr<backend::Instance> instance,
                                                           const backend::DeviceInfo& d) {
  auto device = backend::Device::create(*instance, d);
  if (!device) return device.error();
  register_exit_stop();  // the driver is loaded now: see process_exit.hpp
  auto state = std::make_shared<DeviceState>();
  state->instance_ref = std::move(instance);
  state->device = std::move(*device);
  auto cache = backend::PipelineCache::create(*state->device);
  if (!cache) return cache.error();
  state->cache = std::move(*cache);
  const backend::DeviceFeatures& f = state->device->features();
  fill_caps(*state, f.shader_int64, f.shader_float64, f.float32_atomic_add);
  return state;
}

Expected<std::shared_ptr<DeviceState>> device_state_for(bool validation, const backend::DeviceSelector& selector) {
  Driver& d = driver();
  std::lock_guard lock(d.mutex);
  std::vector<backend::DeviceInfo>* devices = nullptr;
  auto instance = driver_instance(validation, &devices);
  if (!instance) return instance.error();
  auto index = backend::select_device(*devices, selector);
  if (!index) return index.error();
  auto key = std::make_pair(validation ? 1 : 0, static_cast<uint32_t>(*index));
  if (auto existing = d.states[key].lock()) return existing;
  auto state = create_device_state(*instance, (*devices)[*index]);
  if (!state) return state.error();
  d.states[key] = *state;
  return state;
}

std::mutex g_contexts_mutex;
// Valid handles: created and not yet destroyed (guarded by g_contexts_mutex).
std::unordered_set<Context*>& live_contexts() {
  static auto* set = new std::unordered_set<Context*>;
  return *set;
}
// Every Context object that exists: the live ones and those destroyed while current, until their release deletes
// them (guarded by g_contexts_mutex). The exit stop needs all of them: each has a command stream.
std::unordered_set<Context*>& existing_contexts() {
  static auto* set = new std::unordered_set<Context*>;
  return *set;
}

void delete_context(Context* ctx) {
  {
    std::lock_guard lock(g_contexts_mutex);
    existing_contexts().erase(ctx);
  }
  delete ctx;
}

bool is_live(Context* ctx) {
  std::lock_guard lock(g_contexts_mutex);
  return live_contexts().count(ctx) != 0;
}

Expected<Context*> create_context(std::shared_ptr<DeviceState> state, Context* share, bool debug, int profile) {
  std::shared_ptr<ShareGroup> group;
  if (share != nullptr) {
    if (share->share->device_state != state) return fail("the share context is on another device", EGL_BAD_MATCH);
    group = share->share;
  } else {
    group = std::make_shared<ShareGroup>(state);
  }
  auto stream = backend::CommandStream::create(*state->device, *state->cache);
  if (!stream) return stream.error();
  auto* ctx = new Context(std::move(group), std::move(*stream), debug);
  ctx->profile_mask = profile;
  std::lock_guard lock(g_contexts_mutex);
  live_contexts().insert(ctx);
  existing_contexts().insert(ctx);
  return ctx;
}

// Contexts and threads. A context is deleted exactly once: by destroy_context when it is current nowhere, or by
// the release of the thread where it is current when it was destroyed there (EGL 1.5 §3.7.1.5). Both sides decide
// on one atomic word (Context::lifecycle), and a context can only become current while it is live, checked under
// g_contexts_mutex — the mutex destroy_context takes it out of the live set with — so no thread can make a
// context current after its destruction began.

enum class Acquire { Ok, NotLive, CurrentElsewhere };

// Marks `ctx` current for the calling thread (which must then switch to it with switch_current).
Acquire acquire_current(Context* ctx) {
  std::lock_guard lock(g_contexts_mutex);
  if (live_contexts().count(ctx) == 0) return Acquire::NotLive;
  uint32_t expected = 0;
  if (!ctx->lifecycle.compare_exchange_strong(expected, Context::kCurrent, std::memory_order_acq_rel)) {
    return Acquire::CurrentElsewhere;
  }
  return Acquire::Ok;
}

// Releases the calling thread's context: flushed (EGL 1.5 §3.7.3: an implicit glFlush), deleted when it was
// destroyed while current.
void release_current() {
  Context* previous = t_current;
  if (previous == nullptr) return;
  (void)previous->stream->flush();
  t_current = nullptr;
  const uint32_t old = previous->lifecycle.fetch_and(~Context::kCurrent, std::memory_order_acq_rel);
  if (old & Context::kDestroyPending) delete_context(previous);
}

// Makes `ctx` (acquired, or null) the calling thread's context.
void switch_current(Context* ctx) {
  if (ctx == t_current) return;
  release_current();
  t_current = ctx;
}

// Makes `ctx` current in this thread; false when it is not live or current in another thread.
bool make_current(Context* ctx) {
  if (ctx == t_current) return true;
  if (ctx != nullptr && acquire_current(ctx) != Acquire::Ok) return false;
  switch_current(ctx);
  return true;
}

// Destroys `ctx` now, or marks it to be deleted when the thread where it is current releases it.
void destroy_context(Context* ctx) {
  {
    std::lock_guard lock(g_contexts_mutex);
    if (live_contexts().erase(ctx) == 0) return;  // destroyed already (another thread, eglTerminate)
  }
  uint32_t state = ctx->lifecycle.load(std::memory_order_acquire);
  while (state & Context::kCurrent) {
    if (ctx->lifecycle.compare_exchange_weak(state, state | Context::kDestroyPending, std::memory_order_acq_rel)) {
      return;
    }
  }
  delete_context(ctx);
}

}  // namespace

DeviceState::~DeviceState() {
  // Everything built on the device goes before it (the body runs before members are destroyed).
  indirect_check.reset();
  cache.reset();  // before the device it compiled on
  device.reset();
}

bool Caps::has_extension(const char* name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

Context::Context(std::shared_ptr<ShareGroup> group, std::unique_ptr<backend::CommandStream> s, bool debug_ctx)
    : share(std::move(group)), device_state(*share->device_state), stream(std::move(s)), caps(device_state.caps),
      debug_context(debug_ctx) {
  bindings_scratch.reserve(GlBindingMap::kDefaultUniformBlockBinding + 1);
  default_asm_program = std::make_shared<AsmProgramObject>();
  default_asm_program->target = GL_COMPUTE_PROGRAM_NV;
  asm_program = default_asm_program;
}

Context::~Context() {
  if (program) --program->uses;
  if (stream) (void)stream->finish();
  stream.reset();
}

Context* current_context() { return t_current; }

// ---- process exit (process_exit.hpp) ----

std::atomic<bool> g_api_exit_begun{false};

namespace {

std::atomic<uint32_t> g_egl_calls{0};  // EGL and bismuth* calls in flight
thread_local uint32_t t_egl_depth = 0;  // this thread's share of g_egl_calls

// The Callers phase for the GL shim: no application thread reaches the driver through GL or EGL any more, and the
// recording threads of the contexts are stopped. Waits for calls in flight at most kExitWait in all: a call that
// does not finish by then (glFinish behind a very long dispatch) keeps its context's recording thread running.
class GlExitStop final : public backend::ExitParticipant {
 public:
  void stop_for_exit() noexcept override {
    constexpr auto kExitWait = std::chrono::seconds(5);
    const auto deadline = std::chrono::steady_clock::now() + kExitWait;
    const auto wait_until = [&](auto&& done) {
      while (!done() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      return done();
    };
    g_api_exit_begun.store(true, std::memory_order_seq_cst);
    // EGL calls create and destroy contexts: none in flight (but this thread's own) before the contexts are read.
    wait_until([] { return g_egl_calls.load(std::memory_order_seq_cst) <= t_egl_depth; });
    std::vector<Context*> contexts;
    {
      std::lock_guard lock(g_contexts_mutex);
      contexts.assign(existing_contexts().begin(), existing_contexts().end());
    }
    for (Context* ctx : contexts) {
      // This thread's own context is idle unless exit() was called from inside a GL call (a debug callback).
      const bool idle = wait_until([ctx] { return ctx->api_calls.load(std::memory_order_seq_cst) == 0; });
      if (idle) ctx->stream->stop_recording_thread_for_exit();
    }
  }
};

void register_exit_stop() {
  static GlExitStop* stop = new GlExitStop;  // never destroyed: the exit handler uses it
  static std::once_flag once;
  std::call_once(once, [] { (void)backend::exit_register(*stop, backend::ExitPhase::Callers); });
}

}  // namespace

void ApiCall::on_exit_begun() noexcept {
  if (backend::is_exiting_thread()) return;
  ctx_.api_calls.store(ctx_.api_calls.load(std::memory_order_relaxed) - 1, std::memory_order_release);
  backend::park_until_process_ends();
}

EglCall::EglCall() {
  g_egl_calls.fetch_add(1, std::memory_order_seq_cst);
  ++t_egl_depth;
  if (api_exit_begun() && !backend::is_exiting_thread()) [[unlikely]] {
    --t_egl_depth;
    g_egl_calls.fetch_sub(1, std::memory_order_seq_cst);
    backend::park_until_process_ends();
  }
}

EglCall::~EglCall() {
  --t_egl_depth;
  g_egl_calls.fetch_sub(1, std::memory_order_release);
}

bool validation_requested() {
  const char* v = std::getenv("BISMUTH_VALIDATION");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

// ---------------------------------------------------------------------------------------------------------------
// The C API for ports.

struct BismuthGLContext_T {};  // never defined as an object: handles are Context pointers

namespace {
Context* from_handle(BismuthGLContext h) { return reinterpret_cast<Context*>(h); }
BismuthGLContext to_handle(Context* c) { return reinterpret_cast<BismuthGLContext>(c); }
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
    auto ctx = create_context(state, share, options && options->debug, GL_CONTEXT_CORE_PROFILE_BIT);
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
    auto ctx = create_context(state, nullptr, options && options->debug, GL_CONTEXT_CORE_PROFILE_BIT);
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

extern "C" BismuthGLContext bismuthGetCurrentContext(void) { return to_handle(t_current); }

extern "C" void bismuthDestroyContext(BismuthGLContext context) {
  EglCall call;
  Context* ctx = from_handle(context);
  if (ctx == nullptr) return;
  destroy_context(ctx);  // nothing when it is not live
}

extern "C" const char* bismuthGetLastErrorString(void) { return t_last_error.c_str(); }

// ---------------------------------------------------------------------------------------------------------------
// EGL 1.5, the headless subset: devices, surfaceless displays, contexts without surfaces.

namespace {

thread_local EGLint t_egl_error = EGL_SUCCESS;
thread_local EGLenum t_egl_api = EGL_NONE;  // EGL 1.5 §3.7: EGL_NONE when OpenGL ES is not supported

struct EglDevice {
  uint32_t index;
};

// Displays live until the process ends (EGLDisplay handles stay valid after eglTerminate). Their mutable members
// are guarded by g_egl_mutex: threads create, destroy and make current contexts of one display concurrently.
struct EglDisplay {
  EGLenum platform = 0;
  int device_index = -1;  // -1: BISMUTH_DEVICE / default selection
  bool initialized = false;
  std::shared_ptr<DeviceState> state;
  std::vector<Context*> contexts;
  bool has_context(const Context* ctx) const { return std::find(contexts.begin(), contexts.end(), ctx) != contexts.end(); }
};

struct EglConfig {
  EGLint id = 1;
};
EglConfig g_config;

std::mutex g_egl_mutex;
std::vector<std::unique_ptr<EglDisplay>>& displays() {
  static auto* list = new std::vector<std::unique_ptr<EglDisplay>>;
  return *list;
}
std::vector<std::unique_ptr<EglDevice>>& egl_devices() {
  static auto* list = new std::vector<std::unique_ptr<EglDevice>>;
  return *list;
}

template <class T>
T egl_fail(EGLint error, T value) {
  t_egl_error = error;
  return value;
}
EGLBoolean egl_ok() {
  t_egl_error = EGL_SUCCESS;
  return EGL_TRUE;
}

EglDisplay* find_display(EGLDisplay dpy) {
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : displays()) {
    if (d.get() == dpy) return d.get();
  }
  return nullptr;
}

// A display that exists and is initialized; sets the EGL error otherwise.
EglDisplay* ready_display(EGLDisplay dpy) {
  EglDisplay* d = find_display(dpy);
  if (d == nullptr) return egl_fail(EGL_BAD_DISPLAY, static_cast<EglDisplay*>(nullptr));
  std::lock_guard lock(g_egl_mutex);
  if (!d->initialized) return egl_fail(EGL_NOT_INITIALIZED, static_cast<EglDisplay*>(nullptr));
  return d;
}

bool display_has_context(EglDisplay* d, const Context* ctx) {
  std::lock_guard lock(g_egl_mutex);
  return d->has_context(ctx);
}

EGLDisplay get_display(EGLenum platform, int device_index) {
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : displays()) {
    if (d->platform == platform && d->device_index == device_index) return d.get();
  }
  auto d = std::make_unique<EglDisplay>();
  d->platform = platform;
  d->device_index = device_index;
  displays().push_back(std::move(d));
  return displays().back().get();
}

bool egl_devices_ready() {
  std::lock_guard lock(driver().mutex);
  std::vector<backend::DeviceInfo>* devices = nullptr;
  auto instance = driver_instance(validation_requested(), &devices);
  if (!instance) return false;
  std::lock_guard egl_lock(g_egl_mutex);
  while (egl_devices().size() < devices->size()) {
    egl_devices().push_back(std::make_unique<EglDevice>(EglDevice{static_cast<uint32_t>(egl_devices().size())}));
  }
  return true;
}

const char* kClientExtensions =
    "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_EXT_device_base EGL_EXT_device_enumeration "
    "EGL_EXT_device_query EGL_EXT_platform_device EGL_MESA_platform_surfaceless";
const char* kDisplayExtensions =
    "EGL_KHR_create_context EGL_KHR_surfaceless_context EGL_KHR_no_config_context EGL_EXT_create_context_robustness";

}  // namespace

extern "C" {

EGLint EGLAPIENTRY eglGetError(void) {
  const EGLint e = t_egl_error;
  t_egl_error = EGL_SUCCESS;
  return e;
}

EGLDisplay EGLAPIENTRY eglGetDisplay(EGLNativeDisplayType display_id) {
  if (display_id != EGL_DEFAULT_DISPLAY) return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  t_egl_error = EGL_SUCCESS;
  return get_display(EGL_PLATFORM_SURFACELESS_MESA, -1);
}

EGLDisplay EGLAPIENTRY eglGetPlatformDisplayEXT(EGLenum platform, void* native_display, const EGLint* attrib_list) {
  if (attrib_list != nullptr && attrib_list[0] != EGL_NONE) return egl_fail(EGL_BAD_ATTRIBUTE, EGL_NO_DISPLAY);
  if (platform == EGL_PLATFORM_SURFACELESS_MESA) {
    if (native_display != nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
    t_egl_error = EGL_SUCCESS;
    return get_display(platform, -1);
  }
  if (platform == EGL_PLATFORM_DEVICE_EXT) {
    if (!egl_devices_ready()) return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
    std::lock_guard lock(g_egl_mutex);
    for (auto& dev : egl_devices()) {
      if (dev.get() == native_display) {
        const int index = static_cast<int>(dev->index);
        t_egl_error = EGL_SUCCESS;
        for (auto& d : displays()) {
          if (d->platform == platform && d->device_index == index) return d.get();
        }
        auto d = std::make_unique<EglDisplay>();
        d->platform = platform;
        d->device_index = index;
        displays().push_back(std::move(d));
        return displays().back().get();
      }
    }
    return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  }
  return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
}

EGLDisplay EGLAPIENTRY eglGetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  if (attrib_list != nullptr && attrib_list[0] != EGL_NONE) return egl_fail(EGL_BAD_ATTRIBUTE, EGL_NO_DISPLAY);
  return eglGetPlatformDisplayEXT(platform, native_display, nullptr);
}

EGLBoolean EGLAPIENTRY eglQueryDevicesEXT(EGLint max_devices, EGLDeviceEXT* devices, EGLint* num_devices) {
  if (num_devices == nullptr || (devices != nullptr && max_devices <= 0)) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (!egl_devices_ready()) {
    *num_devices = 0;
    return egl_ok();
  }
  std::lock_guard lock(g_egl_mutex);
  const EGLint total = static_cast<EGLint>(egl_devices().size());
  if (devices == nullptr) {
    *num_devices = total;
  } else {
    *num_devices = std::min(total, max_devices);
    for (EGLint i = 0; i < *num_devices; ++i) devices[i] = egl_devices()[static_cast<size_t>(i)].get();
  }
  return egl_ok();
}

const char* EGLAPIENTRY eglQueryDeviceStringEXT(EGLDeviceEXT device, EGLint name) {
  EglDevice* dev = nullptr;
  {
    std::lock_guard lock(g_egl_mutex);
    for (auto& d : egl_devices()) {
      if (d.get() == device) dev = d.get();
    }
  }
  if (dev == nullptr) return egl_fail(EGL_BAD_DEVICE_EXT, static_cast<const char*>(nullptr));
  if (name == EGL_EXTENSIONS) {
    t_egl_error = EGL_SUCCESS;
    return "";
  }
  return egl_fail(EGL_BAD_PARAMETER, static_cast<const char*>(nullptr));
}

EGLBoolean EGLAPIENTRY eglInitialize(EGLDisplay dpy, EGLint* major, EGLint* minor) {
  EglCall call;
  EglDisplay* d = find_display(dpy);
  if (d == nullptr) return egl_fail(EGL_BAD_DISPLAY, EGL_FALSE);
  bool initialized;
  {
    std::lock_guard lock(g_egl_mutex);
    initialized = d->initialized;
  }
  if (!initialized) {
    try {
      backend::DeviceSelector selector = backend::DeviceSelector::from_environment();
      if (d->device_index >= 0) {
        selector.kind = backend::DeviceSelector::Kind::Index;
        selector.index = static_cast<uint32_t>(d->device_index);
      }
      auto state = device_state_for(validation_requested(), selector);
      if (!state) {
        std::fprintf(stderr, "bismuth-gl: eglInitialize: %s\n", state.error().message.c_str());
        return egl_fail(EGL_NOT_INITIALIZED, EGL_FALSE);
      }
      std::lock_guard lock(g_egl_mutex);
      if (!d->initialized) {  // another thread may have initialized it meanwhile (with the same device state)
        d->state = *state;
        d->initialized = true;
      }
    } catch (...) {
      return egl_fail(EGL_BAD_ALLOC, EGL_FALSE);
    }
  }
  if (major) *major = 1;
  if (minor) *minor = 5;
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglTerminate(EGLDisplay dpy) {
  EglCall call;
  EglDisplay* d = find_display(dpy);
  if (d == nullptr) return egl_fail(EGL_BAD_DISPLAY, EGL_FALSE);
  std::vector<Context*> contexts;
  std::shared_ptr<DeviceState> state;  // released outside the lock: the last reference destroys the device
  {
    std::lock_guard lock(g_egl_mutex);
    contexts.swap(d->contexts);
    state.swap(d->state);
    d->initialized = false;
  }
  // Contexts are destroyed now, or when released where they are current (EGL 1.5 §3.2).
  for (Context* ctx : contexts) destroy_context(ctx);
  return egl_ok();
}

const char* EGLAPIENTRY eglQueryString(EGLDisplay dpy, EGLint name) {
  if (dpy == EGL_NO_DISPLAY) {
    if (name == EGL_EXTENSIONS) {
      t_egl_error = EGL_SUCCESS;
      return kClientExtensions;
    }
    if (name == EGL_VERSION) {
      t_egl_error = EGL_SUCCESS;
      return "1.5 Bismuth";
    }
    return egl_fail(EGL_BAD_DISPLAY, static_cast<const char*>(nullptr));
  }
  if (ready_display(dpy) == nullptr) return nullptr;
  t_egl_error = EGL_SUCCESS;
  switch (name) {
    case EGL_VENDOR: return "Bismuth";
    case EGL_VERSION: return "1.5 Bismuth";
    case EGL_CLIENT_APIS: return "OpenGL";
    case EGL_EXTENSIONS: return kDisplayExtensions;
    default: return egl_fail(EGL_BAD_PARAMETER, static_cast<const char*>(nullptr));
  }
}

EGLBoolean EGLAPIENTRY eglBindAPI(EGLenum api) {
  if (api != EGL_OPENGL_API) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  t_egl_api = api;
  return egl_ok();
}

EGLenum EGLAPIENTRY eglQueryAPI(void) { return t_egl_api; }

EGLBoolean EGLAPIENTRY eglGetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint config_size, EGLint* num_config) {
  if (ready_display(dpy) == nullptr) return EGL_FALSE;
  if (num_config == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  *num_config = (configs == nullptr || config_size > 0) ? 1 : 0;
  if (configs != nullptr && config_size > 0) configs[0] = &g_config;
  return egl_ok();
}

// One config: OpenGL renderable, no surfaces (compute only). Attributes asking for something else match nothing.
EGLBoolean EGLAPIENTRY eglChooseConfig(EGLDisplay dpy, const EGLint* attrib_list, EGLConfig* configs,
                                       EGLint config_size, EGLint* num_config) {
  if (ready_display(dpy) == nullptr) return EGL_FALSE;
  if (num_config == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  bool match = true;
  for (const EGLint* a = attrib_list; a != nullptr && a[0] != EGL_NONE; a += 2) {
    const EGLint value = a[1];
    switch (a[0]) {
      case EGL_RENDERABLE_TYPE:
      case EGL_CONFORMANT:
        if (value != EGL_DONT_CARE && (value & ~EGL_OPENGL_BIT) != 0) match = false;
        break;
      case EGL_CONFIG_ID:
        if (value != EGL_DONT_CARE && value != g_config.id) match = false;
        break;
      case EGL_SURFACE_TYPE:
      case EGL_RED_SIZE: case EGL_GREEN_SIZE: case EGL_BLUE_SIZE: case EGL_ALPHA_SIZE: case EGL_DEPTH_SIZE:
      case EGL_STENCIL_SIZE: case EGL_BUFFER_SIZE: case EGL_SAMPLES: case EGL_SAMPLE_BUFFERS:
      case EGL_CONFIG_CAVEAT: case EGL_COLOR_BUFFER_TYPE: case EGL_LEVEL: case EGL_TRANSPARENT_TYPE:
      case EGL_NATIVE_RENDERABLE: case EGL_MIN_SWAP_INTERVAL: case EGL_MAX_SWAP_INTERVAL:
      case EGL_LUMINANCE_SIZE: case EGL_ALPHA_MASK_SIZE:
        // Headless programs often ask for a pbuffer RGBA8 config they never use; a compute context has no
        // framebuffer, so these are accepted and ignored.
        break;
      default:
        return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    }
  }
  *num_config = match ? 1 : 0;
  if (match && configs != nullptr && config_size > 0) configs[0] = &g_config;
  if (configs != nullptr && config_size <= 0) *num_config = 0;
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglGetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value) {
  if (ready_display(dpy) == nullptr) return EGL_FALSE;
  if (config != &g_config) return egl_fail(EGL_BAD_CONFIG, EGL_FALSE);
  if (value == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  switch (attribute) {
    case EGL_CONFIG_ID: *value = g_config.id; break;
    case EGL_RENDERABLE_TYPE: case EGL_CONFORMANT: *value = EGL_OPENGL_BIT; break;
    case EGL_SURFACE_TYPE: *value = 0; break;
    case EGL_CONFIG_CAVEAT: *value = EGL_NONE; break;
    default: *value = 0; break;
  }
  return egl_ok();
}

EGLContext EGLAPIENTRY eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share_context,
                                        const EGLint* attrib_list) {
  EglCall call;
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_NO_CONTEXT;
  if (t_egl_api != EGL_OPENGL_API) return egl_fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
  if (config != EGL_NO_CONFIG_KHR && config != &g_config) return egl_fail(EGL_BAD_CONFIG, EGL_NO_CONTEXT);
  EGLint major = 1, minor = 0;
  EGLint profile = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
  bool debug = false;
  for (const EGLint* a = attrib_list; a != nullptr && a[0] != EGL_NONE; a += 2) {
    switch (a[0]) {
      case EGL_CONTEXT_MAJOR_VERSION: major = a[1]; break;
      case EGL_CONTEXT_MINOR_VERSION: minor = a[1]; break;
      case EGL_CONTEXT_OPENGL_PROFILE_MASK: profile = a[1]; break;
      case EGL_CONTEXT_OPENGL_DEBUG: debug = a[1] == EGL_TRUE; break;
      case EGL_CONTEXT_FLAGS_KHR: debug = debug || (a[1] & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR); break;
      case EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE:
      case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
      case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY:
        break;
      default:
        return egl_fail(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
    }
  }
  // GL 4.6 is a valid answer to any request up to 4.6 (EGL_KHR_create_context: "at least the version asked").
  if (major > 4 || (major == 4 && minor > 6) || major < 1) return egl_fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
  if (profile != EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT && profile != EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT) {
    return egl_fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
  }
  Context* share = nullptr;
  std::shared_ptr<DeviceState> state;
  {
    std::lock_guard lock(g_egl_mutex);
    state = d->state;
    if (share_context != EGL_NO_CONTEXT) {
      share = static_cast<Context*>(share_context);
      if (!d->has_context(share) || !is_live(share)) return egl_fail(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
    }
  }
  if (!state) return egl_fail(EGL_NOT_INITIALIZED, EGL_NO_CONTEXT);  // terminated meanwhile
  try {
    auto ctx = create_context(state, share, debug,
                              profile == EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT ? GL_CONTEXT_CORE_PROFILE_BIT
                                                                             : GL_CONTEXT_COMPATIBILITY_PROFILE_BIT);
    if (!ctx) {
      std::fprintf(stderr, "bismuth-gl: eglCreateContext: %s\n", ctx.error().message.c_str());
      return egl_fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
    }
    {
      std::lock_guard lock(g_egl_mutex);
      d->contexts.push_back(*ctx);
    }
    t_egl_error = EGL_SUCCESS;
    return *ctx;
  } catch (...) {
    return egl_fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
  }
}

EGLBoolean EGLAPIENTRY eglDestroyContext(EGLDisplay dpy, EGLContext context) {
  EglCall call;
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  auto* ctx = static_cast<Context*>(context);
  {
    std::lock_guard lock(g_egl_mutex);
    auto it = std::find(d->contexts.begin(), d->contexts.end(), ctx);
    if (it == d->contexts.end()) return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
    d->contexts.erase(it);
  }
  destroy_context(ctx);
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext context) {
  EglCall call;
  if (context == EGL_NO_CONTEXT) {
    if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) return egl_fail(EGL_BAD_MATCH, EGL_FALSE);
    if (dpy != EGL_NO_DISPLAY && find_display(dpy) == nullptr) return egl_fail(EGL_BAD_DISPLAY, EGL_FALSE);
    make_current(nullptr);
    return egl_ok();
  }
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  // Only surfaceless contexts exist (EGL_KHR_surfaceless_context).
  if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) return egl_fail(EGL_BAD_SURFACE, EGL_FALSE);
  auto* ctx = static_cast<Context*>(context);
  // The display lists it and it is still live when it becomes current (acquire_current checks under the mutex
  // destroy_context takes), so it cannot be deleted under this thread.
  if (!display_has_context(d, ctx)) return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if (ctx == t_current) return egl_ok();
  switch (acquire_current(ctx)) {
    case Acquire::Ok: break;
    case Acquire::NotLive: return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
    case Acquire::CurrentElsewhere: return egl_fail(EGL_BAD_ACCESS, EGL_FALSE);
  }
  switch_current(ctx);
  return egl_ok();
}

EGLContext EGLAPIENTRY eglGetCurrentContext(void) { return t_current ? static_cast<EGLContext>(t_current) : EGL_NO_CONTEXT; }

EGLDisplay EGLAPIENTRY eglGetCurrentDisplay(void) {
  if (t_current == nullptr) return EGL_NO_DISPLAY;
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : displays()) {
    if (d->has_context(t_current)) return d.get();
  }
  return EGL_NO_DISPLAY;
}

EGLSurface EGLAPIENTRY eglGetCurrentSurface(EGLint) { return EGL_NO_SURFACE; }

EGLBoolean EGLAPIENTRY eglReleaseThread(void) {
  EglCall call;
  make_current(nullptr);
  t_egl_api = EGL_NONE;
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglQueryContext(EGLDisplay dpy, EGLContext context, EGLint attribute, EGLint* value) {
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  if (!display_has_context(d, static_cast<Context*>(context))) return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if (value == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  switch (attribute) {
    case EGL_CONFIG_ID: *value = g_config.id; break;
    case EGL_CONTEXT_CLIENT_TYPE: *value = EGL_OPENGL_API; break;
    case EGL_CONTEXT_CLIENT_VERSION: *value = 4; break;
    case EGL_RENDER_BUFFER: *value = EGL_NONE; break;
    default: return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglSwapInterval(EGLDisplay dpy, EGLint) { return ready_display(dpy) ? egl_ok() : EGL_FALSE; }

}  // extern "C"

// eglGetProcAddress / bismuthGetProcAddress: supported GL functions (the generated table) and the EGL functions.
extern "C" {
struct bismuth_gl_proc {
  const char* name;
  void (*address)(void);
};
extern const struct bismuth_gl_proc bismuth_gl_procs[];
extern const size_t bismuth_gl_proc_count;
}

namespace {
using Proc = void (*)(void);
template <class F>
Proc as_proc(F f) {
  return reinterpret_cast<Proc>(f);
}
Proc lookup_gl(const char* name) {
  const bismuth_gl_proc* begin = bismuth_gl_procs;
  const bismuth_gl_proc* end = bismuth_gl_procs + bismuth_gl_proc_count;
  auto it = std::lower_bound(begin, end, name,
                             [](const bismuth_gl_proc& p, const char* n) { return std::strcmp(p.name, n) < 0; });
  if (it != end && std::strcmp(it->name, name) == 0) return it->address;
  return nullptr;
}
}  // namespace

extern "C" void (*bismuthGetProcAddress(const char* name))(void) {
  if (name == nullptr) return nullptr;
  return lookup_gl(name);
}

extern "C" __eglMustCastToProperFunctionPointerType EGLAPIENTRY eglGetProcAddress(const char* name) {
  if (name == nullptr) return nullptr;
  if (name[0] == 'g' && name[1] == 'l') return lookup_gl(name);
  static const std::pair<const char*, Proc> egl[] = {
      {"eglGetPlatformDisplayEXT", as_proc(eglGetPlatformDisplayEXT)},
      {"eglGetPlatformDisplay", as_proc(eglGetPlatformDisplay)},
      {"eglQueryDevicesEXT", as_proc(eglQueryDevicesEXT)},
      {"eglQueryDeviceStringEXT", as_proc(eglQueryDeviceStringEXT)},
      {"eglGetError", as_proc(eglGetError)},
      {"eglGetDisplay", as_proc(eglGetDisplay)},
      {"eglInitialize", as_proc(eglInitialize)},
      {"eglTerminate", as_proc(eglTerminate)},
      {"eglQueryString", as_proc(eglQueryString)},
      {"eglBindAPI", as_proc(eglBindAPI)},
      {"eglQueryAPI", as_proc(eglQueryAPI)},
      {"eglChooseConfig", as_proc(eglChooseConfig)},
      {"eglGetConfigs", as_proc(eglGetConfigs)},
      {"eglGetConfigAttrib", as_proc(eglGetConfigAttrib)},
      {"eglCreateContext", as_proc(eglCreateContext)},
      {"eglDestroyContext", as_proc(eglDestroyContext)},
      {"eglMakeCurrent", as_proc(eglMakeCurrent)},
      {"eglGetCurrentContext", as_proc(eglGetCurrentContext)},
      {"eglGetCurrentDisplay", as_proc(eglGetCurrentDisplay)},
      {"eglGetCurrentSurface", as_proc(eglGetCurrentSurface)},
      {"eglReleaseThread", as_proc(eglReleaseThread)},
      {"eglQueryContext", as_proc(eglQueryContext)},
      {"eglSwapInterval", as_proc(eglSwapInterval)},
      {"eglGetProcAddress", as_proc(eglGetProcAddress)},
  };
  for (const auto& [n, f] : egl) {
    if (std::strcmp(n, name) == 0) return f;
  }
  return nullptr;
}
