// NV_gpu_program4/5 instructions and modifiers that emitters use beyond the corpus: CVT with sized types, rounding
// and SAT (NV_gpu_program5), .PREC, the packing instructions, the geometric vector instructions, SAD RCC SCS, the
// _SAT opcode suffix, warp and SM numbers, and the OPTIONs yuzu writes. Expected values come from the spec's
// pseudo-code, computed here; every module is validated (program_runner.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "nv4_ops_support.hpp"
#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
using namespace bismuth::test::nv4_ops;
namespace nvasm = bismuth::nvasm;

namespace {

int32_t s32(uint32_t u) {
  return static_cast<int32_t>(u);
}

// NV_gpu_program5 CVT: "ROUND is used if no rounding modifier is specified": the nearer integer, ties to even.
int64_t round_mode(double v, Mode m) {
  switch (m) {
    case Mode::Trunc: return int64_t(std::trunc(v));
    case Mode::Floor: return int64_t(std::floor(v));
    case Mode::Ceil: return int64_t(std::ceil(v));
    default: return int64_t(std::nearbyint(v));  // the default FE_TONEAREST: ties to even
  }
}

// "Integer values drop the most significant bits if the "SAT" modifier is not specified."
uint32_t wrap32(int64_t v) {
  return static_cast<uint32_t>(static_cast<uint64_t>(v));
}

}  // namespace

TEST_CASE("CVT float to integer rounds by the modifier, ROUND when none is given", "[nvasm][nv4ops][cvt]") {
  // "When converting from a non-integral floating-point value to an integer, one of the two integers closest in
  // value ... If "CEIL" or "FLR" is specified, the larger or smaller value ... "TRUNC" ... nearest to zero ...
  // "ROUND" is used if no rounding modifier is specified."
  const float x[4] = {2.5f, -2.5f, 3.7f, -0.5f};
  const auto out = run({single(R"(
MOV.F R0, {2.5, -2.5, 3.7, -0.5};
CVT.S32.F32 R1, R0;
STB.U32X4 R1, out[0];
CVT.S32.F32.ROUND R1, R0;
STB.U32X4 R1, out[16];
CVT.S32.F32.TRUNC R1, R0;
STB.U32X4 R1, out[32];
CVT.S32.F32.FLR R1, R0;
STB.U32X4 R1, out[48];
CVT.S32.F32.CEIL R1, R0;
STB.U32X4 R1, out[64];
)"),
                        20});
  const Mode modes[5] = {Mode::Round, Mode::Round, Mode::Trunc, Mode::Floor, Mode::Ceil};
  for (int m = 0; m < 5; ++m) {
    for (int i = 0; i < 4; ++i) {
      INFO("mode " << m << " value " << x[i]);
      CHECK(s32(out[4 * m + i]) == round_mode(x[i], modes[m]));
    }
  }
}

TEST_CASE("CVT to sized integers: SAT clamps, otherwise the high bits are dropped", "[nvasm][nv4ops][cvt]") {
  // "Integer values are clamped to the closest value representable in the result data type if the "SAT"
  // (saturation) modifier is specified." / "Integer values drop the most significant bits if the "SAT" modifier
  // is not specified." An S8 / U16 result fills the 32-bit register component sign- / zero-extended.
  const float f[4] = {300.0f, -129.0f, 127.4f, -200.0f};
  const int32_t i[4] = {70000, -1, 5, 65535};
  const auto out = run({single(R"(
MOV.F R0, {300.0, -129.0, 127.4, -200.0};
CVT.S8.F32 R1, R0;
STB.U32X4 R1, out[0];
CVT.S8.F32.SAT R1, R0;
STB.U32X4 R1, out[16];
MOV.S R2, {70000, -1, 5, 65535};
CVT.U16.S32 R1, R2;
STB.U32X4 R1, out[32];
CVT.U16.S32.SAT R1, R2;
STB.U32X4 R1, out[48];
MOV.U R2, {0x1FF, 0xFF, 0x8000, 0x17FFF};
CVT.S32.S8 R1.xy, R2;
CVT.S32.U8 R1.zw, R2.xyxy;
STB.U32X4 R1, out[64];
CVT.S32.S16 R1, R2;
STB.U32X4 R1, out[80];
)"),
                        24});
  for (int k = 0; k < 4; ++k) {
    const int64_t r = round_mode(f[k], Mode::Round);
    CHECK(s32(out[k]) == int8_t(wrap32(r)));
    CHECK(s32(out[4 + k]) == std::clamp<int64_t>(r, -128, 127));
    CHECK(out[8 + k] == (uint32_t(i[k]) & 0xFFFFu));
    CHECK(out[12 + k] == uint32_t(std::clamp<int64_t>(i[k], 0, 65535)));
  }
  // "the source register components are first interpreted as a value with the same base data type as the operand
  // and converted to the operand data type": S8 / U8 / S16 operands are the low bits, extended.
  CHECK(s32(out[16]) == -1);  // 0x1FF as S8
  CHECK(s32(out[17]) == -1);  // 0xFF as S8
  CHECK(out[18] == 0xFFu);    // 0x1FF as U8
  CHECK(out[19] == 0xFFu);    // 0xFF as U8
  const uint32_t w[4] = {0x1FF, 0xFF, 0x8000, 0x17FFF};
  for (int k = 0; k < 4; ++k) CHECK(s32(out[20 + k]) == int16_t(w[k] & 0xFFFF));
}

