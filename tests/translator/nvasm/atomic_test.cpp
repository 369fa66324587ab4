// The atomics the NV atomic extensions add to ATOMB (storage buffers) and ATOMS (shared memory), run on the test
// device under contention (every invocation of a group on one location) and checked against values computed here:
// NV_shader_atomic_float (EXCH.F32), NV_shader_atomic_int64 on shared memory, NV_shader_atomic_float64 (ADD/EXCH
// F64), NV_shader_atomic_fp16_vector (F16X2 / F16X4 ADD MIN MAX EXCH). Load errors for the forms the extensions do
// not list name line and column.
#include <catch2/catch.hpp>

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;

namespace {

// The program fails to load with `text` at line:column.
void check_load_error(const std::string& source, uint32_t line, uint32_t column, const std::string& text,
                      const bismuth::nvasm::AssembleOptions& options = {}) {
  auto result = bismuth::nvasm::assemble(source, options);
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  const std::string prefix = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": error: ";
  CHECK(result.error().message.rfind(prefix, 0) == 0);
  CHECK_THAT(result.error().message, Catch::Contains(text));
}

// The module assembles and validates (before and after the optimizer).
bismuth::nvasm::Program assemble_valid(const std::string& source, bismuth::nvasm::AssembleOptions options = {}) {
  options.optimize = false;
  auto plain = bismuth::nvasm::assemble(source, options);
  INFO((plain ? std::string() : plain.error().message));
  REQUIRE(plain);
  REQUIRE(bismuth::spirv_patch::validate(plain->spirv, bismuth::spirv_patch::TargetEnv::Vulkan1_1));
  options.optimize = true;
  auto program = bismuth::nvasm::assemble(source, options);
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  return *program;
}

const std::string kBufferHead = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSTORAGE b[] = { program.storage[0] };\n";
const std::string kSharedHead =
    "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSHARED_MEMORY 64;\nSHARED s[] = { program.sharedmem };\n";

}  // namespace

// NV_shader_atomic_float extends NV_gpu_program5's table of ATOM operations: "EXCH ... F32 ... op" (the memory
// gets the operand, the old value is returned) next to "ADD ... F32 ... old + op". CSWAP, MIN and MAX stay
// integer-only.
TEST_CASE("atomics: EXCH.F32 on buffers and shared memory, 32 invocations on one location", "[nvasm][atomics]") {
  Run r;
  r.source = R"(!!NVcp5.0
OPTION NV_shader_atomic_float;
GROUP_SIZE 32;
SHARED_MEMORY 16;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP I, A, V, R0;
MOV.U I.x, invocation.localindex;
I2F.U V.x, I.x;
ADD.F V.x, V.x, {1.5}.x;
MUL.U A.x, I.x, {4}.x;
SEQ.U R0.y, I.x, {0}.x;
MOV.U.CC R0.y, R0.y;
IF NE.y;
STS.F32 {-1.0}.x, s[0];
ENDIF;
BAR;
ATOMB.EXCH.F32 R0.x, V.x, out[0];
STB.F32 R0.x, out[A.x + 4];
ATOMS.EXCH.F32 R0.x, V.x, s[0];
STB.F32 R0.x, out[A.x + 132];
BAR;
IF NE.y;
LDS.F32 R0.x, s[0];
STB.F32 R0.x, out[260];
ENDIF;
END
)";
  r.words = 66;
  r.init = bits(-2.0f);
  const auto out = run(r);
  REQUIRE(out.size() == 66);
  // Exchanges form a chain: the values returned plus the one left in memory are the initial value and every
  // invocation's operand, each exactly once (bit-exact: an exchange never rounds).
  auto check_chain = [&](float initial, uint32_t returned_at, uint32_t final_at) {
    std::vector<uint32_t> seen(out.begin() + returned_at, out.begin() + returned_at + 32);
    seen.push_back(out[final_at]);
    std::vector<uint32_t> expected{bits(initial)};
    for (uint32_t i = 0; i < 32; ++i) expected.push_back(bits(static_cast<float>(i) + 1.5f));
    std::sort(seen.begin(), seen.end());
    std::sort(expected.begin(), expected.end());
    CHECK(seen == expected);
  };
  check_chain(-2.0f, 1, 0);
  check_chain(-1.0f, 33, 65);
}

