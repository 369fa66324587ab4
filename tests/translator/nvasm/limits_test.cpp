// Sizes that follow the device: the parameter buffer window (NV_parameter_buffer_object: NVIDIA's constant buffers
// are 64 KiB, MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV 16384 words; a Vulkan device binds maxUniformBufferRange, at
// least 16 KiB) and TEMP arrays (up to 512 KiB of registers per invocation, NVIDIA's local memory per thread).
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "program_runner.hpp"

using namespace bismuth;
using namespace bismuth::test::nvasm_run;

namespace {

uint32_t device_uniform_range() {
  test::ValidatedVulkan vk;
  return vk.selected_device().max_uniform_buffer_range;
}

}  // namespace

TEST_CASE("parameter buffers: the window is the device's maxUniformBufferRange up to 64 KiB", "[nvasm][limits]") {
  // Every option value maps to a window of whole vectors in [16 KiB, 64 KiB].
  auto window = [](uint32_t bytes) {
    nvasm::AssembleOptions o;
    o.parameter_buffer_bytes = bytes;
    return nvasm::parameter_buffer_window(o);
  };
  CHECK(window(0) == 16384u);
  CHECK(window(16384) == 16384u);
  CHECK(window(40007) == 40000u);
  CHECK(window(65536) == 65536u);
  CHECK(window(0xFFFFFFFFu) == 65536u);

  const uint32_t range = device_uniform_range();
  INFO("maxUniformBufferRange " << range);
  REQUIRE(range >= 16384u);
  // Word i of program.buffer[0] is 0x51000000 + i; reads at byte addresses from 0 to past 64 KiB.
  const std::vector<uint32_t> addresses = {0, 16380, 16384, 40000, 65520, 65532, 70000};
  for (const uint32_t asked : {nvasm::kParameterBufferBytes, std::min(range, nvasm::kMaxParameterBufferBytes)}) {
    nvasm::AssembleOptions o;
    o.parameter_buffer_bytes = asked;
    const uint32_t win = nvasm::parameter_buffer_window(o);
    INFO("window " << win);
    std::ostringstream body;
    body << "CBUFFER cb[] = { program.buffer[0] };\nBUFFER w[] = program.buffer[0];\n"
         << "BUFFER4 v[] = { program.buffer[0][4000..4095] };\nTEMP R0, A;\n";
    for (size_t i = 0; i < addresses.size(); ++i) {
      body << "MOV.U A.x, {" << addresses[i] << "}.x;\nLDC.U32 R0.x, cb[A.x];\nSTB.U32 R0.x, out[" << 4 * i << "];\n";
    }
    const size_t n = addresses.size();
    body << "MOV.U R0, w[12345];\nSTB.U32 R0.x, out[" << 4 * n << "];\n"
         << "MOV.U A.y, {5}.x;\nMOV.U R0, v[A.y + 1];\nSTB.U32X4 R0, out[" << 4 * (n + 1) << "];\n";
    Run r;
    r.source = "!!NVcp5.0\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\n" + body.str() + "END\n";
    r.parameter_buffer_bytes = asked;
    std::vector<uint32_t> words(win / 4);
    for (uint32_t i = 0; i < words.size(); ++i) words[i] = 0x51000000u + i;
    r.parameter_buffers.push_back({0, words});
    r.words = static_cast<uint32_t>(n + 5);
    const auto out = run(r);
    // Reads past the window clamp to its last word (LDC) or element (BUFFER, BUFFER4).
    const uint32_t last_word = win / 4 - 1;
    for (size_t i = 0; i < n; ++i) {
      INFO("LDC at byte " << addresses[i]);
      CHECK(out[i] == 0x51000000u + std::min(addresses[i] / 4, last_word));
    }
    CHECK(out[n] == 0x51000000u + std::min(12345u, last_word));
    const uint32_t vector = std::min(4000u + 6u, win / 16 - 1);
    for (uint32_t c = 0; c < 4; ++c) CHECK(out[n + 1 + c] == 0x51000000u + 4 * vector + c);
  }
}

