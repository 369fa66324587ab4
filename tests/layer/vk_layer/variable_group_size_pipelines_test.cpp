// VK_BISMUTH_variable_group_size: the size pipelines behind a variable-size pipeline — the backend's pipeline cache
// and its file, their destruction with the parent, prewarm (default sizes, off, stopped early, whole subgroups) and
// concurrent recording at the same sizes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "variable_group_size_support.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;
using namespace bismuth::layer_test::variable_group_size;

TEST_CASE("Size pipelines come from the backend's pipeline cache: BISMUTH_STATS counts its hits, misses and compiles") {
  const Order order = any_order();
  INFO(to_string(order));
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  {
    Fixture f(order);
    auto& out = f.vk.buffer(4096 * 4);
    clear_spied_modules();
    const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    // 3 new sizes, 3 repeats, and the module's own size (1x1x1: the application's pipeline, not the cache).
    dispatch_sizes(f, pipeline, out, {{3, 1, 1}, {5, 2, 1}, {3, 1, 1}, {8, 1, 1}, {5, 2, 1}, {1, 1, 1}, {8, 1, 1}});
    const SpiedPipelines spied = spied_pipelines();
    CHECK(spied.created.size() == 4);  // the parent and three size pipelines, each compiled once
    CHECK(spied.created_at(3, 1, 1) == 1);
    CHECK(spied.created_at(5, 2, 1) == 1);
    CHECK(spied.created_at(8, 1, 1) == 1);
    REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  }
  const CacheStats s = parse_cache_stats(capture.finish());
  REQUIRE(s.found);
  CHECK(s.compiles == 3);
  CHECK(s.misses == 3);
  CHECK(s.hits == 3);
  CHECK(s.prewarm_compiles == 0);  // BISMUTH_PREWARM=0 in the harness
  CHECK(s.evictions == 0);
}

TEST_CASE("Destroying the parent destroys its size pipelines, and only after the submissions that used them") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto& out = f.vk.buffer(4096 * 4);
  clear_spied_modules();
  const VkPipeline first = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const VkPipeline second = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const std::vector<Size> sizes = {{2, 1, 1}, {4, 4, 1}, {16, 1, 1}};
  // Submitted and waited for (run()): after this the application may destroy `first` (VUID-00765).
  dispatch_sizes(f, first, out, sizes);
  dispatch_sizes(f, second, out, sizes);
  SpiedPipelines spied = spied_pipelines();
  REQUIRE(spied.created.size() == 2 + 2 * sizes.size());
  // Nothing was destroyed while the application held both pipelines, however many sizes it compiled.
  CHECK(spied.destroyed.empty());
  const std::string first_handle = spied.created[0].handle;
  // Which size pipelines belong to `first`: the three created right after the first dispatch started.
  std::vector<std::string> first_sizes, second_sizes;
  for (size_t i = 2; i < 2 + sizes.size(); ++i) first_sizes.push_back(spied.created[i].handle);
  for (size_t i = 2 + sizes.size(); i < spied.created.size(); ++i) second_sizes.push_back(spied.created[i].handle);
  f.vk.destroy_pipeline(first);
  spied = spied_pipelines();
  CHECK(spied.was_destroyed(first_handle));
  for (const auto& h : first_sizes) CHECK(spied.was_destroyed(h));
  for (const auto& h : second_sizes) CHECK_FALSE(spied.was_destroyed(h));
  // `second` still dispatches at its sizes (its pipelines are intact) and compiles nothing new.
  dispatch_sizes(f, second, out, sizes);
  CHECK(spied_pipelines().created.size() == spied.created.size());
  f.vk.destroy_pipeline(second);
  spied = spied_pipelines();
  for (const auto& h : second_sizes) CHECK(spied.was_destroyed(h));
  // With validation below Bismuth, destroying a pipeline a pending command buffer uses would be reported
  // (VUID-vkDestroyPipeline-pipeline-00765), and one left behind at vkDestroyDevice too.
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("The size pipelines' cache is saved to BISMUTH_CACHE_DIR and loaded by the next vkCreateDevice") {
  const auto dir = std::filesystem::temp_directory_path() / ("bismuth-layer-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ScopedEnv cache_dir("BISMUTH_CACHE_DIR", dir.c_str());
  ScopedEnv stats("BISMUTH_STATS", "1");
  const std::vector<Size> sizes = {{16, 1, 1}, {6, 6, 1}, {40, 1, 1}};
  std::string first_run, second_run;
  for (std::string* text : {&first_run, &second_run}) {
    StderrCapture capture;
    {
      Fixture f(Order::ValidationBelowBismuth);
      auto& out = f.vk.buffer(4096 * 4);
      const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
      dispatch_sizes(f, pipeline, out, sizes);
      REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
      CHECK(f.vk.bismuth_messages().empty());  // no warning about the file
    }
    *text = capture.finish();
  }
  // The backend's file format and name: pipelines-<vendor>-<device>-<driver>-<uuid>.bin, one per device.
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().filename().string().rfind("pipelines-", 0) == 0);
    ++files;
  }
  CHECK(files == 1);
  const CacheStats first = parse_cache_stats(first_run);
  const CacheStats second = parse_cache_stats(second_run);
  REQUIRE(first.found);
  REQUIRE(second.found);
  INFO(first.disk_line << "\n" << second.disk_line);
  CHECK(first.disk_line.find("(no file, loaded 0 bytes") != std::string::npos);
  CHECK(second.disk_line.find("(loaded, loaded ") != std::string::npos);
  CHECK(second.disk_line.find("loaded 0 bytes") == std::string::npos);
  CHECK(second.compiles == sizes.size());  // compiled through the loaded VkPipelineCache
  std::filesystem::remove_all(dir);
}

