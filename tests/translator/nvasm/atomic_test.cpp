// The atomics the NV atomic extensions add to ATOMB (storage buffers) and ATOMS (shared memory), run on the test
// device under contention (every invocation of a group on one location) and checked against values computed here:
// NV_shader_atomic_float (EXCH.F32), NV_shader_atomic_int64 on shared memory, NV_shader_atomic_float64 (ADD/EXCH
// F64), NV_shader_atomic_fp16_vector (F16X2 / F16X4 ADD MIN MAX EXCH). Load errors for the forms the extensions do
// not list name line and column.
#include <catch2/catch.hpp>

#include <algorithm>
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
