#include "layer_vulkan.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "bismuth/backend/vulkan_loader.hpp"

namespace bismuth::layer_test {

const char* to_string(Order order) {
  return order == Order::ValidationAboveBismuth ? "validation above Bismuth" : "validation below Bismuth";
}

std::filesystem::path layer_dir() {
  if (const char* dir = std::getenv("BISMUTH_TEST_LAYER_DIR")) return dir;
  return BISMUTH_TEST_LAYER_DIR_DEFAULT;
}

std::filesystem::path spy_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("bismuth-layer-spy-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

void set_layer_environment() {
  // The spy's manifest sits next to the test binary (bundled with it); the layer's in its build folder.
  const std::string spy_layer_dir = std::getenv("BISMUTH_TEST_SPY_LAYER_DIR") ? std::getenv("BISMUTH_TEST_SPY_LAYER_DIR")
                                                                          : BISMUTH_TEST_SPY_LAYER_DIR_DEFAULT;
  // Keep what the environment already adds (a bundled validation layer on another machine), once.
  static const std::string inherited = std::getenv("VK_ADD_LAYER_PATH") ? std::getenv("VK_ADD_LAYER_PATH") : "";
  std::string path = layer_dir().string() + ":" + spy_layer_dir;
  if (!inherited.empty()) path += ":" + inherited;
  ::setenv("VK_ADD_LAYER_PATH", path.c_str(), 1);
  ::setenv("BISMUTH_SPY_DIR", spy_dir().c_str(), 1);
  // Validation above Bismuth sees the extension's structures; tell it their sizes (its custom_stype_list setting).
  // Size pipelines' cache file: off unless a test asks for a folder.
  ::setenv("BISMUTH_CACHE_DIR", "off", 0);
  // Prewarm (background compiles when a variable-size pipeline is created) off unless a test asks for it, so that
  // the tests that count compiles see only their own.
  ::setenv("BISMUTH_PREWARM", "0", 0);
  // VK_BISMUTH_variable_group_size's three structures, then VK_BISMUTH_num_waves's.
  ::setenv("VK_LAYER_CUSTOM_STYPE_LIST",
           "1000999000:24:1000999001:32:1000999002:24:1001000000:24:1001000001:40:1001000002:48", 1);
}

void clear_spied_modules() {
  for (const auto& entry : std::filesystem::directory_iterator(spy_dir())) std::filesystem::remove(entry.path());
}

std::vector<std::vector<uint32_t>> spied_modules() {
  std::map<int, std::vector<uint32_t>> by_index;
  for (const auto& entry : std::filesystem::directory_iterator(spy_dir())) {
    const std::string name = entry.path().filename().string();  // module-<n>.spv
    if (name.rfind("module-", 0) != 0) continue;
    const int index = std::stoi(name.substr(7));
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    by_index[index] = std::move(words);
  }
  std::vector<std::vector<uint32_t>> out;
  for (auto& [i, w] : by_index) out.push_back(std::move(w));
  return out;
}

SpiedPipelines spied_pipelines() {
  SpiedPipelines log;
  std::ifstream in(spy_dir() / "pipelines.log");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string verb, handle;
    words >> verb >> handle;
    if (verb == "destroy") {
      log.destroyed.push_back(handle);
    } else if (verb == "create") {
      SpiedPipeline p;
      p.handle = handle;
      std::string item;
      while (words >> item) {
        const size_t eq = item.find('=');
        if (eq != std::string::npos) p.spec[std::stoul(item.substr(0, eq))] = std::stoul(item.substr(eq + 1));
      }
      log.created.push_back(std::move(p));
    }
  }
  return log;
}

size_t SpiedPipelines::created_at(uint32_t x, uint32_t y, uint32_t z) const {
  size_t n = 0;
  for (const auto& p : created) {
    auto at = [&](uint32_t id) { auto it = p.spec.find(id); return it == p.spec.end() ? 0u : it->second; };
    if (at(0) == x && at(1) == y && at(2) == z) ++n;
  }
  return n;
}

bool SpiedPipelines::was_destroyed(const std::string& handle) const {
  return std::find(destroyed.begin(), destroyed.end(), handle) != destroyed.end();
}

StderrCapture::StderrCapture() {
  std::fflush(stderr);
  path_ = (std::filesystem::temp_directory_path() / ("bismuth-stderr-" + std::to_string(::getpid()) + ".txt")).string();
  fd_ = ::open(path_.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  saved_ = ::dup(2);
  if (fd_ >= 0 && saved_ >= 0) ::dup2(fd_, 2);
}

StderrCapture::~StderrCapture() { (void)finish(); }

std::string StderrCapture::finish() {
  if (saved_ >= 0) {
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    std::ifstream in(path_);
    text_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::filesystem::remove(path_);
    std::fputs(text_.c_str(), stderr);  // still shown
  }
  return text_;
}

CacheStats parse_cache_stats(const std::string& text) {
  CacheStats s;
  const size_t at = text.rfind("bismuth pipeline cache: ");
  if (at == std::string::npos) return s;
  unsigned long long v[9] = {};
  s.found = std::sscanf(text.c_str() + at,
                        "bismuth pipeline cache: %llu hits, %llu misses, %llu compiles (%llu prewarm, %llu failed), "
                        "%llu prewarm joins, %llu single-flight waits, %llu evictions, %llu disk-cache hits",
                        &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 9;
  s.hits = v[0];
  s.misses = v[1];
  s.compiles = v[2];
  s.prewarm_compiles = v[3];
  s.failures = v[4];
  s.prewarm_joins = v[5];
  s.single_flight_waits = v[6];
  s.evictions = v[7];
  const size_t entries_at = text.find("\n  ", at);
  if (entries_at != std::string::npos) {
    unsigned long long entries = 0;
    if (std::sscanf(text.c_str() + entries_at, "\n  %llu entries", &entries) == 1) s.entries = entries;
  }
  const size_t disk_at = text.find("  disk cache: ", at);
  if (disk_at != std::string::npos) s.disk_line = text.substr(disk_at, text.find('\n', disk_at) - disk_at);
  return s;
}

// NVIDIA's driver fails to load again (VK_ERROR_INCOMPATIBLE_DRIVER) after a few dozen instance create/destroy
// cycles in one process. One instance that lives as long as the process keeps the driver and both layers loaded,
// so the tests' own create/destroy pairs only change reference counts.
void keep_driver_and_layers_loaded() {
  static const VkInstance keep_alive = [] {
    const char* layers[] = {"VK_LAYER_KHRONOS_validation", "VK_LAYER_BISMUTH_compute"};
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = 2;
    info.ppEnabledLayerNames = layers;
    VkInstance instance = VK_NULL_HANDLE;
    return vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS ? instance : VK_NULL_HANDLE;
  }();
  (void)keep_alive;
}

bool Message::from_bismuth() const { return text.rfind("Bismuth: ", 0) == 0; }

VKAPI_ATTR VkBool32 VKAPI_CALL LayerVulkan::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                       VkDebugUtilsMessageTypeFlagsEXT,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* recorder = static_cast<Recorder*>(user);
  std::lock_guard lock(recorder->mutex);
  recorder->messages.push_back({data->pMessageIdName ? data->pMessageIdName : "", data->pMessage ? data->pMessage : ""});
  return VK_FALSE;
}

LayerVulkan::LayerVulkan(Order order, bool with_bismuth, uint32_t api_version) {
  set_layer_environment();
  REQUIRE(backend::load_vulkan().has_value());
  keep_driver_and_layers_loaded();
  std::vector<const char*> layers;
  if (with_bismuth && order == Order::ValidationBelowBismuth) layers.push_back("VK_LAYER_BISMUTH_compute");
  layers.push_back("VK_LAYER_KHRONOS_validation");
  if (with_bismuth && order == Order::ValidationAboveBismuth) layers.push_back("VK_LAYER_BISMUTH_compute");
  layers.push_back("VK_LAYER_BISMUTH_test_spy");
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_DEBUG_REPORT_EXTENSION_NAME};

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "bismuth_layer_tests";
  app.apiVersion = api_version;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = 2;
  info.ppEnabledExtensionNames = extensions;
  REQUIRE(vkCreateInstance(&info, nullptr, &instance_) == VK_SUCCESS);
  volkLoadInstanceOnly(instance_);

  VkDebugUtilsMessengerCreateInfoEXT messenger{};
  messenger.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  messenger.pfnUserCallback = &on_message;
  messenger.pUserData = recorder_.get();
  REQUIRE(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_) == VK_SUCCESS);

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  REQUIRE(!devices.empty());
  // BISMUTH_DEVICE: an index, "cpu", "gpu", or a substring of the name; default: first GPU, else first device.
  const char* selector = std::getenv("BISMUTH_DEVICE");
  physical_device_ = devices[0];
  bool chosen = false;
  for (size_t i = 0; i < devices.size() && !chosen; ++i) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devices[i], &p);
    const bool gpu = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                     p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    std::string name = p.deviceName, sel = selector ? selector : "";
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    std::transform(sel.begin(), sel.end(), sel.begin(), ::tolower);
    if (sel.empty() ? gpu
                    : (sel == std::to_string(i) || (sel == "gpu" && gpu) ||
                       (sel == "cpu" && p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) ||
                       (sel != "gpu" && sel != "cpu" && name.find(sel) != std::string::npos))) {
      physical_device_ = devices[i];
      chosen = true;
    }
  }
}

