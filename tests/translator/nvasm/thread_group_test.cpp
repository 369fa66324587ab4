// Thread-group instructions (NV_shader_thread_group, NV_shader_thread_shuffle). Their results are defined for
// 32-thread warps, so real programs only load where 32-lane subgroups exist (the subgroup-size rule, docs/nvasm.md).
// The lowering itself is checked here against a model of the test device's own subgroup size, with operands
// chosen so every source lane stays inside an 8-lane subgroup — the corpus README allows "a model of that
// subgroup size", never a pass against NVIDIA's 32-lane expected.bin.
#include <catch2/catch.hpp>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using namespace bismuth;

namespace {

const char* kShuffles = R"(!!NVcp5.0
OPTION NV_shader_thread_group;
OPTION NV_shader_thread_shuffle;
GROUP_SIZE 16;
STORAGE out[] = { program.storage[0] };
TEMP A, V, B, R0, R1;
MOV.U A.x, invocation.localindex;
MUL.U A.y, A.x, {32}.x;
MUL.U V.x, A.x, {10}.x;
AND.U R0.x, A.x, {1}.x;
TGBALLOT.U R1.x, R0.x;
SHFXOR.U R1.y, V.x, {1}.x, {31}.x;
XOR.U B.x, invocation.threadid, {5}.x;
SHFIDX.U R0.xy, V.x, B.x, {7}.x;
MOV.U R1.zw, R0.yyyx;
STB.U32X4 R1, out[A.y];
SHFUP.U R0.xy, V.x, {1}.x, {0}.x;
MOV.U R1.xy, R0.yxxx;
SHFDOWN.U R0.xy, V.x, {1}.x, {7}.x;
MOV.U R1.zw, R0.yyyx;
ADD.U A.z, A.y, {16}.x;
STB.U32X4 R1, out[A.z];
END
)";

}  // namespace

TEST_CASE("thread group: programs need 32-lane subgroups and say so in their description", "[nvasm][thread_group]") {
  nvasm::AssembleOptions options;
  options.subgroup_size_32_available = true;
  auto program = nvasm::assemble(kShuffles, options);
  REQUIRE(program);
  CHECK(program->info.required_subgroup_size == 32u);
  CHECK(program->info.uses_subgroup_basic);
  CHECK(program->info.uses_subgroup_ballot);
  CHECK(program->info.uses_subgroup_shuffle);
  CHECK_FALSE(program->info.uses_subgroup_vote);
  REQUIRE(spirv_patch::validate(program->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  options.subgroup_size_32_available = false;
  CHECK_FALSE(nvasm::assemble(kShuffles, options));
}

TEST_CASE("thread group: TGBALLOT and SHFXOR SHFIDX SHFUP SHFDOWN follow the clamp rule (8-lane model)", "[nvasm][thread_group]") {
  test::ValidatedVulkan vk;
  auto device = test::BufferDevice::create(vk);
  REQUIRE(device);
  if (vk.selected_device().subgroup_size != 8) {
    (*device)->reset();
    WARN("the 8-lane model needs a device with subgroup size 8; skipped");
    return;
  }
  nvasm::AssembleOptions options;
  options.subgroup_size_32_available = true;  // deliberately: the model below is for 8 lanes
  auto program = nvasm::assemble(kShuffles, options);
  REQUIRE(program);
  test::MultiBufferDispatch d;
  d.spirv = program->spirv;
  d.buffers.push_back({0, false, std::vector<uint32_t>(16 * 8, 0xDEADBEEF)});
  REQUIRE((*device)->run(d));
  const auto& out = d.buffers[0].words;
  for (uint32_t i = 0; i < 16; ++i) {
    INFO("invocation " << i);
    const uint32_t lane = i % 8, base = i - lane;
    const uint32_t* w = &out[i * 8];
    CHECK(w[0] == 0xAAu);                          // odd lanes of the subgroup
    CHECK(w[1] == 10 * (base + (lane ^ 1)));      // SHFXOR: lane ^ 1
    CHECK(w[2] == 10 * (base + (lane ^ 5)));      // SHFIDX: min | (b & ~segmask), within clamp 7
    CHECK(w[3] == 0xFFFFFFFFu);                   // .x: valid
    // SHFUP by 1, clamp 0: lane 0 has no source and keeps its own value, invalid.
    CHECK(w[4] == 10 * (lane == 0 ? i : i - 1));
    CHECK(w[5] == (lane == 0 ? 0u : 0xFFFFFFFFu));
    // SHFDOWN by 1, clamp 7: lane 7 has no source within the clamp.
    CHECK(w[6] == 10 * (lane == 7 ? i : i + 1));
    CHECK(w[7] == (lane == 7 ? 0u : 0xFFFFFFFFu));
  }
  (*device)->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
