// Feature 1: shader modules that declare SPV_KHR_shader_ballot or SPV_KHR_subgroup_vote are lowered to the
// Vulkan 1.1 GroupNonUniform instructions (spirv_patch) before the driver sees them, on devices where the layer
// emulates VK_EXT_shader_subgroup_ballot/vote. Every other module goes down untouched: the application's pCode
// pointer itself, no copy.
#include <cstring>
#include <span>
#include <string_view>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "hooks.hpp"

namespace bismuth::vk_layer {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpMemoryModel = 14;

// True when the module's OpExtension instructions (which precede OpMemoryModel, SPIR-V 2.4) name either KHR
// extension. A cheap scan so modules without them are never parsed.
bool declares_khr_ballot_or_vote(std::span<const uint32_t> words) {
  if (words.size() < 5 || words[0] != kSpirvMagic) return false;
  size_t i = 5;
  while (i < words.size()) {
    const uint32_t count = words[i] >> 16;
    const uint32_t opcode = words[i] & 0xffffu;
    if (count == 0 || i + count > words.size()) return false;
    if (opcode == kOpMemoryModel) return false;
    if (opcode == kOpExtension && count > 1) {
      const char* text = reinterpret_cast<const char*>(&words[i + 1]);
      const std::string_view name(text, strnlen(text, (count - 1) * sizeof(uint32_t)));
      if (name == "SPV_KHR_shader_ballot" || name == "SPV_KHR_subgroup_vote") return true;
    }
    i += count;
  }
  return false;
}

}  // namespace

bool rewrite_module(DeviceData& device, const uint32_t* code, size_t code_size, std::vector<uint32_t>& out) {
  if (!(device.lower_ballot || device.lower_vote) || code == nullptr || code_size % 4 != 0) return false;
  const std::span<const uint32_t> words(code, code_size / 4);
  if (!declares_khr_ballot_or_vote(words)) {
    device.stats.modules_passed_through.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  spirv_patch::PipelineOptions lowering;
  lowering.validate.reset();  // the application's module: the validation layer and the driver judge it
  auto patch = spirv_patch::run_pipeline(words, lowering);
  if (!patch) {
    // Invalid SPIR-V is the application's error (VUID-VkShaderModuleCreateInfo-pCode-01377); the module goes
    // down as given and the validation layer or driver reports it.
    report(*device.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, "BISMUTH-shader-lowering-failed",
           "vkCreateShaderModule: cannot lower SPV_KHR_shader_ballot/SPV_KHR_subgroup_vote: " + patch.error().message);
    return false;
  }
  out = std::move(patch->words);
  device.stats.modules_rewritten.fetch_add(1, std::memory_order_relaxed);
  return true;
}

std::shared_ptr<const std::vector<uint32_t>> stage_module_words(DeviceData& device,
                                                                const VkPipelineShaderStageCreateInfo& stage) {
  if (stage.module != VK_NULL_HANDLE) {
    std::lock_guard lock(device.mutex);
    auto it = device.module_words.find(stage.module);
    return it == device.module_words.end() ? nullptr : it->second;
  }
  auto* inline_info =
      find_in_chain<const VkShaderModuleCreateInfo>(stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  if (inline_info == nullptr || inline_info->pCode == nullptr) return nullptr;
  std::vector<uint32_t> lowered;
  if (rewrite_module(device, inline_info->pCode, inline_info->codeSize, lowered))
    return std::make_shared<const std::vector<uint32_t>>(std::move(lowered));
  return std::make_shared<const std::vector<uint32_t>>(inline_info->pCode,
                                                       inline_info->pCode + inline_info->codeSize / 4);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkShaderModule* pShaderModule) {
  auto data = device_data(device);
  if (!data) return VK_ERROR_INITIALIZATION_FAILED;
  try {
    std::vector<uint32_t> rewritten;
    VkShaderModuleCreateInfo copy;
    const VkShaderModuleCreateInfo* info = pCreateInfo;
    if (rewrite_module(*data, pCreateInfo->pCode, pCreateInfo->codeSize, rewritten)) {
      copy = *pCreateInfo;
      copy.pCode = rewritten.data();
      copy.codeSize = rewritten.size() * sizeof(uint32_t);
      info = &copy;
    }
    const VkResult result = data->CreateShaderModule(device, info, pAllocator, pShaderModule);
    if (result == VK_SUCCESS && (data->variable_group_size || data->num_waves) && info->codeSize % 4 == 0) {
      // Kept for variable-size and numWaves pipelines, which respecialise the module's group size.
      auto words = std::make_shared<const std::vector<uint32_t>>(info->pCode, info->pCode + info->codeSize / 4);
      std::lock_guard lock(data->mutex);
      data->module_words[*pShaderModule] = std::move(words);
    }
    return result;
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator) {
  auto data = device_data(device);
  if (!data) return;
  {
    std::lock_guard lock(data->mutex);
    data->module_words.erase(shaderModule);
  }
  data->DestroyShaderModule(device, shaderModule, pAllocator);
}

void InlineModuleRewrites::apply(DeviceData& device, const VkPipelineShaderStageCreateInfo& stage) {
  if (stage.module != VK_NULL_HANDLE) return;
  auto* info = find_in_chain<VkShaderModuleCreateInfo>(stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  if (info == nullptr) return;
  Rewrite rewrite{info, info->pCode, info->codeSize, {}};
  if (!rewrite_module(device, info->pCode, info->codeSize, rewrite.words)) return;
  rewrites_.push_back(std::move(rewrite));
  Rewrite& r = rewrites_.back();
  info->pCode = r.words.data();
  info->codeSize = r.words.size() * sizeof(uint32_t);
}

InlineModuleRewrites::~InlineModuleRewrites() {
  for (auto& r : rewrites_) {
    r.info->pCode = r.code;
    r.info->codeSize = r.code_size;
  }
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                       uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkPipeline* pPipelines) {
  auto data = device_data(device);
  if (!data) return VK_ERROR_INITIALIZATION_FAILED;
  try {
    InlineModuleRewrites rewrites;
    for (uint32_t i = 0; i < createInfoCount; ++i)
      for (uint32_t s = 0; s < pCreateInfos[i].stageCount; ++s) rewrites.apply(*data, pCreateInfos[i].pStages[s]);
    return data->CreateGraphicsPipelines(device, pipelineCache, createInfoCount, pCreateInfos, pAllocator,
                                         pPipelines);
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

}  // namespace bismuth::vk_layer