TEST_CASE("parameter buffers: the description gives the window and the module declares it", "[nvasm][limits]") {
  const std::string source =
      "!!NVcp5.0\nGROUP_SIZE 1;\nCBUFFER cb[] = { program.buffer[2] };\nTEMP R0;\nLDC.U32 R0.x, cb[65532];\nEND\n";
  nvasm::AssembleOptions o;
  auto small = nvasm::assemble(source, o);
  REQUIRE(small);
  CHECK(small->info.parameter_buffer_bytes == 16384u);
  o.parameter_buffer_bytes = 1u << 20;
  auto large = nvasm::assemble(source, o);
  REQUIRE(large);
  CHECK(large->info.parameter_buffer_bytes == 65536u);
  CHECK(spirv_patch::validate(large->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  // BUFFER declarations may name elements of the whole 64 KiB: the device's window clamps them.
  CHECK(nvasm::assemble(
      "!!NVcp5.0\nGROUP_SIZE 1;\nBUFFER4 v[] = { program.buffer[0][4000..4095] };\n"
      "BUFFER w[16384] = program.buffer[1];\nTEMP R0;\nMOV.U R0, v[95];\nADD.U R0, R0, w[16383];\nEND\n",
      nvasm::AssembleOptions{}));
  auto past = nvasm::assemble("!!NVcp5.0\nGROUP_SIZE 1;\nBUFFER4 v[] = { program.buffer[0][4000..4096] };\nEND\n");
  REQUIRE_FALSE(past);
  CHECK(past.error().message.find("a parameter buffer has 4096 vectors") != std::string::npos);
}

TEST_CASE("TEMP arrays: up to 512 KiB per invocation, zeroed, indexed by registers", "[nvasm][limits]") {
  // 32000 vectors (500 KiB; with the 3 other registers just under 512 KiB) in one array; each of 4 invocations writes a
  // few elements and reads them back, and reads elements nobody wrote (zero: registers start zeroed, as the small
  // arrays' initializer gives).
  const std::string source = R"(!!NVcp5.0
GROUP_SIZE 4;
STORAGE out[] = { program.storage[0] };
TEMP lmem[32000];
TEMP A, R0, R1;
MOV.U A.x, invocation.localindex;
MUL.U A.y, A.x, {64}.x;
MUL.U A.z, A.x, {1000}.x;
ADD.U A.z, A.z, {28000}.x;
MOV.U R0, {1, 2, 3, 4};
ADD.U R0, R0, A.x;
MOV.U lmem[A.z], R0;
MOV.U lmem[A.x + 5], A.zzzz;
MOV.U lmem[31999], {9, 9, 9, 9};
MOV.U R1, lmem[A.z];
STB.U32X4 R1, out[A.y];
MOV.U R1, lmem[A.x + 5];
STB.U32X4 R1, out[A.y + 16];
MOV.U R1, lmem[A.z + 1];
ADD.U R1, R1, lmem[100];
ADD.U R1, R1, lmem[31999];
STB.U32X4 R1, out[A.y + 32];
MOV.U A.w, {40000}.x;
ADD.U A.w, A.w, A.x;
MOV.U R1, lmem[A.w];
STB.U32X4 R1, out[A.y + 48];
END
)";
  Run r;
  r.source = source;
  r.words = 4 * 16;
  const auto out = run(r);
  for (uint32_t i = 0; i < 4; ++i) {
    INFO("invocation " << i);
    const uint32_t* w = &out[16 * i];
    const uint32_t z = 28000 + 1000 * i;
    for (uint32_t c = 0; c < 4; ++c) {
      CHECK(w[c] == c + 1 + i);
      CHECK(w[4 + c] == z);
      CHECK(w[8 + c] == 9u);   // lmem[z + 1] and lmem[100] were never written: zero
      CHECK(w[12 + c] == 9u);  // an index past the array clamps to its last element
    }
  }
}

TEST_CASE("TEMP arrays: a LONG TEMP array, and zero-initialized arrays on both sides of the loop threshold",
          "[nvasm][limits]") {
  // Registers are zero before the program writes them, whatever the array's length (an initializer for short
  // arrays, a loop in main for long ones).
  // Arrays of 64 and 65 elements stay Private under the default threshold, 101 and 5000 (with the LONG array over
  // 4 KiB) go to the scratch buffer; threshold 0 puts all of them there.
  for (const uint32_t threshold : {nvasm::kScratchThresholdBytes, 0u})
    for (const uint32_t n : {64u, 65u, 101u, 5000u}) {
      INFO(n << " elements, scratch threshold " << threshold);
      std::ostringstream s;
      s << "!!NVcp5.0\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\nTEMP a[" << n
        << "], A, R0;\nLONG TEMP d[" << n << "];\nMOV.U A.x, {" << n - 1 << "}.x;\n"
        << "MOV.U R0, a[A.x];\nADD.U R0, R0, a[0];\nSTB.U32X4 R0, out[0];\n"
        << "MOV.U64 d[A.x].y, {0x123456789}.x;\nMOV.U64 d[0].x, d[A.x].y;\nADD.U64 d[0].x, d[0].x, d[1].z;\n"
        << "STB.U64 d[0].x, out[16];\nEND\n";
      Run r;
      r.source = s.str();
      r.words = 8;
      r.scratch_threshold_bytes = threshold;
      const auto out = run(r);
      for (uint32_t c = 0; c < 4; ++c) CHECK(out[c] == 0u);
      CHECK(out[4] == 0x23456789u);
      CHECK(out[5] == 1u);
    }
}

TEST_CASE("TEMP arrays: sizes past 512 KiB per invocation are load errors that say so", "[nvasm][limits][errors]") {
  auto error = [](const std::string& decls) {
    auto p = nvasm::assemble("!!NVcp5.0\nGROUP_SIZE 1;\n" + decls + "\nEND\n");
    return p ? std::string("loaded") : p.error().message;
  };
  CHECK(error("TEMP a[32768];") == "loaded");
  CHECK(error("TEMP a[32769];") == "line 3, column 8: error: invalid array size 32769");
  CHECK(error("TEMP a[20000], b[20000];") ==
        "line 3, column 16: error: TEMP registers take 640000 bytes per invocation, more than 524288 (512 KiB, the "
        "local memory of an NVIDIA thread)");
  CHECK(error("LONG TEMP d[16384];") == "loaded");
  CHECK(error("TEMP r;\nLONG TEMP d[16384];") ==
        "line 4, column 11: error: TEMP registers take 524304 bytes per invocation, more than 524288 (512 KiB, the "
        "local memory of an NVIDIA thread)");
}
