// Programs shaped like the output of yuzu's GLASM backend (src/shader_recompiler/backend/glasm): the header and
// every OPTION on line 2, `TEMP R0,...,RC;` and `LONG TEMP ...,DC;`, `CBUFFER c0[]={program.buffer[0]};` and
// `STORAGE ssbo0[]={program.storage[0]};`, conditions through `MOV.S.CC RC.x,...;` with `IF NE.x;` and
// `BRK (NE.x);`, `.PREC` float math, CVT with rounding modifiers, half math through UP2H/PK2H, 64-bit registers.
// Written for these tests (not taken from yuzu); each result is computed here and every module validated.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "nv4_ops_support.hpp"
#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
using namespace bismuth::test::nv4_ops;

namespace {

// Line 2 as yuzu writes it for a compute program on a device with every optional feature, then the rest.
std::string yuzu_program(const std::string& rest) {
  return "!!NVcp5.0\n"
         "OPTION NV_internal;OPTION NV_shader_storage_buffer;OPTION NV_gpu_program_fp64;"
         "OPTION NV_texture_multisample;OPTION NV_shader_atomic_fp16_vector;OPTION EXT_sparse_texture2;"
         "OPTION EXT_shader_image_load_formatted;OPTION ARB_derivative_control;OPTION NV_parameter_buffer_object2;"
         "OPTION NV_unroll_none;" +
         rest + "END";
}

}  // namespace

TEST_CASE("yuzu shape: saxpy with CBUFFER, LDB/STB on ssbo arrays and .PREC", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 8 1 1;TEMP R0,R1,R2,R3,R4,RC;LONG TEMP DC;"
      "CBUFFER c0[]={program.buffer[0]};STORAGE ssbo0[]={program.storage[0]};STORAGE ssbo1[]={program.storage[1]};"
      "MOV.S R0.x,invocation.globalid.x;SHL.U R1.x,R0.x,2;LDC.F32 R2.x,c0[0];LDB.U32 R3.x,ssbo1[R1.x];"
      "MUL.F.PREC R3.y,R2.x,R3.x;ADD.U R1.y,R1.x,64;LDB.U32 R4.x,ssbo1[R1.y];ADD.F.PREC R3.w,R3.y,R4.x;"
      "STB.U32 R3.w,ssbo0[R1.x];");
  const float a = 1.0f / 3.0f;
  std::vector<float> x, y;
  for (int i = 0; i < 16; ++i) {
    x.push_back(0.1f * float(i) - 0.7f);
    y.push_back(float(i * i) / 7.0f);
  }
  for (float v : x) r.input.push_back(bits(v));
  for (float v : y) r.input.push_back(bits(v));
  r.parameter_buffers = {{0, {bits(a), 0, 0, 0}}};
  r.groups = {2, 1, 1};
  r.words = 16;
  const auto out = run(r);
  for (int i = 0; i < 16; ++i) {
    volatile float product = a * x[i];  // two roundings: .PREC forbids fusing them
    const float expected = product + y[i];
    INFO(i);
    CHECK(as_float(out[i]) == expected);
  }
}

TEST_CASE("yuzu shape: REP loops left by BRK (NE.x) and BRK(EQ.x) after MOV.S.CC RC", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 1 1 1;TEMP R0,R1,R2,RC;"
      "CBUFFER c0[]={program.buffer[0]};STORAGE ssbo0[]={program.storage[0]};"
      "MOV.S R0.x,0;MOV.S R0.y,0;LDC.U32 R2.x,c0[0];"
      "REP;SGE.S R1.x,R0.y,R2.x;MOV.S.CC RC.x,R1.x;BRK (NE.x);MAD.S R0.x,R0.y,R0.y,R0.x;ADD.S R0.y,R0.y,1;ENDREP;"
      "STB.U32 R0.x,ssbo0[0];"
      "MOV.U R1.y,1;MOV.U R1.z,0;"
      "REP;SHL.U R1.y,R1.y,1;ADD.U R1.z,R1.z,1;SLT.U R1.w,R1.y,1000;MOV.S.CC RC.x,R1.w;BRK(EQ.x);ENDREP;"
      "STB.U32 R1.y,ssbo0[4];STB.U32 R1.z,ssbo0[8];");
  const uint32_t n = 10;
  r.parameter_buffers = {{0, {n, 0, 0, 0}}};
  r.words = 3;
  const auto out = run(r);
  uint32_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += i * i;
  uint32_t v = 1, steps = 0;
  do {
    v <<= 1;
    ++steps;
  } while (v < 1000);
  CHECK(out[0] == sum);
  CHECK(out[1] == v);
  CHECK(out[2] == steps);
}

