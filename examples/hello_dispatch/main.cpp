// hello_dispatch: compiles a GLSL compute shader with glslang at run time, runs it once on the device Bismuth
// selects (BISMUTH_DEVICE), reads the buffer back and checks every word against the same formula on the CPU.
//
//   hello_dispatch [--validate] [--words N]
//
// --validate enables VK_LAYER_KHRONOS_validation and fails on any message it reports (the ctest uses it).
// Exit code: 0 all words match, 1 a mismatch or a Vulkan error, 2 no Vulkan driver.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/vk_strings.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

namespace {

constexpr const char* kShader = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer Words { uint words[]; };
layout(push_constant) uniform Push { uint count; uint seed; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) words[i] = (i * 2654435761u) ^ seed;
}
)";

uint32_t expected_word(uint32_t i, uint32_t seed) { return (i * 2654435761u) ^ seed; }

struct Failure {
  std::string what;
};

void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) {
    throw Failure{std::string(call) + " failed: " + std::string(bismuth::backend::vk_result_string(result))};
  }
}

// Owns the Vulkan objects of one run and destroys them in reverse order, also on failure.
struct Run {
  VkDevice device = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

  ~Run() {
    if (device == VK_NULL_HANDLE) return;
    vkDeviceWaitIdle(device);
    vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, command_pool, nullptr);
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
    vkDestroyDevice(device, nullptr);
  }
};

uint32_t find_compute_queue_family(VkPhysicalDevice physical) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  }
  throw Failure{"the device has no compute queue"};
}

uint32_t find_host_visible_memory(VkPhysicalDevice physical, uint32_t type_bits) {
  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  }
  throw Failure{"the device has no host-visible coherent memory for the buffer"};
}

