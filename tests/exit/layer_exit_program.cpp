// A Vulkan program using VK_LAYER_BISMUTH_compute that exits without vkDestroyDevice or vkDestroyInstance while
// the layer's prewarm workers compile size pipelines for its variable-size pipelines (VK_BISMUTH_variable_group_size),
// as Vulkan programs that just return from main do. The layer's copy of the backend takes part in the same exit
// stop (process_exit.hpp); exit_check.hpp checks from the program's own exit handler that no bismuth-* thread
// outlived it, and the driver-teardown test layer below the Bismuth layer fails the run if a Vulkan call is made
// during the driver's exit-time teardown. Loads libvulkan.so.1 at run time (the project links no loader).
//
//   layer_exit_program N     creates N variable-size pipelines (distinct modules), then calls exit(0)
#include <dlfcn.h>
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_bismuth.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bismuth/translator/glsl_compiler.hpp"
#include "exit_check.hpp"

namespace {

[[noreturn]] void fail(const char* what, VkResult result = VK_SUCCESS) {
  std::fprintf(stderr, "layer_exit_program: %s (VkResult %d)\n", what, static_cast<int>(result));
  std::fflush(stderr);
  _exit(1);
}

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) fail(what, result);
}

}  // namespace

int main(int argc, char** argv) {
  bismuth::exittest::install_exit_check();
  const int count = argc > 1 ? std::atoi(argv[1]) : 20;
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (loader == nullptr) fail("no Vulkan loader (libvulkan.so.1)");
  auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader, "vkGetInstanceProcAddr"));
#define INSTANCE_FN(name) auto name = reinterpret_cast<PFN_##name>(gipa(instance, #name))
  VkInstance instance = VK_NULL_HANDLE;
  INSTANCE_FN(vkCreateInstance);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  check(vkCreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");
  INSTANCE_FN(vkEnumeratePhysicalDevices);
  INSTANCE_FN(vkGetPhysicalDeviceQueueFamilyProperties);
  INSTANCE_FN(vkCreateDevice);
  INSTANCE_FN(vkGetDeviceProcAddr);
  uint32_t devices = 1;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  const VkResult enumerated = vkEnumeratePhysicalDevices(instance, &devices, &physical);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || physical == VK_NULL_HANDLE) fail("no device");
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family_props(families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, family_props.data());
  uint32_t family = 0;
  while (family < families && !(family_props[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
  if (family == families) fail("no compute queue");

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH variable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH};
  variable.variableGroupSize = VK_TRUE;
  const char* extensions[] = {VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME};
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &variable;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = 1;
  device_info.ppEnabledExtensionNames = extensions;
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical, &device_info, nullptr, &device), "vkCreateDevice (is VK_LAYER_BISMUTH_compute on?)");
#define DEVICE_FN(name) auto name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name))
  DEVICE_FN(vkCreateDescriptorSetLayout);
  DEVICE_FN(vkCreatePipelineLayout);
  DEVICE_FN(vkCreateShaderModule);
  DEVICE_FN(vkCreateComputePipelines);

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");

  for (int i = 0; i < count; ++i) {
    const std::string source = "#version 450\nlayout(local_size_x = 64) in;\n"
                               "layout(std430, binding = 0) buffer B { uint words[]; };\n"
                               "void main() { words[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x + " +
                               std::to_string(i) + "u; }\n";
    auto spirv = bismuth::translator::compile_glsl_compute(source);
    if (!spirv) fail(spirv.error().message.c_str());
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = spirv->size() * 4;
    module_info.pCode = spirv->data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device, &module_info, nullptr, &module), "vkCreateShaderModule");
    VkComputePipelineVariableGroupSizeCreateInfoBISMUTH variable_pipeline{
        VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH};
    variable_pipeline.variableGroupSize = VK_TRUE;
    VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipeline_info.pNext = &variable_pipeline;
    pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = module;
    pipeline_info.stage.pName = "main";
    pipeline_info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline),
          "vkCreateComputePipelines");
  }
  std::fprintf(stderr, "layer_exit_program: %d variable-size pipelines; exit(0) without vkDestroyDevice\n", count);
  bismuth::exittest::mark_exit_called();
  std::exit(0);
}