TEST_CASE("Creating a variable-size pipeline prewarms the backend's default sizes in the background") {
  const Order order = any_order();
  INFO(to_string(order));
  ScopedEnv prewarm("BISMUTH_PREWARM", "4");  // the first four of the default set: 64, 128, 256, 32
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  {
    Fixture f(order);
    auto& out = f.vk.buffer(4096 * 4);
    clear_spied_modules();
    const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    const std::vector<Size> prewarmed = {{64, 1, 1}, {128, 1, 1}, {256, 1, 1}, {32, 1, 1}};
    // The compiles reach the driver from the layer's background workers, without any dispatch.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    auto all_compiled = [&] {
      const SpiedPipelines spied = spied_pipelines();
      for (const auto& s : prewarmed)
        if (spied.created_at(s[0], s[1], s[2]) != 1) return false;
      return true;
    };
    while (!all_compiled() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE(all_compiled());
    // First use of each is a hit: nothing more is compiled.
    dispatch_sizes(f, pipeline, out, prewarmed);
    CHECK(spied_pipelines().created.size() == 1 + prewarmed.size());
    REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  }
  const CacheStats s = parse_cache_stats(capture.finish());
  REQUIRE(s.found);
  CHECK(s.prewarm_compiles == 4);
  CHECK(s.compiles == 4);
  CHECK(s.hits == 4);
  CHECK(s.misses == 0);
}

TEST_CASE("BISMUTH_PREWARM=off compiles no size before it is dispatched") {
  ScopedEnv prewarm("BISMUTH_PREWARM", "off");
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  {
    Fixture f(Order::ValidationBelowBismuth);
    clear_spied_modules();
    f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // what prewarm would have had to start
    CHECK(spied_pipelines().created.size() == 1);  // the parent only
    REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  }
  const CacheStats s = parse_cache_stats(capture.finish());
  REQUIRE(s.found);
  CHECK(s.compiles == 0);
}