TEST_CASE("CVT of large floats to 32-bit integers drops the high bits, SAT clamps", "[nvasm][nv4ops][cvt]") {
  const float f[4] = {5e9f, 3e9f, -3e9f, 1e12f};
  const auto out = run({single(R"(
MOV.F R0, {5e9, 3e9, -3e9, 1e12};
CVT.U32.F32 R1, R0;
STB.U32X4 R1, out[0];
CVT.S32.F32 R1, R0;
STB.U32X4 R1, out[16];
CVT.S32.F32.SAT R1, R0;
STB.U32X4 R1, out[32];
CVT.U32.F32.SAT R1, R0;
STB.U32X4 R1, out[48];
)"),
                        16});
  for (int k = 0; k < 4; ++k) {
    const int64_t r = int64_t(double(f[k]));  // integral already
    INFO(f[k]);
    CHECK(out[k] == wrap32(r));
    CHECK(out[4 + k] == wrap32(r));
    CHECK(s32(out[8 + k]) == std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
    CHECK(out[12 + k] == uint32_t(std::clamp<int64_t>(r, 0, UINT32_MAX)));
  }
}

TEST_CASE("CVT to and from F16: the low 16 bits, rounded by the modifier", "[nvasm][nv4ops][cvt]") {
  // "A storage modifier of "F16" indicates a source or destination that is treated as having a floating-point
  // type, but whose sixteen least significant bits describe a 16-bit floating-point value"; "Floating-point values
  // not exactly representable in the destination data are rounded to one of the two nearest values in the
  // destination type according to the rounding modifier."
  const float x[4] = {1.0f, 0.1f, -65519.0f, -0.3f};
  const auto out = run({single(R"(
MOV.F R0, {1.0, 0.1, -65519.0, -0.3};
CVT.F16.F32 R1, R0;
STB.U32X4 R1, out[0];
CVT.F16.F32.TRUNC R1, R0;
STB.U32X4 R1, out[16];
CVT.F16.F32.FLR R1, R0;
STB.U32X4 R1, out[32];
CVT.F16.F32.CEIL R1, R0;
STB.U32X4 R1, out[48];
MOV.U R2, {0x3C00, 0xC000, 0x7BFF, 0xFFFF3555};
CVT.F32.F16 R1, R2;
STB.U32X4 R1, out[64];
)"),
                        20});
  const Mode modes[4] = {Mode::Round, Mode::Trunc, Mode::Floor, Mode::Ceil};
  for (int m = 0; m < 4; ++m) {
    for (int k = 0; k < 4; ++k) {
      INFO("mode " << m << " value " << x[k]);
      CHECK(out[4 * m + k] == half_of(x[k], modes[m]));  // the upper 16 bits are zero
    }
  }
  CHECK(as_float(out[16]) == 1.0f);
  CHECK(as_float(out[17]) == -2.0f);
  CHECK(as_float(out[18]) == 65504.0f);
  CHECK(double(as_float(out[19])) == half_value(0x3555));  // only the low 16 bits count
}

TEST_CASE("CVT integer to float rounds inexact values by the modifier", "[nvasm][nv4ops][cvt]") {
  // 2^24 + 1 and UINT32_MAX are not floats: ROUND picks the nearer (ties to even), FLR / CEIL the smaller / larger.
  const auto out = run({single(R"(
MOV.S R0, {16777217, -16777217, 16777219, 7};
CVT.F32.S32 R1, R0;
STB.F32X4 R1, out[0];
CVT.F32.S32.FLR R1, R0;
STB.F32X4 R1, out[16];
CVT.F32.S32.CEIL R1, R0;
STB.F32X4 R1, out[32];
CVT.F32.S32.TRUNC R1, R0;
STB.F32X4 R1, out[48];
MOV.U R2, {0xFFFFFFFF, 0xFFFFFFFF, 0x80000001, 3};
CVT.F32.U32.FLR R1.x, R2.x;
CVT.F32.U32.CEIL R1.y, R2.y;
CVT.F32.U32.CEIL R1.z, R2.z;
CVT.F32.S32.SAT R1.w, R2.w;
STB.F32X4 R1, out[64];
)"),
                        20});
  CHECK(as_float(out[0]) == 16777216.0f);  // tie: the even significand
  CHECK(as_float(out[1]) == -16777216.0f);
  CHECK(as_float(out[2]) == 16777220.0f);  // tie: 16777218 is odd, 16777220 even
  CHECK(as_float(out[3]) == 7.0f);
  CHECK(as_float(out[4]) == 16777216.0f);
  CHECK(as_float(out[5]) == -16777218.0f);
  CHECK(as_float(out[6]) == 16777218.0f);
  CHECK(as_float(out[7]) == 7.0f);
  CHECK(as_float(out[8]) == 16777218.0f);
  CHECK(as_float(out[9]) == -16777216.0f);
  CHECK(as_float(out[10]) == 16777220.0f);
  CHECK(as_float(out[11]) == 7.0f);
  CHECK(as_float(out[12]) == 16777216.0f);
  CHECK(as_float(out[13]) == -16777216.0f);
  CHECK(as_float(out[14]) == 16777218.0f);
  CHECK(as_float(out[15]) == 7.0f);
  CHECK(as_float(out[16]) == 4294967040.0f);  // the float below 2^32
  CHECK(as_float(out[17]) == 4294967296.0f);
  CHECK(as_float(out[18]) == 2147483904.0f);  // 2^31 + 256, the float above 2^31 + 1
  CHECK(as_float(out[19]) == 1.0f);           // SAT on a float result: [0, 1]
}

TEST_CASE("CVT F64 to F32 rounds by the modifier", "[nvasm][nv4ops][cvt]") {
  const double d = 0.1;  // not a float
  const float nearest = float(d);
  const float down = double(nearest) > d ? std::nextafter(nearest, -1.0f) : nearest;
  const float up = double(nearest) < d ? std::nextafter(nearest, 2.0f) : nearest;
  const auto out = run({single(R"(
MOV.F64 D0, {0.1, -0.1, 0.1, -0.1};
CVT.F32.F64 R1.x, D0.x;
CVT.F32.F64.FLR R1.y, D0.x;
CVT.F32.F64.CEIL R1.z, D0.x;
CVT.F32.F64.TRUNC R1.w, D0.y;
STB.F32X4 R1, out[0];
)",
                               "TEMP R0, R1;\nLONG TEMP D0;\n"),
                        4});
  CHECK(as_float(out[0]) == nearest);
  CHECK(as_float(out[1]) == down);
  CHECK(as_float(out[2]) == up);
  CHECK(as_float(out[3]) == -down);  // toward zero
}

