// The Vulkan devices under GL contexts: the instances Bismuth creates (one per validation setting), one DeviceState
// per physical device on them, and the GL caps of a device (what the shim reports and which programs it accepts).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bismuth/backend/compile_target.hpp"
#include "compiler_threads.hpp"
#include "context.hpp"
#include "device_state.hpp"
#include "gl_spirv.hpp"
#include "parallel_compile.hpp"

namespace bismuth::gl {

namespace {

// Validation messages go to the context current in the reporting thread (KHR_debug) and to stderr.
constexpr GLuint kValidationMessageId = 0xB15B0001u;

// The validation layer's performance note on transfers to or from an image in VK_IMAGE_LAYOUT_GENERAL ("For optimal
// performance VkImage ... layout should be VK_IMAGE_LAYOUT_TRANSFER_*_OPTIMAL instead of GENERAL"): texture images
// stay in GENERAL by design (docs/backend.md, "Images"), so every texture upload and read would report it. Only that
// note is dropped; the same message ID reporting a real layout mismatch still goes through.
bool general_layout_note(const std::string& text) {
  return text.find("Performance Warning") != std::string::npos &&
         text.find("For optimal performance") != std::string::npos &&
         text.find("_OPTIMAL instead of GENERAL") != std::string::npos;
}

void on_vulkan_message(const backend::DebugMessage& message) {
  if (general_layout_note(message.text)) return;
  const bool validation = (message.types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0;
  const bool error = (message.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
  std::fprintf(stderr, "bismuth-gl: Vulkan %s: %s\n", validation ? "validation" : "message", message.text.c_str());
  const GLenum type = validation ? GL_DEBUG_TYPE_ERROR : GL_DEBUG_TYPE_PERFORMANCE;
  const GLenum severity = error ? GL_DEBUG_SEVERITY_HIGH : GL_DEBUG_SEVERITY_MEDIUM;
  if (Context* ctx = current_context()) {
    ctx->debug(GL_DEBUG_SOURCE_API, type, kValidationMessageId, severity, "Vulkan validation: " + message.text);
  } else {
    // A background link (compiler_threads.hpp): the message goes with its result to the context that settles it.
    (void)defer_message_of_job(
        {kValidationMessageId, severity, "Vulkan validation: " + message.text, false, GL_DEBUG_SOURCE_API, type});
  }
}

}  // namespace

Driver& driver() {
  static Driver* d = new Driver;  // never destroyed: EGL objects may be used from atexit handlers
  return *d;
}

Expected<std::shared_ptr<backend::Instance>> driver_instance(bool validation,
                                                             std::vector<backend::DeviceInfo>** devices) {
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
  c.max_storage_buffer_range = d.max_storage_buffer_range;
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
  // The same rule as the compile target's (backend/compile_target.hpp), so programs load where they compile.
  if (const auto required = backend::subgroup_size_32_requirement(*state.device)) {
    c.subgroup32 = true;
    c.subgroup32_required = *required;
  }
  c.thread_group_ops = (ops & VK_SUBGROUP_FEATURE_BASIC_BIT) && (ops & VK_SUBGROUP_FEATURE_BALLOT_BIT) &&
                       (ops & VK_SUBGROUP_FEATURE_VOTE_BIT);
  c.thread_shuffle_ops = (ops & VK_SUBGROUP_FEATURE_BASIC_BIT) && (ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
  c.compile_target = backend::compile_target(*state.device);
  c.extensions = {"GL_ARB_compute_shader", "GL_ARB_shader_storage_buffer_object", "GL_ARB_shader_atomic_counters"};
  if (c.variable_group_size) c.extensions.push_back("GL_ARB_compute_variable_group_size");
  if (c.ballot_vote) {
    c.extensions.push_back("GL_ARB_shader_ballot");
    c.extensions.push_back("GL_ARB_shader_group_vote");
  }
  if (c.int64) c.extensions.push_back("GL_ARB_gpu_shader_int64");
  if (c.float64) c.extensions.push_back("GL_ARB_gpu_shader_fp64");
  // GL 4.3+ core features the front also takes as #extension in older GLSL versions (docs/gl_shim.md, "GLSL
  // versions below 4.20"), and API extensions implemented in full.
  for (const char* e : {"GL_ARB_shader_atomic_counter_ops", "GL_ARB_shading_language_420pack",
                        "GL_ARB_arrays_of_arrays", "GL_ARB_explicit_uniform_location", "GL_ARB_uniform_buffer_object",
                        "GL_ARB_program_interface_query", "GL_ARB_get_program_binary"}) {
    c.extensions.push_back(e);
  }
  // Compressed texture formats (texture_compressed.cpp): decoded on upload on every device, so always there.
  // RGTC and BPTC are core in GL 4.6; S3TC is an extension only.
  for (const char* e : {"GL_EXT_texture_compression_s3tc", "GL_ARB_texture_compression_rgtc",
                        "GL_ARB_texture_compression_bptc"}) {
    c.extensions.push_back(e);
  }
  c.extensions.push_back("GL_ARB_gl_spirv");
  c.extensions.push_back("GL_ARB_spirv_extensions");
  c.spirv_extensions = supported_spirv_extensions(c);
  c.extensions.push_back("GL_KHR_debug");
  // Background compiles and links (parallel_compile.hpp); OpenGL ES contexts list the KHR one only.
  c.extensions.push_back("GL_KHR_parallel_shader_compile");
  c.extensions.push_back("GL_ARB_parallel_shader_compile");
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
    // COUNTER / ATOMCTR over GL_ATOMIC_COUNTER_BUFFER bindings (storage buffers, as GLSL atomic counters are).
    c.extensions.push_back("GL_NV_shader_atomic_counters");
    // 64-bit ATOMB (the assembler) needs shaderBufferInt64Atomics; GLSL's 64-bit atomics on shared variables
    // need shaderSharedInt64Atomics too.
    const auto& f = state.device->features();
    if (f.int64_buffer_atomics && f.int64_shared_atomics) c.extensions.push_back("GL_NV_shader_atomic_int64");
    // GPU addresses (glMakeBufferResidentNV, LOAD / STORE / ATOM): Vulkan buffer device addresses.
    if (f.buffer_device_address) {
      c.extensions.push_back("GL_NV_shader_buffer_load");
      c.extensions.push_back("GL_NV_shader_buffer_store");
    }
  }
  add_device_extension_caps(c, *state.device);
}

namespace {

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
  fill_caps(*state, f.shader_int64, f.shader_float64, f.float32_buffer_atomic_add);
  return state;
}

}  // namespace

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

DeviceState::~DeviceState() {
  // Everything built on the device goes before it (the body runs before members are destroyed); first the
  // compiler threads, whose jobs build on it.
  if (compiler_threads) compiler_threads->stop();
  indirect_check.reset();
  cache.reset();  // before the device it compiled on
  device.reset();
}

bool Caps::has_extension(const char* name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

bool validation_requested() {
  const char* v = std::getenv("BISMUTH_VALIDATION");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

}  // namespace bismuth::gl