void LayerVulkan::create_device(const DeviceRequest& request) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queue_family_ = i;
      break;
    }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = queue_family_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = request.pNext;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<uint32_t>(request.extensions.size());
  info.ppEnabledExtensionNames = request.extensions.data();
  // GL_ARB_shader_ballot's 64-bit ballots need Int64.
  VkPhysicalDeviceFeatures supported{}, wanted{};
  vkGetPhysicalDeviceFeatures(physical_device_, &supported);
  wanted.shaderInt64 = supported.shaderInt64;
  info.pEnabledFeatures = &wanted;
  REQUIRE(vkCreateDevice(physical_device_, &info, nullptr, &device_) == VK_SUCCESS);
  volkLoadDevice(device_);
  dispatch_group_size =
      reinterpret_cast<PFN_vkCmdDispatchGroupSizeBISMUTH>(vkGetDeviceProcAddr(device_, "vkCmdDispatchGroupSizeBISMUTH"));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.queueFamilyIndex = queue_family_;
  REQUIRE(vkCreateCommandPool(device_, &pool, nullptr, &pool_) == VK_SUCCESS);
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64};
  VkDescriptorPoolCreateInfo dp{};
  dp.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  dp.maxSets = 32;
  dp.poolSizeCount = 1;
  dp.pPoolSizes = &size;
  REQUIRE(vkCreateDescriptorPool(device_, &dp, nullptr, &descriptor_pool_) == VK_SUCCESS);
}

