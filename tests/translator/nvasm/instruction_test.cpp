// One test per instruction family, each a small program run on the test device against values computed here.
// Spec references: NV_gpu_program4 (base instruction set), NV_gpu_program5 (BFE/BFI/..., 64-bit), NV_gpu_program_fp64,
// NV_shader_storage_buffer_object (LDB/STB/ATOMB), NV_compute_program5 (LDS/STS/ATOMS, BAR, invocation.*).
#include <catch2/catch.hpp>

#include <cmath>

#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;

TEST_CASE("integer arithmetic: ADD SUB MUL MAD MUL.HI DIV MOD MIN MAX ABS on .S and .U", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.U R0, {7, 0xFFFFFFFE, 100, 3};
ADD.U R1.x, R0.x, R0.y;
SUB.S R1.y, R0.x, R0.z;
MUL.S R1.z, R0.y, R0.z;
MAD.U R1.w, R0.x, R0.z, R0.w;
STB.U32X4 R1, out[0];
MUL.HI.U R2.x, R0.y, R0.z;
DIV.U R2.y, R0.z, R0.x;
MOD.U R2.z, R0.z, R0.x;
DIV.S R2.w, R0.y, {2}.x;
STB.U32X4 R2, out[16];
MIN.S R3.x, R0.y, R0.x;
MIN.U R3.y, R0.y, R0.x;
MAX.S R3.z, R0.y, R0.x;
ABS.S R3.w, R0.y;
STB.U32X4 R3, out[32];
DIV.U R3.x, R0.x, {0}.x;
STB.U32 R3.x, out[48];
)")});
  CHECK(out[0] == 5u);                 // 7 + (-2) wraps
  CHECK(out[1] == uint32_t(7 - 100));
  CHECK(out[2] == uint32_t(-200));
  CHECK(out[3] == 703u);
  CHECK(out[4] == uint32_t((uint64_t(0xFFFFFFFEu) * 100u) >> 32));
  CHECK(out[5] == 14u);
  CHECK(out[6] == 2u);
  CHECK(out[7] == uint32_t(-1));       // -2 / 2
  CHECK(out[8] == uint32_t(-2));
  CHECK(out[9] == 7u);
  CHECK(out[10] == 7u);
  CHECK(out[11] == 2u);
  CHECK(out[12] == 0xFFFFFFFFu);       // division by zero: all ones, never undefined behaviour
}

TEST_CASE("float arithmetic: ADD MUL MAD DIV MIN MAX and .SAT", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.F R0, {1.5, -2.25, 4, 0.5};
ADD.F R1.x, R0.x, R0.y;
MUL.F R1.y, R0.x, R0.z;
MAD.F R1.z, R0.x, R0.z, R0.w;
DIV.F R1.w, R0.z, R0.w;
STB.F32X4 R1, out[0];
MIN.F R2.x, R0.x, R0.y;
MAX.F R2.y, R0.x, R0.y;
ADD.F.SAT R2.z, R0.x, R0.z;
ADD.F.SAT R2.w, R0.y, {0}.x;
STB.F32X4 R2, out[16];
)")});
  CHECK(as_float(out[0]) == -0.75f);
  CHECK(as_float(out[1]) == 6.0f);
  CHECK(as_float(out[2]) == 6.5f);
  CHECK(as_float(out[3]) == 8.0f);
  CHECK(as_float(out[4]) == -2.25f);
  CHECK(as_float(out[5]) == 1.5f);
  CHECK(as_float(out[6]) == 1.0f);  // saturated
  CHECK(as_float(out[7]) == 0.0f);
}

