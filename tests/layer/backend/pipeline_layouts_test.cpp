// Device::pipeline_layouts: shaders of one binding description share one descriptor set layout and pipeline layout
// (Vulkan spec, "Pipeline Layout Compatibility": "Two pipeline layouts are defined to be 'compatible for push
// constants' if they were created with identical push constant ranges", and compatible for set N when "they were
// created with identically defined descriptor set layouts for sets zero through N"), so a program loop's links
// create no Vulkan objects; a shader of another description gets its own pair, and shared pipelines still run.
#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

TEST_CASE("Shaders of one binding description share their layouts, other descriptions get their own",
          "[vulkan][layouts]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = test::make_stream(*device, *cache);
    const size_t before = device->pipeline_layout_count();
    auto a = test::make_add_shader(*device, "a");
    auto b = test::make_add_shader(*device, "b");
    CHECK(a->pipeline_layout() == b->pipeline_layout());
    CHECK(a->set_layout() == b->set_layout());
    CHECK(device->pipeline_layout_count() == before + 1);
    // Another description: one buffer, other push-constant bytes.
    auto probe = test::make_probe_shader(*device);
    auto spin = test::make_spin_shader(*device);
    CHECK(probe->pipeline_layout() != a->pipeline_layout());
    CHECK(spin->pipeline_layout() != probe->pipeline_layout());  // the same binding, 4 push-constant bytes more
    CHECK(device->pipeline_layout_count() == before + 3);
    // A shader destroyed takes nothing with it: the next shader of its description gets the same pair and runs.
    const VkPipelineLayout shared = a->pipeline_layout();
    a.reset();
    auto c = test::make_add_shader(*device, "c");
    CHECK(c->pipeline_layout() == shared);
    constexpr uint32_t n = 64;
    auto in = test::make_buffer(*device, n);
    auto out = test::make_buffer(*device, n);
    std::vector<uint32_t> words(n);
    for (uint32_t i = 0; i < n; ++i) words[i] = i;
    REQUIRE_OK(stream->upload(*in, 0, test::bytes_of(words)));
    uint32_t add = 1000;
    for (const auto& shader : {b, c}) {
      const uint32_t push[2] = {n, add};
      BufferBinding bindings[2] = {{in.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                   {out.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {n, 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = bindings,
                                   .push_constants = test::bytes_of(push)}));
      const auto result = test::read_words(*stream, *out, n);
      for (uint32_t i = 0; i < n; ++i) {
        if (result[i] != i + add) FAIL("word " << i << " is " << result[i] << " through " << shader->name());
      }
      add += 1000;
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
