// default_uniforms_to_uniform_block and atomic_counters_to_storage_buffers: OpenGL SPIR-V (ARB_gl_spirv) storage
// classes Vulkan lacks, through run_pipeline as the GL shim runs them. Every output passes spirv-val for Vulkan 1.1
// (the pipeline validates), and runs on the selected device (lavapipe on CI) with the validation layer on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "gl_spirv_modules.hpp"
#include "shader_sources.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using namespace bismuth::spirv_patch;
using bismuth::test::assemble_or_fail;
using bismuth::test::BufferBinding;
using bismuth::test::BufferDevice;
using bismuth::test::MultiBufferDispatch;
using bismuth::test::ValidatedVulkan;
namespace modules = bismuth::test::gl_spirv;

namespace {

std::vector<uint32_t> lowered(const std::vector<uint32_t>& words, const PipelineOptions& options) {
  auto result = run_pipeline(words, options);
  if (!result) FAIL(result.error().message);
  REQUIRE_VALID(result->words, TargetEnv::Vulkan1_1);
  return result->words;
}

PipelineOptions uniform_block_at(uint32_t binding) {
  PipelineOptions options;
  options.default_uniform_block = DefaultUniformBlockOptions{0, binding};
  return options;
}

uint32_t float_bits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}

bool has_storage_class(const std::vector<uint32_t>& words, spv::StorageClass storage) {
  auto m = Module::parse(words);
  if (!m) return false;
  for (auto h : m->instructions(Section::Global)) {
    if (m->opcode(h) == spv::Op::OpVariable && m->words(h)[3] == uint32_t(storage)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("Default-block uniforms: std140 offsets, one location per array element, checked overlaps") {
  auto m = Module::parse(assemble_or_fail(modules::kDefaultUniforms, SPV_ENV_UNIVERSAL_1_0));
  REQUIRE_OK(m);
  auto layout = default_uniform_layout(*m);
  REQUIRE_OK(layout);
  REQUIRE(layout->uniforms.size() == 5);
  const auto& u = layout->uniforms;
  // GL 4.6 §7.6.2.2 (std140): a scalar is aligned to its size; "If the member is an array of scalars or vectors,
  // the base alignment and array stride are set to match the base alignment of a single array element, according
  // to rules (1), (2), and (3), and rounded up to the base alignment of a vec4"; a column-major matrix is "an
  // array of C column vectors with R components each"; a two-component vector is aligned to 2N.
  CHECK((u[0].location == 0 && u[0].offset == 0 && u[0].scalar == UniformScalar::Uint && u[0].components == 1));
  CHECK((u[1].location == 2 && u[1].offset == 16 && u[1].array_size == 2 && u[1].array_stride == 16 &&
         u[1].components == 4));
  CHECK((u[2].location == 4 && u[2].offset == 48 && u[2].columns == 3 && u[2].components == 3 &&
         u[2].matrix_stride == 16));
  CHECK((u[3].location == 7 && u[3].offset == 96 && u[3].scalar == UniformScalar::Bool));
  CHECK((u[4].location == 8 && u[4].offset == 104 && u[4].scalar == UniformScalar::Int && u[4].components == 2));
  CHECK(layout->size == 112);

  // GLSL 4.60 §4.4.3: "it is a link-time error if two uniforms have overlapping locations" — offs takes 2 and 3.
  std::string overlapping = modules::kDefaultUniforms;
  const std::string decoration = "OpDecorate %m Location 4";
  overlapping.replace(overlapping.find(decoration), decoration.size(), "OpDecorate %m Location 3");
  auto bad = Module::parse(assemble_or_fail(overlapping.c_str(), SPV_ENV_UNIVERSAL_1_0));
  REQUIRE_OK(bad);
  CHECK_FALSE(default_uniform_layout(*bad));
}

TEST_CASE("Default-block uniforms: a uniform without Location or an array of bool is refused, module untouched") {
  std::string unlocated = modules::kDefaultUniforms;
  const std::string decoration = "OpDecorate %flag Location 7";
  unlocated.replace(unlocated.find(decoration), decoration.size(), "");
  const auto words = assemble_or_fail(unlocated.c_str(), SPV_ENV_UNIVERSAL_1_0);
  auto m = Module::parse(words);
  REQUIRE_OK(m);
  auto result = default_uniforms_to_uniform_block(*m, {0, 1});
  REQUIRE_FALSE(result);
  CHECK_THAT(result.error().message, Catch::Contains("no Location"));
  CHECK(m->serialize() == words);

  const char* bool_array = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %flags Location 0
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_2 = OpConstant %uint 2
     %uint_1 = OpConstant %uint 1
      %array = OpTypeArray %bool %uint_2
  %ptr_array = OpTypePointer UniformConstant %array
   %ptr_bool = OpTypePointer UniformConstant %bool
      %flags = OpVariable %ptr_array UniformConstant
       %main = OpFunction %void None %3
          %5 = OpLabel
          %6 = OpAccessChain %ptr_bool %flags %uint_1
          %7 = OpLoad %bool %6
               OpReturn
               OpFunctionEnd)";
  auto b = Module::parse(assemble_or_fail(bool_array, SPV_ENV_UNIVERSAL_1_0));
  REQUIRE_OK(b);
  auto refused = default_uniforms_to_uniform_block(*b, {0, 1});
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("bool"));
}

TEST_CASE("Default-block uniforms: structures take one location per member, laid out with std140, on the device") {
  const auto input = assemble_or_fail(modules::kStructUniforms, SPV_ENV_UNIVERSAL_1_0);
  auto module = Module::parse(input);
  REQUIRE_OK(module);
  auto layout = default_uniform_layout(*module);
  REQUIRE_OK(layout);
  // GLSL 4.60 §4.4.3: s.a 1, s.b 2-3, s.c 4, s.inner[0].x 5, s.inner[0].m 6, s.inner[1].x 7, s.inner[1].m 8. GL 4.6
  // §7.6.2.2: a structure is aligned to 16, an array of vec2 has stride 16, Inner {float; mat2} takes 48 bytes, so S
  // takes 160; the block holds the variables in the module's declaration order (s, then first).
  struct Expected {
    uint32_t location, offset, array_size, columns;
  };
  const std::vector<Expected> expected = {{0, 160, 0, 0}, {1, 0, 0, 0},  {2, 16, 2, 0},  {4, 48, 0, 0},
                                          {5, 64, 0, 0},  {6, 80, 0, 2}, {7, 112, 0, 0}, {8, 128, 0, 2}};
  std::vector<Expected> got;
  for (const auto& u : layout->uniforms) got.push_back({u.location, u.offset, u.array_size, u.columns});
  std::sort(got.begin(), got.end(), [](const Expected& a, const Expected& b) { return a.location < b.location; });
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("uniform " << i << ": location " << got[i].location << ", offset " << got[i].offset);
    CHECK((got[i].location == expected[i].location && got[i].offset == expected[i].offset &&
           got[i].array_size == expected[i].array_size && got[i].columns == expected[i].columns));
  }
  CHECK(layout->size == 164);

  const auto words = lowered(input, uniform_block_at(1));
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  std::vector<uint32_t> block(41, 0);
  block[160 / 4] = 1;                           // first
  block[0] = float_bits(2.0f);                  // s.a
  block[(16 + 4) / 4] = float_bits(10.0f);      // s.b[0].y
  block[(32 + 4) / 4] = float_bits(20.0f);      // s.b[1].y
  block[48 / 4] = 100;                          // s.c
  block[(80 + 16) / 4] = float_bits(1000.0f);   // s.inner[0].m[1][0]
  block[112 / 4] = float_bits(5.0f);            // s.inner[1].x
  block[(128 + 16) / 4] = float_bits(2000.0f);  // s.inner[1].m[1][0]
  MultiBufferDispatch dispatch;
  dispatch.spirv = words;
  dispatch.buffers = {BufferBinding{0, false, std::vector<uint32_t>(4, 0)}, BufferBinding{1, true, block}};
  REQUIRE_OK((*device)->run(dispatch));
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(dispatch.buffers[0].words[i] == 1u + 2u + ((i & 1) ? 20u : 10u) + 100u + ((i & 1) ? 2000u : 1000u) + 5u);
  }
  (*device)->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Default-block uniforms: the uniform block holds what glUniform* would write, on the device") {
  for (const spv_target_env env : {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_3}) {
    const auto words = lowered(assemble_or_fail(modules::kDefaultUniforms, env), uniform_block_at(1));
    CHECK_FALSE(has_storage_class(words, spv::StorageClass::UniformConstant));
    ValidatedVulkan vk;
    auto device = BufferDevice::create(vk);
    REQUIRE_OK(device);
    // mul = 3, offs[0].y = 10, offs[1].y = 20, m[1][2] = 7, flag = true, iv.y = 5 at the std140 offsets above.
    std::vector<uint32_t> block(28, 0);
    block[0] = 3;
    block[(16 + 4) / 4] = float_bits(10.0f);
    block[(32 + 4) / 4] = float_bits(20.0f);
    block[(48 + 16 + 8) / 4] = float_bits(7.0f);
    block[96 / 4] = 1;
    block[(104 + 4) / 4] = 5;
    MultiBufferDispatch dispatch;
    dispatch.spirv = words;
    dispatch.buffers = {BufferBinding{0, false, std::vector<uint32_t>(8, 0)}, BufferBinding{1, true, block}};
    dispatch.group_count = {2, 1, 1};
    REQUIRE_OK((*device)->run(dispatch));
    for (uint32_t i = 0; i < 8; ++i) {
      CHECK(dispatch.buffers[0].words[i] == i * 3 + ((i & 1) ? 20 : 10) + 7 + 1000 + 5);
    }
    (*device)->reset();
    REQUIRE_NO_VALIDATION_MESSAGES(vk);
  }
}

