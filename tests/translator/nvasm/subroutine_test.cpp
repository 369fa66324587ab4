// Indirect subroutine calls (ARB_shader_subroutine, "Dependencies on NV_gpu_program5": SUBROUTINETYPE, SUBROUTINE,
// SUBROUTINENUM labels, CALI) and recursion through CAL, lowered by call depth up to MAX_PROGRAM_CALL_DEPTH_NV
// (nvasm::kMaxCallDepth). Every program runs on the test device after spirv-val (program_runner.hpp); expected
// values come from CPU models of the same computation.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
using bismuth::nvasm::assemble;

namespace {

// A program of `threads` invocations; each reads in[i] and writes out[i] (R2.x holds the byte address 4 * i).
std::string per_invocation(uint32_t threads, const std::string& decls, const std::string& body) {
  return "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE " + std::to_string(threads) +
         ";\nSTORAGE out[] = { program.storage[0] };\nSTORAGE in[] = { program.storage[1] };\n"
         "TEMP R0, R1, R2, R3;\n" + decls + body + "END\n";
}

// The shape NVIDIA's GLSL compiler gives a `subroutine uniform` call: one label per implementation with its
// SUBROUTINENUM, a SUBROUTINETYPE listing them, a SUBROUTINE variable bound to program.subroutine, and CALI in main.
// One implementation (sum_to) is itself recursive: CALI targets are lowered by call depth too.
const std::string kShadeDecls = R"(SUBROUTINETYPE Shade { scale, mix_bits, sum_to };
SUBROUTINE Shade shade = program.subroutine[0];
)";
const std::string kShadeBody = R"(
scale SUBROUTINENUM(0):
  MUL.U R1.x, R0.x, {3}.x;
  RET;
mix_bits SUBROUTINENUM(7):
  XOR.U R1.x, R0.x, {0x5A5A}.x;
  RET;
sum_to SUBROUTINENUM(2):
  SEQ.U.CC R3.x, R0.x, {0}.x;
  RET (NE.x);
  ADD.U R1.x, R1.x, R0.x;
  SUB.U R0.x, R0.x, {1}.x;
  CAL sum_to;
  RET;
main:
  MUL.U R2.x, invocation.globalid.x, {4}.x;
  LDB.U32 R0.x, in[R2.x];
  MOV.U R1.x, {0}.x;
  CALI shade;
  STB.U32 R1.x, out[R2.x];
)";

}  // namespace

TEST_CASE("CALI: program.subroutine selects which of three SUBROUTINENUM labels runs", "[nvasm][subroutine]") {
  // "Subroutines may be called indirectly using the CALI instruction. An "indirect" call will transfer control to
  // one of a set of labels, where the specific label that is used in a particular program invocation is set
  // through a "subroutine" parameter."
  const std::vector<uint32_t> input = {0, 1, 5, 12, 20, 31, 7, 9};
  for (uint32_t number : {0u, 7u, 2u}) {
    INFO("program.subroutine[0] = " << number);
    Run r{per_invocation(8, kShadeDecls, kShadeBody), 8};
    r.input = input;
    r.subroutines = {number};
    const auto out = run(r);
    for (size_t i = 0; i < input.size(); ++i) {
      const uint32_t n = input[i];
      uint32_t expected = 0;
      if (number == 0) expected = n * 3;
      if (number == 7) expected = n ^ 0x5A5Au;
      if (number == 2) expected = n * (n + 1) / 2;  // sum_to recurses n deep (at most 31 + 1 <= 32 entries)
      CHECK(out[i] == expected);
    }
  }
}

TEST_CASE("CALI: a value that is no SUBROUTINENUM of the type calls nothing", "[nvasm][subroutine]") {
  // ProgramSubroutineParametersuivNV refuses such values (INVALID_OPERATION), so only a caller of the assembler can
  // give one; Bismuth's switch then calls nothing (docs/nvasm.md).
  Run r{per_invocation(8, kShadeDecls, kShadeBody), 8};
  r.input = {1, 2, 3, 4, 5, 6, 7, 8};
  r.subroutines = {5};
  const auto out = run(r);
  for (size_t i = 0; i < 8; ++i) CHECK(out[i] == 0u);
}