TEST_CASE("atomics: F32 takes ADD and EXCH only (NV_shader_atomic_float)", "[nvasm][atomics][errors]") {
  assemble_valid(kBufferHead + "ATOMB.EXCH.F32 R0.x, R0, b[0];\nEND\n");
  assemble_valid(kSharedHead + "ATOMS.EXCH.F32 R0.x, R0, s[4];\nEND\n");
  check_load_error(kBufferHead + "ATOMB.CSWAP.F32 R0.x, R0, b[0];\nEND\n", 5, 1, "atomic operation not supported");
  check_load_error(kBufferHead + "ATOMB.MIN.F32 R0.x, R0, b[0];\nEND\n", 5, 1, "atomic operation not supported");
  check_load_error(kSharedHead + "ATOMS.MAX.F32 R0.x, R0, s[0];\nEND\n", 6, 1, "atomic operation not supported");
}

// NV_shader_atomic_int64 extends ATOM's table to 64-bit integers ("ADD ... U64, S64", "MIN/MAX ... U64, S64",
// "AND/OR/XOR ... U64, S64", "EXCH/CSWAP ... U64, S64"; IWRAP and DWRAP stay U32), for ATOMS as for ATOMB. Shared
// memory is then 64-bit words; the 32-bit accesses beside them must keep working, so this program mixes 64-bit
// atomics with 32-bit atomics, 32-bit stores and byte stores on neighbouring words of one array.
TEST_CASE("atomics: 64-bit ATOMS with every operation, beside 32-bit and byte accesses", "[nvasm][atomics]") {
  Run r;
  r.int64_atomics = true;
  r.source = R"(!!NVcp5.0
OPTION NV_shader_atomic_int64;
GROUP_SIZE 32;
SHARED_MEMORY 160;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP I, A, R0, R1;
LONG TEMP D, E;
MOV.U I.x, invocation.localindex;
SEQ.U R0.y, I.x, {0}.x;
MOV.U.CC R0.y, R0.y;
MUL.U A.x, I.x, {4}.x;
STS.U32 {0}.x, s[A.x];
BAR;
IF NE.y;
STS.U64 {0x100000000}.x, s[8];
STS.U64 {0x7FFFFFFFFFFFFFFF}.x, s[16];
STS.U64 {0x8000000000000000}.x, s[24];
STS.U64 {0xFFFFFFFFFFFFFFFF}.x, s[32];
STS.U32 {5}.x, s[68];
STS.U64 {0xAAAAAAAA55555555}.x, s[80];
STS.U64 {0x1234}.x, s[88];
ENDIF;
BAR;
CVT.U64.U32 D.x, I.x;
ADD.U64 D.y, D.x, {1}.x;
SHL.U64 D.y, D.y, {32}.x;
ADD.U64 D.x, D.x, D.y;
ATOMS.ADD.U64 E.x, D.x, s[0];
ATOMS.ADD.S64 E.x, {0x80000000}.x, s[8];
CVT.S64.S32 D.z, I.x;
SUB.S64 D.z, {-16}.x, D.z;
ATOMS.MIN.S64 E.x, D.z, s[16];
ATOMS.MAX.S64 E.x, D.z, s[24];
ATOMS.MIN.U64 E.x, D.x, s[32];
ATOMS.MAX.U64 E.x, D.x, s[40];
SHL.U64 D.w, {1}.x, I.x;
SHL.U64 D.y, D.w, {32}.x;
OR.U64 D.w, D.w, D.y;
ATOMS.OR.U64 E.x, D.w, s[48];
ATOMS.XOR.U64 E.x, D.w, s[56];
ATOMS.AND.S64 E.x, {0xFFFFFFFF0000FFFF}.x, s[80];
ATOMS.CSWAP.U64 E.x, {0x1234, 77}, s[88];
ATOMS.EXCH.U64 E.y, D.x, s[104];
ATOMS.ADD.U32 R1.x, {3}.x, s[64];
ATOMS.MAX.S32 R1.x, I.x, s[68];
ADD.U R1.y, I.x, {112}.x;
STS.U8 I.x, s[R1.y];
BAR;
LDS.U32 R0.x, s[A.x];
STB.U32 R0.x, out[A.x];
LDS.U32 R0.x, s[A.x + 128];
STB.U32 R0.x, out[A.x + 128];
IF NE.y;
LDS.U64 D.x, s[104];
STB.U64 D.x, out[256];
ENDIF;
END
)";
  r.words = 66;
  r.init = 0;
  const auto out = run(r);
  if (out.empty()) return;  // no 64-bit shared atomics on the device
  auto u64_at = [&](uint32_t byte) { return uint64_t(out[byte / 4]) | (uint64_t(out[byte / 4 + 1]) << 32); };
  uint64_t sum = 0, min_u = ~0ull, max_u = 0, all_bits = 0;
  int64_t min_s = INT64_MAX, max_s = INT64_MIN;
  std::vector<uint64_t> d_values;
  for (uint64_t i = 0; i < 32; ++i) {
    const uint64_t d = (i + 1) * (uint64_t(1) << 32) + i;
    d_values.push_back(d);
    sum += d;
    min_u = std::min(min_u, d);
    max_u = std::max(max_u, d);
    const int64_t z = -16 - int64_t(i);
    min_s = std::min(min_s, z);
    max_s = std::max(max_s, z);
    all_bits |= (uint64_t(1) << i) | (uint64_t(1) << (i + 32));
  }
  CHECK(u64_at(0) == sum);                                               // ADD: old + op, carries from the low half
  CHECK(u64_at(8) == 0x100000000ull + 32 * 0x80000000ull);               // 32 * 2^31 carries into the high half
  CHECK(int64_t(u64_at(16)) == min_s);                                   // MIN.S64: min(old, op), signed
  CHECK(int64_t(u64_at(24)) == max_s);                                   // MAX.S64 from INT64_MIN
  CHECK(u64_at(32) == min_u);                                            // MIN.U64 from all ones
  CHECK(u64_at(40) == max_u);                                            // MAX.U64 from 0
  CHECK(u64_at(48) == all_bits);                                         // OR
  CHECK(u64_at(56) == all_bits);                                         // XOR: every bit once
  CHECK(u64_at(80) == (0xAAAAAAAA55555555ull & 0xFFFFFFFF0000FFFFull));  // AND
  CHECK(u64_at(88) == 77u);  // CSWAP: "(old == op.x) ? op.y : old": the first swap stores 77, the rest see 77
  CHECK(std::find(d_values.begin(), d_values.end(), u64_at(256)) != d_values.end());  // EXCH: one invocation's
  CHECK(out[16] == 3u * 32u);           // the 32-bit ADD on the low half of a 64-bit word
  CHECK(out[17] == 31u);                // MAX.S32 on the high half, from the 5 stored there
  for (uint32_t w = 28; w < 36; ++w) {  // bytes 112..143: each invocation's byte store of its index
    const uint32_t first = (w - 28) * 4;
    CHECK(out[w] == (first | (first + 1) << 8 | (first + 2) << 16 | (first + 3) << 24));
  }
}

