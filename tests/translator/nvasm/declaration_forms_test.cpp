// Declaration and binding forms of NV_gpu_program5 / NV_parameter_buffer_object(2) / NV_shader_storage_buffer_object
// that real emitters write: two-dimensional CBUFFER and STORAGE arrays, a single-element BUFFER, LDC's operand
// modifiers. Each program runs on the test device (every module validated) and is checked against values
// computed here from the buffers' contents.
#include <catch2/catch.hpp>

#include <cmath>

#include "nv4_ops_support.hpp"
#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
using namespace bismuth::test::nv4_ops;

namespace {

// Word i of parameter buffer a: distinct in every buffer and word.
uint32_t word(uint32_t a, uint32_t i) {
  return (i + 3) * 0x9E3779B1u ^ (a * 0x85EBCA77u);
}

}  // namespace

TEST_CASE("declarations: CBUFFER c[][] over program.buffer[a..b], read c[k][address] and c[R0.x + k][address]",
          "[nvasm][declarations]") {
  // NV_gpu_program5: <BUFFER_statement> ::= <bufferDeclType> <establishName> <optArraySize> <optArraySize> "="
  // <bufferMultInit>; "the first index specifying an offset into the range of buffer object binding points. A buffer
  // index of zero identifies binding point <a>".
  Run r;
  for (uint32_t a = 0; a < 4; ++a) {
    std::vector<uint32_t> w(64);
    for (uint32_t i = 0; i < 64; ++i) w[i] = word(a, i);
    r.parameter_buffers.push_back({a, w});
  }
  r.source = single(
      "MOV.U R0.x, 2;\n"
      "LDC.U32 R1.x, cb[1][20];\n"    // buffer 1, word 5
      "LDC.U32 R2.x, cb[R0.x][8];\n"  // buffer 2, word 2
      "MOV.U R1.y, R2.x;\n"
      "LDC.U32 R2, cb[R0.x + 1][R0.x];\n"  // buffer 3, byte 2
      "MOV.U R1.z, R2.x;\n"
      "LDC.U32 R2.x, one[0][12];\n"  // a two-dimensional declaration of one buffer still takes its index
      "MOV.U R1.w, R2.x;\n"
      "STB.U32X4 R1, out[0];\n"
      "LDC.U16 R2.x, sized[1][6];\n"  // `CBUFFER s[2][256]`: buffer 1 of 1..2 is program.buffer[2]
      "STB.U32 R2.x, out[16];\n",
      "TEMP R0, R1, R2;\nCBUFFER cb[][] = { program.buffer[0..3] };\nCBUFFER one[][] = { program.buffer[3] };\n"
      "CBUFFER sized[2][256] = { program.buffer[1..2] };\n");
  r.words = 5;
  const auto out = run(r);
  CHECK(out[0] == word(1, 5));
  CHECK(out[1] == word(2, 2));
  // LDC.U32 at byte 2: NV_gpu_program5 leaves misaligned loads undefined; Bismuth reads the containing word.
  CHECK(out[2] == word(3, 0));
  CHECK(out[3] == word(3, 3));
  CHECK(out[4] == (word(2, 1) >> 16));
}

TEST_CASE("declarations: STORAGE s[][] over program.storage[a..b] (NVIDIA's compiler output)",
          "[nvasm][declarations]") {
  Run r;
  r.source = single(
      "MOV.U R0.x, 1;\n"
      "LDB.U32 R1.x, two[1][8];\n"
      "LDB.U32 R2.x, two[R0.x - 1][8];\n"
      "MOV.U R1.y, R2.x;\n"
      "ADD.U R1.z, R1.x, R1.y;\n"
      "STB.U32 R1.z, two[R0.x][0];\n"
      "STB.U32 R1.x, single[0][4];\n",
      "TEMP R0, R1, R2;\nSTORAGE two[][] = { program.storage[1..2] };\nSTORAGE single[][] = { program.storage[2] };\n");
  r.input = {10, 11, 12, 13};
  std::vector<std::vector<uint32_t>> more;
  r.more_storage = {{2, {0, 0, 0, 0}}};
  r.storage_out = &more;
  // program.storage[2]: word 2 is read as two[1][8] (initially 7), word 0 and 1 are written.
  r.more_storage[0].second[2] = 7;
  run(r);
  REQUIRE(more.size() == 1);
  CHECK(more[0][0] == 7 + 12);
  CHECK(more[0][1] == 7);
}

