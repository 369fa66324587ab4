// VariantMemo (spirv_patch/variant_memo.hpp): run_pipeline with a memo gives, for every module, exactly the
// run-time group size variant it gives without one (words, reports, literal values), and reuses a variant only for a
// module that differs from the one it was made from in nothing but the values step 8 hoisted.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/spirv_patch/variant_memo.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::PipelineOptions;
using bismuth::spirv_patch::PipelineResult;
using bismuth::spirv_patch::run_pipeline;
using bismuth::spirv_patch::VariantMemo;
using bismuth::test::compile_or_fail;

namespace {

// A generator's kernel: `a`, `b` and `c` baked into the source (values that meet none of its other constants, so
// glslang gives each its own id).
std::string templated(uint32_t a, int32_t b, uint32_t c) {
  const std::string A = std::to_string(a) + "u", B = std::to_string(b), C = std::to_string(c) + "u";
  return "#version 450\nlayout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
         "layout(std430, binding = 0) buffer Out { uint count; uint data[]; };\n"
         "void main() {\n"
         "  uint i = gl_GlobalInvocationID.x;\n"
         "  int s = int(i) - " +
         B + ";\n  data[i * 4u] = i * " + A + " + (i % " + C + ");\n  data[i * 4u + 1u] = uint(s / " + B +
         ");\n  atomicAdd(count, " + A + ");\n}\n";
}

// A kernel whose literal is also an array length: step 8 replaces its operand but keeps the constant.
std::string kept_constant(uint32_t length) {
  const std::string N = std::to_string(length) + "u";
  return "#version 450\nlayout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
         "layout(std430, binding = 0) buffer Out { uint data[]; };\nshared uint cache[" +
         N + "];\nvoid main() {\n  uint i = gl_LocalInvocationIndex;\n  cache[i % " + N +
         "] = i;\n  barrier();\n  data[i] = cache[(i + 1u) % " + N + "];\n}\n";
}

PipelineOptions variant_options(VariantMemo* memo, uint32_t parameters_binding = 1) {
  PipelineOptions options;
  options.runtime_group_size = bismuth::spirv_patch::RuntimeGroupSizeOptions{};
  options.literals_to_push_constants = bismuth::spirv_patch::LiteralsToPushConstantsOptions{};
  options.runtime_parameters_binding = parameters_binding;
  options.validate = bismuth::spirv_patch::TargetEnv::Vulkan1_1;
  options.variant_memo = memo;
  return options;
}

PipelineResult piped(const std::vector<uint32_t>& words, const PipelineOptions& options) {
  auto result = run_pipeline(words, options);
  if (!result) FAIL(result.error().message);
  return std::move(*result);
}

// Everything of the variant a caller reads.
bool same_variant(const PipelineResult& a, const PipelineResult& b) {
  if (a.words != b.words || a.runtime_group_size_note != b.runtime_group_size_note) return false;
  if (a.runtime_group_size.has_value() != b.runtime_group_size.has_value()) return false;
  if (!a.runtime_group_size) return true;
  const auto& x = *a.runtime_group_size;
  const auto& y = *b.runtime_group_size;
  return x.words == y.words && x.report.spec_ids == y.report.spec_ids &&
         x.report.push_constant_offset == y.report.push_constant_offset &&
         x.report.push_constant_end == y.report.push_constant_end && x.report.push_variable == y.report.push_variable &&
         x.report.exact_only == y.report.exact_only && x.report.exact_only_reason == y.report.exact_only_reason &&
         x.literals.push_constant_offset == y.literals.push_constant_offset && x.literals.values == y.literals.values &&
         x.literals.operands_replaced == y.literals.operands_replaced &&
         x.literals.constants_removed == y.literals.constants_removed &&
         x.literals.skipped_reason == y.literals.skipped_reason && x.parameters_binding == y.parameters_binding &&
         x.parameters_bytes == y.parameters_bytes;
}

}  // namespace

TEST_CASE("VariantMemo: programs from one template take the first one's variant with their own literals") {
  VariantMemo memo;
  const std::vector<std::tuple<uint32_t, int32_t, uint32_t>> literals = {
      {77, -9, 13}, {1000, 123456, 17}, {12345, 99, 19}, {4294967295u, -2147483647, 23}};
  for (auto [a, b, c] : literals) {
    INFO("literals " << a << ", " << b << ", " << c);
    const auto words = compile_or_fail(templated(a, b, c));
    const PipelineResult fresh = piped(words, variant_options(nullptr));
    const PipelineResult remembered = piped(words, variant_options(&memo));
    REQUIRE(fresh.runtime_group_size.has_value());
    CHECK_FALSE(fresh.runtime_group_size->literals.values.empty());
    CHECK(same_variant(remembered, fresh));
  }
  // The first program made the variant; the others took it.
  CHECK(memo.stats().misses == 1);
  CHECK(memo.stats().hits == literals.size() - 1);
  CHECK(memo.stats().entries == 1);
}