TEST_CASE("atomics: 64-bit ATOMS load only with shaderSharedInt64Atomics, IWRAP/DWRAP stay 32-bit",
          "[nvasm][atomics][errors]") {
  bismuth::nvasm::AssembleOptions options;
  options.int64_buffer_atomics = true;
  check_load_error(kSharedHead + "ATOMS.ADD.U64 R0.x, R0, s[0];\nEND\n", 6, 1, "shaderSharedInt64Atomics", options);
  options.int64_shared_atomics = true;
  const auto program =
      assemble_valid(kSharedHead + "ATOMS.ADD.U64 R0.x, R0, s[0];\nLDS.U32 R0.y, s[4];\nEND\n", options);
  CHECK(program.info.uses_int64_shared_atomics);
  CHECK_FALSE(program.info.uses_int64_atomics);
  check_load_error(kSharedHead + "ATOMS.IWRAP.U64 R0.x, R0, s[0];\nEND\n", 6, 1, "atomic operation not supported",
                   options);
}

// NV_shader_atomic_float64: ATOM "ADD ... F64 ... old + op" and "EXCH ... F64 ... op", on buffers and shared
// memory. The operands 2^32 + i/2 sum exactly in double (not in float), so any order of the 32 additions gives
// one result.
TEST_CASE("atomics: ADD.F64 and EXCH.F64 on ATOMB and ATOMS, 32 invocations on one location", "[nvasm][atomics]") {
  Run r;
  r.int64_atomics = true;
  r.source = R"(!!NVcp5.0
OPTION NV_shader_atomic_float64;
GROUP_SIZE 32;
SHARED_MEMORY 16;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP I, A, R0;
LONG TEMP D, E;
MOV.U I.x, invocation.localindex;
SEQ.U R0.y, I.x, {0}.x;
MOV.U.CC R0.y, R0.y;
IF NE.y;
STS.F64 {0.75}.x, s[0];
STS.F64 {-3.0}.x, s[8];
ENDIF;
BAR;
CVT.F64.U32 D.x, I.x;
MAD.F64 D.x, D.x, {0.5}.x, {4294967296.0}.x;
ATOMB.ADD.F64 E.x, D.x, out[0];
ATOMS.ADD.F64 E.x, D.x, s[0];
MUL.U A.x, I.x, {8}.x;
ATOMB.EXCH.F64 E.x, D.x, out[8];
STB.F64 E.x, out[A.x + 32];
ATOMS.EXCH.F64 E.x, D.x, s[8];
STB.F64 E.x, out[A.x + 288];
BAR;
IF NE.y;
LDS.F64 D.x, s[0];
STB.F64 D.x, out[16];
LDS.F64 D.x, s[8];
STB.F64 D.x, out[24];
ENDIF;
END
)";
  r.words = 8 + 64 + 64;
  r.init = 0;
  const auto out = run(r);
  if (out.empty()) return;  // no 64-bit atomics on the device
  auto f64_at = [&](uint32_t byte) {
    const uint64_t u = uint64_t(out[byte / 4]) | (uint64_t(out[byte / 4 + 1]) << 32);
    double d;
    std::memcpy(&d, &u, 8);
    return d;
  };
  double sum = 0;
  std::vector<double> operands;
  for (int i = 0; i < 32; ++i) operands.push_back(4294967296.0 + 0.5 * i), sum += operands.back();
  CHECK(f64_at(0) == sum);          // from 0
  CHECK(f64_at(16) == 0.75 + sum);  // shared, from 0.75
  auto check_chain = [&](double initial, uint32_t returned_at, uint32_t final_at) {
    std::vector<double> seen{f64_at(final_at)};
    for (uint32_t i = 0; i < 32; ++i) seen.push_back(f64_at(returned_at + 8 * i));
    std::vector<double> expected = operands;
    expected.push_back(initial);
    std::sort(seen.begin(), seen.end());
    std::sort(expected.begin(), expected.end());
    CHECK(seen == expected);
  };
  check_chain(0.0, 32, 8);
  check_chain(-3.0, 288, 24);
}

