// Errors as values: out-of-memory and device-lost paths, exercised by fault injection.
#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

TEST_CASE("Out of device memory on allocation is an error value, and the device stays usable", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    device->inject_fault(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory");
    auto buffer = Buffer::create(*device, 1024);
    REQUIRE_FALSE(buffer);
    CHECK(is_out_of_memory(buffer.error()));
    CHECK_THAT(buffer.error().message, Catch::Contains("vkAllocateMemory") &&
                                           Catch::Contains("VK_ERROR_OUT_OF_DEVICE_MEMORY"));
    CHECK_FALSE(device->lost());
    CHECK(Buffer::create(*device, 1024));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Out of host memory in a pipeline compile fails that request only", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto shader = test::make_add_shader(*device);
    device->inject_fault(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateComputePipelines");
    auto failed = cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}});
    REQUIRE_FALSE(failed);
    CHECK(is_out_of_memory(failed.error()));
    CHECK(cache->size() == 0);
    auto retried = cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}});
    CHECK(retried);
    CHECK(cache->stats().compile_failures == 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("The next Vulkan call fails when no call name is given", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    device->inject_fault(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    auto buffer = Buffer::create(*device, 64);  // vkCreateBuffer is the first call
    REQUIRE_FALSE(buffer);
    CHECK_THAT(buffer.error().message, Catch::Contains("vkCreateBuffer"));
    CHECK(Buffer::create(*device, 64));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Device lost at submission loses the context: every later call fails cleanly", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = CommandStream::create(*device, *cache);
    REQUIRE(stream);
    auto shader = test::make_add_shader(*device);
    auto a = test::make_buffer(*device, 64);
    auto b = test::make_buffer(*device, 64);
    BufferBinding bindings[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const uint32_t push[2] = {64, 1};
    const DispatchInfo info{.shader = shader.get(), .size = {64, 1, 1}, .groups = {1, 1, 1}, .bindings = bindings,
                            .push_constants = std::as_bytes(std::span(push))};
    REQUIRE_OK((*stream)->dispatch(info));
    REQUIRE_OK((*stream)->finish());  // a healthy submission first

    REQUIRE_OK((*stream)->dispatch(info));
    device->inject_fault(VK_ERROR_DEVICE_LOST, "vkQueueSubmit");
    auto finished = (*stream)->finish();
    REQUIRE_FALSE(finished);
    CHECK(is_device_lost(finished.error()));
    CHECK(device->lost());

    auto dispatched = (*stream)->dispatch(info);
    REQUIRE_FALSE(dispatched);
    CHECK(is_device_lost(dispatched.error()));
    auto buffer = Buffer::create(*device, 64);
    REQUIRE_FALSE(buffer);
    CHECK(is_device_lost(buffer.error()));
    auto compiled = cache->get_or_compile({shader.get(), {32, 1, 1}, 0, {}});
    REQUIRE_FALSE(compiled);
    CHECK(is_device_lost(compiled.error()));
    std::vector<uint32_t> words(64);
    auto read = (*stream)->readback(*b, 0, std::as_writable_bytes(std::span(words)));
    REQUIRE_FALSE(read);
    CHECK(is_device_lost(read.error()));
    CHECK_FALSE((*stream)->flush());
    CHECK_FALSE(device->wait_all());
    CHECK_FALSE(CommandStream::create(*device, *cache));
  }
  // Tear-down after the loss destroys everything without touching lost work.
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Device lost while waiting is reported by the wait", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = CommandStream::create(*device, *cache);
    REQUIRE(stream);
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 64);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t iterations = 1000;
    REQUIRE_OK((*stream)->dispatch({.shader = shader.get(), .size = {64, 1, 1}, .groups = {1, 1, 1},
                                    .bindings = {&binding, 1}, .push_constants = test::bytes_of(iterations)}));
    REQUIRE((*stream)->flush());
    device->inject_fault(VK_ERROR_DEVICE_LOST, "vkWaitSemaphores");
    // Nothing polled the timeline since the submission, so finish() really calls vkWaitSemaphores.
    auto finished = (*stream)->finish();
    REQUIRE_FALSE(finished);
    CHECK(is_device_lost(finished.error()));
    CHECK(device->lost());
    CHECK_FALSE((*stream)->dispatch({.shader = shader.get(), .size = {64, 1, 1}, .groups = {1, 1, 1},
                                     .bindings = {&binding, 1}, .push_constants = test::bytes_of(iterations)}));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