TEST_CASE("CVT with negation or absolute value on its operand fails to load", "[nvasm][nv4ops][cvt][errors]") {
  // "Negation and absolute value operators are not supported on the source operand; a program using such
  // operators will fail to compile."
  for (const char* operand : {"-R0", "|R0|"}) {
    const std::string src =
        std::string("!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1;\nCVT.S32.F32 R1, ") + operand + ";\nEND\n";
    auto p = nvasm::assemble(src);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.error().message, Catch::StartsWith("line 4, column 17: error: CVT does not take negation"));
  }
}

TEST_CASE(".PREC keeps float results unfused: NoContraction on every float operation", "[nvasm][nv4ops][prec]") {
  // NV_gpu_program5: "an implementation may combine a MUL instruction with a dependent ADD instruction and
  // generate code to execute a MAD ... When ".PREC" is specified, the instruction will be executed in a manner
  // that always generates the same result regardless of the program instructions that precede or follow".
  // a * a = 1 + 2^-11 + 2^-24 rounds (tie to even) to 1 + 2^-11 as a float; adding -(1 + 2^-11) gives exactly 0,
  // while a fused multiply-add would give 2^-24.
  const float a = 1.0f + std::ldexp(1.0f, -12), c = -(1.0f + std::ldexp(1.0f, -11));
  volatile float product = a * a;
  const float unfused = product + c;
  const std::string src = single(R"(
MOV.U R0, {0x3F800800, 0xBF801000, 0, 0};
MUL.F.PREC R1.x, R0.x, R0.x;
ADD.F.PREC R1.y, R1.x, R0.y;
STB.F32 R1.y, out[0];
)");
  const auto out = run({src, 1});
  CHECK(fbits(a) == 0x3F800800u);
  CHECK(fbits(c) == 0xBF801000u);
  CHECK(as_float(out[0]) == unfused);
  CHECK(unfused == 0.0f);
  nvasm::AssembleOptions plain;
  plain.optimize = false;
  auto p = nvasm::assemble(src, plain);
  REQUIRE(p);
  CHECK(count_decorations(p->spirv, 42 /* NoContraction */) >= 2);
  auto without = nvasm::assemble(single("MUL.F R1.x, R0.x, R0.x;\nADD.F R1.y, R1.x, R0.y;\n"), plain);
  REQUIRE(without);
  CHECK(count_decorations(without->spirv, 42) == 0);
  // The optimizer keeps them: the driver sees them (operands from memory, so nothing folds away).
  auto optimized = nvasm::assemble(single("LDB.F32X2 R0, in[0];\nMUL.F.PREC R1.x, R0.x, R0.x;\n"
                                          "ADD.F.PREC R1.y, R1.x, R0.y;\nSTB.F32 R1.y, out[0];\n"));
  REQUIRE(optimized);
  CHECK(count_decorations(optimized->spirv, 42) >= 2);
}