// Returns the number of mismatching words.
uint32_t dispatch_and_check(const bismuth::backend::DeviceInfo& info, const std::vector<uint32_t>& spirv,
                            uint32_t word_count) {
  const uint32_t seed = 0xB15B15u;
  Run run;
  const uint32_t family = find_compute_queue_family(info.handle);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  check(vkCreateDevice(info.handle, &device_info, nullptr, &run.device), "vkCreateDevice");
  volkLoadDevice(run.device);
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(run.device, family, 0, &queue);

  const VkDeviceSize bytes = VkDeviceSize(word_count) * sizeof(uint32_t);
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = bytes;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  check(vkCreateBuffer(run.device, &buffer_info, nullptr, &run.buffer), "vkCreateBuffer");
  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(run.device, run.buffer, &requirements);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = find_host_visible_memory(info.handle, requirements.memoryTypeBits);
  check(vkAllocateMemory(run.device, &allocate, nullptr, &run.memory), "vkAllocateMemory");
  check(vkBindBufferMemory(run.device, run.buffer, run.memory, 0), "vkBindBufferMemory");
  void* mapped = nullptr;
  check(vkMapMemory(run.device, run.memory, 0, bytes, 0, &mapped), "vkMapMemory");
  std::memset(mapped, 0, bytes);

  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = spirv.size() * sizeof(uint32_t);
  module_info.pCode = spirv.data();
  check(vkCreateShaderModule(run.device, &module_info, nullptr, &run.module), "vkCreateShaderModule");

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = 1;
  set_layout_info.pBindings = &binding;
  check(vkCreateDescriptorSetLayout(run.device, &set_layout_info, nullptr, &run.set_layout),
        "vkCreateDescriptorSetLayout");
  VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 2 * sizeof(uint32_t)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &run.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push_range;
  check(vkCreatePipelineLayout(run.device, &layout_info, nullptr, &run.pipeline_layout), "vkCreatePipelineLayout");

  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = run.module;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = run.pipeline_layout;
  check(vkCreateComputePipelines(run.device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &run.pipeline),
        "vkCreateComputePipelines");

  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  check(vkCreateDescriptorPool(run.device, &pool_info, nullptr, &run.pool), "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = run.pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &run.set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  check(vkAllocateDescriptorSets(run.device, &set_info, &set), "vkAllocateDescriptorSets");
  VkDescriptorBufferInfo descriptor_buffer{run.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &descriptor_buffer;
  vkUpdateDescriptorSets(run.device, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool_info.queueFamilyIndex = family;
  check(vkCreateCommandPool(run.device, &command_pool_info, nullptr, &run.command_pool), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  command_info.commandPool = run.command_pool;
  command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  command_info.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(run.device, &command_info, &commands), "vkAllocateCommandBuffers");

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, run.pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, run.pipeline_layout, 0, 1, &set, 0, nullptr);
  const uint32_t push[2] = {word_count, seed};
  vkCmdPushConstants(commands, run.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
  vkCmdDispatch(commands, (word_count + 63) / 64, 1, 1);
  // Make the shader's writes visible to the host read after the fence.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vkCreateFence(run.device, &fence_info, nullptr, &run.fence), "vkCreateFence");
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  check(vkQueueSubmit(queue, 1, &submit, run.fence), "vkQueueSubmit");
  check(vkWaitForFences(run.device, 1, &run.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

  const auto* words = static_cast<const uint32_t*>(mapped);
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < word_count; ++i) {
    if (words[i] != expected_word(i, seed)) {
      if (mismatches < 8) {
        std::fprintf(stderr, "hello_dispatch: word %u is 0x%08x, expected 0x%08x\n", i, words[i],
                     expected_word(i, seed));
      }
      ++mismatches;
    }
  }
  return mismatches;
}

}  // namespace

int main(int argc, char** argv) {
  bool validate = false;
  uint32_t word_count = 1u << 16;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--validate") == 0) {
      validate = true;
    } else if (std::strcmp(argv[i], "--words") == 0 && i + 1 < argc) {
      word_count = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 0));
    } else {
      std::fprintf(stderr, "usage: hello_dispatch [--validate] [--words N]\n");
      return 1;
    }
  }
  if (word_count == 0) word_count = 1;

  std::mutex messages_mutex;
  std::vector<std::string> messages;
  bismuth::backend::InstanceOptions instance_options;
  instance_options.application_name = "hello_dispatch";
  instance_options.enable_validation = validate;
  if (validate) {
    instance_options.on_debug_message = [&](const bismuth::backend::DebugMessage& m) {
      std::lock_guard lock(messages_mutex);
      messages.push_back(m.id_name + ": " + m.text);
    };
  }
  auto instance = bismuth::backend::Instance::create(instance_options);
  if (!instance) {
    std::fprintf(stderr, "hello_dispatch: %s\n", instance.error().message.c_str());
    const auto code = instance.error().code;
    return code == VK_ERROR_INITIALIZATION_FAILED || code == VK_ERROR_INCOMPATIBLE_DRIVER ? 2 : 1;
  }
  auto devices = bismuth::backend::enumerate_devices(**instance);
  if (!devices) {
    std::fprintf(stderr, "hello_dispatch: %s\n", devices.error().message.c_str());
    return 2;
  }
  auto selected = bismuth::backend::select_device(*devices, bismuth::backend::DeviceSelector::from_environment());
  if (!selected) {
    std::fprintf(stderr, "hello_dispatch: %s\n", selected.error().message.c_str());
    return 1;
  }
  const bismuth::backend::DeviceInfo& device = (*devices)[*selected];

  auto spirv = bismuth::translator::compile_glsl_compute(kShader, {.source_name = "hello_dispatch.comp"});
  if (!spirv) {
    std::fprintf(stderr, "hello_dispatch: %s\n", spirv.error().message.c_str());
    return 1;
  }
  if (auto valid = bismuth::spirv_patch::validate(*spirv, bismuth::spirv_patch::TargetEnv::Vulkan1_1); !valid) {
    std::fprintf(stderr, "hello_dispatch: %s\n", valid.error().message.c_str());
    return 1;
  }

  uint32_t mismatches = 0;
  try {
    mismatches = dispatch_and_check(device, *spirv, word_count);
  } catch (const Failure& failure) {
    std::fprintf(stderr, "hello_dispatch: %s\n", failure.what.c_str());
    return 1;
  }
  // Destroying the instance last lets the validation layer report anything left behind before we judge.
  const std::string device_name = device.name;
  instance->reset();
  for (const std::string& message : messages) std::fprintf(stderr, "hello_dispatch: validation: %s\n", message.c_str());
  if (mismatches != 0 || !messages.empty()) {
    std::printf("hello_dispatch: FAIL on %s: %u of %u words wrong, %zu validation messages\n", device_name.c_str(),
                mismatches, word_count, messages.size());
    return 1;
  }
  std::printf("hello_dispatch: OK on %s: %u words checked%s\n", device_name.c_str(), word_count,
              validate ? " (validation layer: no messages)" : "");
  return 0;
}