TEST_CASE("CALI: the spec's Hero example, a label in two types, arrays indexed by a register, a condition",
          "[nvasm][subroutine]") {
  // "A label may be assigned to multiple SUBROUTINETYPEs." "SUBROUTINETYPE Hero { batman, robin }; creates a
  // SUBROUTINETYPE named "Hero" (if it does not already exist) and adds the subroutines". Subroutine variables "may
  // be declared as explicitly-sized arrays, which can be dynamically indexed at use".
  const std::string decls = R"(SUBROUTINETYPE Hero { superman, wolverine };
SUBROUTINETYPE Hero { batman, robin };
SUBROUTINETYPE GothamHero { batman, robin };
SUBROUTINE Hero anyHero = program.subroutine[0];
SUBROUTINE GothamHero gotham[2] = { program.subroutine[1..2] };
)";
  const std::string body = R"(
batman SUBROUTINENUM(0):
  ADD.U R1.x, R1.x, {1}.x;
  RET;
robin SUBROUTINENUM(1):
  ADD.U R1.x, R1.x, {10}.x;
  RET;
superman SUBROUTINENUM(2):
  ADD.U R1.x, R1.x, {100}.x;
  RET;
wolverine SUBROUTINENUM(3):
  ADD.U R1.x, R1.x, {1000}.x;
  RET;
main:
  MUL.U R2.x, invocation.globalid.x, {4}.x;
  MOV.U R1.x, {0}.x;
  CALI anyHero;
  AND.U R0.x, invocation.globalid.x, {1}.x;
  CALI gotham[R0.x];
  SEQ.U.CC R3.x, R0.x, {0}.x;
  CALI gotham[1] (NE.x);
  STB.U32 R1.x, out[R2.x];
)";
  struct Case {
    uint32_t any, g0, g1;
  };
  for (const Case c : {Case{2, 0, 1}, Case{3, 1, 0}, Case{0, 1, 1}}) {
    INFO("program.subroutine = {" << c.any << ", " << c.g0 << ", " << c.g1 << "}");
    Run r{per_invocation(4, decls, body), 4};
    r.subroutines = {c.any, c.g0, c.g1};
    const auto out = run(r);
    const uint32_t add[4] = {1, 10, 100, 1000};  // by SUBROUTINENUM
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t odd = i & 1;
      uint32_t expected = add[c.any] + add[odd ? c.g1 : c.g0];
      if (!odd) expected += add[c.g1];  // the conditional CALI runs where R0.x == 0
      CHECK(out[i] == expected);
    }
  }
}

TEST_CASE("CAL recursion: non-tail recursive Fibonacci and mutual recursion up to the call depth",
          "[nvasm][subroutine][recursion]") {
  // NV_gpu_program4 allows CAL to call a subroutine already on the call stack; the stack holds
  // MAX_PROGRAM_CALL_DEPTH_NV entries (Bismuth: 32). fib(n) returns (F(n), F(n+1)) in R1.xy and does work after
  // its recursive call; n = 31 uses all 32 entries (main -> fib(31) -> ... -> fib(0)).
  const std::string body = R"(
fib:
  MOV.U R1.xy, {0, 1, 0, 0};
  SEQ.U.CC R3.x, R0.x, {0}.x;
  RET (NE.x);
  SUB.U R0.x, R0.x, {1}.x;
  CAL fib;
  ADD.U R1.z, R1.x, R1.y;
  MOV.U R1.xy, R1.yzzz;
  RET;
even:
  SEQ.U.CC R3.x, R0.x, {0}.x;
  MOV.U R1.w(NE.x), {1}.x;
  RET (NE.x);
  SUB.U R0.x, R0.x, {1}.x;
  CAL odd;
  RET;
odd:
  SEQ.U.CC R3.x, R0.x, {0}.x;
  MOV.U R1.w(NE.x), {0}.x;
  RET (NE.x);
  SUB.U R0.x, R0.x, {1}.x;
  CAL even;
  RET;
main:
  MUL.U R2.x, invocation.globalid.x, {4}.x;
  LDB.U32 R0.x, in[R2.x];
  CAL fib;
  LDB.U32 R0.x, in[R2.x];
  CAL even;
  SHL.U R1.w, R1.w, {31}.x;
  OR.U R1.x, R1.x, R1.w;
  STB.U32 R1.x, out[R2.x];
)";
  const std::vector<uint32_t> input = {0, 1, 2, 10, 17, 24, 30, 31};
  Run r{per_invocation(8, "", body), 8};
  r.input = input;
  const auto out = run(r);
  for (size_t i = 0; i < input.size(); ++i) {
    uint32_t a = 0, b = 1;
    for (uint32_t k = 0; k < input[i]; ++k) {
      const uint32_t c = a + b;
      a = b;
      b = c;
    }
    const uint32_t even = input[i] % 2 == 0 ? 1u : 0u;
    INFO("n = " << input[i]);
    CHECK(out[i] == (a | (even << 31)));
  }
}