TEST_CASE("scalar float instructions read .x of the swizzle and replicate: RCP RSQ EX2 LG2 SIN COS POW", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.F R0, {4, -16, 0.5, 3};
RCP.F R1, R0.x;
STB.F32X4 R1, out[0];
RSQ.F R1.x, R0.y;
EX2.F R1.y, R0.w;
LG2.F R1.z, R0.x;
POW.F R1.w, R0.x, R0.z;
STB.F32X4 R1, out[16];
SIN.F R2.x, {0}.x;
COS.F R2.y, {0}.x;
STB.F32X2 R2, out[32];
)")});
  for (int i = 0; i < 4; ++i) CHECK(as_float(out[i]) == Approx(0.25f));  // replicated to every component
  CHECK(as_float(out[4]) == Approx(0.25f));  // RSQ takes |x| (ARB_vertex_program)
  CHECK(as_float(out[5]) == Approx(8.0f));
  CHECK(as_float(out[6]) == Approx(2.0f));
  CHECK(as_float(out[7]) == Approx(2.0f));
  CHECK(as_float(out[8]) == Approx(0.0f).margin(1e-6));
  CHECK(as_float(out[9]) == Approx(1.0f));
}

TEST_CASE("rounding: FLR CEIL TRUNC ROUND FRC, with .S/.U converting the result to an integer", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.F R0, {-1.5, 2.5, 3.75, -0.25};
FLR.F R1, R0;
STB.F32X4 R1, out[0];
CEIL.F R1, R0;
STB.F32X4 R1, out[16];
TRUNC.S R2, R0;
STB.S32X4 R2, out[32];
ROUND.F R1, R0;
STB.F32X4 R1, out[48];
FRC.F R1, R0;
STB.F32X4 R1, out[64];
)", "TEMP R0, R1, R2;\n"), 20});
  const float x[4] = {-1.5f, 2.5f, 3.75f, -0.25f};
  for (int i = 0; i < 4; ++i) {
    CHECK(as_float(out[i]) == std::floor(x[i]));
    CHECK(as_float(out[4 + i]) == std::ceil(x[i]));
    CHECK(int32_t(out[8 + i]) == int32_t(std::trunc(x[i])));
    CHECK(as_float(out[12 + i]) == std::nearbyint(x[i]));  // round half to even
    CHECK(as_float(out[16 + i]) == x[i] - std::floor(x[i]));
  }
}

TEST_CASE("set-on instructions give 1.0/0.0 for floats and all ones/0 for integers", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.F R0, {1, 2, 2, -1};
SLT.F R1.x, R0.x, R0.y;
SGE.F R1.y, R0.x, R0.y;
SEQ.F R1.z, R0.y, R0.z;
SNE.F R1.w, R0.y, R0.z;
STB.F32X4 R1, out[0];
MOV.S R2, {1, 2, 2, -1};
SLT.S R3.x, R2.w, R2.x;
SLT.U R3.y, R2.w, R2.x;
SEQ.U R3.z, R2.y, R2.z;
SGT.S R3.w, R2.x, R2.y;
STB.U32X4 R3, out[16];
)")});
  CHECK(as_float(out[0]) == 1.0f);
  CHECK(as_float(out[1]) == 0.0f);
  CHECK(as_float(out[2]) == 1.0f);
  CHECK(as_float(out[3]) == 0.0f);
  CHECK(out[4] == 0xFFFFFFFFu);  // -1 < 1 signed
  CHECK(out[5] == 0u);           // 0xFFFFFFFF < 1 unsigned is false
  CHECK(out[6] == 0xFFFFFFFFu);
  CHECK(out[7] == 0u);
}

TEST_CASE("bit operations: AND OR XOR NOT SHL SHR, shifts of 32 or more", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.U R0, {0xF0F0, 0x0FF0, 0x80000000, 40};
AND.U R1.x, R0.x, R0.y;
OR.U R1.y, R0.x, R0.y;
XOR.U R1.z, R0.x, R0.y;
NOT.U R1.w, R0.x;
STB.U32X4 R1, out[0];
SHR.S R2.x, R0.z, {4}.x;
SHR.U R2.y, R0.z, {4}.x;
SHL.U R2.z, R0.x, R0.w;
SHR.S R2.w, R0.z, R0.w;
STB.U32X4 R2, out[16];
)")});
  CHECK(out[0] == 0x00F0u);
  CHECK(out[1] == 0xFFF0u);
  CHECK(out[2] == 0xFF00u);
  CHECK(out[3] == ~0xF0F0u);
  CHECK(out[4] == 0xF8000000u);
  CHECK(out[5] == 0x08000000u);
  CHECK(out[6] == 0u);           // count >= 32: zero
  CHECK(out[7] == 0xFFFFFFFFu);  // arithmetic shift by >= 32: sign fill
}