TEST_CASE("declarations: BUFFER / BUFFER4 w = program.buffer[a][b] (one element, read without an index)",
          "[nvasm][declarations]") {
  // NV_parameter_buffer_object, program.buffer[a][b]: "reads the array element numbered <b>" of binding point <a>.
  Run r;
  std::vector<uint32_t> w(64);
  for (uint32_t i = 0; i < 64; ++i) w[i] = word(5, i);
  r.parameter_buffers = {{5, w}};
  r.source = single(
      "MOV.U R0, one;\n"
      "STB.U32X4 R0, out[0];\n"
      "MOV.U R1, vec.wzyx;\n"
      "STB.U32X4 R1, out[16];\n"
      "ADD.U R1, -one, vec;\n"
      "STB.U32X4 R1, out[32];\n",
      "TEMP R0, R1;\nBUFFER one = program.buffer[5][7];\nBUFFER4 vec = program.buffer[5][3];\n");
  r.words = 12;
  const auto out = run(r);
  for (uint32_t c = 0; c < 4; ++c) {
    INFO(c);
    CHECK(out[c] == w[7]);  // a BUFFER element is one word, replicated to (x,x,x,x)
    CHECK(out[4 + c] == w[12 + 3 - c]);
    CHECK(out[8 + c] == w[12 + c] - w[7]);
  }
}

TEST_CASE("declarations: LDC operand modifiers: swizzle, negation and absolute value", "[nvasm][declarations]") {
  // NV_gpu_program5, LDC: "A final operand vector is derived from the base operand vector by applying swizzle,
  // negation, and absolute value operand modifiers as described in Section 2.X.4.2."
  const float f[4] = {1.5f, -2.25f, 0.0f, -7.0f};
  const int32_t s[4] = {5, -9, 0x7FFFFFFF, -1};
  std::vector<uint32_t> w(16, 0);
  for (int i = 0; i < 4; ++i) w[i] = bits(f[i]), w[4 + i] = uint32_t(s[i]);
  Run r;
  r.parameter_buffers = {{0, w}};
  r.source = single(
      "LDC.F32X4 R0, c[0].wzyx;\n"
      "STB.F32X4 R0, out[0];\n"
      "LDC.F32X4 R0, -|c[0]|;\n"
      "STB.F32X4 R0, out[16];\n"
      "LDC.S32X4 R0, -c[16].yxwz;\n"
      "STB.S32X4 R0, out[32];\n"
      "LDC.S32X4 R0, |c[16].y|;\n"
      "STB.S32X4 R0, out[48];\n"
      "LDC.F32X2 R0, +c[4].yxyx;\n"
      "STB.F32X4 R0, out[64];\n",
      "TEMP R0;\nCBUFFER c = program.buffer[0];\n");
  r.words = 20;
  const auto out = run(r);
  for (int c = 0; c < 4; ++c) {
    INFO(c);
    CHECK(as_float(out[c]) == f[3 - c]);
    CHECK(as_float(out[4 + c]) == -std::fabs(f[c]));
    const int yxwz[4] = {1, 0, 3, 2};
    CHECK(int32_t(out[8 + c]) == int32_t(0u - uint32_t(s[yxwz[c]])));  // two's complement negation
    CHECK(int32_t(out[12 + c]) == 9);
    CHECK(as_float(out[16 + c]) == f[c % 2 == 0 ? 2 : 1]);  // X2 from byte 4: f[1], f[2]; swizzled yxyx
  }
}