TEST_CASE("PK2H PK2US PK4B PK4UB pack floats into one word, UP2H UP2US UP4B UP4UB unpack it", "[nvasm][nv4ops][pack]") {
  // NV_gpu_program4 (from NV_fragment_program): PK2H packs the halves of x (bits 0-15) and y (16-31); PK2US
  // round(65535 * clamp(c, 0, 1)); PK4UB round(255 * clamp(c, 0, 1)), x in the low byte; PK4B clamps to
  // [-128/127, 127/127] and stores round(127 * c + 128). The word is replicated to every component. The UP*
  // instructions undo them: UP2* give x, z from the low half and y, w from the high one; UP4B (byte - 128) / 127.
  const uint32_t pk2h = uint32_t(half_of(1.5, Mode::Round)) | uint32_t(half_of(-2.0, Mode::Round)) << 16;
  auto unorm = [](double c, double scale) { return uint32_t(std::nearbyint(std::clamp(c, 0.0, 1.0) * scale)); };
  auto biased = [](double c) { return uint32_t(std::nearbyint(127.0 * std::clamp(c, -128.0 / 127.0, 1.0) + 128.0)); };
  const uint32_t pk2us = unorm(0.25f, 65535) | unorm(1.2f, 65535) << 16;
  const uint32_t pk4ub = unorm(0.0, 255) | unorm(1.0, 255) << 8 | unorm(0.2f, 255) << 16 | unorm(-1.0, 255) << 24;
  const uint32_t pk4b = biased(-1) | biased(1) << 8 | biased(0) << 16 | biased(0.25) << 24;
  // The UP* operands come from memory, as in real programs. (Fed by PK2H of a constant, UP2H gave 0 for y and w
  // on Debian 12's lavapipe although the module is PackHalf2x16 then UnpackHalf2x16 and shuffle 0 1 0 1: the
  // driver's folding of the constant pack/unpack pair.)
  Run r{single(R"(
MOV.F R0, {1.5, -2.0, 0.25, 1.2};
PK2H R1, R0;
STB.U32X4 R1, out[0];
PK2US R2.x, R0.zwzw;
PK4UB R2.y, {0.0, 1.0, 0.2, -1.0};
PK4B R2.z, {-1.0, 1.0, 0.0, 0.25};
PK4B R2.w, {-2.0, 3.0, 0.0, 0.25};
STB.U32X4 R2, out[16];
LDB.U32X4 R2, in[0];
UP2H R3, R2.x;
STB.F32X4 R3, out[32];
UP2US R3, R2.y;
STB.F32X4 R3, out[48];
UP4UB R3, R2.z;
STB.F32X4 R3, out[64];
UP4B R3, R2.w;
STB.F32X4 R3, out[80];
)"),
        24};
  r.input = {pk2h, pk2us, pk4ub, pk4b};
  const auto out = run(r);
  for (int k = 0; k < 4; ++k) CHECK(out[k] == pk2h);
  CHECK(out[4] == pk2us);
  CHECK(out[5] == pk4ub);
  CHECK(out[6] == pk4b);
  CHECK(out[7] == (biased(-2) | biased(3) << 8 | biased(0) << 16 | biased(0.25) << 24));
  CHECK(as_float(out[8]) == 1.5f);
  CHECK(as_float(out[9]) == -2.0f);
  CHECK(as_float(out[10]) == 1.5f);
  CHECK(as_float(out[11]) == -2.0f);
  const double us[2] = {double(out[4] & 0xFFFF) / 65535.0, double(out[4] >> 16) / 65535.0};
  for (int k = 0; k < 4; ++k) CHECK(as_float(out[12 + k]) == Approx(us[k & 1]));
  for (int k = 0; k < 4; ++k) CHECK(as_float(out[16 + k]) == Approx(double((out[5] >> (8 * k)) & 0xFF) / 255.0));
  for (int k = 0; k < 4; ++k) {
    CHECK(as_float(out[20 + k]) == Approx((double((out[6] >> (8 * k)) & 0xFF) - 128.0) / 127.0));
  }
}