TEST_CASE("CAL recursion: a call past MAX_PROGRAM_CALL_DEPTH_NV terminates the invocation", "[nvasm][subroutine][recursion]") {
  // Bismuth's reading of a call stack overflow (docs/nvasm.md, "Subroutines and recursion"): the CAL that would
  // push entry 33 ends the invocation; what it stored before stays, nothing after runs. count(n) stores its depth
  // before recursing, so out[i] ends at min(n, 32) - 1 ... and main's final store happens only without overflow.
  const std::string body = R"(
count:
  ADD.U R1.x, R1.x, {1}.x;
  STB.U32 R1.x, out[R2.x];
  SEQ.U.CC R3.x, R0.x, {0}.x;
  RET (NE.x);
  SUB.U R0.x, R0.x, {1}.x;
  CAL count;
  RET;
main:
  MUL.U R2.x, invocation.globalid.x, {4}.x;
  LDB.U32 R0.x, in[R2.x];
  MOV.U R1.x, {0}.x;
  CAL count;
  ADD.U R1.x, R1.x, {1000}.x;
  STB.U32 R1.x, out[R2.x];
)";
  const std::vector<uint32_t> input = {0, 5, 30, 31, 32, 33, 40, 1000};
  Run r{per_invocation(8, "", body), 8};
  r.input = input;
  const auto out = run(r);
  for (size_t i = 0; i < input.size(); ++i) {
    const uint32_t n = input[i];
    // count(n) runs at depths 1 .. n + 1; a depth above 32 overflows.
    const bool overflows = n + 1 > bismuth::nvasm::kMaxCallDepth;
    const uint32_t expected = overflows ? bismuth::nvasm::kMaxCallDepth : n + 1 + 1000;
    INFO("n = " << n);
    CHECK(out[i] == expected);
  }
}

TEST_CASE("CALI: ProgramInfo lists each program.subroutine index with the SUBROUTINENUMs its type accepts",
          "[nvasm][subroutine]") {
  // ProgramSubroutineParametersuivNV: "The error INVALID_VALUE is generated if <count> is not equal to one plus
  // the maximum program subroutine parameter index used"; INVALID_OPERATION where params[i] "is not a
  // SUBROUTINENUM that was associated to that SUBROUTINETYPE". The GL shim checks both from this description.
  const std::string source = per_invocation(1, R"(SUBROUTINETYPE T { b, a };
SUBROUTINETYPE U { c };
SUBROUTINE T t = program.subroutine[2];
SUBROUTINE U u[2] = { program.subroutine[0], program.subroutine[4] };
)", R"(
a SUBROUTINENUM(9):
  RET;
b SUBROUTINENUM(4):
  RET;
c SUBROUTINENUM(200):
  RET;
main:
  CALI t;
  CALI u[1];
)");
  auto program = assemble(source);
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  const auto& p = program->info.subroutine_parameters;
  REQUIRE(p.size() == 5);
  CHECK(p[0] == std::vector<uint32_t>{200});
  CHECK(p[1].empty());
  CHECK(p[2] == (std::vector<uint32_t>{4, 9}));
  CHECK(p[3].empty());
  CHECK(p[4] == std::vector<uint32_t>{200});
}