TEST_CASE("atomics: F64 takes ADD and EXCH only, and needs 64-bit atomics", "[nvasm][atomics][errors]") {
  check_load_error(kBufferHead + "ATOMB.ADD.F64 R0.x, R0, b[0];\nEND\n", 5, 1, "shaderBufferInt64Atomics");
  check_load_error(kSharedHead + "ATOMS.EXCH.F64 R0.x, R0, s[0];\nEND\n", 6, 1, "shaderSharedInt64Atomics");
  bismuth::nvasm::AssembleOptions options;
  options.int64_buffer_atomics = options.int64_shared_atomics = true;
  assemble_valid(kBufferHead + "ATOMB.ADD.F64 R0.x, R0, b[0];\nATOMB.EXCH.F64 R0.x, R0, b[8];\nEND\n", options);
  check_load_error(kBufferHead + "ATOMB.MAX.F64 R0.x, R0, b[0];\nEND\n", 5, 1, "atomic operation not supported",
                   options);
  check_load_error(kBufferHead + "ATOMB.CSWAP.F64 R0.x, R0, b[0];\nEND\n", 5, 1, "atomic operation not supported",
                   options);
}

namespace {

// IEEE half rounding (nearest, ties to even) of a float in the half's normal range or its subnormals: the value
// the spec's "16-bit floating-point" memory holds.
float to_half(float x) {
  if (x == 0.0f) return x;
  const int e = std::max(static_cast<int>(std::floor(std::log2(std::fabs(double(x))))), -14);
  const double ulp = std::ldexp(1.0, e - 10);
  return static_cast<float>(std::nearbyint(double(x) / ulp) * ulp);
}

uint32_t half_bits_of(float h) {  // h already a half value
  if (h == 0.0f) return std::signbit(h) ? 0x8000u : 0u;
  const uint32_t b = bits(h);
  const uint32_t sign = (b >> 16) & 0x8000u;
  const int e = static_cast<int>((b >> 23) & 0xFF) - 127;
  if (e < -14) return sign | static_cast<uint32_t>(std::ldexp(std::fabs(double(h)), 24));
  return sign | static_cast<uint32_t>(e + 15) << 10 | ((b >> 13) & 0x3FFu);
}

float from_half(uint32_t h) {
  const int e = static_cast<int>((h >> 10) & 0x1F);
  const double m = h & 0x3FF;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024.0 + m, e - 25);
  return static_cast<float>((h & 0x8000) ? -mag : mag);
}

