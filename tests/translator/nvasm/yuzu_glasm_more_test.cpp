// More programs shaped like the output of yuzu's GLASM backend (src/shader_recompiler/backend/glasm): everything on
// few lines, `!!NVcp5.0` then the OPTION line, `GROUP_SIZE x y z;`, `SHARED_MEMORY n;SHARED shared_mem[]=
// {program.sharedmem};`, `TEMP R0,...,RC;LONG TEMP D0,...,DC;`, conditions as `MOV.S.CC RC.x,...;IF NE.x;` and
// `BRK (NE.x);` / `BRK (EQ.x);` in `REP;` loops, `.PREC` float math, CVT with rounding modifiers, `BFE.U R.x,{count,
// offset,0,0},v;`, predicated 64-bit moves (`MOV.U64 D0.x (NE.x),D1.x;`), lmem arrays, packed loads and stores.
// Written for these tests (not taken from yuzu); each expected result is computed here on the CPU and every module
// validated. yuzu_glasm_test.cpp has the first seven.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "nv4_ops_support.hpp"
#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
using namespace bismuth::test::nv4_ops;

namespace {

std::string yuzu(const std::string& rest) {
  return "!!NVcp5.0\n"
         "OPTION NV_internal;OPTION NV_shader_storage_buffer;OPTION NV_gpu_program_fp64;OPTION NV_bindless_texture;"
         "OPTION ARB_derivative_control;OPTION NV_gpu_program5_mem_extended;\n" +
         rest + "END";
}

const std::string kSsbo = "STORAGE ssbo0[]={program.storage[0]};STORAGE ssbo1[]={program.storage[1]};";

// A small deterministic sequence (xorshift32) for inputs.
std::vector<uint32_t> sequence(size_t n, uint32_t seed) {
  std::vector<uint32_t> v;
  uint32_t x = seed;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    v.push_back(x);
  }
  return v;
}

}  // namespace

TEST_CASE("yuzu shape 8: inclusive prefix sum in shared memory, BAR inside a REP loop", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu(
      "GROUP_SIZE 32 1 1;SHARED_MEMORY 256;SHARED shared_mem[]={program.sharedmem};TEMP R0,R1,R2,R3,RC;"
      "LONG TEMP DC;" +
      kSsbo +
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.U32 R1.x,ssbo1[R0.y];STS.U32 R1.x,shared_mem[R0.y];BAR;"
      "MOV.U R0.z,1;MOV.U R0.w,0;"
      "REP;SGE.U R2.x,R0.z,32;MOV.S.CC RC.x,R2.x;BRK (NE.x);"
      "ADD.U R2.y,R0.w,R0.y;LDS.U32 R1.x,shared_mem[R2.y];"
      "SGE.U R2.z,R0.x,R0.z;MOV.S.CC RC,R2.z;"
      "IF NE.x;SUB.U R2.w,R0.x,R0.z;SHL.U R2.w,R2.w,2;ADD.U R2.w,R2.w,R0.w;LDS.U32 R3.x,shared_mem[R2.w];"
      "ADD.U R1.x,R1.x,R3.x;ENDIF;"
      "XOR.U R3.y,R0.w,128;ADD.U R3.z,R3.y,R0.y;STS.U32 R1.x,shared_mem[R3.z];BAR;MOV.U R0.w,R3.y;SHL.U R0.z,R0.z,1;"
      "ENDREP;"
      "ADD.U R2.y,R0.w,R0.y;LDS.U32 R1.x,shared_mem[R2.y];STB.U32 R1.x,ssbo0[R0.y];");
  r.input = sequence(32, 7);
  for (auto& v : r.input) v &= 0xFFFF;
  r.words = 32;
  const auto out = run(r);
  uint32_t sum = 0;
  for (size_t i = 0; i < 32; ++i) {
    sum += r.input[i];
    INFO(i);
    CHECK(out[i] == sum);
  }
}