TEST_CASE("vector instructions: DP2A DPH DST LIT LRP NRM RFL X2D XPD SCS, and RCC", "[nvasm][nv4ops][vector]") {
  const auto out = run({single(R"(
MOV.F R0, {1, 2, 3, 4};
MOV.F R1, {5, 6, 7, 8};
MOV.F R2, {0.5, 0.25, 2, 3};
DP2A R3.x, R0, R1, R2;
DPH R3.y, R0, R1;
STB.F32X2 R3, out[0];
XPD R3, R0, R1;
STB.F32X4 R3, out[16];
DST R3, R0, R1;
STB.F32X4 R3, out[32];
LRP R3, R2, R0, R1;
STB.F32X4 R3, out[48];
X2D R3, R0, R1, R2;
STB.F32X4 R3, out[64];
NRM R3, {3, 0, 4, 0};
STB.F32X4 R3, out[80];
RFL R3, {0, 2, 0, 0}, {1, -1, 0, 0};
STB.F32X4 R3, out[96];
LIT R3, {0.5, 0.25, 0, 2};
STB.F32X4 R3, out[112];
LIT R3, {-1, 0.25, 0, 2};
STB.F32X4 R3, out[128];
RCC R3.x, {4}.x;
RCC R3.y, {0}.x;
RCC R3.z, {1e30}.x;
RCC R3.w, {-1e-30}.x;
STB.F32X4 R3, out[144];
SCS R3, {0.5}.x;
STB.F32X2 R3, out[160];
)",
                               "TEMP R0, R1, R2, R3;\n"),
                        42});
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {0.5f, 0.25f, 2, 3};
  CHECK(as_float(out[0]) == a[0] * b[0] + a[1] * b[1] + c[0]);                // DP2A
  CHECK(as_float(out[1]) == a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + b[3]);  // DPH
  CHECK(as_float(out[4]) == a[1] * b[2] - a[2] * b[1]);                       // XPD
  CHECK(as_float(out[5]) == a[2] * b[0] - a[0] * b[2]);
  CHECK(as_float(out[6]) == a[0] * b[1] - a[1] * b[0]);
  CHECK(as_float(out[8]) == 1.0f);  // DST: (1, a.y * b.y, a.z, b.w)
  CHECK(as_float(out[9]) == a[1] * b[1]);
  CHECK(as_float(out[10]) == a[2]);
  CHECK(as_float(out[11]) == b[3]);
  for (int k = 0; k < 4; ++k) CHECK(as_float(out[12 + k]) == c[k] * a[k] + (1 - c[k]) * b[k]);  // LRP
  const float x = a[0] + b[0] * c[0] + b[1] * c[1], y = a[1] + b[0] * c[2] + b[1] * c[3];       // X2D
  CHECK(as_float(out[16]) == x);
  CHECK(as_float(out[17]) == y);
  CHECK(as_float(out[18]) == x);
  CHECK(as_float(out[19]) == y);
  CHECK(as_float(out[20]) == Approx(0.6));  // NRM: xyz / |xyz|
  CHECK(as_float(out[21]) == 0.0f);
  CHECK(as_float(out[22]) == Approx(0.8));
  // RFL: 2 * dot(n, e) / dot(n, n) * n - e with n = (0, 2, 0), e = (1, -1, 0): (-1, -1, 0)
  CHECK(as_float(out[24]) == Approx(-1.0));
  CHECK(as_float(out[25]) == Approx(-1.0));
  CHECK(as_float(out[26]) == Approx(0.0).margin(1e-6));
  // LIT: (1, max(x, 0), x > 0 ? max(y, 0)^w : 0, 1)
  CHECK(as_float(out[28]) == 1.0f);
  CHECK(as_float(out[29]) == 0.5f);
  CHECK(as_float(out[30]) == Approx(std::pow(0.25, 2.0)));
  CHECK(as_float(out[31]) == 1.0f);
  CHECK(as_float(out[32]) == 1.0f);
  CHECK(as_float(out[33]) == 0.0f);
  CHECK(as_float(out[34]) == 0.0f);
  CHECK(as_float(out[35]) == 1.0f);
  // RCC: 1/x with the magnitude clamped to [2^-64, 2^64]
  CHECK(as_float(out[36]) == 0.25f);
  CHECK(as_float(out[37]) == std::ldexp(1.0f, 64));
  CHECK(as_float(out[38]) == std::ldexp(1.0f, -64));
  CHECK(as_float(out[39]) == -std::ldexp(1.0f, 64));
  // SCS: (cos(x), sin(x), undefined, undefined) from the scalar operand
  CHECK(as_float(out[40]) == Approx(std::cos(0.5)));
  CHECK(as_float(out[41]) == Approx(std::sin(0.5)));
}