namespace {

struct Expect {
  uint32_t line;
  uint32_t column;
  std::string text;
};

void check_error(const std::string& source, const Expect& e) {
  auto result = assemble(source);
  REQUIRE_FALSE(result);
  const std::string& message = result.error().message;
  INFO(message);
  const std::string prefix = "line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + ": error: ";
  CHECK(message.rfind(prefix, 0) == 0);
  CHECK_THAT(message, Catch::Contains(e.text));
  const auto pos = bismuth::nvasm::position_of(source, static_cast<size_t>(result.error().code));
  CHECK(pos.line == e.line);
  CHECK(pos.column == e.column);
}

const std::string kHead = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\n";  // lines 1-3

}  // namespace

TEST_CASE("subroutine errors: CALI, SUBROUTINENUM, SUBROUTINETYPE and SUBROUTINE misuse", "[nvasm][subroutine][errors]") {
  // <CALI_instruction> ::= <CALIop> <opModifiers> <subroutineVarName> <optArrayMem> <optBranchCond>
  check_error(kHead + "CALI R0;\nEND\n", {4, 6, "'R0' is not a SUBROUTINE variable"});
  check_error(kHead + "CALI nothing;\nEND\n", {4, 6, "'nothing' is not a SUBROUTINE variable"});
  // "Functions that will be used for indirect subroutine calls must all be assigned a unique unsigned integer
  // SUBROUTINENUM"
  check_error(kHead + "a SUBROUTINENUM(1):\nRET;\nb SUBROUTINENUM(1):\nRET;\nEND\n",
              {6, 17, "SUBROUTINENUM 1 is already assigned to label 'a'"});
  check_error(kHead + "SUBROUTINETYPE T { a };\nSUBROUTINE T t = program.subroutine[0];\na:\nRET;\nmain:\nCALI t;\nEND\n",
              {4, 20, "label 'a' has no SUBROUTINENUM"});
  check_error(kHead + "SUBROUTINETYPE T { nowhere };\nEND\n", {4, 20, "undefined label 'nowhere'"});
  // "All SUBROUTINENUMs must be greater than or equal to zero, and less than the value of
  // MAX_PROGRAM_SUBROUTINE_NUM_NV."
  check_error(kHead + "a SUBROUTINENUM(1024):\nRET;\nEND\n", {4, 17, "not below MAX_PROGRAM_SUBROUTINE_NUM_NV (1024)"});
  check_error(kHead + "a SUBROUTINENUM(x):\nRET;\nEND\n", {4, 17, "expected a SUBROUTINENUM"});
  // <SUBROUTINE_statement> ::= "SUBROUTINE" <establishedName> <establishName> ...
  check_error(kHead + "SUBROUTINE Nope t = program.subroutine[0];\nEND\n", {4, 12, "'Nope' is not a SUBROUTINETYPE"});
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINE T R0 = program.subroutine[0];\nEND\n",
              {5, 14, "'R0' is already declared"});
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINE T t = program.local[0];\nEND\n",
              {5, 26, "invalid subroutine binding 'program.local'"});
  // MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV (the spec's minimum, 1024)
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINE T t = program.subroutine[1024];\nEND\n",
              {5, 37, "invalid subroutine parameter index range"});
  // "A program subroutine parameter may only be assigned to subroutine variables of a single SUBROUTINETYPE."
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINETYPE U { };\nSUBROUTINE T t = program.subroutine[0];\n"
                      "SUBROUTINE U u[2] = { program.subroutine[1..0] };\nEND\n",
              {7, 42, "invalid subroutine parameter index range"});
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINETYPE U { };\nSUBROUTINE T t = program.subroutine[0];\n"
                      "SUBROUTINE U u = program.subroutine[0];\nEND\n",
              {7, 37, "program.subroutine[0] is already bound to SUBROUTINE 't' of type 'T'"});
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINE T t[3] = { program.subroutine[0..1] };\nEND\n",
              {5, 14, "declares 3 elements but binds 2"});
  // CALI's <optArrayMem>: arrays need an index, constant indices in bounds, single variables none.
  const std::string decls = "SUBROUTINETYPE T { a };\nSUBROUTINE T t[2] = { program.subroutine[0..1] };\n"
                            "SUBROUTINE T one = program.subroutine[2];\na SUBROUTINENUM(0):\nRET;\nmain:\n";
  check_error(kHead + decls + "CALI t;\nEND\n", {10, 6, "array 't' needs an index"});
  check_error(kHead + decls + "CALI t[2];\nEND\n", {10, 8, "index 2 is out of bounds for 't'"});
  check_error(kHead + decls + "CALI one[0];\nEND\n", {10, 9, "'one' is not an array"});
  // ARB_shader_subroutine, issue (2): "Attempting to link a program that calls a function pointer with no
  // potential associations produces a link error."
  check_error(kHead + "SUBROUTINETYPE T { };\nSUBROUTINE T t = program.subroutine[0];\nCALI t;\nEND\n",
              {6, 6, "SUBROUTINETYPE 'T' has no subroutine"});
}