uint32_t pack_halves(float lo, float hi) {
  return half_bits_of(to_half(lo)) | half_bits_of(to_half(hi)) << 16;
}

}  // namespace

// NV_shader_atomic_fp16_vector adds F16X2 and F16X4 to ATOM's ADD, MIN, MAX and EXCH: memory holds two (four)
// 16-bit floats, the operand's components are the values to combine, the result the old halves. yuzu spells the
// modifier `F16x2`.
TEST_CASE("atomics: F16X2 and F16X4 ADD MIN MAX EXCH on ATOMB and ATOMS, 32 invocations", "[nvasm][atomics]") {
  Run r;
  r.source = R"(!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 32;
SHARED_MEMORY 16;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
STORAGE in[] = { program.storage[1] };
TEMP I, F, A, V, R0;
MOV.U I.x, invocation.localindex;
I2F.U F.x, I.x;
SEQ.U R0.y, I.x, {0}.x;
MOV.U.CC R0.y, R0.y;
IF NE.y;
LDB.U32 R0.x, in[0];
STS.U32 R0.x, s[0];
STS.U32 {0}.x, s[4];
ENDIF;
BAR;
ATOMB.ADD.F16x2 R0, {1.0, 0.5}, out[0];
ATOMS.ADD.F16X2 R0, {0.25, -2.0}, s[0];
SUB.F V.x, F.x, {10.25}.x;
MUL.F V.y, F.x, {-0.5}.x;
ATOMB.MIN.F16X2 R0, V, out[4];
MUL.F V.x, F.x, {2.0}.x;
MOV.F V.y, F.x;
SUB.F V.z, {-1.0}.x, F.x;
MUL.F V.w, F.x, {0.125}.x;
ATOMB.MAX.F16X4 R0, V.yxzw, out[8];
ATOMS.MAX.F16X2 R0, V, s[4];
ADD.F V.x, F.x, {0.5}.x;
MOV.F V.y, -V.x;
MUL.U A.x, I.x, {8}.x;
ATOMB.EXCH.F16X2 R0, V, out[16];
STB.F32X2 R0, out[A.x + 64];
BAR;
IF NE.y;
LDS.U32 R0.x, s[0];
STB.U32 R0.x, out[20];
LDS.U32 R0.x, s[4];
STB.U32 R0.x, out[24];
ENDIF;
END
)";
  r.words = 16 + 64;
  r.init = 0;
  r.input = {pack_halves(100.0f, 3.0f)};
  const auto out = run(r);
  // ADD: each half gets 32 additions, exact in half precision here.
  CHECK(out[0] == pack_halves(32.0f, 16.0f));
  CHECK(out[5] == pack_halves(100.0f + 8.0f, 3.0f - 64.0f));
  // MIN from 0: the smallest operands, i = 0 and i = 31.
  CHECK(out[1] == pack_halves(0.0f - 10.25f, 31.0f * -0.5f));
  // MAX.F16X4 over (i, 2i, -i, i/8) from 0, and MAX.F16X2 on shared memory over (2i, i).
  CHECK(out[2] == pack_halves(31.0f, 62.0f));
  CHECK(out[3] == pack_halves(0.0f, 31.0f * 0.125f));
  CHECK(out[6] == pack_halves(62.0f, 31.0f));
  // EXCH: the returned pairs and the final memory are the initial (0, 0) and every operand pair, each once.
  std::vector<std::pair<float, float>> seen{{from_half(out[4] & 0xFFFF), from_half(out[4] >> 16)}};
  std::vector<std::pair<float, float>> expected{{0.0f, 0.0f}};
  for (uint32_t i = 0; i < 32; ++i) {
    seen.emplace_back(as_float(out[16 + 2 * i]), as_float(out[17 + 2 * i]));
    expected.emplace_back(float(i) + 0.5f, -(float(i) + 0.5f));
  }
  std::sort(seen.begin(), seen.end());
  std::sort(expected.begin(), expected.end());
  for (size_t i = 0; i < seen.size(); ++i) {
    INFO(i << ": " << seen[i].first << ", " << seen[i].second << " vs " << expected[i].first << ", "
           << expected[i].second);
    CHECK(seen[i] == expected[i]);
  }
}