LayerVulkan::~LayerVulkan() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    for (auto p : pipelines_) vkDestroyPipeline(device_, p, nullptr);
    for (auto l : layouts_) vkDestroyPipelineLayout(device_, l, nullptr);
    for (auto l : set_layouts_) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    for (auto m : modules_) vkDestroyShaderModule(device_, m, nullptr);
    for (auto& b : buffers_) {
      vkDestroyBuffer(device_, b->buffer, nullptr);
      vkFreeMemory(device_, b->memory, nullptr);
    }
    vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
    vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

std::vector<VkExtensionProperties> LayerVulkan::device_extensions(const char* layer) const {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical_device_, layer, &count, nullptr);
  std::vector<VkExtensionProperties> list(count);
  vkEnumerateDeviceExtensionProperties(physical_device_, layer, &count, list.data());
  list.resize(count);
  return list;
}

bool LayerVulkan::has_device_extension(const char* name, const char* layer) const {
  const auto list = device_extensions(layer);
  return std::any_of(list.begin(), list.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<Message> LayerVulkan::validation_messages() const {
  std::lock_guard lock(recorder_->mutex);
  std::vector<Message> out;
  for (const auto& m : recorder_->messages) {
    if (m.from_bismuth()) continue;
    // The one message validation above Bismuth always gives: it has no rules for an extension it does not know.
    // That is a statement about validation coverage, not a usage error (docs/layer.md, "With the validation layer").
    if (m.text.find("Device Extension " VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME
                    " is not supported by this layer") != std::string::npos ||
        m.text.find("Device Extension " VK_BISMUTH_NUM_WAVES_EXTENSION_NAME " is not supported by this layer") !=
            std::string::npos)
      continue;
    out.push_back(m);
  }
  return out;
}

std::vector<Message> LayerVulkan::bismuth_messages() const {
  std::lock_guard lock(recorder_->mutex);
  std::vector<Message> out;
  for (const auto& m : recorder_->messages)
    if (m.from_bismuth()) out.push_back(m);
  return out;
}

LayerVulkan::Buffer& LayerVulkan::buffer(VkDeviceSize bytes) {
  auto b = std::make_unique<Buffer>();
  b->size = bytes;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  REQUIRE(vkCreateBuffer(device_, &info, nullptr, &b->buffer) == VK_SUCCESS);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, b->buffer, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &mem);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < mem.memoryTypeCount && type == UINT32_MAX; ++i)
    if ((req.memoryTypeBits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & want) == want) type = i;
  REQUIRE(type != UINT32_MAX);
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  REQUIRE(vkAllocateMemory(device_, &alloc, nullptr, &b->memory) == VK_SUCCESS);
  REQUIRE(vkBindBufferMemory(device_, b->buffer, b->memory, 0) == VK_SUCCESS);
  void* mapped = nullptr;
  REQUIRE(vkMapMemory(device_, b->memory, 0, VK_WHOLE_SIZE, 0, &mapped) == VK_SUCCESS);
  b->data = static_cast<uint32_t*>(mapped);
  buffers_.push_back(std::move(b));
  return *buffers_.back();
}