TEST_CASE("memory loads: components past the storage modifier's count are zero", "[nvasm][declarations]") {
  // NV_gpu_program5 2.X.4.5: "When the storage modifier specifies that fewer than four components should be
  // fetched, remaining components are filled with zeroes." (NVIDIA's driver 580 gives the same words.)
  Run r;
  r.input = {0x11223344u, 0x55667788u, 0x99AABBCCu, 0xDDEEFF00u};
  r.parameter_buffers = {{0, r.input}};
  r.source = single(
      "MOV.U R0, {9, 9, 9, 9};\nLDB.U32 R0, in[0];\nSTB.U32X4 R0, out[0];\n"
      "MOV.U R0, {9, 9, 9, 9};\nLDB.U32X2 R0, in[0];\nSTB.U32X4 R0, out[16];\n"
      "MOV.U R0, {9, 9, 9, 9};\nLDB.U32 R0.yw, in[4];\nSTB.U32X4 R0, out[32];\n"
      "MOV.U R0, {9, 9, 9, 9};\nLDC.U16 R0.xz, c[2];\nSTB.U32X4 R0, out[48];\n"
      "MOV.U R0, {9, 9, 9, 9};\nSTS.U32X4 R0, sh[0];\nLDS.S8 R0, sh[0];\nSTB.U32X4 R0, out[64];\n",
      "TEMP R0;\nCBUFFER c = program.buffer[0];\nSHARED_MEMORY 16;\nSHARED sh[] = { program.sharedmem };\n");
  r.words = 20;
  const auto out = run(r);
  const std::vector<uint32_t> expect = {0x11223344u, 0, 0,       0, 0x11223344u, 0x55667788u, 0, 0, 9, 0,
                                        9,           0, 0x1122u, 9, 0,           9,           9, 0, 0, 0};
  for (size_t i = 0; i < expect.size(); ++i) {
    INFO(i);
    CHECK(out[i] == expect[i]);
  }
}

TEST_CASE("declarations: program.storagelen[i], the bound range's size in bytes", "[nvasm][declarations]") {
  // NVIDIA's driver (580, H200) gives program.storagelen[i] as the size in bytes of the range bound to
  // program.storage[i], in every component; PARAM arrays take program.storagelen[a..b].
  Run r;
  r.input = std::vector<uint32_t>(13, 7);               // 52 bytes
  r.more_storage = {{3, std::vector<uint32_t>(5, 0)}};  // 20 bytes, declared only through storagelen
  std::vector<std::vector<uint32_t>> more;
  r.storage_out = &more;
  r.source = single(
      "MOV.U R0, program.storagelen[1];\nSTB.U32X4 R0, out[0];\n"
      "MOV.U R0, len[1].wzyx;\nADD.U R0.y, R0.y, program.storagelen[0].x;\nSTB.U32X4 R0, out[16];\n",
      "TEMP R0;\nPARAM len[] = { program.storagelen[0], program.storagelen[3] };\n");
  r.words = 8;
  const auto out = run(r);
  for (int c = 0; c < 4; ++c) CHECK(out[c] == 52u);
  CHECK(out[4] == 20u);
  CHECK(out[5] == 20u + 8 * 4);  // program.storage[0] is the 8-word output buffer
  CHECK(out[6] == 20u);
  CHECK(out[7] == 20u);
}

TEST_CASE("declarations: SHARED over program.sharedmem[a..b], [a] and a single location", "[nvasm][declarations]") {
  // As NVIDIA's driver reads them: [a..b] names bytes a..b (part[4] is byte 20 of part = sharedmem[16..31]), [a]
  // the byte a (from8[0], read as a word), and a non-array SHARED s = program.sharedmem[a] is the location at byte a,
  // read as `s`.
  Run r;
  r.source = single(
      "MOV.U R0, {1, 2, 3, 4};\nSTS.U32X4 R0, all[0];\n"
      "MOV.U R0, {5, 6, 7, 8};\nSTS.U32X4 R0, all[16];\n"
      "MOV.U R0, {77, 0, 0, 0};\nSTS.U32 R0.x, part[4];\n"
      "LDS.U32X4 R1, all[16];\nSTB.U32X4 R1, out[0];\n"
      "MOV.U R2.x, 8;\nLDS.U32X2 R1, part[R2.x];\nSTB.U32X4 R1, out[16];\n"
      "LDS.U32 R1, from8[0];\nSTB.U32 R1.x, out[32];\n"
      "MOV.U R0, {99, 0, 0, 0};\nSTS.U32 R0.x, one;\nLDS.U32 R1, all[4];\nSTB.U32 R1.x, out[36];\n",
      "TEMP R0, R1, R2;\nSHARED_MEMORY 32;\nSHARED all[] = { program.sharedmem };\n"
      "SHARED part[16] = { program.sharedmem[16..31] };\nSHARED from8[] = { program.sharedmem[8] };\n"
      "SHARED one = program.sharedmem[4];\n");
  r.words = 10;
  const auto out = run(r);
  const std::vector<uint32_t> expect = {5, 77, 7, 8, 7, 8, 0, 0, 3, 99};
  for (size_t i = 0; i < expect.size(); ++i) {
    INFO(i);
    CHECK(out[i] == expect[i]);
  }
}