// Rounding: the operand is rounded to half, the sum of two halves rounded once to half (nearest, ties to even);
// the result register holds the old halves as floats (F16X2: x, y, then x, y again, as LDB spreads an X2).
TEST_CASE("atomics: F16X2 ADD rounds the operand and the sum to half, returns the old halves", "[nvasm][atomics]") {
  const float third_ulp = 0.000732421875f;  // 3 * 2^-12: 1 + 3 * 2^-12 lies between halves, rounds up to 1 + 2^-10
  Run r;
  r.source = single(R"(LDB.U32 R0.x, in[0];
STB.U32 R0.x, out[0];
ATOMB.ADD.F16X2 R1, {0.1, 0.00048828125}, out[0];
STB.F32X4 R1, out[16];
ATOMB.ADD.F16X2 R1, {0.000732421875, 0.00048828125}, out[4];
)");
  r.input = {pack_halves(1.0f, 1.0f)};
  r.words = 8;
  r.init = 0;
  const auto out = run(r);
  CHECK(out[0] == pack_halves(to_half(1.0f + to_half(0.1f)), 1.0f));          // 1 + 2^-11: a tie, stays at even 1.0
  CHECK(out[1] == pack_halves(to_half(third_ulp), to_half(0.00048828125f)));  // from 0: the operands as halves
  CHECK(as_float(out[4]) == 1.0f);
  CHECK(as_float(out[5]) == 1.0f);
  CHECK(as_float(out[6]) == 1.0f);
  CHECK(as_float(out[7]) == 1.0f);
  CHECK(to_half(1.0f + third_ulp) == 1.0009765625f);  // the CPU rounding the checks rely on
}

