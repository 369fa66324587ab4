// The numWaves proposal's examples through the Vulkan layer: examples/num_waves/*.hlsl compiled by Bismuth's HLSL
// front and *.comp by its GLSL front with the GL link and pipeline (what `bismuth compile` writes for each), a plain
// Vulkan application creating the pipeline with
// VkPipelineShaderStageNumWavesCreateInfoBISMUTH, sizing its dispatch from the committed wave size
// (vkGetPipelineNumWavesPropertiesBISMUTH), and the results checked against the same CPU references as
// examples/num_waves/num_waves_examples.c, with the validation layer below Bismuth (zero messages). The compaction
// example takes a uniform buffer, which this file's Vulkan helper does not bind; it runs through the GL shim.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"
#include "bismuth/translator/hlsl_compiler.hpp"
#include "layer_vulkan.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;

namespace {

constexpr uint32_t kWidth = 64, kTile = 8;

// `bismuth compile`'s GLSL path: the GL front's compile and link, then the pipeline gl_program_pipeline describes.
std::vector<uint32_t> compile_glsl_example(const std::string& source) {
  auto shader = translator::GlShader::compile(source);
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  std::vector<std::shared_ptr<const translator::GlShader>> shaders{shader};
  auto linked = translator::link_gl_program(shaders);
  INFO((linked ? std::string() : linked.error().message));
  REQUIRE(linked);
  REQUIRE(linked->num_waves);
  auto piped = spirv_patch::run_pipeline(linked->spirv, translator::gl_program_pipeline(*linked, CompileTarget{}));
  INFO((piped ? std::string() : piped.error().message));
  REQUIRE(piped);
  return piped->words;
}

std::vector<uint32_t> compile_example(const std::string& file, const std::string& entry) {
  std::ifstream in(std::string(BISMUTH_SOURCE_DIR) + "/examples/num_waves/" + file);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  if (file.ends_with(".comp")) return compile_glsl_example(text.str());
  auto module = translator::compile_hlsl_compute(text.str(), {.source_name = file, .entry_point = entry});
  INFO((module ? std::string() : module.error().message));
  REQUIRE(module);
  REQUIRE(module->num_waves);
  return module->words;
}

uint32_t xorshift(uint32_t& x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

uint32_t half_bits(float value) {  // zero or a normal binary16 value (the depths are k / 1024)
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) == 0) return (bits >> 16) & 0x8000u;
  return ((bits >> 16) & 0x8000u) | (((bits >> 23 & 0xffu) - 127 + 15) << 10) | ((bits >> 13) & 0x3ffu);
}

struct Example {
  LayerVulkan vk{Order::ValidationBelowBismuth};
  PFN_vkGetPipelineNumWavesPropertiesBISMUTH query = nullptr;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkPipelineNumWavesPropertiesBISMUTH properties{};

  Example(const std::string& file, const std::string& entry, uint32_t num_waves, uint32_t min, uint32_t max,
          uint32_t buffers) {
    VkPhysicalDeviceNumWavesFeaturesBISMUTH features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH;
    features.numWaves = VK_TRUE;
    vk.create_device({{VK_BISMUTH_NUM_WAVES_EXTENSION_NAME}, &features});
    query = reinterpret_cast<PFN_vkGetPipelineNumWavesPropertiesBISMUTH>(
        vkGetDeviceProcAddr(vk.device(), "vkGetPipelineNumWavesPropertiesBISMUTH"));
    REQUIRE(query != nullptr);
    layout = vk.layout(buffers);
    // The application restates the shader's [numWaves] and [WaveSize] (docs/VK_BISMUTH_num_waves.adoc).
    VkPipelineShaderStageNumWavesCreateInfoBISMUTH request{};
    request.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_NUM_WAVES_CREATE_INFO_BISMUTH;
    request.numWaves = num_waves;
    request.minWaveSize = min;
    request.maxWaveSize = max;
    request.flags = VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH;
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.pNext = &request;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = vk.module(compile_example(file, entry));
    info.stage.pName = entry.c_str();
    info.layout = layout;
    info.basePipelineIndex = -1;
    REQUIRE(vkCreateComputePipelines(vk.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
    properties.sType = VK_STRUCTURE_TYPE_PIPELINE_NUM_WAVES_PROPERTIES_BISMUTH;
    REQUIRE(query(vk.device(), pipeline, &properties) == VK_SUCCESS);
    CHECK(properties.numWaves == num_waves);
    CHECK(properties.waveSize >= min);
    CHECK(properties.waveSize <= max);
  }
  ~Example() { vkDestroyPipeline(vk.device(), pipeline, nullptr); }

  void dispatch(const std::vector<LayerVulkan::Buffer*>& buffers, uint32_t x, uint32_t y) {
    const VkDescriptorSet set = vk.descriptor_set(layout, buffers);
    vk.run([&](VkCommandBuffer cb) {
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
      vkCmdDispatch(cb, x, y, 1);
    });
  }
};

}  // namespace

TEST_CASE("numWaves examples through the layer: the tile min/max kernels match the CPU reference") {
  struct Case {
    const char* file;
    uint32_t num_waves, min, max;
  };
  const Case c = GENERATE(Case{"tile_minmax_1wave.hlsl", 1, 8, 64}, Case{"tile_minmax_2wave.hlsl", 2, 8, 32},
                          Case{"tile_minmax_1wave.comp", 1, 8, 64}, Case{"tile_minmax_2wave.comp", 2, 8, 32});
  INFO(c.file);
  const bool glsl = std::string(c.file).ends_with(".comp");
  Example example(c.file, glsl ? "main" : "ComputeMinMaxZ", c.num_waves, c.min, c.max, 2);
  auto& depth = example.vk.buffer(kWidth * kWidth * 4);
  auto& tiles = example.vk.buffer((kWidth / kTile) * (kWidth / kTile) * 4);
  float* z = reinterpret_cast<float*>(depth.data);
  uint32_t state = 0x9e3779b9u;
  for (uint32_t i = 0; i < kWidth * kWidth; ++i) z[i] = float(xorshift(state) % 1024u) / 1024.0f;
  example.dispatch({&depth, &tiles}, kWidth / kTile, kWidth / kTile);
  uint32_t wrong = 0;
  for (uint32_t ty = 0; ty < kWidth / kTile; ++ty) {
    for (uint32_t tx = 0; tx < kWidth / kTile; ++tx) {
      float lo = 2, hi = -1;
      for (uint32_t y = 0; y < kTile; ++y) {
        for (uint32_t x = 0; x < kTile; ++x) {
          const float v = z[(ty * kTile + y) * kWidth + tx * kTile + x];
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
      const uint32_t got = tiles.data[ty * (kWidth / kTile) + tx];
      if (got != ((half_bits(hi) << 16) | half_bits(lo)) && wrong++ < 4) UNSCOPED_INFO("tile " << tx << "," << ty);
    }
  }
  CHECK(wrong == 0);
  REQUIRE_NO_VALIDATION_MESSAGES(example.vk);
}