TEST_CASE("bit-field instructions: BFE BFI BFR BTC BTFL BTFM (operand 0: .x width, .y offset)", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.U R0, {0x12345678, 0xFFFFFFF0, 0, 0};
BFE.U R1.x, {8, 4}, R0.x;
BFE.S R1.y, {4, 4}, R0.y;
BFI.U R1.z, {8, 8}, {0xAB}.x, R0.x;
BFR.U R1.w, {1}.x;
STB.U32X4 R1, out[0];
BTC.U R2.x, R0.x;
BTFL.U R2.y, R0.y;
BTFM.U R2.z, R0.x;
BTFM.S R2.w, R0.y;
STB.U32X4 R2, out[16];
BTFL.U R3.x, R0.z;
STB.U32 R3.x, out[32];
)")});
  CHECK(out[0] == 0x67u);
  CHECK(out[1] == 0xFFFFFFFFu);  // 0xF sign-extended
  CHECK(out[2] == 0x1234AB78u);
  CHECK(out[3] == 0x80000000u);
  CHECK(out[4] == 13u);
  CHECK(out[5] == 4u);
  CHECK(out[6] == 28u);
  CHECK(out[7] == 3u);           // findMSB of a negative number: highest 0 bit
  CHECK(out[8] == 0xFFFFFFFFu);  // no bit set: -1
}

TEST_CASE("conversions: I2F, CVT between types, 64-bit values in 32-bit registers convert by value", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.S R0, {-3, 7, 0, 0};
I2F.S R1.x, R0.x;
I2F.U R1.y, R0.y;
CVT.F64.S32 D0.x, R0.x;
ADD.F64 D0.x, D0.x, {0.5}.x;
MOV.F64 R1.z, D0.x;
CVT.U64.U32 D1.x, R0.y;
SHL.U64 D1.x, D1.x, {33}.x;
MOV.U64 R1.w, D1.x;
STB.F32X2 R1, out[0];
STB.U32 R1.w, out[8];
STB.F64 D0.x, out[16];
STB.U64 D1.x, out[24];
PK64.U D2.x, {0x11111111, 0x22222222};
UP64.U R2, D2.x;
STB.U32X2 R2, out[32];
)", "TEMP R0, R1, R2;\nLONG TEMP D0, D1, D2;\n")});
  CHECK(as_float(out[0]) == -3.0f);
  CHECK(as_float(out[1]) == 7.0f);
  CHECK(out[2] == 0u);  // 7 << 33 truncated to 32 bits
  double d;
  std::memcpy(&d, &out[4], 8);
  CHECK(d == -2.5);
  CHECK(out[6] == 0u);
  CHECK(out[7] == 14u);  // high word of 7 << 33
  CHECK(out[8] == 0x11111111u);
  CHECK(out[9] == 0x22222222u);
}

TEST_CASE("operands: swizzles, write masks, negation, absolute value, scalar replication", "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.S R0, {1, 2, 3, 4};
MOV.S R1, R0.wzyx;
STB.U32X4 R1, out[0];
MOV.S R2, {9, 9, 9, 9};
MOV.S R2.yw, -R0;
STB.U32X4 R2, out[16];
MOV.F R3, {-1.5, 0, 0, 0};
ADD.F R3.y, -|R3.x|, {1}.x;
MOV.F R3.z, |R3.x|;
STB.F32X4 R3, out[32];
)")});
  CHECK(out[0] == 4u);
  CHECK(out[3] == 1u);
  CHECK(out[4] == 9u);
  CHECK(out[5] == uint32_t(-2));
  CHECK(out[6] == 9u);
  CHECK(out[7] == uint32_t(-4));
  CHECK(as_float(out[9]) == -0.5f);
  CHECK(as_float(out[10]) == 1.5f);
}

