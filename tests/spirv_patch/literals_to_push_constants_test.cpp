// literals_to_push_constants (issue 17, item 3): programs generated from one template share one variant module,
// and the variant with its literals pushed computes exactly what the original module computes.
#include <catch2/catch.hpp>

#include <volk.h>

#include <algorithm>
#include <string>

#include "bismuth/spirv_patch/passes/compact_ids.hpp"
#include "bismuth/spirv_patch/passes/literals_to_push_constants.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "runtime_group_size_support.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::spirv_patch::literals_to_push_constants;
using bismuth::spirv_patch::LiteralsToPushConstantsOptions;
using bismuth::spirv_patch::LiteralsToPushConstantsReport;
using bismuth::test::BufferDevice;
using bismuth::test::MultiBufferDispatch;
using bismuth::test::ValidatedVulkan;
using namespace bismuth::test::runtime_group_size;

namespace {

struct Hoisted {
  std::vector<uint32_t> words;
  RuntimeGroupSizePatch runtime;
  LiteralsToPushConstantsReport literals;
};

// The variant of `original` (workgroup_size_to_runtime), then the literals after its logical size; spirv-val must
// accept the result.
Hoisted hoist_or_fail(const std::vector<uint32_t>& original, TargetEnv env = TargetEnv::Vulkan1_1,
                      uint32_t limit = 128) {
  Hoisted out;
  out.runtime = runtime_or_fail(original, env);
  auto module = Module::parse(out.runtime.words);
  REQUIRE_OK(module);
  LiteralsToPushConstantsOptions options;
  options.push_constant_offset = out.runtime.report.push_constant_end;
  options.push_variable = out.runtime.report.push_variable;
  options.push_constant_limit = limit;
  auto report = literals_to_push_constants(*module, options);
  REQUIRE_OK(report);
  out.literals = *report;
  out.words = module->serialize();
  if (!out.literals.values.empty()) {
    auto compact = bismuth::spirv_patch::compact_ids(out.words);
    REQUIRE_OK(compact);
    // The pipeline renumbers the edited module itself: the same words as renumbering its serialized form.
    CHECK(bismuth::spirv_patch::compact_ids(*module) == *compact);
    out.words = std::move(*compact);
  }
  auto valid = bismuth::spirv_patch::validate(out.words, env);
  if (!valid) {
    auto text = bismuth::spirv_patch::disassemble(out.words);
    FAIL(valid.error().message << "\n" << (text ? *text : std::string()));
  }
  return out;
}

// A kernel from a template: `a`, `b` and `c` are baked into the source as a generator would.
std::string templated(uint32_t a, int32_t b, uint32_t c) {
  const std::string A = std::to_string(a) + "u", B = std::to_string(b), C = std::to_string(c) + "u";
  return shader(R"(
layout(std430, binding = 0) buffer Out { uint count; uint data[]; };
uint mix3(uint x, uint y) { return (x ^ y) + )" +
                C + R"(; }
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 32u + gl_GlobalInvocationID.z * 4096u;
  int s = int(i) - )" +
                B + R"(;
  uvec2 v = uvec2(i * )" +
                A + R"(, i / )" + A + R"();
  uint base = i * 8u;
  data[base + 0u] = v.x + v.y;
  data[base + 1u] = i % )" +
                A + R"( + (i << )" + C + R"();
  data[base + 2u] = uint(s / )" +
                B + R"() ^ uint(s % )" + B + R"();
  data[base + 3u] = i > )" +
                A + R"( ? mix3(i, )" + C + R"() : uint(-s);
  data[base + 4u] = floatBitsToUint(float(i * )" +
                A + R"() * 0.5);
  data[base + 5u] = uint(s >> 2) & )" +
                A + R"(;
  data[base + 6u] = uint(max(s, )" +
                B + R"());
  atomicAdd(count, )" +
                A + R"();
  data[base + 7u] = (i & )" +
                C + R"() | )" + A + R"(;
}
)");
}