TEST_CASE("yuzu shape 9: 4x4 matrix times vectors from LDC.F32X4 with MUL.F.PREC and ADD.F.PREC", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,R3,R4,RC;LONG TEMP DC;CBUFFER c0[]={program.buffer[0]};" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,4;LDB.F32X4 R1,ssbo1[R0.y];"
                  "LDC.F32X4 R2,c0[0];MUL.F.PREC R3,R2,R1;ADD.F.PREC R4.x,R3.x,R3.y;ADD.F.PREC R4.x,R4.x,R3.z;"
                  "ADD.F.PREC R4.x,R4.x,R3.w;"
                  "LDC.F32X4 R2,c0[16];MUL.F.PREC R3,R2,R1;ADD.F.PREC R4.y,R3.x,R3.y;ADD.F.PREC R4.y,R4.y,R3.z;"
                  "ADD.F.PREC R4.y,R4.y,R3.w;"
                  "LDC.F32X4 R2,c0[32];MUL.F.PREC R3,R2,R1;ADD.F.PREC R4.z,R3.x,R3.y;ADD.F.PREC R4.z,R4.z,R3.z;"
                  "ADD.F.PREC R4.z,R4.z,R3.w;"
                  "LDC.F32X4 R2,c0[48];MUL.F.PREC R3,R2,R1;ADD.F.PREC R4.w,R3.x,R3.y;ADD.F.PREC R4.w,R4.w,R3.z;"
                  "ADD.F.PREC R4.w,R4.w,R3.w;"
                  "STB.F32X4 R4,ssbo0[R0.y];");
  float m[16], v[32];
  for (int i = 0; i < 16; ++i) m[i] = float(i % 5) * 0.37f - 0.6f;
  for (int i = 0; i < 32; ++i) v[i] = float(i * 3 % 11) * 0.21f - 1.1f;
  std::vector<uint32_t> mw;
  for (float f : m) mw.push_back(bits(f));
  r.parameter_buffers = {{0, mw}};
  for (float f : v) r.input.push_back(bits(f));
  r.words = 32;
  const auto out = run(r);
  for (int k = 0; k < 8; ++k) {
    for (int row = 0; row < 4; ++row) {
      volatile float p[4];
      for (int c = 0; c < 4; ++c) p[c] = m[row * 4 + c] * v[k * 4 + c];
      volatile float s = p[0] + p[1];
      s = s + p[2];
      s = s + p[3];
      INFO(k << " " << row);
      CHECK(as_float(out[k * 4 + row]) == s);
    }
  }
}

TEST_CASE("yuzu shape 10: histogram with ATOMB.ADD.U32 from 64 invocations", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 64 1 1;TEMP R0,R1,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.U32 R1.x,ssbo1[R0.y];AND.U R1.y,R1.x,7;"
                  "SHL.U R1.z,R1.y,2;ATOMB.ADD.U32 R1.w,1,ssbo0[R1.z];");
  r.input = sequence(64, 99);
  r.init = 0;
  r.words = 8;
  const auto out = run(r);
  uint32_t bins[8] = {};
  for (uint32_t v : r.input) ++bins[v & 7];
  for (int b = 0; b < 8; ++b) CHECK(out[b] == bins[b]);
}

TEST_CASE("yuzu shape 11: BFE.U / BFE.S / BFI.U with {count,offset,0,0} operands, BTC BTFM BFR", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 16 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.U32 R1.x,ssbo1[R0.y];"
                  "BFE.U R2.x,{8,4,0,0},R1.x;BFE.S R2.y,{5,11,0,0},R1.x;BFI.U R2.z,{6,20,0,0},R2.x,R1.x;"
                  "BTC.U R2.w,R1.x;SHL.U R0.z,R0.x,5;STB.U32X4 R2,ssbo0[R0.z];"
                  "BTFM.U R3.x,R1.x;BFR.U R3.y,R1.x;AND.U R3.z,R1.x,0xFF00FF00;SHR.S R3.w,R1.x,7;"
                  "ADD.U R0.w,R0.z,16;STB.U32X4 R3,ssbo0[R0.w];");
  r.input = sequence(16, 1234);
  r.words = 128;
  const auto out = run(r);
  for (int i = 0; i < 16; ++i) {
    const uint32_t x = r.input[i];
    INFO(std::hex << x);
    const uint32_t e8 = (x >> 4) & 0xFF;
    CHECK(out[i * 8 + 0] == e8);
    CHECK(int32_t(out[i * 8 + 1]) == (int32_t(x << (32 - 16)) >> (32 - 5)));  // bits 11..15, sign-extended
    const uint32_t mask = 0x3Fu << 20;
    CHECK(out[i * 8 + 2] == (((e8 << 20) & mask) | (x & ~mask)));
    CHECK(out[i * 8 + 3] == uint32_t(__builtin_popcount(x)));
    CHECK(out[i * 8 + 4] == uint32_t(31 - __builtin_clz(x)));
    uint32_t rev = 0;
    for (int b = 0; b < 32; ++b) rev |= ((x >> b) & 1u) << (31 - b);
    CHECK(out[i * 8 + 5] == rev);
    CHECK(out[i * 8 + 6] == (x & 0xFF00FF00u));
    CHECK(int32_t(out[i * 8 + 7]) == (int32_t(x) >> 7));
  }
}