TEST_CASE("Atomic counters: each GL binding is a storage buffer, a counter the uint at its offset, on the device") {
  for (const spv_target_env env : {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_3}) {
    PipelineOptions options;
    options.atomic_counter_buffers = AtomicCounterBufferOptions{0, {{0, 2}, {2, 3}}};
    const auto words = lowered(assemble_or_fail(modules::kAtomicCounters, env), options);
    CHECK_FALSE(has_storage_class(words, spv::StorageClass::AtomicCounter));
    auto module = Module::parse(words);
    REQUIRE_OK(module);
    CHECK_FALSE(module->has_capability(spv::Capability::AtomicStorage));

    ValidatedVulkan vk;
    auto device = BufferDevice::create(vk);
    REQUIRE_OK(device);
    MultiBufferDispatch dispatch;
    dispatch.spirv = words;
    // GL 4.6 §7.7: a counter reads the uint at its offset in the buffer bound to its binding point: ctr is word 1 of
    // binding 0's buffer, arr[0] and arr[1] words 2 and 3 of binding 2's.
    dispatch.buffers = {BufferBinding{1, false, std::vector<uint32_t>(16, 0)}, BufferBinding{2, false, {0, 5, 0, 0}},
                        BufferBinding{3, false, {0, 0, 100, 200}}};
    REQUIRE_OK((*device)->run(dispatch));
    CHECK(dispatch.buffers[1].words == std::vector<uint32_t>{0, 13, 0, 0});
    CHECK(dispatch.buffers[2].words == std::vector<uint32_t>{0, 0, 96, 196});
    // atomicCounterIncrement returns the value before the increment: 5..12, one per invocation; o.length() is 16.
    std::vector<uint32_t> seen(dispatch.buffers[0].words.begin(), dispatch.buffers[0].words.begin() + 8);
    std::sort(seen.begin(), seen.end());
    for (uint32_t k = 0; k < 8; ++k) CHECK(seen[k] == 5 + k + 16000);
    (*device)->reset();
    REQUIRE_NO_VALIDATION_MESSAGES(vk);
  }
}