std::vector<uint32_t> run(BufferDevice& device, const std::vector<uint32_t>& spirv,
                          std::vector<std::pair<uint32_t, uint32_t>> specialization, std::vector<uint32_t> push_words,
                          uint32_t words) {
  MultiBufferDispatch dispatch;
  dispatch.spirv = spirv;
  dispatch.specialization = std::move(specialization);
  dispatch.group_count = {2, 1, 1};
  dispatch.buffers = {{0, false, std::vector<uint32_t>(words, 0)}};
  dispatch.push_words = std::move(push_words);
  auto ran = device.run(dispatch);
  if (!ran) FAIL(ran.error().message);
  return dispatch.buffers[0].words;
}

}  // namespace

TEST_CASE("Literals: programs that differ only in integer literals give the same variant words") {
  const auto a = hoist_or_fail(prepared(templated(5, 3, 2)));
  const auto b = hoist_or_fail(prepared(templated(77, -9, 4)));
  const auto c = hoist_or_fail(prepared(templated(1000, 123456, 7)));
  REQUIRE_FALSE(a.literals.values.empty());
  CHECK(a.words == b.words);
  CHECK(a.words == c.words);
  // Without the pass the variants differ: the test would not notice a pass that did nothing.
  CHECK(a.runtime.words != b.runtime.words);
  CHECK(a.literals.values != b.literals.values);
  CHECK(a.literals.values.size() == b.literals.values.size());
  // The literals follow the logical size, inside the 128 bytes Vulkan guarantees.
  CHECK(a.literals.push_constant_offset == a.runtime.report.push_constant_end);
  CHECK(a.literals.push_constant_offset + 4 * a.literals.values.size() <= 128);
  // Each literal of the source is among the values, in its two's-complement form for `int`.
  auto has = [](const Hoisted& h, uint32_t v) {
    return std::find(h.literals.values.begin(), h.literals.values.end(), v) != h.literals.values.end();
  };
  for (uint32_t v : {5u, 3u, 2u}) CHECK(has(a, v));
  for (uint32_t v : {77u, uint32_t(-9), 4u}) CHECK(has(b, v));
}

TEST_CASE("Literals: on the device the shared variant with pushed literals matches each original word for word") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const std::array<uint32_t, 3> size{16, 2, 1};
  for (auto [a, b, c] : std::vector<std::tuple<uint32_t, int32_t, uint32_t>>{
           {5, 3, 2}, {77, -9, 4}, {1000, 123456, 7}, {3, 1, 31}, {4294967295u, -2147483647, 0}}) {
    INFO("literals " << a << ", " << b << ", " << c);
    const auto original = prepared(templated(a, b, c));
    const auto hoisted = hoist_or_fail(original);
    const auto& ids = hoisted.runtime.report.spec_ids;
    const uint32_t words = 1 + 64 * 8;
    const auto expected = run(**device, original, {{ids[0], size[0]}, {ids[1], size[1]}, {ids[2], size[2]}}, {}, words);
    std::vector<uint32_t> push(hoisted.runtime.report.push_constant_offset / 4, 0);
    push.insert(push.end(), size.begin(), size.end());
    push.resize(hoisted.literals.push_constant_offset / 4, 0);
    push.insert(push.end(), hoisted.literals.values.begin(), hoisted.literals.values.end());
    // Physical size larger than the logical one, as the backend runs a stand-in pipeline.
    const auto got = run(**device, hoisted.words, {{ids[0], 64}, {ids[1], 1}, {ids[2], 1}}, push, words);
    size_t mismatches = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (expected[i] == got[i]) continue;
      if (++mismatches <= 8) UNSCOPED_INFO("word " << i << ": original " << expected[i] << ", hoisted " << got[i]);
    }
    CHECK(mismatches == 0);
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Literals: what SPIR-V requires to be constant keeps its constant, and float literals stay") {
  // Array length, struct member index, barrier scopes and semantics, switch literals, a shift in a constant
  // expression (folded by glslang) and a float literal.
  const std::string source = shader(R"(
layout(std430, binding = 0) buffer Out { uint count; uint data[]; };
struct S { uint a; uint b; };
shared uint cache[37];
void main() {
  uint i = gl_LocalInvocationIndex;
  S s = S(i + 11u, 13u);
  cache[i % 37u] = s.b;
  memoryBarrierShared();
  barrier();
  uint r = 0u;
  switch (i) { case 41u: r = 1u; break; default: r = 2u; }
  data[i] = cache[(i + 1u) % 37u] + r + floatBitsToUint(float(i) * 2.75);
}
)");
  const auto hoisted = hoist_or_fail(prepared(source));
  auto module = Module::parse(hoisted.words);
  REQUIRE_OK(module);
  auto has_constant = [&](spv::Op op, uint32_t value) {
    for (auto h : module->instructions(bismuth::spirv_patch::Section::Global)) {
      const auto w = module->words(h);
      if (module->opcode(h) == op && w.size() == 4 && w[3] == value) return true;
    }
    return false;
  };
  CHECK(has_constant(spv::Op::OpConstant, 37u));          // the array length (also a replaced modulus)
  CHECK(has_constant(spv::Op::OpConstant, 0x40300000u));  // 2.75f
  // 41 is an OpSwitch literal, not an id: the switch still names it.
  bool switch_keeps_literal = false;
  for (auto h : module->instructions(bismuth::spirv_patch::Section::Function)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpSwitch) switch_keeps_literal = std::find(w.begin(), w.end(), 41u) != w.end();
  }
  CHECK(switch_keeps_literal);
  // 11 is added, 13 builds the struct (OpCompositeConstruct constituents may be run-time values), 37 is a modulus
  // twice: one slot per operand.
  auto count = [&](uint32_t v) {
    return std::count(hoisted.literals.values.begin(), hoisted.literals.values.end(), v);
  };
  CHECK(count(11u) == 1);
  CHECK(count(13u) == 1);
  CHECK(count(37u) == 2);
  CHECK(hoisted.literals.constants_removed >= 2);  // 11 and 13 had no other use
}

