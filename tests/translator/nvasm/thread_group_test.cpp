// Thread-group instructions (NV_shader_thread_group, NV_shader_thread_shuffle). Their results are defined for
// 32-thread warps, so real programs only load where 32-lane subgroups exist (the subgroup-size rule, docs/nvasm.md).
// The lowering itself is checked here against a model of the test device's own subgroup size, with operands
// chosen so every source lane stays inside an 8-lane subgroup — the corpus README allows "a model of that
// subgroup size", never a pass against NVIDIA's 32-lane expected.bin.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using namespace bismuth;

namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

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

TEST_CASE("thread group: TGALL TGANY TGEQ TGBALLOT vote per component, in the instruction's type (8-lane model)",
          "[nvasm][thread_group]") {
  // NV_shader_thread_group: each component of the result comes from the same component of every active thread's
  // operand; TGALL / TGANY / TGEQ give TRUE / FALSE in the data type (1.0 / 0.0 for .F, the default; all ones / 0
  // for .S and .U), TGBALLOT each component's mask of the threads whose operand component is non-zero.
  const char* source = R"(!!NVcp5.0
OPTION NV_shader_thread_group;
GROUP_SIZE 8;
STORAGE out[] = { program.storage[0] };
TEMP A, V, F, R1, R2, R3, R4, R5, R6, R7;
MOV.U A.x, invocation.localindex;
MUL.U A.y, A.x, {128}.x;
SEQ.U V.x, A.x, {3}.x;
MOV.U V.y, {1}.x;
AND.U V.z, A.x, {1}.x;
MOV.U V.w, {0}.x;
TGANY.U R1, V;
TGALL.U R2, V;
TGEQ.U R3, V;
TGBALLOT.U R4, V;
MOV.U R5, {7, 7, 7, 7};
SEQ.U R6.x, A.x, {5}.x;
MOV.U R6.y, R6.x;
MOV.U R6.x, {0}.x;
TGANY.U R5.y, -R6;
I2F.U F.x, A.x;
MOV.F F.y, {1.5}.x;
MUL.F F.z, {0}.x, {-1}.x;
SLT.U R7.x, A.x, {4}.x;
AND.U F.w, R7.x, {0x80000000}.x;
TGALL R6, F;
TGANY.F R7, F;
STB.U32X4 R1, out[A.y + 0];
STB.U32X4 R2, out[A.y + 16];
STB.U32X4 R3, out[A.y + 32];
STB.U32X4 R4, out[A.y + 48];
STB.U32X4 R5, out[A.y + 64];
STB.U32X4 R6, out[A.y + 80];
STB.U32X4 R7, out[A.y + 96];
TGEQ.F R7, F;
STB.U32X4 R7, out[A.y + 112];
END
)";
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
  options.optimize = false;
  auto plain = nvasm::assemble(source, options);
  INFO((plain ? std::string() : plain.error().message));
  REQUIRE(plain);
  options.optimize = true;
  auto program = nvasm::assemble(source, options);
  REQUIRE(program);
  REQUIRE(spirv_patch::validate(program->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  CHECK(program->info.uses_subgroup_vote);
  CHECK(program->info.uses_subgroup_ballot);
  test::MultiBufferDispatch d;
  d.spirv = program->spirv;
  d.buffers.push_back({0, false, std::vector<uint32_t>(8 * 32, 0xDEADBEEF)});
  REQUIRE((*device)->run(d));
  const auto& out = d.buffers[0].words;
  // The model: operand components over lanes 0..7.
  auto lanes = [](auto f) {
    std::vector<decltype(f(0u))> v;
    for (uint32_t i = 0; i < 8; ++i) v.push_back(f(i));
    return v;
  };
  const std::array<std::vector<uint32_t>, 4> v = {
      lanes([](uint32_t i) { return i == 3 ? 0xFFFFFFFFu : 0u; }), lanes([](uint32_t) { return 1u; }),
      lanes([](uint32_t i) { return i & 1u; }), lanes([](uint32_t) { return 0u; })};
  const std::array<std::vector<float>, 4> f = {
      lanes([](uint32_t i) { return float(i); }), lanes([](uint32_t) { return 1.5f; }),
      lanes([](uint32_t) { return -0.0f; }), lanes([](uint32_t i) { return i < 4 ? -0.0f : 0.0f; })};
  auto any = [](const auto& c) { return std::any_of(c.begin(), c.end(), [](auto x) { return x != 0; }); };
  auto all = [](const auto& c) { return std::all_of(c.begin(), c.end(), [](auto x) { return x != 0; }); };
  auto equal = [](const auto& c) { return std::all_of(c.begin(), c.end(), [&](auto x) { return x == c[0]; }); };
  auto u = [](bool b) { return b ? 0xFFFFFFFFu : 0u; };
  auto fl = [](bool b) { return b ? bits(1.0f) : bits(0.0f); };
  for (uint32_t i = 0; i < 8; ++i) {
    INFO("invocation " << i);
    const uint32_t* w = &out[i * 32];
    for (uint32_t c = 0; c < 4; ++c) {
      INFO("component " << c);
      CHECK(w[0 + c] == u(any(v[c])));
      CHECK(w[4 + c] == u(all(v[c])));
      CHECK(w[8 + c] == u(equal(v[c])));
      uint32_t mask = 0;
      for (uint32_t l = 0; l < 8; ++l) mask |= (v[c][l] != 0 ? 1u : 0u) << l;
      CHECK(w[12 + c] == mask);
      CHECK(w[20 + c] == fl(all(f[c])));  // TGALL without a type is .F: 1.0 / 0.0; -0.0 is zero
      CHECK(w[24 + c] == fl(any(f[c])));
      CHECK(w[28 + c] == fl(equal(f[c])));  // 0.0 equals -0.0 as floats
    }
    // TGANY.U R5.y, -R6: the vote is on -R6.y (lane 5 only), not on .x (0 everywhere); x, z, w keep 7.
    CHECK(w[16] == 7u);
    CHECK(w[17] == 0xFFFFFFFFu);
    CHECK(w[18] == 7u);
    CHECK(w[19] == 7u);
  }
  (*device)->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("thread group: TGALL TGANY TGEQ take .F .S .U (and F32 S32 U32), TGBALLOT .S .U", "[nvasm][thread_group]") {
  nvasm::AssembleOptions options;
  options.subgroup_size_32_available = true;
  for (const char* line :
       {"TGALL R0, R1;", "TGALL.F R0, R1;", "TGALL.S R0, R1;", "TGALL.U R0, R1;", "TGANY.F32 R0, R1;",
        "TGANY.S R0.y, -R1;", "TGEQ.U32 R0, R1;", "TGEQ.F R0, R1;", "TGBALLOT.U R0, R1;", "TGBALLOT.S R0.x, R1;"}) {
    INFO(line);
    const std::string source =
        std::string("!!NVcp5.0\nOPTION NV_shader_thread_group;\nGROUP_SIZE 32;\nTEMP R0, R1;\n") + line + "\nEND\n";
    auto program = nvasm::assemble(source, options);
    INFO((program ? std::string() : program.error().message));
    CHECK(program);
  }
}