TEST_CASE("SWZ: the extended swizzle selects components, 0 or 1, each optionally negated", "[nvasm][nv4ops][vector]") {
  // ARB_fragment_program: <SWZ_instruction> ::= <SWZop> <maskedDstReg> "," <srcReg> "," <extendedSwizzle>;
  // <xyzwExtSwizComp> ::= <optionalSign> <xyzwExtSwizSel>; <xyzwExtSwizSel> ::= "0" | "1" | <xyzwComponent>
  // (rgba the same). NV_gpu_program4's operand may carry a sign of its own.
  const auto out = run({single(R"(
MOV.F R0, {1.5, -2.5, 3, 4};
SWZ R1, R0, w, -x, 0, -1;
STB.F32X4 R1, out[0];
SWZ R1, -R0, b, +g, 1, a;
STB.F32X4 R1, out[16];
)"),
                        8});
  const float r0[4] = {1.5f, -2.5f, 3, 4};
  CHECK(as_float(out[0]) == r0[3]);
  CHECK(as_float(out[1]) == -r0[0]);
  CHECK(as_float(out[2]) == 0.0f);
  CHECK(as_float(out[3]) == -1.0f);
  CHECK(as_float(out[4]) == -r0[2]);
  CHECK(as_float(out[5]) == -r0[1]);
  CHECK(as_float(out[6]) == 1.0f);
  CHECK(as_float(out[7]) == -r0[3]);
  auto bad = nvasm::assemble("!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSWZ R0, R0, x, y, 2, w;\nEND\n");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::StartsWith("line 4, column 19: error: invalid extended swizzle selector"));
}