TEST_CASE("yuzu shape 12: LONG TEMP arithmetic, PK64/UP64, ADD.U64 MUL.U64 SHL.U64 SHR.U64", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 4 1 1;TEMP R0,R1,R2,RC;LONG TEMP D0,D1,D2,D3,DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,4;LDB.U32X4 R1,ssbo1[R0.y];PK64.U D0,R1;"
                  "ADD.U64 D1.x,D0.x,D0.y;MUL.U64 D1.y,D0.x,D0.y;SHL.U64 D2.x,D0.x,13;SHR.U64 D2.y,D0.y,7;"
                  "UP64.U R2,D1;SHL.U R0.z,R0.x,5;STB.U32X4 R2,ssbo0[R0.z];UP64.U R2,D2;ADD.U R0.w,R0.z,16;"
                  "STB.U32X4 R2,ssbo0[R0.w];");
  r.input = sequence(16, 555);
  r.words = 32;
  const auto out = run(r);
  for (int i = 0; i < 4; ++i) {
    const uint64_t a = uint64_t(r.input[i * 4]) | uint64_t(r.input[i * 4 + 1]) << 32;
    const uint64_t b = uint64_t(r.input[i * 4 + 2]) | uint64_t(r.input[i * 4 + 3]) << 32;
    const uint64_t expect[4] = {a + b, a * b, a << 13, b >> 7};
    for (int k = 0; k < 4; ++k) {
      INFO(i << " " << k);
      CHECK(out[i * 8 + k * 2] == uint32_t(expect[k]));
      CHECK(out[i * 8 + k * 2 + 1] == uint32_t(expect[k] >> 32));
    }
  }
}

TEST_CASE("yuzu shape 13: predicated 64-bit moves select with MOV.S.CC RC and MOV.U64 D.x (NE.x)", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,RC;LONG TEMP D0,D1,D2,DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,3;LDB.U64 D0.x,ssbo1[R0.y];ADD.U R0.z,R0.y,64;"
                  "LDB.U64 D1.x,ssbo1[R0.z];AND.U R1.x,R0.x,1;MOV.S.CC RC.x,R1.x;"
                  "MOV.U64 D2.x,D0.x;MOV.U64 D2.x (NE.x),D1.x;STB.U64 D2.x,ssbo0[R0.y];"
                  "SLT.U64 R1.y,D0.x,D1.x;MOV.S.CC RC.x,R1.y;MOV.U64 D2.x,D1.x;MOV.U64 D2.x (NE.x),D0.x;"
                  "ADD.U R0.w,R0.y,64;STB.U64 D2.x,ssbo0[R0.w];");
  r.input = sequence(32, 31337);
  r.words = 32;
  const auto out = run(r);
  for (int i = 0; i < 8; ++i) {
    const uint64_t a = uint64_t(r.input[2 * i]) | uint64_t(r.input[2 * i + 1]) << 32;
    const uint64_t b = uint64_t(r.input[16 + 2 * i]) | uint64_t(r.input[16 + 2 * i + 1]) << 32;
    const uint64_t sel = (i & 1) ? b : a;
    const uint64_t mn = a < b ? a : b;
    INFO(i);
    CHECK((uint64_t(out[2 * i]) | uint64_t(out[2 * i + 1]) << 32) == sel);
    CHECK((uint64_t(out[16 + 2 * i]) | uint64_t(out[16 + 2 * i + 1]) << 32) == mn);
  }
}

TEST_CASE("yuzu shape 14: integer DIV.U MOD.U DIV.S and a GCD loop left by BRK (EQ.x)", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 16 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,3;LDB.U32X2 R1,ssbo1[R0.y];"
                  "DIV.U R2.x,R1.x,R1.y;MOD.U R2.y,R1.x,R1.y;SUB.S R3.x,0,R1.x;DIV.S R2.z,R3.x,R1.y;"
                  "MOV.U R3.x,R1.x;MOV.U R3.y,R1.y;"
                  "REP;MOD.U R3.z,R3.x,R3.y;MOV.U R3.x,R3.y;MOV.U R3.y,R3.z;MOV.S.CC RC.x,R3.y;BRK (EQ.x);ENDREP;"
                  "MOV.U R2.w,R3.x;SHL.U R0.z,R0.x,4;STB.U32X4 R2,ssbo0[R0.z];");
  auto seq = sequence(32, 42);
  for (int i = 0; i < 16; ++i) {
    r.input.push_back(seq[2 * i] % 100000 + 1);
    r.input.push_back(seq[2 * i + 1] % 1000 + 1);
  }
  r.words = 64;
  const auto out = run(r);
  for (int i = 0; i < 16; ++i) {
    const uint32_t a = r.input[2 * i], b = r.input[2 * i + 1];
    uint32_t x = a, y = b;
    while (y) {
      const uint32_t t = x % y;
      x = y, y = t;
    }
    INFO(a << " " << b);
    CHECK(out[4 * i] == a / b);
    CHECK(out[4 * i + 1] == a % b);
    CHECK(int32_t(out[4 * i + 2]) == -int32_t(a) / int32_t(b));  // DIV.S truncates toward zero
    CHECK(out[4 * i + 3] == x);
  }
}