TEST_CASE("declarations: load errors for shared memory ranges, storagelen and THREAD_MEMORY", "[nvasm][declarations]") {
  const std::string head = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSHARED_MEMORY 32;\n";  // lines 1-4
  auto check = [](const std::string& source, const std::string& prefix) {
    auto p = bismuth::nvasm::assemble(source);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.error().message, Catch::StartsWith(prefix));
  };
  // A constant address past the range (NVIDIA's driver: "out of bounds array access"); [a] names one byte.
  check(head + "SHARED p[] = { program.sharedmem[8] };\nLDS.U32 R0.x, p[4];\nEND\n",
        "line 6, column 17: error: address 4 is out of bounds for 'p' (1 bytes)");
  check(head + "SHARED p[] = { program.sharedmem[16..31] };\nLDS.U32 R0.x, p[16];\nEND\n",
        "line 6, column 17: error: address 16 is out of bounds for 'p' (16 bytes)");
  // Offsets at or past SHARED_MEMORY (NVIDIA's driver: "invalid shared memory offset").
  check(head + "SHARED p[] = { program.sharedmem[16..32] };\nEND\n",
        "line 5, column 16: error: invalid shared memory offset");
  // A range is for arrays (NVIDIA's driver: "shared memory range not supported for non-array variables").
  check(head + "SHARED p = program.sharedmem[0..3];\nEND\n", "line 5, column 8: error: SHARED 'p' binds a range");
  check(head + "SHARED p[8] = { program.sharedmem[0..3] };\nEND\n",
        "line 5, column 8: error: SHARED array 'p' declares 8 bytes but binds 4");
  check(head + "MOV.U R0, program.storagelen[1024];\nEND\n", "line 5, column 30: error: invalid parameter index range");
  check("!!NVcp5.0\nGROUP_SIZE 1;\nTHREAD_MEMORY 64;\nEND\n",
        "line 3, column 1: error: THREAD_MEMORY declarations are not supported");
}

TEST_CASE("declarations: SHORT TEMP rounds float results to half precision", "[nvasm][declarations]") {
  // NV_gpu_program5 2.X.3.1: "Variables decared as "SHORT" will be represented using at least 16 bits per
  // component. "SHORT" floating-point values will have at least 5 bits of exponent and 10 bits of mantissa." As
  // NVIDIA's driver 580 stores them: nearest even, overflow to infinity, the half subnormal range flushed to a signed
  // zero, integer results kept whole.
  const float in[8] = {0.1f, 1.0009765625f, 70000.0f, 1e-6f, -1e-6f, 65519.0f, 65520.0f, 2049.0f};
  Run r;
  for (float f : in) r.input.push_back(bits(f));
  r.source = single(
      "LDB.F32X4 R0, in[0];\nMOV.F h, R0;\nMOV.F R1, h;\nSTB.F32X4 R1, out[0];\n"
      "LDB.F32X4 R0, in[16];\nADD.F h, R0, {0, 0, 0, 0};\nSTB.F32X4 h, out[16];\n"
      "MOV.U h, {0x12345678, 0xFFFFFFFF, 65537, 3};\nSTB.U32X4 h, out[32];\n",
      "TEMP R0, R1;\nSHORT TEMP h;\n");
  r.words = 12;
  const auto out = run(r);
  for (int i = 0; i < 8; ++i) {
    INFO(in[i]);
    double h = half_value(half_of(double(in[i]), Mode::Round));
    if (std::fabs(h) < 0x1p-14) h = std::signbit(h) ? -0.0 : 0.0;
    CHECK(out[i] == bits(float(h)));
  }
  CHECK(out[8] == 0x12345678u);
  CHECK(out[9] == 0xFFFFFFFFu);
  CHECK(out[10] == 65537u);
  CHECK(out[11] == 3u);
}

