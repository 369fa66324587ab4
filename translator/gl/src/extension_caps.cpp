// The GL extensions whose shader built-ins need a Vulkan device feature (docs/gl_shim.md, "Extensions and the device
// features behind them"): each is in GL_EXTENSIONS exactly when the device's enabled features back it — the same
// facts (backend::shader_extension_support, through CompileTarget::extensions) by which the GLSL front accepts or
// refuses its #extension directive — and GL_KHR_shader_subgroup's state from VkPhysicalDeviceSubgroupProperties.
#include "device_state.hpp"

namespace bismuth::gl {

namespace {

// VkShaderStageFlagBits -> GL's *_SHADER_BIT (the two orders differ: Vulkan has tessellation before geometry).
GLbitfield gl_shader_stages(VkShaderStageFlags stages) {
  GLbitfield gl = 0;
  if (stages & VK_SHADER_STAGE_VERTEX_BIT) gl |= GL_VERTEX_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) gl |= GL_TESS_CONTROL_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) gl |= GL_TESS_EVALUATION_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_GEOMETRY_BIT) gl |= GL_GEOMETRY_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_FRAGMENT_BIT) gl |= GL_FRAGMENT_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_COMPUTE_BIT) gl |= GL_COMPUTE_SHADER_BIT;
  return gl;
}

// The VK_SUBGROUP_FEATURE_* bits KHR_shader_subgroup names have GL's SUBGROUP_FEATURE_*_BIT_KHR values (basic 0x1
// ... quad 0x80); later Vulkan bits (partitioned, rotate) have GL extensions of their own and are left out.
constexpr GLbitfield kKhrSubgroupFeatures = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_VOTE_BIT_KHR |
                                            GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR |
                                            GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR | GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR |
                                            GL_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT_KHR |
                                            GL_SUBGROUP_FEATURE_CLUSTERED_BIT_KHR | GL_SUBGROUP_FEATURE_QUAD_BIT_KHR;
static_assert(VK_SUBGROUP_FEATURE_QUAD_BIT == GL_SUBGROUP_FEATURE_QUAD_BIT_KHR &&
              VK_SUBGROUP_FEATURE_CLUSTERED_BIT == GL_SUBGROUP_FEATURE_CLUSTERED_BIT_KHR &&
              VK_SUBGROUP_FEATURE_BASIC_BIT == GL_SUBGROUP_FEATURE_BASIC_BIT_KHR);

}  // namespace

void add_device_extension_caps(Caps& c, const backend::Device& device) {
  const ShaderExtensionSupport& e = c.compile_target.extensions;
  const backend::DeviceInfo& d = device.info();
  // KHR_shader_subgroup requires subgroup operations in compute shaders ("SUBGROUP_SUPPORTED_STAGES_KHR ...
  // COMPUTE_SHADER_BIT", "SUBGROUP_SUPPORTED_FEATURES_KHR ... SUBGROUP_FEATURE_BASIC_BIT_KHR" as minimums), which
  // every Vulkan 1.1 device with a compute queue has.
  c.subgroup_stages = gl_shader_stages(d.subgroup_supported_stages);
  c.subgroup_features = static_cast<GLbitfield>(d.subgroup_supported_operations) & kKhrSubgroupFeatures;
  c.subgroup_quad_all_stages = d.quad_operations_in_all_stages;
  c.khr_shader_subgroup = (c.subgroup_stages & GL_COMPUTE_SHADER_BIT) &&
                          (c.subgroup_features & GL_SUBGROUP_FEATURE_BASIC_BIT_KHR) && c.subgroup_size > 0;
  if (c.khr_shader_subgroup) c.extensions.push_back("GL_KHR_shader_subgroup");
  if (e.subgroup_clock) c.extensions.push_back("GL_ARB_shader_clock");
  if (e.device_clock) c.extensions.push_back("GL_EXT_shader_realtime_clock");
  if (e.float32_atomic_add) c.extensions.push_back("GL_NV_shader_atomic_float");
  if (e.float32_atomic_min_max) c.extensions.push_back("GL_INTEL_shader_atomic_float_minmax");
  if (e.compute_derivatives) c.extensions.push_back("GL_NV_compute_shader_derivatives");
  if (e.image_read_without_format) c.extensions.push_back("GL_EXT_shader_image_load_formatted");
  // GL_BISMUTH_num_waves needs SubgroupId and required subgroup sizes are optional (without them the device's one
  // subgroup size is the wave size): subgroups in compute shaders are enough.
  if (c.khr_shader_subgroup) c.extensions.push_back("GL_BISMUTH_num_waves");
}

}  // namespace bismuth::gl