TEST_CASE("yuzu shape 15: FLR CEIL TRUNC FRC ROUND and FLR.S / TRUNC.S to integers", "[nvasm][yuzu]") {
  const std::vector<float> x = {1.25f, -1.25f, 2.75f, -2.75f, 0.0f, -0.3f, 100.9f, -7.0f};
  Run r;
  r.source = yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.F32 R1.x,ssbo1[R0.y];"
                  "FLR.F R2.x,R1.x;CEIL.F R2.y,R1.x;TRUNC.F R2.z,R1.x;FRC.F R2.w,R1.x;"
                  "SHL.U R0.z,R0.x,5;STB.F32X4 R2,ssbo0[R0.z];"
                  "ROUND.F R3.x,R1.x;FLR.S R3.y,R1.x;TRUNC.S R3.z,R1.x;CEIL.S R3.w,R1.x;ADD.U R0.w,R0.z,16;"
                  "STB.U32X4 R3,ssbo0[R0.w];");
  for (float v : x) r.input.push_back(bits(v));
  r.words = 64;
  const auto out = run(r);
  for (int i = 0; i < 8; ++i) {
    const float v = x[i];
    INFO(v);
    CHECK(as_float(out[8 * i]) == std::floor(v));
    CHECK(as_float(out[8 * i + 1]) == std::ceil(v));
    CHECK(as_float(out[8 * i + 2]) == std::trunc(v));
    CHECK(as_float(out[8 * i + 3]) == v - std::floor(v));
    CHECK(as_float(out[8 * i + 4]) == std::nearbyint(v));
    CHECK(int32_t(out[8 * i + 5]) == int32_t(std::floor(v)));
    CHECK(int32_t(out[8 * i + 6]) == int32_t(std::trunc(v)));
    CHECK(int32_t(out[8 * i + 7]) == int32_t(std::ceil(v)));
  }
}

TEST_CASE("yuzu shape 16: CVT.F32.S32.ROUND, CVT.F32.U32, CVT.S16.S32 (wrap), CVT.S8.S32.SAT, CVT.U32.F32.TRUNC",
          "[nvasm][yuzu]") {
  const std::vector<int32_t> x = {0, 1, -1, 40000, -40000, 200, -200, 16777217, 0x7FFFFFFF, -5};
  Run r;
  r.source = yuzu("GROUP_SIZE 10 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.S32 R1.x,ssbo1[R0.y];"
                  "CVT.F32.S32.ROUND R2.x,R1.x;CVT.F32.U32 R2.y,R1.x;CVT.S16.S32 R2.z,R1.x;CVT.S8.S32.SAT R2.w,R1.x;"
                  "SHL.U R0.z,R0.x,4;STB.U32X4 R2,ssbo0[R0.z];");
  for (int32_t v : x) r.input.push_back(uint32_t(v));
  r.words = 40;
  const auto out = run(r);
  for (size_t i = 0; i < x.size(); ++i) {
    const int32_t v = x[i];
    INFO(v);
    CHECK(as_float(out[4 * i]) == float(v));  // nearest even for |v| > 2^24
    CHECK(as_float(out[4 * i + 1]) == float(uint32_t(v)));
    CHECK(int32_t(out[4 * i + 2]) == int32_t(int16_t(v)));  // no SAT: the high bits dropped
    // NV_gpu_program5 CVT: "Integer values are clamped to the closest value representable in the result data type
    // if the "SAT" (saturation) modifier is specified." NVIDIA's driver 580 (H200) wraps instead (40000 -> 64);
    // Bismuth keeps the spec's rule.
    CHECK(int32_t(out[4 * i + 3]) == std::clamp(v, -128, 127));
  }
}

TEST_CASE("yuzu shape 17: lmem array reversed with register indices (TEMP R0,...,lmem[16],RC)", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 1 1 1;TEMP R0,R1,R2,lmem[16],RC;LONG TEMP DC;" + kSsbo +
                  "MOV.U R0.x,0;REP;SGE.U R1.x,R0.x,16;MOV.S.CC RC.x,R1.x;BRK (NE.x);SHL.U R0.y,R0.x,2;"
                  "LDB.U32 R2.x,ssbo1[R0.y];MOV.U lmem[R0.x].x,R2.x;ADD.U R0.x,R0.x,1;ENDREP;"
                  "MOV.U R0.x,0;REP;SGE.U R1.x,R0.x,16;MOV.S.CC RC.x,R1.x;BRK (NE.x);SUB.U R0.z,15,R0.x;"
                  "MOV.U R2.x,lmem[R0.z].x;SHL.U R0.y,R0.x,2;STB.U32 R2.x,ssbo0[R0.y];ADD.U R0.x,R0.x,1;ENDREP;");
  r.input = sequence(16, 8);
  r.words = 16;
  const auto out = run(r);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == r.input[15 - i]);
}

