// Loading: the manifest, the loader's enumeration, device extension advertisement, settings that switch it off.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "bismuth/backend/vulkan_loader.hpp"
#include "layer_vulkan.hpp"

using namespace bismuth::layer_test;

namespace {

bool instance_layer_listed(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

Order any_order() { return GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth); }

}  // namespace

TEST_CASE("VK_ADD_LAYER_PATH at the build folder makes vkEnumerateInstanceLayerProperties list the layer") {
  set_layer_environment();
  REQUIRE(bismuth::backend::load_vulkan().has_value());
  CHECK(instance_layer_listed("VK_LAYER_BISMUTH_compute"));
}

TEST_CASE("The layer loads through the loader and passes calls through with validation in either order") {
  const Order order = any_order();
  INFO(to_string(order));
  LayerVulkan vk(order);
  vk.create_device({});
  // A plain fixed-size dispatch through every intercept-free path.
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(vk.physical_device(), &properties);
  CHECK(properties.apiVersion >= VK_API_VERSION_1_1);
  CHECK(vk.dispatch_group_size == nullptr);  // the extension is not enabled on this device
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("vkEnumerateDeviceExtensionProperties lists VK_BISMUTH_variable_group_size with and without the layer name") {
  const Order order = any_order();
  INFO(to_string(order));
  LayerVulkan vk(order);
  CHECK(vk.has_device_extension(VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME));
  CHECK(vk.has_device_extension(VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME, "VK_LAYER_BISMUTH_compute"));
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("vkEnumerateDeviceExtensionProperties returns VK_INCOMPLETE when the array is too small") {
  LayerVulkan vk(Order::ValidationBelowBismuth);
  uint32_t count = 0;
  REQUIRE(vkEnumerateDeviceExtensionProperties(vk.physical_device(), nullptr, &count, nullptr) == VK_SUCCESS);
  REQUIRE(count > 1);
  std::vector<VkExtensionProperties> list(count);
  uint32_t short_count = count - 1;
  CHECK(vkEnumerateDeviceExtensionProperties(vk.physical_device(), nullptr, &short_count, list.data()) ==
        VK_INCOMPLETE);
  CHECK(short_count == count - 1);
  // The layer's own list is one entry without forced emulation (lavapipe has ballot and vote).
  uint32_t own = 0;
  REQUIRE(vkEnumerateDeviceExtensionProperties(vk.physical_device(), "VK_LAYER_BISMUTH_compute", &own, nullptr) ==
          VK_SUCCESS);
  REQUIRE(own >= 1);
  uint32_t zero = 0;
  CHECK(vkEnumerateDeviceExtensionProperties(vk.physical_device(), "VK_LAYER_BISMUTH_compute", &zero, list.data()) ==
        VK_INCOMPLETE);
  CHECK(zero == 0);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A device extension query naming another layer is forwarded to that layer") {
  LayerVulkan vk(Order::ValidationBelowBismuth);
  CHECK_FALSE(vk.has_device_extension(VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME, "VK_LAYER_KHRONOS_validation"));
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Extensions the driver has are not emulated unless BISMUTH_FORCE_EMULATION is set") {
  ::unsetenv("BISMUTH_FORCE_EMULATION");
  LayerVulkan vk(Order::ValidationBelowBismuth);
  const bool native_ballot = vk.has_device_extension(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME);
  CHECK(native_ballot == !vk.has_device_extension(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME,
                                                  "VK_LAYER_BISMUTH_compute"));
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("BISMUTH_FORCE_EMULATION=1 advertises VK_EXT_shader_subgroup_ballot and VK_EXT_shader_subgroup_vote") {
  ::setenv("BISMUTH_FORCE_EMULATION", "1", 1);
  LayerVulkan vk(Order::ValidationBelowBismuth);
  CHECK(vk.has_device_extension(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, "VK_LAYER_BISMUTH_compute"));
  CHECK(vk.has_device_extension(VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME, "VK_LAYER_BISMUTH_compute"));
  // Listed once in the merged list.
  int ballots = 0;
  for (const auto& e : vk.device_extensions())
    ballots += std::strcmp(e.extensionName, VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME) == 0;
  CHECK(ballots == 1);
  vk.create_device({{VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME}});
  ::unsetenv("BISMUTH_FORCE_EMULATION");
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("BISMUTH_DISABLE=1 makes an explicitly enabled layer forward everything and advertise nothing") {
  ::setenv("BISMUTH_DISABLE", "1", 1);
  LayerVulkan vk(Order::ValidationBelowBismuth);
  CHECK_FALSE(vk.has_device_extension(VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME));
  vk.create_device({});
  ::unsetenv("BISMUTH_DISABLE");
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

// What an instance the application creates without naming any layer gets from the implicit manifest: whether
// the layer's extension is advertised, and whether the loader mapped the layer's library (`library`, a path only the
// implicit manifest names) into the process while the instance is alive, i.e. whether the layer is in the chain at all.
struct ImplicitLayerState {
  bool extension_advertised = false;
  bool library_loaded = false;
};

bool library_mapped(const std::filesystem::path& library) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(library.string()) != std::string::npos) return true;
  return false;
}

ImplicitLayerState implicit_layer_state(const std::filesystem::path& library) {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  REQUIRE(vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS);
  volkLoadInstanceOnly(instance);
  ImplicitLayerState state;
  state.library_loaded = library_mapped(library);
  uint32_t count = 1;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  vkEnumeratePhysicalDevices(instance, &count, &physical_device);
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> list(n);
  vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &n, list.data());
  for (uint32_t i = 0; i < n; ++i)
    state.extension_advertised = state.extension_advertised ||
                                 std::strcmp(list[i].extensionName, VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME) == 0;
  vkDestroyInstance(instance, nullptr);
  return state;
}

// The implicit manifest: found by the loader in $XDG_DATA_HOME/vulkan/implicit_layer.d, enabled by BISMUTH_ENABLE=1,
// and not loaded at all with BISMUTH_DISABLE=1 (the loader's disable_environment): its library is never mapped into
// the process, so it is in no instance's chain. (The explicitly enabled layer with
// BISMUTH_DISABLE=1 is loaded but forwards everything: the test above.)
TEST_CASE("The implicit layer loads with BISMUTH_ENABLE=1 and is not loaded with BISMUTH_DISABLE=1") {
  const auto home = std::filesystem::temp_directory_path() / ("bismuth-xdg-" + std::to_string(::getpid()));
  const auto dir = home / "vulkan" / "implicit_layer.d";
  std::filesystem::create_directories(dir);
  // The build's implicit manifest names the library relative to itself: put a copy of both side by side.
  const auto manifest = layer_dir() / "implicit_layer.d" / "VkLayer_bismuth_compute_implicit.json";
  INFO("the build's implicit manifest: " << manifest.string() << " (bundles must copy implicit_layer.d/)");
  REQUIRE(std::filesystem::exists(manifest));
  std::filesystem::copy_file(manifest, dir / "VkLayer_bismuth_compute_implicit.json",
                             std::filesystem::copy_options::overwrite_existing);
  // A copy at a path of its own: the explicit layer that other tests loaded is mapped from the build folder.
  const auto library = home / "vulkan" / "libVkLayer_bismuth_compute.so";
  std::filesystem::copy_file(layer_dir() / "libVkLayer_bismuth_compute.so", library,
                             std::filesystem::copy_options::overwrite_existing);
  ::setenv("XDG_DATA_HOME", home.c_str(), 1);
  ::unsetenv("VK_ADD_LAYER_PATH");
  REQUIRE(bismuth::backend::load_vulkan().has_value());
  REQUIRE_FALSE(library_mapped(library));

  // Disabled first, so that nothing has loaded this copy yet: BISMUTH_DISABLE=1 wins over BISMUTH_ENABLE=1.
  ::setenv("BISMUTH_ENABLE", "1", 1);
  ::setenv("BISMUTH_DISABLE", "1", 1);
  // The loader still lists the manifest as an available layer (Debian 12's loader 1.3.239 does); what matters is
  // that it is not in any instance's chain: its library is never opened.
  INFO("listed by vkEnumerateInstanceLayerProperties while disabled: " << instance_layer_listed("VK_LAYER_BISMUTH_compute"));
  ImplicitLayerState state = implicit_layer_state(library);
  CHECK_FALSE(state.library_loaded);
  CHECK_FALSE(state.extension_advertised);

  ::unsetenv("BISMUTH_DISABLE");
  CHECK(instance_layer_listed("VK_LAYER_BISMUTH_compute"));
  state = implicit_layer_state(library);
  CHECK(state.library_loaded);
  CHECK(state.extension_advertised);

  ::unsetenv("BISMUTH_ENABLE");
  CHECK_FALSE(implicit_layer_state(library).extension_advertised);
  std::filesystem::remove_all(home);
}