TEST_CASE("Literals: a module with more literals than fit is left as workgroup_size_to_runtime made it") {
  std::string body =
      "layout(std430, binding = 0) buffer Out { uint data[]; };\nvoid main() {\n  uint i = "
      "gl_GlobalInvocationID.x;\n  uint v = i;\n";
  for (uint32_t k = 0; k < 40; ++k) body += "  v = v * " + std::to_string(1000 + k) + "u + i;\n";
  body += "  data[i] = v;\n}\n";
  const auto original = prepared(shader(body));
  const auto hoisted = hoist_or_fail(original);
  CHECK(hoisted.literals.values.empty());
  CHECK_THAT(hoisted.literals.skipped_reason, Catch::Contains("do not fit below 128 bytes"));
  CHECK(hoisted.words == hoisted.runtime.words);
  // With room for them (a device with a larger maxPushConstantsSize), they are hoisted.
  const auto roomy = hoist_or_fail(original, TargetEnv::Vulkan1_1, 256);
  CHECK(roomy.literals.values.size() >= 40);
}

TEST_CASE("Literals: the pipeline's variant carries the hoisted values, its main module keeps every literal") {
  bismuth::spirv_patch::PipelineOptions options;
  options.runtime_group_size = bismuth::spirv_patch::RuntimeGroupSizeOptions{};
  options.literals_to_push_constants = LiteralsToPushConstantsOptions{};
  for (TargetEnv env : {TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_3}) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    options.validate = env;
    auto first = bismuth::spirv_patch::run_pipeline(prepared(templated(5, 3, 2), env), options);
    auto second = bismuth::spirv_patch::run_pipeline(prepared(templated(6, 4, 3), env), options);
    REQUIRE_OK(first);
    REQUIRE_OK(second);
    REQUIRE(first->runtime_group_size);
    REQUIRE(second->runtime_group_size);
    CHECK(first->runtime_group_size->words == second->runtime_group_size->words);
    CHECK(first->words != second->words);
    CHECK_FALSE(first->runtime_group_size->literals.values.empty());
    REQUIRE_VALID(first->runtime_group_size->words, env);
  }
}