TEST_CASE("yuzu shape 18: LDB.S16 / LDB.U8 / LDB.S8 scalars and STB.U16 / STB.U8 sub-word stores", "[nvasm][yuzu]") {
  Run r;
  // Scalar loads go to .x (the other components are zero: NV_gpu_program5 2.X.4.5), as yuzu writes them.
  r.source = yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,R3,R4,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,1;LDB.S16 R1.x,ssbo1[R0.y];LDB.U8 R3.x,ssbo1[R0.x];"
                  "ADD.U R0.z,R0.x,16;LDB.S8 R4.x,ssbo1[R0.z];"
                  "ADD.S R2.x,R1.x,R4.x;STB.U16 R2.x,ssbo0[R0.y];ADD.U R0.w,R0.x,16;STB.U8 R3.x,ssbo0[R0.w];");
  r.input = sequence(8, 77);
  r.init = 0;
  r.words = 8;
  const auto out = run(r);
  std::vector<uint8_t> in(32), got(32);
  std::memcpy(in.data(), r.input.data(), 32);
  std::memcpy(got.data(), out.data(), 32);
  for (int i = 0; i < 8; ++i) {
    const int16_t s16 = int16_t(in[2 * i] | in[2 * i + 1] << 8);
    const int8_t s8 = int8_t(in[16 + i]);
    const uint16_t sum = uint16_t(int32_t(s16) + int32_t(s8));
    INFO(i);
    CHECK((got[2 * i] | got[2 * i + 1] << 8) == sum);
    CHECK(got[16 + i] == in[i]);
  }
}

TEST_CASE("yuzu shape 19: half math on packed F16X2 loads and stores (LDB.F16X2, MUL.F.PREC, STB.F16X2)",
          "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;CBUFFER c0[]={program.buffer[0]};" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.F16X2 R1,ssbo1[R0.y];LDC.F16X2 R2,c0[0];"
                  "MUL.F.PREC R3.x,R1.x,R2.x;MUL.F.PREC R3.y,R1.y,R2.y;ADD.F.PREC R3.x,R3.x,R1.y;"
                  "STB.F16X2 R3,ssbo0[R0.y];");
  const float a[8] = {1.5f, -2.0f, 0.1f, 100.0f, 3.14159f, -0.001f, 7.0f, 0.333f};
  const float b[8] = {2.0f, 0.5f, -3.0f, 0.01f, 1.0f, 1000.0f, -7.0f, 3.0f};
  for (int i = 0; i < 8; ++i)
    r.input.push_back(half_of(a[i], Mode::Round) | uint32_t(half_of(b[i], Mode::Round)) << 16);
  const uint16_t k0 = half_of(0.75, Mode::Round), k1 = half_of(-1.5, Mode::Round);
  r.parameter_buffers = {{0, {k0 | uint32_t(k1) << 16, 0, 0, 0}}};
  r.words = 8;
  const auto out = run(r);
  for (int i = 0; i < 8; ++i) {
    const float ha = float(half_value(half_of(a[i], Mode::Round))), hb = float(half_value(half_of(b[i], Mode::Round)));
    volatile float x = ha * float(half_value(k0));
    x = x + hb;
    volatile float y = hb * float(half_value(k1));
    INFO(i);
    CHECK(out[i] == (half_of(double(x), Mode::Round) | uint32_t(half_of(double(y), Mode::Round)) << 16));
  }
}

TEST_CASE("yuzu shape 20: sum of a CBUFFER range with LDC c0[R0.x] in a REP loop", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu(
      "GROUP_SIZE 1 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;CBUFFER c0[]={program.buffer[0]};"
      "CBUFFER c1[]={program.buffer[1]};" +
      kSsbo +
      "LDC.U32X2 R0,c1[0];MOV.U R1.x,0;MOV.U R1.y,0;"
      "REP;SGE.U R2.x,R1.y,R0.y;MOV.S.CC RC.x,R2.x;BRK (NE.x);ADD.U R2.y,R0.x,R1.y;SHL.U R2.y,R2.y,2;"
      "LDC.U32 R3.x,c0[R2.y];ADD.U R1.x,R1.x,R3.x;ADD.U R1.y,R1.y,1;ENDREP;STB.U32 R1.x,ssbo0[0];");
  std::vector<uint32_t> c0(256);
  for (uint32_t i = 0; i < 256; ++i) c0[i] = i * i + 3;
  const uint32_t first = 17, count = 100;
  r.parameter_buffers = {{0, c0}, {1, {first, count, 0, 0}}};
  r.words = 1;
  const auto out = run(r);
  uint32_t sum = 0;
  for (uint32_t i = first; i < first + count; ++i) sum += c0[i];
  CHECK(out[0] == sum);
}

TEST_CASE("yuzu shape 21: nested REP loops, each left by BRK (NE.x)", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 1 1 1;TEMP R0,R1,R2,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.U R0.x,0;MOV.U R0.z,0;"
                  "REP;SGE.U R1.x,R0.x,40;MOV.S.CC RC.x,R1.x;BRK (NE.x);ADD.U R0.y,R0.x,1;"
                  "REP;SGE.U R1.y,R0.y,40;MOV.S.CC RC.x,R1.y;BRK (NE.x);MUL.U R2.x,R0.x,R0.y;MOD.U R2.y,R2.x,7;"
                  "SEQ.U R2.z,R2.y,3;MOV.S.CC RC.x,R2.z;IF NE.x;ADD.U R0.z,R0.z,1;ENDIF;ADD.U R0.y,R0.y,1;ENDREP;"
                  "ADD.U R0.x,R0.x,1;ENDREP;STB.U32 R0.z,ssbo0[0];");
  r.words = 1;
  const auto out = run(r);
  uint32_t n = 0;
  for (uint32_t i = 0; i < 40; ++i)
    for (uint32_t j = i + 1; j < 40; ++j) n += (i * j) % 7 == 3;
  CHECK(out[0] == n);
}

