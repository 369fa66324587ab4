// Test harness: a Vulkan instance and device through the REAL loader with VK_LAYER_BISMUTH_compute enabled by
// VK_ADD_LAYER_PATH (the layer's build folder, or $BISMUTH_TEST_LAYER_DIR), VK_LAYER_KHRONOS_validation above or
// below it, and the test-only spy layer just above the driver. Every debug-utils message is recorded: validation
// messages fail the test; the Bismuth layer's own ones (message id "VUID-...BISMUTH..." / "BISMUTH-...") are
// returned to the tests that provoke them.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "vulkan/vulkan_bismuth.h"

namespace bismuth::layer_test {

enum class Order { ValidationAboveBismuth, ValidationBelowBismuth };
const char* to_string(Order order);

// Sets the loader's and the layers' environment: VK_ADD_LAYER_PATH, the spy's output folder (a fresh one).
void set_layer_environment();
std::filesystem::path layer_dir();
std::filesystem::path spy_dir();
// The modules the spy saw reaching the driver, in creation order.
std::vector<std::vector<uint32_t>> spied_modules();
void clear_spied_modules();  // and the pipeline log

// The compute pipelines the spy saw reaching the driver (created, with their 4-byte specialization constants) and
// the pipelines destroyed, in order.
struct SpiedPipeline {
  std::string handle;
  std::map<uint32_t, uint32_t> spec;  // constantID -> value
};
struct SpiedPipelines {
  std::vector<SpiedPipeline> created;
  std::vector<std::string> destroyed;
  // Pipelines created with SpecIds 0/1/2 = x/y/z (the group size of a local_size_x_id shader).
  size_t created_at(uint32_t x, uint32_t y, uint32_t z) const;
  bool was_destroyed(const std::string& handle) const;
};
SpiedPipelines spied_pipelines();

// Redirects stderr (fd 2) to a file until finish() or destruction; finish() returns what was written (and echoes it).
class StderrCapture {
 public:
  StderrCapture();
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  std::string finish();

 private:
  std::string path_;
  std::string text_;
  int fd_ = -1;
  int saved_ = -1;
};

// The backend pipeline cache's BISMUTH_STATS block (the last one in `text`).
struct CacheStats {
  bool found = false;
  uint64_t hits = 0, misses = 0, compiles = 0, prewarm_compiles = 0, failures = 0, prewarm_joins = 0,
           single_flight_waits = 0, evictions = 0, entries = 0;
  std::string disk_line;  // "  disk cache: <path> (<status>, loaded N bytes, last save M bytes)"
};
CacheStats parse_cache_stats(const std::string& text);

struct Message {
  std::string id;
  std::string text;
  bool from_bismuth() const;
};

struct DeviceRequest {
  std::vector<const char*> extensions;
  const void* pNext = nullptr;
};

class LayerVulkan {
 public:
  explicit LayerVulkan(Order order, bool with_bismuth = true, uint32_t api_version = VK_API_VERSION_1_1);
  ~LayerVulkan();
  LayerVulkan(const LayerVulkan&) = delete;
  LayerVulkan& operator=(const LayerVulkan&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  uint32_t queue_family() const { return queue_family_; }
  void create_device(const DeviceRequest& request);

  std::vector<VkExtensionProperties> device_extensions(const char* layer = nullptr) const;
  bool has_device_extension(const char* name, const char* layer = nullptr) const;

  // Messages from validation (must stay empty) and from Bismuth.
  std::vector<Message> validation_messages() const;
  std::vector<Message> bismuth_messages() const;

  // Resources for compute tests.
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint32_t* data = nullptr;
    VkDeviceSize size = 0;
  };
  Buffer& buffer(VkDeviceSize bytes);
  VkShaderModule module(const std::vector<uint32_t>& words);
  // Layout: `storage_buffers` storage buffers at bindings 0.., push constants of 16 bytes.
  VkPipelineLayout layout(uint32_t storage_buffers);
  VkDescriptorSet descriptor_set(VkPipelineLayout layout, const std::vector<Buffer*>& buffers);
  VkPipeline compute_pipeline(VkShaderModule module, VkPipelineLayout layout, bool variable_group_size,
                              const void* stage_pnext = nullptr, const VkSpecializationInfo* specialization = nullptr);
  void destroy_pipeline(VkPipeline pipeline);
  void destroy_layout(VkPipelineLayout layout);
  // Records with `record` into a fresh command buffer, submits, waits.
  void run(const std::function<void(VkCommandBuffer)>& record);

  PFN_vkCmdDispatchGroupSizeBISMUTH dispatch_group_size = nullptr;

 private:
  struct Recorder {
    mutable std::mutex mutex;
    std::vector<Message> messages;
  };
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

  std::shared_ptr<Recorder> recorder_ = std::make_shared<Recorder>();
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  std::vector<std::unique_ptr<Buffer>> buffers_;
  std::vector<VkShaderModule> modules_;
  std::vector<VkPipelineLayout> layouts_;
  std::vector<VkDescriptorSetLayout> set_layouts_;
  std::vector<VkPipeline> pipelines_;
};

}  // namespace bismuth::layer_test

// Fails the test on any validation message (and prints them).
#define REQUIRE_NO_VALIDATION_MESSAGES(vk)                                          \
  do {                                                                              \
    const auto bismuth_messages_ = (vk).validation_messages();                      \
    for (const auto& m : bismuth_messages_) UNSCOPED_INFO(m.id << ": " << m.text);  \
    REQUIRE(bismuth_messages_.empty());                                             \
  } while (false)