TEST_CASE("yuzu shape: CVT.S32.F32 with .ROUND .TRUNC .FLR .CEIL, CVT.F32.S32.ROUND, CVT.U16.F32", "[nvasm][yuzu]") {
  const std::vector<float> x = {0.5f,      -0.5f,   1.5f,  -1.5f, 2.5f,     -2.5f, 2.49f, -3.7f,
                                100000.5f, 100.25f, -0.0f, 7.0f,  65535.6f, -1.2f, 1e-3f, -70000.4f};
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 16 1 1;TEMP R0,R1,R2,R3,RC;"
      "STORAGE ssbo0[]={program.storage[0]};STORAGE ssbo1[]={program.storage[1]};"
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.F32 R1.x,ssbo1[R0.y];"
      "CVT.S32.F32.ROUND R2.x,R1.x;CVT.S32.F32.TRUNC R2.y,R1.x;CVT.S32.F32.FLR R2.z,R1.x;CVT.S32.F32.CEIL R2.w,R1.x;"
      "SHL.U R0.z,R0.x,4;STB.U32X4 R2,ssbo0[R0.z];"
      "CVT.F32.S32.ROUND R3.x,R2.x;CVT.U16.F32 R3.y,R1.x;SHL.U R0.w,R0.x,3;ADD.U R0.w,R0.w,256;"
      "STB.U32X2 R3,ssbo0[R0.w];");
  for (float v : x) r.input.push_back(bits(v));
  r.words = 64 + 32;
  const auto out = run(r);
  for (size_t i = 0; i < x.size(); ++i) {
    INFO("x = " << x[i]);
    const double v = x[i];
    const int64_t nearest = int64_t(std::nearbyint(v));  // ties to even
    CHECK(int32_t(out[4 * i + 0]) == nearest);
    CHECK(int32_t(out[4 * i + 1]) == int64_t(std::trunc(v)));
    CHECK(int32_t(out[4 * i + 2]) == int64_t(std::floor(v)));
    CHECK(int32_t(out[4 * i + 3]) == int64_t(std::ceil(v)));
    CHECK(as_float(out[64 + 2 * i]) == float(nearest));
    CHECK(out[64 + 2 * i + 1] == (uint32_t(nearest) & 0xFFFFu));  // U16 without SAT: the high bits dropped
  }
}

TEST_CASE("yuzu shape: half-precision math through UP2H, .PREC float math and PK2H", "[nvasm][yuzu]") {
  const std::vector<float> a = {1.5f, -2.0f, 0.1f, 100.0f, 3.14159f, -0.001f, 7.0f, 0.333f};
  const std::vector<float> b = {2.0f, 0.5f, -3.0f, 0.01f, 1.0f, 1000.0f, -7.0f, 3.0f};
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 8 1 1;TEMP R0,R1,R2,R3,R4,R5,RC;"
      "STORAGE ssbo0[]={program.storage[0]};STORAGE ssbo1[]={program.storage[1]};"
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;ADD.U R0.z,R0.y,32;"
      "LDB.U32 R1.x,ssbo1[R0.y];LDB.U32 R5.x,ssbo1[R0.z];"
      "UP2H R2.xy,R1.x;UP2H R3.xy,R5.x;"
      "MUL.F.PREC R4.x,R2.x,R3.x;MUL.F.PREC R4.y,R2.y,R3.y;ADD.F.PREC R4.x,R4.x,0.5;ADD.F.PREC R4.y,R4.y,-0.25;"
      "PK2H R4.z,R4;STB.U32 R4.z,ssbo0[R0.y];");
  // Each input word holds two halves: x = a[i], y = b[i] (input 0..7), x = b[i], y = a[i] (input 8..15).
  std::vector<uint16_t> ha, hb;
  for (size_t i = 0; i < a.size(); ++i)
    ha.push_back(half_of(a[i], Mode::Round)), hb.push_back(half_of(b[i], Mode::Round));
  for (size_t i = 0; i < a.size(); ++i) r.input.push_back(uint32_t(ha[i]) | uint32_t(hb[i]) << 16);
  for (size_t i = 0; i < a.size(); ++i) r.input.push_back(uint32_t(hb[i]) | uint32_t(ha[i]) << 16);
  r.words = 8;
  const auto out = run(r);
  for (size_t i = 0; i < a.size(); ++i) {
    const float av = float(half_value(ha[i])), bv = float(half_value(hb[i]));
    volatile float px = av * bv, py = bv * av;  // exact: 11-bit significands
    const float sx = px + 0.5f, sy = py - 0.25f;
    INFO(i);
    CHECK(out[i] == (uint32_t(half_of(sx, Mode::Round)) | uint32_t(half_of(sy, Mode::Round)) << 16));
  }
}