TEST_CASE("Prewarm stops when the parent is destroyed at once, and never uses a destroyed pipeline layout",
          "[concurrency]") {
  const Order order = any_order();
  INFO(to_string(order));
  ScopedEnv prewarm("BISMUTH_PREWARM", "64");
  Fixture f(order);
  for (int i = 0; i < 3; ++i) {
    const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    f.vk.destroy_pipeline(pipeline);  // while its 64 prewarm compiles are queued or running
  }
  // A layout destroyed while the pipeline lives: its prewarm stops before the layout goes.
  const VkPipelineLayout layout = f.vk.layout(1);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), layout, true);
  f.vk.destroy_layout(layout);
  // With validation below Bismuth, a compile with the destroyed layout would be reported.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  f.vk.destroy_pipeline(pipeline);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("VUID-vkCmdDispatchGroupSizeBISMUTH-layout-10012: a dispatch after the pipeline layout was destroyed is "
          "reported and skipped") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto& out = f.vk.buffer(1024 * 4);
  std::fill(out.data, out.data + 1024, 0xffffffffu);
  // A second, identically defined layout (compatible for binding) that is destroyed after the pipeline's creation.
  const VkPipelineLayout doomed = f.vk.layout(1);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), doomed, true);
  f.vk.destroy_layout(doomed);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {8, 0};
    vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    f.vk.dispatch_group_size(cb, 1, 1, 1, 8, 1, 1);
  });
  CHECK(has_message(f.vk, "VUID-vkCmdDispatchGroupSizeBISMUTH-layout-10012"));
  CHECK(out.data[0] == 0xffffffffu);  // skipped
  f.vk.destroy_pipeline(pipeline);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("Threads recording vkCmdDispatchGroupSizeBISMUTH at the same sizes concurrently compile each size once "
          "and get correct results", "[concurrency]") {
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  std::optional<Fixture> fixture;
  fixture.emplace(Order::ValidationBelowBismuth);
  Fixture& f = *fixture;
  clear_spied_modules();
  constexpr int kThreads = 4;
  const std::vector<Size> sizes = {{3, 1, 1}, {8, 2, 1}, {5, 5, 1}, {16, 1, 4}, {3, 1, 1}, {32, 1, 1}};
  uint32_t per_thread = 0;
  for (const auto& s : sizes) per_thread += 2 * s[0] * s[1] * s[2];
  auto& out = f.vk.buffer(uint64_t{per_thread} * kThreads * 4);
  std::fill(out.data, out.data + per_thread * kThreads, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  // One command buffer per thread, recorded in parallel (each from its own pool: pools are externally synchronised),
  // then submitted together by the harness's run() of the primary that executes nothing else.
  std::vector<VkCommandPool> pools(kThreads);
  std::vector<VkCommandBuffer> buffers(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    VkCommandPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    info.queueFamilyIndex = f.vk.queue_family();
    REQUIRE(vkCreateCommandPool(f.vk.device(), &info, nullptr, &pools[t]) == VK_SUCCESS);
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pools[t];
    alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
    alloc.commandBufferCount = 1;
    REQUIRE(vkAllocateCommandBuffers(f.vk.device(), &alloc, &buffers[t]) == VK_SUCCESS);
  }
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  std::atomic<int> ready{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();  // start together: the misses race
      VkCommandBufferInheritanceInfo inheritance{};
      inheritance.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO;
      VkCommandBufferBeginInfo begin{};
      begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
      begin.pInheritanceInfo = &inheritance;
      if (vkBeginCommandBuffer(buffers[t], &begin) != VK_SUCCESS) ++failures;
      vkCmdBindPipeline(buffers[t], VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(buffers[t], VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
      uint32_t base = per_thread * static_cast<uint32_t>(t);
      for (const auto& s : sizes) {
        const uint32_t push[2] = {s[0] * s[1] * s[2], base};
        vkCmdPushConstants(buffers[t], f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
        f.vk.dispatch_group_size(buffers[t], 1, 1, 1, s[0], s[1], s[2]);
        base += 2 * s[0] * s[1] * s[2];
      }
      if (vkEndCommandBuffer(buffers[t]) != VK_SUCCESS) ++failures;
    });
  for (auto& th : threads) th.join();
  REQUIRE(failures == 0);
  f.vk.run([&](VkCommandBuffer cb) { vkCmdExecuteCommands(cb, kThreads, buffers.data()); });
  uint32_t wrong = 0;
  for (int t = 0; t < kThreads; ++t) {
    uint32_t base = per_thread * static_cast<uint32_t>(t);
    for (const auto& s : sizes) {
      const uint32_t invocations = s[0] * s[1] * s[2];
      for (uint32_t li = 0; li < invocations; ++li) {
        const uint32_t x = li % s[0], y = li / s[0] % s[1], z = li / (s[0] * s[1]);
        const uint32_t* r = &out.data[base + 2 * li];
        if (r[0] != (x | y << 10 | z << 20) || r[1] != (s[0] | s[1] << 10 | s[2] << 20)) ++wrong;
      }
      base += 2 * invocations;
    }
  }
  CHECK(wrong == 0);
  // One compile per distinct size reached the driver, whichever thread missed first; the others waited for it.
  const SpiedPipelines spied = spied_pipelines();
  CHECK(spied.created.size() == 1 + 5);
  for (const auto& s : sizes) CHECK(spied.created_at(s[0], s[1], s[2]) == 1);
  for (int t = 0; t < kThreads; ++t) vkDestroyCommandPool(f.vk.device(), pools[t], nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  fixture.reset();
  const CacheStats cache = parse_cache_stats(capture.finish());
  REQUIRE(cache.found);
  CHECK(cache.compiles == 5);
  CHECK(cache.hits + cache.misses == kThreads * sizes.size());
  CHECK(cache.misses >= 5);
  CHECK(cache.single_flight_waits <= cache.misses - 5);  // a miss may find the compile just finished
}

TEST_CASE("Prewarm of a REQUIRE_FULL_SUBGROUPS stage compiles only whole numbers of subgroups") {
  ScopedEnv prewarm("BISMUTH_PREWARM", "64");
  VkPhysicalDeviceVulkan13Features features13{};
  features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  features13.subgroupSizeControl = VK_TRUE;
  features13.computeFullSubgroups = VK_TRUE;
  {
    // Only on a device that has the features (lavapipe does).
    LayerVulkan probe(Order::ValidationBelowBismuth, true, VK_API_VERSION_1_3);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(probe.physical_device(), &properties);
    VkPhysicalDeviceVulkan13Features supported{};
    supported.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    VkPhysicalDeviceFeatures2 features2{};
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features2.pNext = &supported;
    if (properties.apiVersion >= VK_API_VERSION_1_3) vkGetPhysicalDeviceFeatures2(probe.physical_device(), &features2);
    if (properties.apiVersion < VK_API_VERSION_1_3 || !supported.subgroupSizeControl ||
        !supported.computeFullSubgroups) {
      WARN("the device lacks computeFullSubgroups: nothing to check");
      return;
    }
  }
  // Validation below Bismuth checks every prewarm compile: a local size x that is not a multiple of the subgroup
  // size with REQUIRE_FULL_SUBGROUPS is an error (VUID-VkPipelineShaderStageCreateInfo-flags-02759).
  Fixture f(Order::ValidationBelowBismuth, VK_API_VERSION_1_3, &features13);
  clear_spied_modules();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint results[]; };
void main() { results[gl_GlobalInvocationID.x] = gl_LocalInvocationIndex; }
)";
  const VkShaderModule module = f.vk.module(compile(source));
  VkComputePipelineVariableGroupSizeCreateInfoBISMUTH variable{};
  variable.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH;
  variable.variableGroupSize = VK_TRUE;
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.pNext = &variable;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = f.layout;
  info.basePipelineIndex = -1;
  VkPipeline pipeline = VK_NULL_HANDLE;
  REQUIRE(vkCreateComputePipelines(f.vk.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
  // Until the background compiles settle (the count stops growing).
  size_t seen = 0;
  auto quiet_since = std::chrono::steady_clock::now();
  const auto deadline = quiet_since + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline &&
         std::chrono::steady_clock::now() - quiet_since < std::chrono::milliseconds(500)) {
    const size_t now = spied_pipelines().created.size();
    if (now != seen) {
      seen = now;
      quiet_since = std::chrono::steady_clock::now();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(seen > 1);  // the parent and some prewarmed sizes
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}