TEST_CASE("VariantMemo: a module that differs in a constant step 8 keeps is another variant") {
  // The array length stays a constant of the variant (SPIR-V requires it): 37 and 38 give different variant words,
  // so the second program must not take the first one's.
  VariantMemo memo;
  const PipelineResult first = piped(compile_or_fail(kept_constant(37)), variant_options(&memo));
  const auto words = compile_or_fail(kept_constant(38));
  const PipelineResult fresh = piped(words, variant_options(nullptr));
  const PipelineResult second = piped(words, variant_options(&memo));
  REQUIRE(first.runtime_group_size.has_value());
  REQUIRE(fresh.runtime_group_size.has_value());
  CHECK(first.runtime_group_size->words != fresh.runtime_group_size->words);
  CHECK(same_variant(second, fresh));
  CHECK(memo.stats().hits == 0);
  CHECK(memo.stats().misses == 2);
  // The same program again is the same module: a hit.
  CHECK(same_variant(piped(words, variant_options(&memo)), fresh));
  CHECK(memo.stats().hits == 1);
}

TEST_CASE("VariantMemo: options that change the variant are part of its key") {
  VariantMemo memo;
  const auto words = compile_or_fail(templated(77, -9, 13));
  piped(words, variant_options(&memo, 1));
  const PipelineResult other_binding = piped(words, variant_options(&memo, 3));
  CHECK(same_variant(other_binding, piped(words, variant_options(nullptr, 3))));
  REQUIRE(other_binding.runtime_group_size.has_value());
  CHECK(other_binding.runtime_group_size->parameters_binding == 3u);
  PipelineOptions push = variant_options(&memo);
  push.runtime_parameters_binding.reset();
  PipelineOptions push_fresh = variant_options(nullptr);
  push_fresh.runtime_parameters_binding.reset();
  CHECK(same_variant(piped(words, push), piped(words, push_fresh)));
  CHECK(memo.stats().hits == 0);
  CHECK(memo.stats().entries == 3);
}

TEST_CASE("VariantMemo: the oldest variant goes when the memo is full") {
  VariantMemo memo(2);
  const auto a = compile_or_fail(templated(77, -9, 13));
  const auto b = compile_or_fail(kept_constant(37));
  const auto c = compile_or_fail(kept_constant(41));
  piped(a, variant_options(&memo));
  piped(b, variant_options(&memo));
  piped(c, variant_options(&memo));
  CHECK(memo.stats().entries == 2);
  CHECK(memo.stats().misses == 3);
  // `a` went first: a miss again (and the right variant); `c` is still there.
  CHECK(same_variant(piped(a, variant_options(&memo)), piped(a, variant_options(nullptr))));
  CHECK(memo.stats().misses == 4);
  piped(c, variant_options(&memo));
  CHECK(memo.stats().hits == 1);
}

TEST_CASE("VariantMemo: words that are not a module and variants it cannot place are left alone") {
  VariantMemo memo;
  const std::vector<uint32_t> garbage = {0x07230203, 0x00010300, 0, 100, 0, 0xffff0001, 7};
  CHECK_FALSE(memo.find(garbage, "key").has_value());
  CHECK_FALSE(memo.find(std::vector<uint32_t>{1, 2}, "key").has_value());
  bismuth::spirv_patch::RuntimeGroupSizeVariant variant;
  variant.literals.values = {5};
  variant.literals.value_constants = {12345};  // no such constant
  memo.remember(compile_or_fail(templated(77, -9, 13)), "key", variant);
  memo.remember(garbage, "key", {});
  CHECK(memo.stats().entries == 0);
}

TEST_CASE("VariantMemo: links on several threads at once get the variant they get alone") {
  VariantMemo memo;
  std::vector<std::vector<uint32_t>> modules;
  std::vector<PipelineResult> expected;
  for (uint32_t k = 0; k < 6; ++k) {
    modules.push_back(compile_or_fail(templated(1000 + k, -50 - int32_t(k), 17 + k)));
    expected.push_back(piped(modules.back(), variant_options(nullptr)));
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t round = 0; round < 3 * modules.size(); ++round) {
        const size_t k = (round + size_t(t)) % modules.size();
        auto result = run_pipeline(modules[k], variant_options(&memo));
        if (!result || !same_variant(*result, expected[k])) ++mismatches;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(mismatches == 0);
  CHECK(memo.stats().hits > 0);
}