TEST_CASE("atomics: F16X2/F16X4 with ADD MIN MAX EXCH only, also beside 64-bit ATOMS", "[nvasm][atomics][errors]") {
  assemble_valid(kBufferHead + "ATOMB.MIN.f16x4 R0, R0, b[0];\nATOMB.EXCH.F16X4 R0, R0, b[8];\nEND\n");
  check_load_error(kBufferHead + "ATOMB.CSWAP.F16X2 R0, R0, b[0];\nEND\n", 5, 1, "atomic operation not supported");
  check_load_error(kBufferHead + "ATOMB.AND.F16X2 R0, R0, b[0];\nEND\n", 5, 1, "atomic operation not supported");
  bismuth::nvasm::AssembleOptions options;
  options.int64_shared_atomics = true;
  assemble_valid(kSharedHead +
                     "ATOMS.ADD.U64 R0.x, R0, s[0];\nATOMS.MAX.F16X2 R0, R0, s[8];\n"
                     "ATOMS.EXCH.F16X4 R0, R0, s[16];\nEND\n",
                 options);
}
// Every atomic returns the value memory held just before its own update ("the value in memory before the
// operation", NV_gpu_program5's ATOM), also where it is a compare-and-swap loop (ADD.F32, ADD.F64, F16X2, and the
// 32-bit atomics on 64-bit shared words): 32 invocations adding 1 get 0, 1, ..., 31 back, each value once. This
// caught lavapipe handing the invocations of a subgroup that left the loop early a later iteration's value.
TEST_CASE("atomics: compare-and-swap atomics return each invocation's own old value", "[nvasm][atomics]") {
  const std::string program = R"(!!NVcp5.0
GROUP_SIZE 32;
SHARED_MEMORY 32;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP I, A, R0;
LONG TEMP D;
MOV.U I.x, invocation.localindex;
MUL.U A.x, I.x, {4}.x;
STS.U32 {0}.x, s[A.x];
BAR;
ATOMB.ADD.F32 R0.x, {1.0}.x, out[0];
STB.F32 R0.x, out[A.x + 32];
ATOMS.ADD.F32 R0.x, {1.0}.x, s[0];
STB.F32 R0.x, out[A.x + 160];
ATOMB.ADD.F16X2 R0, {1.0, 2.0}, out[4];
STB.F32 R0.y, out[A.x + 288];
ATOMS.MAX.S32 R0.x, I.x, s[4];
ATOMS.IWRAP.U32 R0.x, {100}.x, s[8];
STB.U32 R0.x, out[A.x + 416];
ATOMB.ADD.F64 D.x, {1.0}.x, out[8];
CVT.F32.F64 R0.x, D.x;
STB.F32 R0.x, out[A.x + 544];
%s
END
)";
  auto check_each_once = [](const std::vector<uint32_t>& out, uint32_t first_word, bool as_floats, float scale) {
    std::vector<float> seen;
    for (uint32_t i = 0; i < 32; ++i) {
      const uint32_t w = out[first_word + i];
      seen.push_back(as_floats ? as_float(w) : static_cast<float>(w));
    }
    std::sort(seen.begin(), seen.end());
    for (uint32_t i = 0; i < 32; ++i) CHECK(seen[i] == scale * static_cast<float>(i));
  };
  {
    Run r;
    char text[2048];
    std::snprintf(text, sizeof text, program.c_str(), "");
    r.source = text;
    r.words = 8 + 5 * 32;
    r.init = 0;
    r.int64_atomics = true;
    const auto out = run(r);
    if (!out.empty()) {
      check_each_once(out, 8, true, 1.0f);     // ADD.F32 on a buffer
      check_each_once(out, 40, true, 1.0f);    // ADD.F32 on shared memory
      check_each_once(out, 72, true, 2.0f);    // F16X2 ADD, the high half
      check_each_once(out, 104, false, 1.0f);  // IWRAP: 0, 1, ..., 31 (below the wrap at 100)
      check_each_once(out, 136, true, 1.0f);   // ADD.F64
    }
  }
  {
    // The same with a 64-bit ATOMS in the program: shared memory of 64-bit words, the 32-bit ATOMS on halves.
    Run r;
    char text[2048];
    std::snprintf(text, sizeof text, program.c_str(), "ATOMS.ADD.U64 D.x, {1}.x, s[16];");
    r.source = text;
    r.words = 8 + 5 * 32;
    r.init = 0;
    r.int64_atomics = true;
    const auto out = run(r);
    if (!out.empty()) {
      check_each_once(out, 40, true, 1.0f);
      check_each_once(out, 104, false, 1.0f);
    }
  }
}

namespace {

// How many instructions with opcode `op` the module has.
size_t count_op(const std::vector<uint32_t>& words, spv::Op op) {
  size_t n = 0;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if ((words[i] & 0xFFFF) == static_cast<uint32_t>(op)) ++n;
    i += count ? count : 1;
  }
  return n;
}

}  // namespace