TEST_CASE("SAD adds the absolute difference, with .CC the addition sets CF", "[nvasm][nv4ops][sad]") {
  const auto out = run({single(R"(
MOV.U R0, {5, 10, 0xFFFFFFFF, 0};
MOV.U R1, {7, 3, 0xFFFFFFFE, 0};
MOV.U R2, {100, 100, 0xFFFFFFFF, 0};
SAD.U R3, R0, R1, R2;
STB.U32X4 R3, out[0];
SAD.S R3.x, {-5}.x, {3}.x, {1}.x;
SAD.S R3.y, {3}.x, {-5}.x, {1}.x;
SAD.U R3.z, {-5}.x, {3}.x, {1}.x;
SAD.U.CC R3.w, R0.z, R1.z, R2.z;
MOV.U R2, {0, 0, 0, 0};
MOV.U R2.x (CF.w), {1}.x;
MOV.U R2.y (ZF.w), {1}.x;
STB.U32X4 R3, out[16];
STB.U32X4 R2, out[32];
)"),
                        12});
  // result = tmp2 + |tmp0 - tmp1| per component, unsigned
  CHECK(out[0] == 102u);
  CHECK(out[1] == 107u);
  CHECK(out[2] == 0u);  // 0xFFFFFFFF + 1 wraps
  CHECK(out[3] == 0u);
  CHECK(out[4] == 9u);  // signed: |-5 - 3| + 1
  CHECK(out[5] == 9u);
  CHECK(out[6] == 1u + (uint32_t(-5) - 3u));  // unsigned: 0xFFFFFFFB - 3
  CHECK(out[7] == 0u);
  CHECK(out[8] == 1u);  // the addition carried out
  CHECK(out[9] == 1u);  // and the result is zero
}

TEST_CASE("the _SAT and _SSAT opcode suffixes are .SAT and .SSAT", "[nvasm][nv4ops][sat]") {
  // ARB_fragment_program's grammar spells saturation as part of the opcode: <BINop> ::= "ADD" | "ADD_SAT" | ...
  // "MUL" | "MUL_SAT" ...; <TRIop> ::= ... "MAD" | "MAD_SAT". Emitters of NV_gpu_program4 text keep using it (and
  // its signed form); it means the .SAT (.SSAT) modifier.
  const auto out = run({single(R"(
MOV.F R0, {1.5, -2.25, 4, 0.5};
ADD_SAT R1.x, R0.x, R0.z;
MUL_SSAT R1.y, R0.y, R0.z;
ADD_SAT.F R1.z, R0.w, {0.25}.x;
MAD_SSAT.F R1.w, R0.y, R0.w, {0.25}.x;
STB.F32X4 R1, out[0];
)"),
                        4});
  CHECK(as_float(out[0]) == 1.0f);
  CHECK(as_float(out[1]) == -1.0f);
  CHECK(as_float(out[2]) == 0.75f);
  CHECK(as_float(out[3]) == -0.875f);
}

TEST_CASE("data type and storage modifiers are matched without regard to case", "[nvasm][nv4ops]") {
  const auto out = run({single(R"(
MOV.f R0, {1.5, -2.5, 3, 4};
CVT.s32.f32.TRUNC R1, R0;
STB.s32x4 R1, out[0];
STB.F32x2 R0, out[16];
)"),
                        6});
  CHECK(s32(out[0]) == 1);
  CHECK(s32(out[1]) == -2);
  CHECK(as_float(out[4]) == 1.5f);
  CHECK(as_float(out[5]) == -2.5f);
}

