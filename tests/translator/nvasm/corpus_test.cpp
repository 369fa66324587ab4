// NVIDIA's own assembly, assembled and run: every corpus program must validate, produce expected.bin on the test
// device, or — for cases that need 32-lane warps — fail to load where 32-lane subgroups cannot be had.
#include <catch2/catch.hpp>

#include <cstring>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "corpus_support.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using namespace bismuth;
using bismuth::test::corpus::Case;

namespace {

nvasm::AssembleOptions options_for(const Case& c, bool subgroup_32, bool float64 = false) {
  nvasm::AssembleOptions options;
  options.exact_float_mad = float64;
  options.storage_bindings = c.storage_map;
  options.subgroup_size_32_available = subgroup_32;
  return options;
}

// README steps 1-6 through the assembled SPIR-V.
void run_case(const std::string& name) {
  const Case c = test::corpus::load_case(name);
  INFO("case " << name);
  test::ValidatedVulkan vk;
  auto device = test::BufferDevice::create(vk);
  REQUIRE(device);
  const bool subgroup_32 = (*device)->can_run_subgroup_size(32);

  // Whatever the device, the program assembles and validates when 32-lane subgroups are available.
  auto with_32 = nvasm::assemble(c.program, options_for(c, true));
  INFO((with_32 ? std::string() : with_32.error().message));
  REQUIRE(with_32);
  REQUIRE(spirv_patch::validate(with_32->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  CHECK(with_32->info.required_subgroup_size == c.requires_subgroup_size);
  // The straightforward translation is valid before the optimizer sees it, too.
  auto unoptimized_options = options_for(c, true);
  unoptimized_options.optimize = false;
  auto unoptimized = nvasm::assemble(c.program, unoptimized_options);
  INFO((unoptimized ? std::string() : unoptimized.error().message));
  REQUIRE(unoptimized);

  auto program = nvasm::assemble(c.program, options_for(c, subgroup_32, (*device)->float64()));
  if (c.requires_subgroup_size && !subgroup_32) {
    // "On another subgroup size ... never report it as a pass against expected.bin": the program must not load.
    REQUIRE_FALSE(program);
    CHECK_THAT(program.error().message, Catch::Contains("subgroup size of 32"));
    (*device)->reset();
    REQUIRE_NO_VALIDATION_MESSAGES(vk);
    return;
  }
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  test::MultiBufferDispatch dispatch;
  dispatch.spirv = program->spirv;
  dispatch.group_count = c.num_groups;
  dispatch.buffers.push_back({0, false, test::corpus::input_words(c)});
  dispatch.buffers.push_back({1, false, std::vector<uint32_t>(c.output_words, c.output_init)});
  if (program->info.local_parameter_count) {
    std::vector<uint32_t> locals(program->info.local_parameter_count * 4, 0);
    for (const auto& u : c.uniforms) {
      uint32_t bits = 0;
      if (u.type == "float") {
        const float f = static_cast<float>(u.value);
        std::memcpy(&bits, &f, 4);
      } else if (u.type == "int") {
        bits = static_cast<uint32_t>(static_cast<int32_t>(u.value));
      } else {
        bits = static_cast<uint32_t>(u.value);
      }
      locals.at(u.program_local * 4) = bits;
    }
    dispatch.buffers.push_back({nvasm::kLocalParameterBinding, true, locals});
  }
  if (c.group_size) {
    REQUIRE(program->info.group_size_form == nvasm::GroupSizeForm::Variable);
    for (int i = 0; i < 3; ++i) dispatch.specialization.push_back({nvasm::kGroupSizeSpecIds[i], (*c.group_size)[i]});
  }
  if (c.requires_subgroup_size) dispatch.required_subgroup_size = c.requires_subgroup_size;
  auto ran = (*device)->run(dispatch);
  REQUIRE(ran);
  const std::string mismatches = test::corpus::compare_output(c, dispatch.buffers[1].words);
  INFO(mismatches);
  CHECK(mismatches.empty());
  (*device)->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

}  // namespace

TEST_CASE("corpus: the corpus has the 17 reference cases", "[nvasm][corpus]") {
  CHECK(test::corpus::case_names().size() == 17);
}

#define CORPUS_CASE(name) \
  TEST_CASE("corpus: " #name " matches NVIDIA's output", "[nvasm][corpus]") { run_case(#name); }

CORPUS_CASE(ballot_arb)
CORPUS_CASE(dispatch3d)
CORPUS_CASE(float_atomic_nv)
CORPUS_CASE(float_math)
CORPUS_CASE(fp64_math)
CORPUS_CASE(histogram_atomic)
CORPUS_CASE(int_bits)
CORPUS_CASE(iota_store)
CORPUS_CASE(saxpy_uniform)
CORPUS_CASE(shared_atomics)
CORPUS_CASE(shared_reduce)
CORPUS_CASE(subgroup_khr)
CORPUS_CASE(thread_group_nv)
CORPUS_CASE(transpose_tile)
CORPUS_CASE(var_size_ids)
CORPUS_CASE(var_size_ids_b)
CORPUS_CASE(var_size_reduce)