TEST_CASE("declarations: INT, UINT and FLOAT variables", "[nvasm][declarations]") {
  // Used as their type they behave as plain variables.
  Run r;
  r.source = single(
      "MOV.S i, {-3, 4, 5, 6};\nADD.S i, i, q;\nMOV.U R0, i;\nSTB.U32X4 R0, out[0];\n"
      "MOV.F f, r;\nMUL.F f, f, {2, 2, 2, 2};\nSTB.F32X4 f, out[16];\n"
      "ADD.U b.x, u.y, u.x;\nSTB.U64 b.x, out[32];\n",
      "TEMP R0;\nINT TEMP i;\nFLOAT TEMP f;\nLONG UINT TEMP b;\nSHORT INT TEMP s;\nINT PARAM q = {10, -20, 30, -40};\n"
      "FLOAT PARAM r = {1.5, -2, 3, 0.25};\nUINT PARAM u = {0xFFFFFFFF, 7, 0, 0};\n");
  r.words = 10;
  const auto out = run(r);
  const int32_t iv[4] = {-3 + 10, 4 - 20, 5 + 30, 6 - 40};
  const float fv[4] = {3.0f, -4.0f, 6.0f, 0.5f};
  for (int c = 0; c < 4; ++c) {
    CHECK(int32_t(out[c]) == iv[c]);
    CHECK(as_float(out[4 + c]) == fv[c]);
  }
  // ADD.U on a LONG register: the 32-bit sum 7 + 0xFFFFFFFF wraps to 6, stored zero-extended.
  CHECK(out[8] == 6u);
  CHECK(out[9] == 0u);

  // Read or written as another type, they are load errors (NVIDIA's driver: "data type mismatch").
  const std::string head =
      "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nINT TEMP i;\nUINT PARAM u = {1, 2, 3, 4};\n"
      "FLOAT TEMP f;\n";  // lines 1-6
  auto check = [](const std::string& source, const std::string& prefix) {
    auto p = bismuth::nvasm::assemble(source);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.error().message, Catch::StartsWith(prefix));
  };
  check(head + "MOV i, {1, 2, 3, 4};\nEND\n",
        "line 7, column 5: error: data type mismatch: 'i' is declared INT and this instruction writes it as "
        "floating-point");
  check(
      head + "MOV.U R0, f;\nEND\n",
      "line 7, column 11: error: data type mismatch: 'f' is declared FLOAT and this instruction reads it as unsigned");
  check(head + "ADD.S R0, R0, u;\nEND\n",
        "line 7, column 15: error: data type mismatch: 'u' is declared UINT and this instruction reads it as signed");
  check(head + "I2F.S f, u;\nEND\n", "line 7, column 10: error: data type mismatch: 'u' is declared UINT");
  check(head + "INT PARAM q = {-1, 2.5};\nEND\n", "line 7, column 20: error: invalid integer constant");
  check(head + "SHORT PARAM p = {1};\nEND\n", "line 7, column 7: error: SHORT and LONG apply to TEMP declarations");
  check(head + "SHORT LONG TEMP t;\nEND\n", "line 7, column 7: error: more than one size modifier");
  check(head + "INT FLOAT TEMP t;\nEND\n", "line 7, column 5: error: more than one type modifier");
  check(head + "INT ATTRIB a = invocation.localid;\nEND\n",
        "line 7, column 5: error: unexpected 'ATTRIB', expected TEMP or PARAM after variable modifiers");
  // An INT variable may be read as unsigned (NVIDIA's driver accepts MOV.U R0, i and STB.U32 i).
  CHECK(bismuth::nvasm::assemble(head +
                                 "MOV.U R0, i;\nSTORAGE s[] = { program.storage[0] };\nSTB.U32 i.x, s[0];\nEND\n"));
}

TEST_CASE("declarations: program.storagelen binds its buffer in the program description", "[nvasm][declarations]") {
  // The length is read from the buffer's descriptor, so a buffer only named by program.storagelen is still bound.
  auto p = bismuth::nvasm::assemble(
      "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSTORAGE out[] = { program.storage[0] };\n"
      "MOV.U R0, program.storagelen[5];\nSTB.U32 R0.x, out[0];\nEND\n");
  REQUIRE(p);
  REQUIRE(p->info.storage_buffers.size() == 2);
  CHECK(p->info.storage_buffers[0].program_storage == 0);
  CHECK(p->info.storage_buffers[1].program_storage == 5);
  CHECK(p->info.storage_buffers[1].binding == 5);
}