TEST_CASE("parameters: constant vectors fill missing y, z with 0 and w with 1, program.local and program.env",
          "[nvasm][instructions]") {
  const auto out = run({single(R"(
MOV.S R0, k;
STB.U32X4 R0, out[0];
ADD.S R1, c[1], e.x;
STB.U32X4 R1, out[16];
MOV.S R2.x, {1}.x;
MOV.S R2.y, c[R2.x + 1].y;
MOV.S R2.z, program.local[0].w;
MOV.S R1.x, {2}.x;
MOV.S R2.w, c[R1.x - 1].x;
STB.U32X4 R2, out[32];
)", "TEMP R0, R1, R2;\nPARAM k = {5, 6};\nPARAM c[3] = { program.local[0..2] };\nPARAM e = program.env[1];\n"),
                       16, 0, {}, {{10, 11, 12, 13}, {20, 21, 22, 23}, {30, 31, 32, 33}}, {{0, 0, 0, 0}, {100, 0, 0, 0}}});
  CHECK(out[0] == 5u);
  CHECK(out[1] == 6u);
  CHECK(out[2] == 0u);
  CHECK(out[3] == 1u);
  CHECK(out[4] == 120u);
  CHECK(out[7] == 123u);
  CHECK(out[9] == 31u);  // relative addressing c[R2.x + 1] = c[2]
  CHECK(out[10] == 13u);
  CHECK(out[11] == 20u);  // c[R1.x - 1] = c[1]
}

TEST_CASE("storage buffers: LDB/STB with sub-word, vector and 64-bit storage modifiers", "[nvasm][instructions]") {
  Run r;
  r.source = single(R"(
LDB.U8 R0.x, in[1];
LDB.S8 R1.x, in[2];
MOV.U R0.y, R1.x;
LDB.U16 R1.x, in[2];
MOV.U R0.z, R1.x;
LDB.S16 R1.x, in[6];
MOV.U R0.w, R1.x;
STB.U32X4 R0, out[0];
LDB.U32X2 R1, in[8];
STB.U32X2 R1.yxzw, out[16];
LDB.F64 D0.x, in[8];
STB.F64 D0.x, out[24];
)", "TEMP R0, R1;\nLONG TEMP D0;\n");
  r.input = {0x44332211u, 0x8000FF80u, 0xAAAAAAAAu, 0xBBBBBBBBu};
  const auto out = run(r);
  CHECK(out[0] == 0x22u);
  CHECK(out[1] == uint32_t(int8_t(0x33)));
  CHECK(out[2] == 0x4433u);
  CHECK(out[3] == uint32_t(int16_t(0x8000)));
  CHECK(out[4] == 0xBBBBBBBBu);
  CHECK(out[5] == 0xAAAAAAAAu);
  CHECK(out[6] == 0xAAAAAAAAu);
  CHECK(out[7] == 0xBBBBBBBBu);
}

TEST_CASE("sub-word stores do not disturb neighbouring bytes written by other invocations", "[nvasm][instructions]") {
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
TEMP R0, A;
MOV.U A.x, invocation.localindex;
ADD.U R0.x, A.x, {1}.x;
STB.U8 R0.x, out[A.x];
MUL.U A.y, A.x, {2}.x;
STB.U16 R0.x, out[A.y + 64];
END
)";
  r.words = 64;
  r.init = 0;
  const auto out = run(r);
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t word = i / 4, shift = (i % 4) * 8;
    CHECK(((out[word] >> shift) & 0xFF) == i + 1);
    const uint32_t hword = 16 + i / 2, hshift = (i % 2) * 16;
    CHECK(((out[hword] >> hshift) & 0xFFFF) == i + 1);
  }
}