TEST_CASE("yuzu shape 22: MIN.S MAX.U ABS.S SSG.F MIN.F MAX.F and CMP.S", "[nvasm][yuzu]") {
  // SSG takes float types only (NV_gpu_program5's instruction table; NVIDIA's driver refuses SSG.S).
  Run r;
  r.source = yuzu(
      "GROUP_SIZE 16 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP DC;" + kSsbo +
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,3;LDB.S32X2 R1,ssbo1[R0.y];"
      "MIN.S R2.x,R1.x,R1.y;MAX.U R2.y,R1.x,R1.y;ABS.S R2.z,R1.x;I2F.S R3.w,R1.y;SSG.F R3.w,R3.w;TRUNC.S R2.w,R3.w;"
      "SHL.U R0.z,R0.x,5;STB.S32X4 R2,ssbo0[R0.z];"
      "I2F.S R3.x,R1.x;I2F.S R3.y,R1.y;MIN.F R3.z,R3.x,R3.y;MAX.F R3.w,R3.x,R3.y;CMP.S R3.x,R1.x,R1.y,7;"
      "ADD.U R0.w,R0.z,16;STB.U32X4 R3,ssbo0[R0.w];");
  auto seq = sequence(32, 4242);
  for (auto v : seq) r.input.push_back(uint32_t(int32_t(v) >> 8));
  r.words = 128;
  const auto out = run(r);
  for (int i = 0; i < 16; ++i) {
    const int32_t a = int32_t(r.input[2 * i]), b = int32_t(r.input[2 * i + 1]);
    INFO(a << " " << b);
    CHECK(int32_t(out[8 * i]) == std::min(a, b));
    CHECK(out[8 * i + 1] == std::max(uint32_t(a), uint32_t(b)));
    CHECK(int32_t(out[8 * i + 2]) == std::abs(a));
    CHECK(int32_t(out[8 * i + 3]) == (b > 0) - (b < 0));
    CHECK(int32_t(out[8 * i + 4]) == (a < 0 ? b : 7));  // CMP: op0 < 0 ? op1 : op2
    CHECK(as_float(out[8 * i + 5]) == float(b));
    CHECK(as_float(out[8 * i + 6]) == std::min(float(a), float(b)));
    CHECK(as_float(out[8 * i + 7]) == std::max(float(a), float(b)));
  }
}

TEST_CASE("yuzu shape 23: tree reduction in shared memory, the stride halved in a REP loop", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu(
      "GROUP_SIZE 64 1 1;SHARED_MEMORY 256;SHARED shared_mem[]={program.sharedmem};TEMP R0,R1,R2,R3,RC;"
      "LONG TEMP DC;" +
      kSsbo +
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.U32 R1.x,ssbo1[R0.y];"
      "STS.U32 R1.x,shared_mem[R0.y];BAR;MOV.U R0.z,32;"
      "REP;SEQ.U R2.x,R0.z,0;MOV.S.CC RC.x,R2.x;BRK (NE.x);SLT.U R2.y,R0.x,R0.z;MOV.S.CC RC.x,R2.y;"
      "IF NE.x;ADD.U R2.z,R0.x,R0.z;SHL.U R2.z,R2.z,2;LDS.U32 R3.x,shared_mem[R2.z];"
      "LDS.U32 R1.x,shared_mem[R0.y];ADD.U R1.x,R1.x,R3.x;STS.U32 R1.x,shared_mem[R0.y];ENDIF;BAR;"
      "SHR.U R0.z,R0.z,1;ENDREP;"
      "SEQ.U R2.w,R0.x,0;MOV.S.CC RC.x,R2.w;IF NE.x;LDS.U32 R3.x,shared_mem[0];STB.U32 R3.x,ssbo0[0];ENDIF;");
  r.input = sequence(64, 64);
  r.words = 1;
  const auto out = run(r);
  uint32_t sum = 0;
  for (uint32_t v : r.input) sum += v;
  CHECK(out[0] == sum);
}

TEST_CASE("yuzu shape 24: STORAGE and CBUFFER declared after the first instructions", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu(
      "GROUP_SIZE 4 1 1;TEMP R0,R1,R2,RC;LONG TEMP DC;"
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;"
      "STORAGE ssbo1[]={program.storage[1]};LDB.U32 R1.x,ssbo1[R0.y];"
      "CBUFFER c0[]={program.buffer[0]};LDC.U32 R2.x,c0[R0.y];XOR.U R1.z,R1.x,R2.x;"
      "STORAGE ssbo0[]={program.storage[0]};STB.U32 R1.z,ssbo0[R0.y];");
  r.input = sequence(4, 3);
  r.parameter_buffers = {{0, sequence(4, 5)}};
  r.words = 4;
  const auto out = run(r);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == (r.input[i] ^ r.parameter_buffers[0].second[i]));
}