TEST_CASE("the OPTIONs yuzu writes on line 2 are accepted, NV_unroll_none keeps loops", "[nvasm][nv4ops][options]") {
  const std::string options =
      "OPTION NV_internal;OPTION NV_shader_storage_buffer;OPTION NV_gpu_program_fp64;OPTION NV_texture_multisample;"
      "OPTION ARB_derivative_control;OPTION EXT_sparse_texture2;OPTION EXT_shader_image_load_formatted;"
      "OPTION NV_parameter_buffer_object2;OPTION NV_shader_atomic_fp16_vector;";
  const std::string body =
      "GROUP_SIZE 1 1 1;TEMP R0,RC;MOV.S R0.x,0;REP;ADD.S R0.x,R0.x,1;SEQ.S.CC RC.x,R0.x,4;"
      "BRK (NE.x);ENDREP;\nEND\n";
  nvasm::AssembleOptions plain;
  plain.optimize = false;
  auto a = nvasm::assemble("!!NVcp5.0\n" + options + "\n" + body, plain);
  INFO((a ? std::string() : a.error().message));
  REQUIRE(a);
  CHECK(a->info.options.size() == 9);
  CHECK_FALSE(loop_merge_has(a->spirv, 2 /* DontUnroll */));
  auto b = nvasm::assemble("!!NVcp5.0\n" + options + "OPTION NV_unroll_none;\n" + body, plain);
  INFO((b ? std::string() : b.error().message));
  REQUIRE(b);
  CHECK(loop_merge_has(b->spirv, 2));
  REQUIRE(bismuth::spirv_patch::validate(b->spirv, bismuth::spirv_patch::TargetEnv::Vulkan1_1));
}

TEST_CASE("invocation.warpid and invocation.smid, state.thread.warpspersm and smcount", "[nvasm][nv4ops][warp]") {
  // NV_shader_thread_group: the warp number lies in [0, warps per SM), the SM number in [0, SM count). Here a warp
  // is a subgroup numbered within the workgroup, and a workgroup's subgroups are one SM (docs/nvasm.md).
  const auto out = run({R"(!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_thread_group;
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
PARAM wps = state.thread.warpspersm;
TEMP R0, R1;
MOV.U R0.x, invocation.warpid;
MOV.U R0.y, invocation.smid;
MOV.U R0.z, wps.x;
MOV.U R0.w, state.thread.smcount;
SHL.U R1.x, invocation.localindex, 4;
STB.U32X4 R0, out[R1.x];
END
)",
                        256});
  std::set<uint32_t> warps;
  for (int i = 0; i < 64; ++i) {
    CHECK(out[4 * i + 1] == 0u);
    CHECK(out[4 * i + 2] == out[2]);
    CHECK(out[4 * i + 3] == 1u);
    CHECK(out[4 * i] < out[4 * i + 2]);
    warps.insert(out[4 * i]);
  }
  CHECK(warps.size() == out[2]);
}

TEST_CASE("state.thread.warpsize as a PARAM needs 32-lane subgroups", "[nvasm][nv4ops][warp]") {
  const std::string src = R"(!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_thread_group;
GROUP_SIZE 32;
STORAGE out[] = { program.storage[0] };
PARAM ws = state.thread.warpsize;
TEMP R0;
MOV.U R0, ws;
STB.U32 R0.x, out[0];
END
)";
  nvasm::AssembleOptions with32;
  with32.subgroup_size_32_available = true;
  auto p = nvasm::assemble(src, with32);
  INFO((p ? std::string() : p.error().message));
  REQUIRE(p);
  CHECK(p->info.required_subgroup_size == 32u);
  nvasm::AssembleOptions without;
  without.subgroup_size_32_available = false;
  auto q = nvasm::assemble(src, without);
  REQUIRE_FALSE(q);
  CHECK_THAT(q.error().message, Catch::StartsWith("line 6, column 12: error: thread-group"));
}

TEST_CASE("instructions of other program types are load errors that say so", "[nvasm][nv4ops][errors]") {
  const std::string head = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\n";
  auto kil = nvasm::assemble(head + "KIL R0;\nEND\n");
  REQUIRE_FALSE(kil);
  CHECK(kil.error().message ==
        "line 4, column 1: error: KIL is a fragment-program instruction; a compute program (!!NVcp5.0) cannot use it");
  auto ddx = nvasm::assemble(head + "MOV R0, R0;\n  DDX.FINE R0, R0;\nEND\n");
  REQUIRE_FALSE(ddx);
  CHECK_THAT(ddx.error().message, Catch::StartsWith("line 5, column 3: error: DDX is a fragment-program"));
  auto emit = nvasm::assemble(head + "EMIT;\nEND\n");
  REQUIRE_FALSE(emit);
  CHECK_THAT(emit.error().message, Catch::StartsWith("line 4, column 1: error: EMIT is a geometry-program"));
}
