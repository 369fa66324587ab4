// NV_gpu_program5_mem_extended's storage modifiers on LDB STB LDS STS LDC: F16 F16X2 F16X4 S8X2 S8X4 S16X2 S16X4
// U8X2 U8X4 U16X2 U16X4. The spec's BufferMemoryLoad / BufferMemoryStore extended to them: element i of the vector
// is the i-th 8- or 16-bit value at the address (little-endian), signed values sign-extended, halves converted to and
// from f32 (stores round to nearest even; NVIDIA's driver 580 does, subnormal halves kept), components past the count
// zero. Expected words are computed here from the bytes; every module is validated and run on the test device.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "bismuth/nvasm/assembler.hpp"
#include "nv4_ops_support.hpp"
#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
using namespace bismuth::test::nv4_ops;

namespace {

struct Format {
  const char* name;
  uint32_t bits;  // 8 or 16 per element
  uint32_t count;
  bool is_signed;
  bool half;
};

const Format kFormats[] = {
    {"S8X2", 8, 2, true, false},    {"S8X4", 8, 4, true, false},    {"U8X2", 8, 2, false, false},
    {"U8X4", 8, 4, false, false},   {"S16X2", 16, 2, true, false},  {"S16X4", 16, 4, true, false},
    {"U16X2", 16, 2, false, false}, {"U16X4", 16, 4, false, false}, {"F16", 16, 1, false, true},
    {"F16X2", 16, 2, false, true},  {"F16X4", 16, 4, false, true},
};

uint32_t byte_size(const Format& f) {
  return f.bits / 8 * f.count;
}

// The register word element i of format f loads from `bytes` at `at`.
uint32_t loaded(const Format& f, const std::vector<uint8_t>& bytes, uint32_t at, uint32_t i) {
  if (i >= f.count) return 0;
  const uint32_t p = at + i * f.bits / 8;
  uint32_t v = bytes[p];
  if (f.bits == 16) v |= uint32_t(bytes[p + 1]) << 8;
  if (f.half) return bits(float(half_value(uint16_t(v))));
  if (f.is_signed) return f.bits == 8 ? uint32_t(int32_t(int8_t(v))) : uint32_t(int32_t(int16_t(v)));
  return v;
}

std::vector<uint8_t> as_bytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> b(words.size() * 4);
  std::memcpy(b.data(), words.data(), b.size());
  return b;
}

}  // namespace

TEST_CASE("packed memory: LDB, LDS and LDC with each packed and F16 storage modifier", "[nvasm][packed]") {
  // Halves that are not NaN (their bit patterns are the driver's): normals, subnormals, infinities, zeroes.
  const std::vector<uint32_t> input = {0x3C00BC00u, 0x80017BFFu, 0x7C000001u, 0x00FF807Fu,
                                       0x3555C000u, 0x000103FFu, 0xFC008000u, 0x12345678u};
  const auto bytes = as_bytes(input);
  for (const Format& f : kFormats) {
    const uint32_t size = byte_size(f);
    for (uint32_t at : {0u, size, 32 - size}) {
      INFO(f.name << " at byte " << at);
      const std::string mod = f.name;
      Run r;
      r.input = input;
      r.parameter_buffers = {{0, input}};
      r.source = single("LDB." + mod + " R0, in[" + std::to_string(at) +
                            "];\nSTB.U32X4 R0, out[0];\n"
                            "MOV.U R1.x, " +
                            std::to_string(at) +
                            ";\n"
                            "LDC." +
                            mod +
                            " R0, c[R1.x];\nSTB.U32X4 R0, out[16];\n"
                            "LDB.U32X4 R2, in[0];\nSTS.U32X4 R2, sh[0];\nLDB.U32X4 R2, in[16];\nSTS.U32X4 R2, sh[16];\n"
                            "LDS." +
                            mod + " R0, sh[R1.x];\nSTB.U32X4 R0, out[32];\n",
                        "TEMP R0, R1, R2;\nCBUFFER c[] = { program.buffer[0] };\nSHARED_MEMORY 32;\n"
                        "SHARED sh[] = { program.sharedmem };\n");
      r.words = 12;
      const auto out = run(r);
      for (uint32_t i = 0; i < 4; ++i) {
        INFO("component " << i);
        CHECK(out[i] == loaded(f, bytes, at, i));
        CHECK(out[4 + i] == loaded(f, bytes, at, i));
        CHECK(out[8 + i] == loaded(f, bytes, at, i));
      }
    }
  }
}