TEST_CASE("yuzu shape 25: bitonic sort of 16 keys in shared memory with MIN.S / MAX.S and BAR", "[nvasm][yuzu]") {
  Run r;
  // Invocation i compares i with i ^ j for j = k/2 .. 1, k = 2 .. 16; the lower index keeps the min when
  // (i & k) == 0.
  r.source = yuzu(
      "GROUP_SIZE 16 1 1;SHARED_MEMORY 64;SHARED shared_mem[]={program.sharedmem};TEMP R0,R1,R2,R3,RC;"
      "LONG TEMP DC;" +
      kSsbo +
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.S32 R1.x,ssbo1[R0.y];STS.S32 R1.x,shared_mem[R0.y];BAR;"
      "MOV.U R0.z,2;"
      "REP;SGT.U R2.x,R0.z,16;MOV.S.CC RC.x,R2.x;BRK (NE.x);SHR.U R0.w,R0.z,1;"
      "REP;SEQ.U R2.y,R0.w,0;MOV.S.CC RC.x,R2.y;BRK (NE.x);"
      "XOR.U R2.z,R0.x,R0.w;SGT.U R2.w,R2.z,R0.x;MOV.S.CC RC.x,R2.w;"
      "IF NE.x;SHL.U R3.x,R2.z,2;LDS.S32 R1.x,shared_mem[R0.y];LDS.S32 R2.x,shared_mem[R3.x];"
      "MIN.S R1.z,R1.x,R2.x;MAX.S R1.w,R1.x,R2.x;AND.U R3.y,R0.x,R0.z;MOV.S.CC RC.x,R3.y;"
      "IF NE.x;STS.S32 R1.w,shared_mem[R0.y];STS.S32 R1.z,shared_mem[R3.x];"
      "ELSE;STS.S32 R1.z,shared_mem[R0.y];STS.S32 R1.w,shared_mem[R3.x];ENDIF;ENDIF;BAR;"
      "SHR.U R0.w,R0.w,1;ENDREP;SHL.U R0.z,R0.z,1;ENDREP;"
      "LDS.S32 R1.x,shared_mem[R0.y];STB.S32 R1.x,ssbo0[R0.y];");
  for (uint32_t v : sequence(16, 2024)) r.input.push_back(uint32_t(int32_t(v) >> 4));
  r.words = 16;
  const auto out = run(r);
  std::vector<int32_t> sorted;
  for (uint32_t v : r.input) sorted.push_back(int32_t(v));
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 16; ++i) CHECK(int32_t(out[i]) == sorted[i]);
}

TEST_CASE("yuzu shape 26: float classification through SLT.F / SEQ.F with .CC and IF / ELSE", "[nvasm][yuzu]") {
  const std::vector<float> x = {-3.5f, -1.0f, -0.25f, 0.0f, 0.25f, 1.0f, 2.5f, 100.0f};
  Run r;
  r.source =
      yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,RC;LONG TEMP DC;" + kSsbo +
           "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.F32 R1.x,ssbo1[R0.y];"
           "SLT.F R2.x,R1.x,0;TRUNC.U R2.x,R2.x;MOV.S.CC RC.x,R2.x;"
           "IF NE.x;MOV.U R2.y,1;SLT.F R2.z,R1.x,-1;TRUNC.U R2.z,R2.z;MOV.S.CC RC.x,R2.z;"
           "IF NE.x;MOV.U R2.y,0;ENDIF;"
           "ELSE;SEQ.F.CC R2.x,R1.x,0;IF NE.x;MOV.U R2.y,2;ELSE;MOV.U R2.y,3;SGT.F R2.z,R1.x,1;TRUNC.U R2.z,R2.z;"
           "MOV.S.CC RC.x,R2.z;IF NE.x;MOV.U R2.y,4;ENDIF;ENDIF;ENDIF;STB.U32 R2.y,ssbo0[R0.y];");
  for (float v : x) r.input.push_back(bits(v));
  r.words = 8;
  const auto out = run(r);
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = x[i];
    const uint32_t cls = v < 0 ? (v < -1 ? 0 : 1) : v == 0 ? 2 : v > 1 ? 4 : 3;
    INFO(v);
    CHECK(out[i] == cls);
  }
}

TEST_CASE("yuzu shape 27: xorshift32 steps in a REP count loop (XOR.U SHL.U SHR.U)", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 8 1 1;TEMP R0,R1,R2,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.U32 R1.x,ssbo1[R0.y];MOV.U R1.y,0;"
                  "REP;SGE.U R2.x,R1.y,100;MOV.S.CC RC.x,R2.x;BRK (NE.x);"
                  "SHL.U R2.y,R1.x,13;XOR.U R1.x,R1.x,R2.y;SHR.U R2.y,R1.x,17;XOR.U R1.x,R1.x,R2.y;"
                  "SHL.U R2.y,R1.x,5;XOR.U R1.x,R1.x,R2.y;ADD.U R1.y,R1.y,1;ENDREP;STB.U32 R1.x,ssbo0[R0.y];");
  r.input = {1, 2, 3, 0xDEADBEEF, 12345, 0x80000000u, 777, 0xFFFFFFFFu};
  r.words = 8;
  const auto out = run(r);
  for (int i = 0; i < 8; ++i) {
    uint32_t x = r.input[i];
    for (int k = 0; k < 100; ++k) x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    CHECK(out[i] == x);
  }
}