TEST_CASE("Atomic counters: AtomicCounterMemory semantics become Relaxed, which Vulkan takes") {
  // ARB_gl_spirv, A.spv.4: "When using the Atomic Instructions, the 'Memory Semantics' operand must be
  // *AtomicCounterMemory*, without inclusion of memory-ordering bits (implying *Relaxed* semantics)." Vulkan has no
  // AtomicCounterMemory: the lowered atomics are Relaxed (0).
  std::string text = modules::kAtomicCounters;
  const std::string increment = "OpAtomicIIncrement %uint %ctr %uint_1 %uint_0";
  text.replace(text.find(increment), increment.size(), "OpAtomicIIncrement %uint %ctr %uint_1 %uint_1024");
  const std::string decrement = "OpAtomicIDecrement %uint %27 %uint_1 %uint_0";
  text.replace(text.find(decrement), decrement.size(), "OpAtomicIDecrement %uint %27 %uint_1 %uint_1024");
  const std::string constant = "%uint_1000 = OpConstant %uint 1000";
  text.replace(text.find(constant), constant.size(), constant + "\n%uint_1024 = OpConstant %uint 1024");
  PipelineOptions options;
  options.atomic_counter_buffers = AtomicCounterBufferOptions{0, {{0, 2}, {2, 3}}};
  const auto words = lowered(assemble_or_fail(text.c_str(), SPV_ENV_UNIVERSAL_1_0), options);
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  int atomics = 0;
  for (auto h : module->instructions(Section::Function)) {
    const auto op = module->opcode(h);
    if (op != spv::Op::OpAtomicIIncrement && op != spv::Op::OpAtomicIDecrement) continue;
    ++atomics;
    auto semantics = module->definition(module->words(h)[5]);
    REQUIRE(semantics);
    CHECK(module->words(*semantics)[3] == 0u);
  }
  CHECK(atomics == 2);
}

TEST_CASE("Atomic counters: a binding without a Vulkan binding is an error and leaves the module untouched") {
  const auto words = assemble_or_fail(modules::kAtomicCounters, SPV_ENV_UNIVERSAL_1_0);
  auto m = Module::parse(words);
  REQUIRE_OK(m);
  auto result = atomic_counters_to_storage_buffers(*m, {0, {{0, 2}}});
  REQUIRE_FALSE(result);
  CHECK_THAT(result.error().message, Catch::Contains("binding 2"));
  CHECK(m->serialize() == words);
}