TEST_CASE("subroutine errors: recursion through CALI, and recursion too large once bounded", "[nvasm][subroutine][errors]") {
  // "Programs that may potentially cause infinite recursion through indirect calls will fail to compile."
  check_error(kHead + "SUBROUTINETYPE T { a };\nSUBROUTINE T t = program.subroutine[0];\n"
                      "a SUBROUTINENUM(0):\nCALI t;\nRET;\nmain:\nCALI t;\nEND\n",
              {7, 6, "CALI may call 'a', which leads back to 'a'"});
  // Through CAL: b calls a, a's CALI may call b.
  check_error(kHead + "SUBROUTINETYPE T { b };\nSUBROUTINE T t = program.subroutine[0];\n"
                      "a:\nCALI t;\nRET;\nb SUBROUTINENUM(3):\nCAL a;\nRET;\nmain:\nCAL a;\nEND\n",
              {7, 6, "potentially cause infinite recursion through indirect calls"});
  // A doubly recursive subroutine is a call tree of 2^32 calls at MAX_PROGRAM_CALL_DEPTH_NV: too large once every
  // depth is a function of its own (and every call inlined).
  check_error(kHead + "main:\nCAL f;\nRET;\nf:\nCAL f;\nCAL f;\nRET;\nEND\n",
              {4, 1, "recursive subroutine calls expand to more than 131072 instructions"});
}

TEST_CASE("CALI beside a TEMP array in the scratch buffer: program.subroutine and the scratch buffer do not share a "
          "binding",
          "[nvasm][subroutine][scratch]") {
  // A program whose TEMP arrays pass nvasm::kScratchThresholdBytes keeps them in a storage buffer at
  // kScratchBinding; program.subroutine is a uniform buffer at kSubroutineParameterBinding. Both at one binding
  // would be two descriptors of one binding (the merge of the two features once gave both 75).
  static_assert(bismuth::nvasm::kScratchBinding != bismuth::nvasm::kSubroutineParameterBinding);
  const std::string decls = kShadeDecls + "TEMP big[300];\n";
  std::string body = kShadeBody;
  const std::string store = "  STB.U32 R1.x, out[R2.x];\n";
  // Through the array: big[i] = result, read back before the store.
  body.replace(body.find(store), store.size(),
               "  MOV.U R3.y, invocation.globalid.x;\n  MOV.U big[R3.y].x, R1.x;\n  MOV.U R1.x, big[R3.y].x;\n" + store);
  const std::vector<uint32_t> input = {0, 1, 5, 12, 20, 31, 7, 9};
  Run r{per_invocation(8, decls, body), 8};
  r.input = input;
  r.subroutines = {7};
  const auto out = run(r);
  for (size_t i = 0; i < input.size(); ++i) CHECK(out[i] == (input[i] ^ 0x5A5Au));
}
