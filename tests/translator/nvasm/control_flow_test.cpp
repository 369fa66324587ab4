// Condition codes and control flow (NV_gpu_program4 sections "Condition Code Registers" and "Program Control").
#include <catch2/catch.hpp>

#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;

TEST_CASE("condition codes: .CC sets SF and ZF per component, EQ NE LT GE GT LE test them", "[nvasm][cc]") {
  const auto out = run({single(R"(
MOV.S.CC R0, {-2, 0, 3, 0};
MOV.S R1, {0, 0, 0, 0};
MOV.S R1(LT), {1, 1, 1, 1};
STB.U32X4 R1, out[0];
MOV.S R1, {0, 0, 0, 0};
MOV.S R1(EQ), {1, 1, 1, 1};
STB.U32X4 R1, out[16];
MOV.S R1, {0, 0, 0, 0};
MOV.S R1(GT), {1, 1, 1, 1};
STB.U32X4 R1, out[32];
MOV.S R1, {0, 0, 0, 0};
MOV.S R1(GE.zzzz), {1, 1, 1, 1};
STB.U32X4 R1, out[48];
)"), 16});
  CHECK(std::vector<uint32_t>(out.begin(), out.begin() + 4) == std::vector<uint32_t>{1, 0, 0, 0});
  CHECK(std::vector<uint32_t>(out.begin() + 4, out.begin() + 8) == std::vector<uint32_t>{0, 1, 0, 1});
  CHECK(std::vector<uint32_t>(out.begin() + 8, out.begin() + 12) == std::vector<uint32_t>{0, 0, 1, 0});
  CHECK(std::vector<uint32_t>(out.begin() + 12, out.begin() + 16) == std::vector<uint32_t>{1, 1, 1, 1});
}

TEST_CASE("condition codes: a float NaN result sets SF and ZF, so NE passes and EQ fails", "[nvasm][cc]") {
  const auto out = run({single(R"(
MOV.F R0.x, {0}.x;
DIV.F.CC R0.x, R0.x, R0.x;
MOV.U R1, {0, 0, 0, 0};
MOV.U R1.x(NE.x), {1}.x;
MOV.U R1.y(EQ.x), {1}.x;
MOV.U R1.z(NAN.x), {1}.x;
STB.U32X4 R1, out[0];
)")});
  CHECK(out[0] == 1u);
  CHECK(out[1] == 0u);
  CHECK(out[2] == 1u);
}

TEST_CASE("condition codes: .CC updates only the written components, CC1 is separate", "[nvasm][cc]") {
  const auto out = run({single(R"(
MOV.S.CC R0, {0, 0, 0, 0};
MOV.S.CC R0.y, {5}.x;
MOV.S.CC1 R0.x, {7}.x;
MOV.S R1, {0, 0, 0, 0};
MOV.S R1(NE), {1, 1, 1, 1};
MOV.S R1.w(NE1.x), {2}.x;
STB.U32X4 R1, out[0];
)")});
  CHECK(out[0] == 0u);
  CHECK(out[1] == 1u);
  CHECK(out[2] == 0u);
  CHECK(out[3] == 2u);
}

TEST_CASE("IF / ELSE / ENDIF select on a condition code test, nested", "[nvasm][flow]") {
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 8;
STORAGE out[] = { program.storage[0] };
TEMP A, R0, RC;
MOV.U A.x, invocation.localindex;
AND.U.CC RC.x, A.x, {1}.x;
IF NE.x;
  AND.U.CC RC.y, A.x, {2}.x;
  IF NE.y;
    MOV.U R0.x, {3}.x;
  ELSE;
    MOV.U R0.x, {1}.x;
  ENDIF;
ELSE;
  MOV.U R0.x, {0}.x;
ENDIF;
MUL.U A.y, A.x, {4}.x;
STB.U32 R0.x, out[A.y];
END
)";
  r.words = 8;
  const auto out = run(r);
  for (uint32_t i = 0; i < 8; ++i) CHECK(out[i] == ((i & 1) ? ((i & 2) ? 3u : 1u) : 0u));
}

TEST_CASE("REP with a count runs the body that many times, BRK and CONT leave or skip on a test", "[nvasm][flow]") {
  const auto out = run({single(R"(
MOV.S R0, {0, 0, 0, 0};
REP.S {5}.x;
  ADD.S R0.x, R0.x, {1}.x;
ENDREP;
REP.S;
  ADD.S.CC R0.y, R0.y, {1}.x;
  SGE.S.CC R1.x, R0.y, {10}.x;
  BRK (NE.x);
ENDREP;
MOV.S R1.y, {0}.x;
REP.S {10}.x;
  ADD.S R1.y, R1.y, {1}.x;
  AND.U.CC R1.z, R1.y, {1}.x;
  CONT (NE.z);
  ADD.S R0.z, R0.z, R1.y;
ENDREP;
REP.S {0}.x;
  MOV.S R0.w, {99}.x;
ENDREP;
STB.U32X4 R0, out[0];
)")});
  CHECK(out[0] == 5u);
  CHECK(out[1] == 10u);
  CHECK(out[2] == 2u + 4 + 6 + 8 + 10);
  CHECK(out[3] == 0u);
}

TEST_CASE("CAL and RET: subroutines share registers, execution starts at main:, RET with a test", "[nvasm][flow]") {
  const auto out = run({single(R"(
double:
  ADD.S R0.x, R0.x, R0.x;
  RET;
twice:
  CAL double;
  SEQ.S.CC R1.x, R0.x, {12}.x;
  RET (NE.x);
  CAL double;
  RET;
main:
  MOV.S R0.x, {3}.x;
  CAL twice;
  STB.U32 R0.x, out[0];
  MOV.S R0.x, {5}.x;
  CAL twice;
  STB.U32 R0.x, out[4];
)")});
  CHECK(out[0] == 12u);  // 3 -> 6 -> 12, then the conditional RET
  CHECK(out[1] == 20u);  // 5 -> 10, no early return, -> 20
}

TEST_CASE("MEMBAR and BAR: shared memory written before BAR is visible to the whole group after it", "[nvasm][flow]") {
  Run r;
  r.source = R"(!!NVcp5.0
GROUP_SIZE 64;
SHARED_MEMORY 256;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP A, R0;
MUL.U A.x, invocation.localindex, {4}.x;
STS.U32 invocation.localindex, s[A.x];
MEMBAR.CTA;
BAR;
SUB.U A.y, {63}.x, invocation.localindex;
MUL.U A.y, A.y, {4}.x;
LDS.U32 R0.x, s[A.y];
STB.U32 R0.x, out[A.x];
END
)";
  r.words = 64;
  const auto out = run(r);
  for (uint32_t i = 0; i < 64; ++i) CHECK(out[i] == 63 - i);
}

TEST_CASE("condition codes: integer ADD and SUB set CF (carry, no borrow) and OF (signed overflow)", "[nvasm][cc]") {
  // NV_gpu_program4: LT is (SF ^ OF) && !ZF, so SUB.S.CC then LT compares correctly even when the difference
  // overflows; AB (CF && !ZF) after SUB.U.CC is "above".
  const auto out = run({single(R"(
MOV.S R0, {0x7FFFFFFF, -1, 5, 3};
SUB.S.CC R1.x, {-2}.x, R0.x;
MOV.U R2, {0, 0, 0, 0};
MOV.U R2.x(LT.x), {1}.x;
MOV.U R2.y(OF.x), {1}.x;
ADD.U.CC R1.y, R0.y, {1}.x;
MOV.U R2.z(CF.y), {1}.x;
SUB.U.CC R1.z, R0.z, R0.w;
MOV.U R2.w(AB.z), {1}.x;
STB.U32X4 R2, out[0];
)")});
  CHECK(out[0] == 1u);  // -2 < 0x7FFFFFFF although -2 - 0x7FFFFFFF overflows
  CHECK(out[1] == 1u);
  CHECK(out[2] == 1u);  // 0xFFFFFFFF + 1 carries
  CHECK(out[3] == 1u);  // 5 above 3
}