TEST_CASE("packed memory: STB and STS with each packed and F16 storage modifier leave the other bytes",
          "[nvasm][packed]") {
  // Integers past the element range (stores keep the low bits, as BufferMemoryStore's casts do) and floats that
  // round to halves: ties (2049, 2051), overflow (65520 -> inf), subnormals (1e-6, 5e-8), -0.0.
  const int32_t ints[4] = {-1, 300, -129, 0x12345};
  const float floats[4][4] = {{1.0f, -2.5f, 0.1f, 65520.0f},
                              {2049.0f, 2051.0f, 1e-6f, -0.0f},
                              {65519.0f, -5e-8f, 6.1e-5f, 1e10f},
                              {-0.1f, 3.0f, 0.333f, -65504.0f}};
  for (const Format& f : kFormats) {
    for (uint32_t set = 0; set < (f.half ? 4u : 1u); ++set) {
      const uint32_t size = byte_size(f);
      for (uint32_t address : {0u, size, 16 - size}) {  // aligned to the access size
        INFO(f.name << " at byte " << address << " set " << set);
        const std::string mod = f.name;
        Run r;
        std::string value;
        if (f.half) {
          value = "MOV.F R0, {";
          for (int i = 0; i < 4; ++i) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%.9e", i ? ", " : "", double(floats[set][i]));
            value += buf;
          }
          value += "};\n";
        } else {
          value = "MOV.S R0, {" + std::to_string(ints[0]) + ", " + std::to_string(ints[1]) + ", " +
                  std::to_string(ints[2]) + ", " + std::to_string(ints[3]) + "};\n";
        }
        r.source = single(value + "MOV.U R1.x, " + std::to_string(address) + ";\nSTB." + mod +
                              " R0, out[R1.x];\n"
                              "MOV.U R2, {0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF};\n"
                              "STS.U32X4 R2, sh[0];\nSTS." +
                              mod +
                              " R0, sh[R1.x];\nLDS.U32X4 R2, sh[0];\n"
                              "STB.U32X4 R2, out[16];\n",
                          "TEMP R0, R1, R2;\nSHARED_MEMORY 16;\nSHARED sh[] = { program.sharedmem };\n");
        r.words = 8;
        const auto out = run(r);
        std::vector<uint8_t> expect(16, 0);
        for (uint32_t i = 0; i < 16; i += 4) {
          expect[i] = 0xEF, expect[i + 1] = 0xBE, expect[i + 2] = 0xAD, expect[i + 3] = 0xDE;
        }
        for (uint32_t i = 0; i < f.count; ++i) {
          const uint32_t v = f.half ? half_of(double(floats[set][i]), Mode::Round) : uint32_t(ints[i]);
          const uint32_t p = address + i * f.bits / 8;
          expect[p] = uint8_t(v);
          if (f.bits == 16) expect[p + 1] = uint8_t(v >> 8);
        }
        const auto got_buffer = as_bytes({out[0], out[1], out[2], out[3]});
        const auto got_shared = as_bytes({out[4], out[5], out[6], out[7]});
        for (uint32_t i = 0; i < 16; ++i) {
          INFO("byte " << i);
          CHECK(uint32_t(got_buffer[i]) == uint32_t(expect[i]));
          CHECK(uint32_t(got_shared[i]) == uint32_t(expect[i]));
        }
      }
    }
  }
}

TEST_CASE("packed memory: LDC modifiers on a packed load, and the forms that are load errors", "[nvasm][packed]") {
  // LDC.S16X4 with swizzle and negation; F16X2 with absolute value.
  const std::vector<uint32_t> input = {0x8001FFFEu, 0x00057FFFu, 0xC0003C00u, 0};
  Run r;
  r.parameter_buffers = {{0, input}};
  r.source = single(
      "LDC.S16X4 R0, -c[0].wzyx;\nSTB.S32X4 R0, out[0];\nLDC.F16X2 R0, |c[8].yxxy|;\n"
      "STB.F32X4 R0, out[16];\n",
      "TEMP R0;\nCBUFFER c[] = { program.buffer[0] };\n");
  r.words = 8;
  const auto out = run(r);
  const int16_t s[4] = {int16_t(0xFFFE), int16_t(0x8001), int16_t(0x7FFF), int16_t(0x0005)};
  for (int i = 0; i < 4; ++i) CHECK(int32_t(out[i]) == -int32_t(s[3 - i]));
  const float h[2] = {float(half_value(0x3C00)), float(half_value(0xC000))};
  const int yxxy[4] = {1, 0, 0, 1};
  for (int i = 0; i < 4; ++i) CHECK(as_float(out[4 + i]) == std::fabs(h[yxxy[i]]));

  // Atomics take only F16X2 / F16X4 (NV_shader_atomic_fp16_vector); images take them all (texture_test.cpp).
  const std::string head = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSTORAGE s[] = { program.storage[0] };\n";
  auto message = [](const std::string& source) {
    auto p = bismuth::nvasm::assemble(source);
    return p ? std::string() : p.error().message;
  };
  CHECK_THAT(message(head + "ATOMB.ADD.F16 R0.x, R0.x, s[0];\nEND\n"),
             Catch::Contains("atomic operation not supported with this storage modifier"));
  CHECK_THAT(message(head + "LDB.F16X3 R0, s[0];\nEND\n"),
             Catch::StartsWith("line 5, column 5: error: invalid modifier 'F16X3' for LDB"));
}