TEST_CASE("yuzu shape: IF NE.x / ELSE / ENDIF inside a REP loop (Collatz steps)", "[nvasm][yuzu]") {
  const std::vector<uint32_t> start = {1, 6, 7, 27, 97, 871, 2, 3};
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 8 1 1;TEMP R0,R1,R2,RC;"
      "STORAGE ssbo0[]={program.storage[0]};STORAGE ssbo1[]={program.storage[1]};"
      "MOV.S R0.x,invocation.localid.x;SHL.U R0.y,R0.x,2;LDB.U32 R1.x,ssbo1[R0.y];MOV.U R1.y,0;"
      "REP;SEQ.U R2.x,R1.x,1;MOV.S.CC RC.x,R2.x;BRK (NE.x);"
      "AND.U R2.y,R1.x,1;MOV.S.CC RC.x,R2.y;IF NE.x;MAD.U R1.x,R1.x,3,1;ELSE;SHR.U R1.x,R1.x,1;ENDIF;"
      "ADD.U R1.y,R1.y,1;ENDREP;"
      "STB.U32 R1.y,ssbo0[R0.y];");
  r.input = start;
  r.words = 8;
  const auto out = run(r);
  for (size_t i = 0; i < start.size(); ++i) {
    uint32_t v = start[i], steps = 0;
    while (v != 1) {
      v = (v & 1) ? 3 * v + 1 : v >> 1;
      ++steps;
    }
    INFO(start[i]);
    CHECK(out[i] == steps);
  }
}

TEST_CASE("yuzu shape: shared memory atomics between BARs, SEQ.S.CC / IF NE.x", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 32 1 1;SHARED_MEMORY 16;SHARED shared_mem[]={program.sharedmem};TEMP R0,R1,R2,R3,RC;"
      "STORAGE ssbo0[]={program.storage[0]};"
      "MOV.S R0.x,invocation.localid.x;MOV.U R1.w,0;"
      "SEQ.S.CC RC.x,R0.x,0;IF NE.x;STS.U32 R1.w,shared_mem[0];STS.U32 R1.w,shared_mem[4];ENDIF;BAR;"
      "ATOMS.ADD.U32 R1.x,R0.x,shared_mem[0];ATOMS.MAX.U32 R1.y,R0.x,shared_mem[4];BAR;"
      "SEQ.S.CC RC.x,R0.x,0;IF NE.x;LDS.U32 R2.x,shared_mem[0];LDS.U32 R3.x,shared_mem[4];"
      "STB.U32 R2.x,ssbo0[0];STB.U32 R3.x,ssbo0[4];ENDIF;");
  r.words = 2;
  const auto out = run(r);
  uint32_t sum = 0;
  for (uint32_t i = 0; i < 32; ++i) sum += i;
  CHECK(out[0] == sum);
  CHECK(out[1] == 31u);
}

TEST_CASE("yuzu shape: LONG TEMP D0 with PK64/UP64 and ADD.U64, CVT.F16.F32 and back, CVT.U16.F32", "[nvasm][yuzu]") {
  Run r;
  r.source = yuzu_program(
      "GROUP_SIZE 1 1 1;TEMP R0,R1,R2,R3,RC;LONG TEMP D0,DC;"
      "STORAGE ssbo0[]={program.storage[0]};STORAGE ssbo1[]={program.storage[1]};"
      "LDB.U32X4 R0,ssbo1[0];PK64.U D0.x,R0;ADD.U64 D0.x,D0.x,D0.x;UP64.U R1.xy,D0.x;STB.U32X2 R1,ssbo0[0];"
      "LDB.F32X4 R2,ssbo1[16];CVT.F16.F32 R3.x,R2.x;CVT.F32.F16 R3.y,R3.x;CVT.U16.F32 R3.z,R2.y;"
      "CVT.S32.F32.TRUNC R3.w,R2.z;STB.U32X4 R3,ssbo0[8];");
  const uint64_t v = 0x00000001C0000005ull;
  const float f[4] = {0.1f, 70000.7f, -2.9f, 0.0f};
  r.input = {uint32_t(v), uint32_t(v >> 32), 0, 0, bits(f[0]), bits(f[1]), bits(f[2]), bits(f[3])};
  r.words = 6;
  const auto out = run(r);
  const uint64_t doubled = v + v;
  CHECK(out[0] == uint32_t(doubled));
  CHECK(out[1] == uint32_t(doubled >> 32));
  const uint16_t h = half_of(f[0], Mode::Round);
  CHECK(out[2] == h);
  CHECK(double(as_float(out[3])) == half_value(h));
  CHECK(out[4] == (uint32_t(std::nearbyint(double(f[1]))) & 0xFFFFu));
  CHECK(int32_t(out[5]) == -2);
}