// NV_shader_atomic_float: "ADD ... F32 ... old + op", the old value returned. With shaderBufferFloat32AtomicAdd the
// add on a storage buffer is the device's own float atomic (OpAtomicFAddEXT), else a compare-and-swap loop; both
// are one correctly rounded addition per atomic, so with exactly representable sums every order gives the same
// chain: the returned old values and the final value are the initial value and its running sums. Shared memory
// keeps the loop (its words are one u32 array; a float atomic needs a float pointer).
TEST_CASE("atomics: ADD.F32 on buffers, native where the device adds floats and as a loop, the same sums",
          "[nvasm][atomics]") {
  const std::string source = R"(!!NVcp5.0
OPTION NV_shader_atomic_float;
GROUP_SIZE 32;
SHARED_MEMORY 16;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP I, A, V, R0;
MOV.U I.x, invocation.localindex;
I2F.U V.x, I.x;
MUL.F V.x, V.x, {0.25}.x;
ADD.F V.x, V.x, {1.0}.x;
MUL.U A.x, I.x, {4}.x;
ATOMB.ADD.F32 R0.x, V.x, out[0];
STB.F32 R0.x, out[A.x + 4];
ATOMS.ADD.F32 R0.x, V.x, s[0];
END
)";
  bismuth::nvasm::AssembleOptions loop, native;
  native.buffer_float32_atomic_add = true;
  const auto looped = assemble_valid(source, loop);
  CHECK(count_op(looped.spirv, spv::Op::OpAtomicFAddEXT) == 0);
  CHECK_FALSE(looped.info.uses_buffer_float32_atomic_add);
  const auto added = assemble_valid(source, native);
  CHECK(count_op(added.spirv, spv::Op::OpAtomicFAddEXT) == 1);          // ATOMB only
  CHECK(count_op(added.spirv, spv::Op::OpAtomicCompareExchange) == 1);  // ATOMS's loop
  CHECK(added.info.uses_buffer_float32_atomic_add);
  for (const bool use_native : {false, true}) {
    INFO((use_native ? "OpAtomicFAddEXT" : "compare-and-swap loop"));
    Run r;
    r.source = source;
    r.words = 33;
    r.init = bits(-3.0f);
    r.native_float_add = use_native;
    const auto out = run(r);
    if (out.empty()) continue;  // the test device cannot add floats natively (run() warned)
    REQUIRE(out.size() == 33);
    // Sorted, the returned values are -3, -3 + v(first), ...; each operand appears once as the difference of
    // neighbours, and the last plus its operand is the final value.
    std::vector<float> seen;
    for (uint32_t i = 0; i < 32; ++i) seen.push_back(as_float(out[1 + i]));
    std::sort(seen.begin(), seen.end());
    CHECK(seen.front() == -3.0f);
    std::vector<float> steps;
    for (size_t i = 1; i < seen.size(); ++i) steps.push_back(seen[i] - seen[i - 1]);
    steps.push_back(as_float(out[0]) - seen.back());
    std::vector<float> operands;
    for (uint32_t i = 0; i < 32; ++i) operands.push_back(1.0f + 0.25f * static_cast<float>(i));
    std::sort(steps.begin(), steps.end());
    CHECK(steps == operands);
    float sum = -3.0f;
    for (float v : operands) sum += v;
    CHECK(as_float(out[0]) == sum);
  }
}

// NV_shader_atomic_float64's ADD.F64 on a storage buffer: OpAtomicFAddEXT on doubles with
// shaderBufferFloat64AtomicAdd (no 64-bit integer atomics needed then), else the 64-bit compare-and-swap loop.
TEST_CASE("atomics: ADD.F64 on buffers through OpAtomicFAddEXT with shaderBufferFloat64AtomicAdd", "[nvasm][atomics]") {
  const std::string source =
      kBufferHead + "LONG TEMP D;\nATOMB.ADD.F64 D.x, {0.5}.x, b[8];\nSTB.F64 D.x, b[16];\nEND\n";
  bismuth::nvasm::AssembleOptions native;
  native.buffer_float64_atomic_add = true;
  const auto added = assemble_valid(source, native);
  CHECK(count_op(added.spirv, spv::Op::OpAtomicFAddEXT) == 1);
  CHECK(added.info.uses_buffer_float64_atomic_add);
  CHECK_FALSE(added.info.uses_int64_atomics);
  // Without the feature it is the loop, which needs shaderBufferInt64Atomics.
  check_load_error(source, 6, 1, "shaderBufferInt64Atomics");
  bismuth::nvasm::AssembleOptions int64;
  int64.int64_buffer_atomics = true;
  const auto looped = assemble_valid(source, int64);
  CHECK(count_op(looped.spirv, spv::Op::OpAtomicFAddEXT) == 0);
  CHECK(count_op(looped.spirv, spv::Op::OpAtomicCompareExchange) == 1);
}