TEST_CASE("sub-word stores racing on the same bytes leave one of the stored values, never a mix", "[nvasm][instructions]") {
  // 4 groups x 64 invocations: invocation i of group g stores 1 << g into byte i (U8) and 1 << g into half-word i
  // (U16) of the same 48 words, so four invocations race on every byte and half-word and every word is written by
  // up to 16 invocations at once. Each byte must end as one of the four values; an OR of two would mean a torn store.
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
TEMP R0, A;
MOV.U A.x, invocation.localindex;
SHL.U R0.x, {1}.x, invocation.groupid.x;
REP {8}.x;
STB.U8 R0.x, out[A.x];
MUL.U A.y, A.x, {2}.x;
STB.U16 R0.x, out[A.y + 64];
ENDREP;
END
)";
  r.words = 48;
  r.init = 0;
  r.groups = {4, 1, 1};
  const auto out = run(r);
  auto one_of = [](uint32_t v) { return v == 1 || v == 2 || v == 4 || v == 8; };
  for (uint32_t i = 0; i < 64; ++i) {
    INFO("byte " << i);
    CHECK(one_of((out[i / 4] >> ((i % 4) * 8)) & 0xFF));
    INFO("half-word " << i);
    CHECK(one_of((out[16 + i / 2] >> ((i % 2) * 16)) & 0xFFFF));
  }
}

TEST_CASE("parameter buffers: CBUFFER with LDC, BUFFER and BUFFER4 operands, constant and register indices", "[nvasm][instructions]") {
  // program.buffer[0..2]: 4096 words each (16 KiB, the declared block). Word i of buffer a is a hash of (a, i).
  auto word = [](uint32_t a, uint32_t i) { return (i + 1) * 0x9E3779B1u ^ (a * 0x85EBCA77u); };
  Run r;
  for (uint32_t a = 0; a < 3; ++a) {
    std::vector<uint32_t> w(4096);
    for (uint32_t i = 0; i < 4096; ++i) w[i] = word(a, i);
    r.parameter_buffers.push_back({a, w});
  }
  // Word 6..7 of buffer 0 hold a double, word 9 of buffer 2 a float.
  const double d = -1234.5625;
  uint64_t dbits;
  std::memcpy(&dbits, &d, 8);
  r.parameter_buffers[0].second[6] = uint32_t(dbits);
  r.parameter_buffers[0].second[7] = uint32_t(dbits >> 32);
  r.parameter_buffers[2].second[9] = bits(2.75f);
  r.source = R"(!!NVcp5.0
GROUP_SIZE 1;
STORAGE out[] = { program.storage[0] };
CBUFFER cb[] = { program.buffer[0] };
CBUFFER two[] = { program.buffer[1..2] };
BUFFER words[] = { program.buffer[0] };
BUFFER4 vecs[] = { program.buffer[1][2..5] };
BUFFER4 all4[] = program.buffer[2];
ALIAS c2 = two;
TEMP R0, R1, A;
LONG TEMP D0;
LDC.U8 R0.x, cb[1];
LDC.S8 R1.x, cb[2];
MOV.U R0.y, R1.x;
LDC.U16 R1.x, cb[2];
MOV.U R0.z, R1.x;
LDC.S16 R1.x, cb[6];
MOV.U R0.w, R1.x;
STB.U32X4 R0, out[0];
MOV.U A.x, {8}.x;
LDC.U32X4 R1, cb[A.x + 8];
STB.U32X4 R1, out[16];
LDC.F64 D0.x, cb[24];
STB.F64 D0.x, out[32];
LDC.F32 R0.x, two[1][36];
ADD.F R0.x, R0.x, {0.25}.x;
MOV.U A.y, {1}.x;
LDC.U32 R1.x, c2[A.y][8];
MOV.U R0.y, R1.x;
LDC.U32 R1.x, two[A.y - 1][8];
MOV.U R0.z, R1.x;
LDC.U32X2 R1, two[0][40];
MOV.U R0.w, R1.y;
STB.U32X4 R0, out[48];
MOV.U R0, words[3];
STB.U32X4 R0, out[64];
MOV.U R0, vecs[1];
STB.U32X4 R0, out[80];
MOV.U A.z, {2}.x;
MOV.U R1, vecs[A.z + 1];
STB.U32X4 R1, out[96];
ADD.U R1, all4[1000], words[A.z + 1];
STB.U32X4 R1, out[112];
MOV.U A.w, {9}.x;
MOV.U R1, vecs[A.w];
STB.U32X4 R1, out[128];
END
)";
  r.words = 36;
  const auto out = run(r);
  const auto& b0 = r.parameter_buffers[0].second;
  CHECK(out[0] == ((b0[0] >> 8) & 0xFF));
  CHECK(out[1] == uint32_t(int32_t(int8_t(b0[0] >> 16))));
  CHECK(out[2] == ((b0[0] >> 16) & 0xFFFF));
  CHECK(out[3] == uint32_t(int32_t(int16_t(b0[1] >> 16))));
  for (uint32_t c = 0; c < 4; ++c) CHECK(out[4 + c] == b0[4 + c]);
  CHECK(out[8] == uint32_t(dbits));
  CHECK(out[9] == uint32_t(dbits >> 32));
  CHECK(as_float(out[12]) == 3.0f);
  CHECK(out[13] == word(2, 2));
  CHECK(out[14] == word(1, 2));  // the index -1 + 1 = 0
  CHECK(out[15] == word(1, 11));  // U32X2 gives (x, y, 0, 0): .y is the second element
  for (uint32_t c = 0; c < 4; ++c) CHECK(out[16 + c] == b0[3]);  // a BUFFER word is replicated
  for (uint32_t c = 0; c < 4; ++c) CHECK(out[20 + c] == word(1, 12 + c));  // vecs[1] = vector 3 of buffer 1
  for (uint32_t c = 0; c < 4; ++c) CHECK(out[24 + c] == word(1, 20 + c));  // vecs[3] = vector 5
  for (uint32_t c = 0; c < 4; ++c) CHECK(out[28 + c] == word(2, 4000 + c) + b0[3]);
  for (uint32_t c = 0; c < 4; ++c) CHECK(out[32 + c] == word(1, 20 + c));  // vecs[9] clamps to the last, vecs[3]
}