TEST_CASE("yuzu shape 28: ATOMB.MIN.S32 / MAX.U32 / EXCH.U32 / CSWAP.U32 from 32 invocations", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 32 1 1;TEMP R0,R1,R2,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.S32 R1.x,ssbo1[R0.y];"
                  "ATOMB.MIN.S32 R2.x,R1.x,ssbo0[0];ATOMB.MAX.U32 R2.y,R1.x,ssbo0[4];"
                  "ATOMB.ADD.U32 R2.z,R1.x,ssbo0[8];"
                  "SEQ.U R2.w,R0.x,5;MOV.S.CC RC.x,R2.w;IF NE.x;ATOMB.EXCH.U32 R2.x,R1.x,ssbo0[12];ENDIF;"
                  "ATOMB.CSWAP.U32 R2.x,{0,1,0,0},ssbo0[16];");
  for (uint32_t v : sequence(32, 9)) r.input.push_back(uint32_t(int32_t(v) >> 3));
  r.init = 0;
  r.words = 5;
  const auto out = run(r);
  int32_t mn = 0;
  uint32_t mx = 0, sum = 0;
  for (uint32_t v : r.input) mn = std::min(mn, int32_t(v)), mx = std::max(mx, v), sum += v;
  CHECK(int32_t(out[0]) == mn);
  CHECK(out[1] == mx);
  CHECK(out[2] == sum);
  CHECK(out[3] == r.input[5]);
  CHECK(out[4] == 1u);  // the first CSWAP of 0 -> 1 wins; the others see 1
}

TEST_CASE("yuzu shape 29: GROUP_SIZE 4 4 1 over 2x2 groups, invocation.localid.xy and groupid.xy", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 4 4 1;TEMP R0,R1,RC;LONG TEMP DC;" + kSsbo +
                  "MOV.U R0.x,invocation.globalid.x;MOV.U R0.y,invocation.globalid.y;MAD.U R0.z,R0.y,8,R0.x;"
                  "SHL.U R0.w,R0.z,2;MOV.U R1.x,invocation.groupid.x;MOV.U R1.y,invocation.groupid.y;"
                  "MOV.U R1.z,invocation.localid.x;MOV.U R1.w,invocation.localid.y;"
                  "MAD.U R1.x,R1.y,2,R1.x;MAD.U R1.z,R1.w,4,R1.z;MAD.U R1.x,R1.x,100,R1.z;STB.U32 R1.x,ssbo0[R0.w];");
  r.groups = {2, 2, 1};
  r.words = 64;
  const auto out = run(r);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const uint32_t group = (y / 4) * 2 + x / 4, local = (y % 4) * 4 + x % 4;
      INFO(x << "," << y);
      CHECK(out[y * 8 + x] == group * 100 + local);
    }
  }
}

TEST_CASE("yuzu shape 30: F64 math on LONG TEMP (ADD.F64 MUL.F64) and CVT.F32.F64.ROUND", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu("GROUP_SIZE 4 1 1;TEMP R0,R1,RC;LONG TEMP D0,D1,D2,DC;" + kSsbo +
                  "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,4;LDB.F64X2 D0,ssbo1[R0.y];"
                  "MUL.F64 D1.x,D0.x,D0.y;ADD.F64 D1.y,D0.x,D0.y;CVT.F32.F64.ROUND R1.x,D1.x;"
                  "STB.F64X2 D1,ssbo0[R0.y];SHL.U R0.z,R0.x,2;ADD.U R0.z,R0.z,64;STB.F32 R1.x,ssbo0[R0.z];");
  const double d[8] = {1.0 / 3.0, 3.0, -2.5e10, 1e-7, 0.1, 0.2, 123456789.123, -0.000123};
  for (double v : d) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    r.input.push_back(uint32_t(u));
    r.input.push_back(uint32_t(u >> 32));
  }
  r.words = 20;
  const auto out = run(r);
  auto dbl = [&](int w) {
    const uint64_t u = uint64_t(out[w]) | uint64_t(out[w + 1]) << 32;
    double v;
    std::memcpy(&v, &u, 8);
    return v;
  };
  for (int i = 0; i < 4; ++i) {
    const double a = d[2 * i], b = d[2 * i + 1];
    INFO(a << " " << b);
    CHECK(dbl(4 * i) == a * b);
    CHECK(dbl(4 * i + 2) == a + b);
    CHECK(as_float(out[16 + i]) == float(a * b));
  }
}