VkShaderModule LayerVulkan::module(const std::vector<uint32_t>& words) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = words.size() * 4;
  info.pCode = words.data();
  VkShaderModule m = VK_NULL_HANDLE;
  REQUIRE(vkCreateShaderModule(device_, &info, nullptr, &m) == VK_SUCCESS);
  modules_.push_back(m);
  return m;
}

VkPipelineLayout LayerVulkan::layout(uint32_t storage_buffers) {
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < storage_buffers; ++i)
    bindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  VkDescriptorSetLayoutCreateInfo sl{};
  sl.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  sl.bindingCount = storage_buffers;
  sl.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout;
  REQUIRE(vkCreateDescriptorSetLayout(device_, &sl, nullptr, &set_layout) == VK_SUCCESS);
  set_layouts_.push_back(set_layout);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
  VkPipelineLayoutCreateInfo pl{};
  pl.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &set_layout;
  pl.pushConstantRangeCount = 1;
  pl.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  REQUIRE(vkCreatePipelineLayout(device_, &pl, nullptr, &layout) == VK_SUCCESS);
  layouts_.push_back(layout);
  return layout;
}

VkDescriptorSet LayerVulkan::descriptor_set(VkPipelineLayout layout, const std::vector<Buffer*>& buffers) {
  const size_t index = std::find(layouts_.begin(), layouts_.end(), layout) - layouts_.begin();
  VkDescriptorSetAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  alloc.descriptorPool = descriptor_pool_;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &set_layouts_[index];
  VkDescriptorSet set;
  REQUIRE(vkAllocateDescriptorSets(device_, &alloc, &set) == VK_SUCCESS);
  std::vector<VkDescriptorBufferInfo> infos;
  for (auto* b : buffers) infos.push_back({b->buffer, 0, VK_WHOLE_SIZE});
  std::vector<VkWriteDescriptorSet> writes;
  for (uint32_t i = 0; i < infos.size(); ++i) {
    VkWriteDescriptorSet w{};
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.dstBinding = i;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &infos[i];
    writes.push_back(w);
  }
  vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return set;
}

VkPipeline LayerVulkan::compute_pipeline(VkShaderModule module, VkPipelineLayout layout, bool variable_group_size,
                                         const void* stage_pnext, const VkSpecializationInfo* specialization) {
  VkComputePipelineVariableGroupSizeCreateInfoBISMUTH variable{};
  variable.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH;
  variable.variableGroupSize = VK_TRUE;
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.pNext = variable_group_size ? &variable : nullptr;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.pNext = stage_pnext;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout;
  info.basePipelineIndex = -1;
  VkPipeline pipeline = VK_NULL_HANDLE;
  REQUIRE(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
  pipelines_.push_back(pipeline);
  return pipeline;
}

void LayerVulkan::destroy_layout(VkPipelineLayout layout) {
  vkDestroyPipelineLayout(device_, layout, nullptr);
  layouts_.erase(std::remove(layouts_.begin(), layouts_.end(), layout), layouts_.end());
}

void LayerVulkan::destroy_pipeline(VkPipeline pipeline) {
  vkDestroyPipeline(device_, pipeline, nullptr);
  pipelines_.erase(std::remove(pipelines_.begin(), pipelines_.end(), pipeline), pipelines_.end());
}

void LayerVulkan::run(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cb;
  REQUIRE(vkAllocateCommandBuffers(device_, &alloc, &cb) == VK_SUCCESS);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  REQUIRE(vkBeginCommandBuffer(cb, &begin) == VK_SUCCESS);
  record(cb);
  // Make shader writes visible to the host (spec "Host Write Ordering Guarantees" is the other direction).
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  REQUIRE(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS);
  REQUIRE(vkQueueWaitIdle(queue_) == VK_SUCCESS);
  vkFreeCommandBuffers(device_, pool_, 1, &cb);
}

}  // namespace bismuth::layer_test