TEST_CASE("arrays of storage buffers indexed with a register: STB LDB ATOMB on s[R0.x + k][address]", "[nvasm][instructions]") {
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 4;
STORAGE out[] = { program.storage[0] };
STORAGE many[] = { program.storage[2..4] };
TEMP A, R0;
MOV.U A.x, invocation.localindex;
MUL.U A.y, A.x, {4}.x;
ADD.U R0.x, A.x, {100}.x;
STB.U32 R0.x, many[A.x][A.y];
ATOMB.ADD.U32 R0.y, {1}.x, many[A.x - 1][32];
LDB.U32 R0, many[A.x][A.y];
STB.U32 R0.x, out[A.y];
END
)";
  r.words = 4;
  for (uint32_t k = 2; k <= 4; ++k) r.more_storage.push_back({k, std::vector<uint32_t>(16, 0)});
  std::vector<std::vector<uint32_t>> buffers;
  r.storage_out = &buffers;
  const auto out = run(r);
  // Invocation i stores into buffer min(i, 2), word i; the atomic adds 1 to word 8 of buffer min(i - 1, 2) (i = 0
  // wraps to the largest index and clamps to 2).
  for (uint32_t i = 0; i < 4; ++i) CHECK(out[i] == 100 + i);
  REQUIRE(buffers.size() == 3);
  CHECK(buffers[0][0] == 100);
  CHECK(buffers[1][1] == 101);
  CHECK(buffers[2][2] == 102);
  CHECK(buffers[2][3] == 103);
  CHECK(buffers[0][8] == 1);
  CHECK(buffers[1][8] == 1);
  CHECK(buffers[2][8] == 2);
  CHECK(buffers[0][1] == 0);
  CHECK(buffers[1][0] == 0);
}

TEST_CASE("atomics: ATOMB and ATOMS with ADD MIN MAX AND OR XOR EXCH CSWAP IWRAP DWRAP and F32 ADD", "[nvasm][instructions]") {
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 32;
SHARED_MEMORY 16;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP I, R0, R1;
MOV.U I.x, invocation.localindex;
STS.U32 {0}.x, s[0];
BAR;
ATOMB.ADD.U32 R0.x, {1}.x, out[0];
ATOMB.MIN.S32 R0.x, I.x, out[4];
ATOMB.MAX.U32 R0.x, I.x, out[8];
ATOMB.OR.U32 R0.x, {1}.x, out[12];
SHL.U R1.x, {1}.x, I.x;
ATOMB.XOR.U32 R0.x, R1.x, out[16];
ATOMB.AND.U32 R0.x, {0xFFFFFFF0}.x, out[20];
ATOMB.IWRAP.U32 R0.x, {9}.x, out[24];
ATOMB.DWRAP.U32 R0.x, {9}.x, out[28];
ATOMB.ADD.F32 R0.x, {0.25}.x, out[32];
ATOMS.ADD.U32 R0.x, I.x, s[0];
BAR;
SEQ.U R1.y, I.x, {0}.x;
MOV.U.CC R1.x, R1.y;
IF NE.x;
LDS.U32 R0.x, s[0];
STB.U32 R0.x, out[36];
ATOMB.CSWAP.U32 R0.x, {5, 77}, out[40];
STB.U32 R0.x, out[44];
ATOMB.EXCH.U32 R0.x, {123}.x, out[48];
STB.U32 R0.x, out[52];
ENDIF;
END
)";
  r.words = 16;
  r.init = 0;
  const auto out = run(r);
  CHECK(out[0] == 32u);
  CHECK(out[1] == 0u);
  CHECK(out[2] == 31u);
  CHECK(out[3] == 1u);
  CHECK(out[4] == 0xFFFFFFFFu);
  CHECK(out[5] == 0u);
  CHECK(out[6] == 32u % 10u);       // 32 increments wrapping at 9 -> 0
  CHECK(out[7] == 8u);              // from 0: 9, 8, ..., 0, 9, ...: 32 decrements end at 8
  CHECK(as_float(out[8]) == 8.0f);
  CHECK(out[9] == 496u);
  CHECK(out[10] == 0u);  // CSWAP: 0 != 5, memory unchanged
  CHECK(out[11] == 0u);  // and the old value comes back
  CHECK(out[12] == 123u);
  CHECK(out[13] == 0u);
}

TEST_CASE("invocation values: localid, globalid, groupid, groupcount, groupsize, localindex", "[nvasm][instructions]") {
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 2 3;
STORAGE out[] = { program.storage[0] };
TEMP A, R0;
MUL.U A.x, invocation.globalid.y, {4}.x;
ADD.U A.x, A.x, invocation.globalid.x;
MUL.U A.x, A.x, {16}.x;
MAD.U R0.x, invocation.localid.y, {16}.x, invocation.localid.x;
MAD.U R0.y, invocation.groupid.y, {16}.x, invocation.groupid.x;
MAD.U R0.z, invocation.groupcount.y, {16}.x, invocation.groupcount.x;
MAD.U R0.w, invocation.groupsize.y, {16}.x, invocation.localindex.x;
STB.U32X4 R0, out[A.x];
END
)";
  r.groups = {2, 1, 1};
  r.words = 4 * 3 * 4;
  const auto out = run(r);
  for (uint32_t y = 0; y < 3; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t* w = &out[(y * 4 + x) * 4];
      CHECK(w[0] == y * 16 + x % 2);
      CHECK(w[1] == x / 2);
      CHECK(w[2] == 16 + 2);
      CHECK(w[3] == 3 * 16 + y * 2 + x % 2);
    }
  }
}

TEST_CASE("variable group size: invocation.groupsize is the dispatch's size through specialization", "[nvasm][instructions]") {
  Run r;
  r.source = R"(!!NVcp5.0
OPTION ARB_compute_variable_group_size;
STORAGE out[] = { program.storage[0] };
TEMP A, R0;
MUL.U A.x, invocation.localindex, {16}.x;
MOV.U R0, invocation.groupsize;
MOV.U R0.w, invocation.localindex;
STB.U32X4 R0, out[A.x];
END
)";
  r.variable_size = {3, 2, 1};
  r.words = 24;
  const auto out = run(r);
  for (uint32_t i = 0; i < 6; ++i) {
    CHECK(out[i * 4 + 0] == 3u);
    CHECK(out[i * 4 + 1] == 2u);
    CHECK(out[i * 4 + 2] == 1u);
    CHECK(out[i * 4 + 3] == i);
  }
}
