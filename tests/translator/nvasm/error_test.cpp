// Load errors: every one is an Error whose message is "line L, column C: error: ..." (what GL reports through
// GL_PROGRAM_ERROR_STRING_ARB) and whose code is the byte offset (GL_PROGRAM_ERROR_POSITION_ARB).
#include <catch2/catch.hpp>

#include <string>

#include "bismuth/nvasm/assembler.hpp"

using bismuth::nvasm::assemble;
using bismuth::nvasm::AssembleOptions;

namespace {

struct Expect {
  uint32_t line;
  uint32_t column;
  std::string text;
};

// The program fails to load; the message names line and column, the code is the offset of that position.
void check_error(const std::string& source, const Expect& e, const AssembleOptions& options = {}) {
  auto result = assemble(source, options);
  REQUIRE_FALSE(result);
  const std::string& message = result.error().message;
  INFO(message);
  const std::string prefix = "line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + ": error: ";
  CHECK(message.rfind(prefix, 0) == 0);
  CHECK_THAT(message, Catch::Contains(e.text));
  const auto offset = static_cast<size_t>(result.error().code);
  REQUIRE(offset <= source.size());
  const auto pos = bismuth::nvasm::position_of(source, offset);
  CHECK(pos.line == e.line);
  CHECK(pos.column == e.column);
}

const std::string kHead = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\n";  // lines 1-3

}  // namespace

TEST_CASE("errors: a program must begin with !!NVcp5.0", "[nvasm][errors]") {
  check_error("!!ARBvp1.0\nEND\n", {1, 1, "must begin with !!NVcp5.0"});
  check_error("", {1, 1, "must begin with !!NVcp5.0"});
}

TEST_CASE("errors: syntax errors name the unexpected token", "[nvasm][errors]") {
  check_error(kHead + "MOV.U R0, {1}\nEND\n", {5, 1, "unexpected 'END', expected ';'"});
  check_error(kHead + "MOV.U R0 {1};\nEND\n", {4, 10, "expected ','"});
  check_error(kHead + "MOV.U R0, @;\nEND\n", {4, 11, "unexpected character '@'"});
  check_error(kHead + "MOV.U R0, {1};\n", {5, 1, "expected END"});
}

TEST_CASE("errors: unknown opcode", "[nvasm][errors]") {
  check_error(kHead + "FOO.U R0, R0;\nEND\n", {4, 1, "unknown opcode 'FOO'"});
}

TEST_CASE("errors: a modifier the opcode does not take", "[nvasm][errors]") {
  check_error(kHead + "RCP.U R0, R0;\nEND\n", {4, 5, "invalid modifier 'U' for RCP"});
  check_error(kHead + "ADD.XYZ R0, R0, R0;\nEND\n", {4, 5, "invalid modifier 'XYZ' for ADD"});
  check_error(kHead + "ADD.F.U R0, R0, R0;\nEND\n", {4, 7, "invalid modifier 'U' for ADD"});
}

TEST_CASE("errors: GROUP_SIZE missing, duplicated, invalid, or with a variable group size", "[nvasm][errors]") {
  // NV_compute_program5: exactly one GROUP_SIZE declaration.
  check_error("!!NVcp5.0\nTEMP R0;\nEND\n", {3, 1, "missing GROUP_SIZE"});
  check_error("!!NVcp5.0\nGROUP_SIZE 4;\nGROUP_SIZE 4;\nEND\n", {3, 1, "GROUP_SIZE is already declared"});
  check_error("!!NVcp5.0\nGROUP_SIZE 0;\nEND\n", {2, 12, "invalid group size 0"});
  // ARB_compute_variable_group_size: "any GROUP_SIZE declaration is an error" with the option.
  check_error("!!NVcp5.0\nOPTION ARB_compute_variable_group_size;\nGROUP_SIZE 4;\nEND\n",
              {3, 1, "GROUP_SIZE is not allowed with OPTION ARB_compute_variable_group_size"});
}

TEST_CASE("errors: SHARED_MEMORY declared twice", "[nvasm][errors]") {
  check_error("!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY 4;\nSHARED_MEMORY 8;\nEND\n", {4, 1, "SHARED_MEMORY is already declared"});
}

TEST_CASE("errors: undefined and misused variables", "[nvasm][errors]") {
  check_error(kHead + "MOV.U R0, R9;\nEND\n", {4, 11, "undefined variable 'R9'"});
  check_error(kHead + "MOV.U R9, R0;\nEND\n", {4, 7, "undefined variable 'R9'"});
  check_error("!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nPARAM p = {1};\nMOV.U p, R0;\nEND\n", {5, 7, "not a writable TEMP"});
  check_error(kHead + "TEMP R0;\nEND\n", {4, 6, "'R0' is already declared"});
  check_error(kHead + "MOV.U R0, R0.q;\nEND\n", {4, 14, "invalid swizzle 'q'"});
  check_error(kHead + "MOV.U R0.yx, R0;\nEND\n", {4, 10, "invalid write mask 'yx'"});
}

TEST_CASE("errors: unknown option", "[nvasm][errors]") {
  check_error("!!NVcp5.0\nOPTION NV_made_up;\nGROUP_SIZE 1;\nEND\n", {2, 8, "unknown option 'NV_made_up'"});
}

TEST_CASE("errors: unbalanced IF / ELSE / ENDIF and REP / ENDREP, BRK outside a loop", "[nvasm][errors]") {
  check_error(kHead + "ENDIF;\nEND\n", {4, 1, "ENDIF without a matching IF"});
  check_error(kHead + "IF NE.x;\nEND\n", {4, 1, "IF without a matching ENDIF"});
  check_error(kHead + "REP;\nENDIF;\nEND\n", {5, 1, "ENDIF without a matching IF"});
  check_error(kHead + "BRK;\nEND\n", {4, 1, "BRK outside a REP block"});
  check_error(kHead + "IF NE.x;\nELSE;\nELSE;\nENDIF;\nEND\n", {6, 1, "ELSE without a matching IF"});
}

TEST_CASE("errors: CAL to an undefined label", "[nvasm][errors]") {
  check_error(kHead + "CAL nowhere;\nEND\n", {4, 5, "undefined label 'nowhere'"});
}

TEST_CASE("errors: integer constants out of range and bad numbers", "[nvasm][errors]") {
  check_error(kHead + "MOV.U R0, {99999999999999999999};\nEND\n", {4, 12, "integer constant out of range"});
  check_error(kHead + "MOV.U R0, {0x};\nEND\n", {4, 12, "malformed hexadecimal constant"});
}

TEST_CASE("errors: memory instructions need the right declaration and a storage modifier", "[nvasm][errors]") {
  const std::string head = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSTORAGE b[] = { program.storage[0] };\n";
  check_error(head + "LDS.U32 R0.x, b[0];\nEND\n", {5, 15, "accesses shared memory"});
  check_error(head + "LDB R0.x, b[0];\nEND\n", {5, 1, "needs a storage modifier"});
  check_error(head + "ATOMB.U32 R0.x, R0, b[0];\nEND\n", {5, 7, "invalid modifier 'U32' for ATOMB"});
  check_error(head + "ATOMB.MIN.F64 R0.x, R0, b[0];\nEND\n", {5, 1, "atomic operation not supported"});
  check_error(head + "ATOMB.IWRAP.U64 R0.x, R0, b[0];\nEND\n", {5, 1, "atomic operation not supported"});
  check_error(head + "ATOMB.ADD.F32X2 R0.x, R0, b[0];\nEND\n", {5, 1, "atomic operation not supported"});
  // NV_shader_atomic_int64 needs shaderBufferInt64Atomics on buffers, shaderSharedInt64Atomics on shared memory.
  check_error(head + "ATOMB.ADD.U64 R0.x, R0, b[0];\nEND\n", {5, 1, "shaderBufferInt64Atomics"});
  AssembleOptions int64;
  int64.int64_buffer_atomics = true;
  auto with64 = assemble(head + "ATOMB.MIN.S64 R0.x, R0, b[8];\nEND\n", int64);
  REQUIRE(with64);
  CHECK(with64->info.uses_int64_atomics);
  check_error(
      "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\nSHARED_MEMORY 16;\nSHARED s[] = { program.sharedmem };\n"
      "ATOMS.ADD.U64 R0.x, R0, s[0];\nEND\n",
      {6, 1, "shaderSharedInt64Atomics"}, int64);
}

TEST_CASE("errors: thread-group instructions fail to load without 32-lane subgroups", "[nvasm][errors]") {
  // NV_shader_thread_group: warps of 32 threads. Without subgroup size 32 the results would be wrong.
  const std::string source = kHead + "TGBALLOT.U R0.x, R0;\nEND\n";
  check_error(source, {4, 1, "need a subgroup size of 32"});
  check_error(kHead + "MOV.U R0, invocation.threadid;\nEND\n", {4, 11, "need a subgroup size of 32"});
  AssembleOptions with_32;
  with_32.subgroup_size_32_available = true;
  auto ok = assemble(source, with_32);
  REQUIRE(ok);
  CHECK(ok->info.required_subgroup_size == 32u);
}

TEST_CASE("errors: unsupported declarations say so", "[nvasm][errors]") {
  check_error(kHead + "OUTPUT o = result.color;\nEND\n", {4, 1, "OUTPUT declarations are not supported"});
}

TEST_CASE("errors: parameter buffer declarations and their uses", "[nvasm][errors]") {
  check_error(kHead + "CBUFFER cb[] = { program.buffer[32] };\nEND\n", {4, 33, "invalid parameter buffer index range"});
  check_error(kHead + "BUFFER w = program.buffer[0];\nEND\n", {4, 8, "binds more than one element; declare an array"});
  check_error(kHead + "BUFFER w[] = { program.buffer[0..1] };\nEND\n", {4, 8, "must bind one program.buffer binding"});
  check_error(kHead + "CBUFFER cb[] = program.buffer[0][1];\nEND\n", {4, 33, "an element range is for BUFFER and BUFFER4"});
  // Declarations may name elements of NVIDIA's whole 64 KiB buffer (4096 vectors); the device's window clamps reads.
  check_error(kHead + "BUFFER4 v[] = program.buffer[0][1..4096];\nEND\n", {4, 33, "invalid element range"});
  check_error(kHead + "BUFFER4 v[3] = program.buffer[0][1..4];\nEND\n", {4, 9, "declares 3 elements but binds 4"});
  check_error(kHead + "CBUFFER cb[2] = { program.buffer[0] };\nEND\n", {4, 9, "declares 2 buffers but binds 1"});
  const std::string cb = kHead + "CBUFFER cb[] = { program.buffer[0] };\nBUFFER4 v[] = program.buffer[1][0..3];\n";
  check_error(cb + "MOV.U R0, cb[0];\nEND\n", {6, 11, "is a CBUFFER: read it with LDC"});
  check_error(cb + "LDB.U32 R0.x, cb[0];\nEND\n", {6, 15, "accesses a storage buffer"});
  check_error(cb + "LDC.U32 R0.x, v[0];\nEND\n", {6, 15, "is not a STORAGE, CBUFFER or SHARED declaration"});
  check_error(cb + "MOV.U R0, v[4];\nEND\n", {6, 13, "index 4 is out of bounds for 'v'"});
  check_error(cb + "MOV.U R0, v;\nEND\n", {6, 11, "array 'v' needs an index"});
  check_error(cb + "LDC R0.x, cb[0];\nEND\n", {6, 1, "needs a storage modifier"});
  const std::string sb = kHead + "STORAGE s[] = { program.storage[0..1] };\n";
  check_error(sb + "LDC.U32 R0.x, s[0][0];\nEND\n", {5, 15, "LDC reads a parameter buffer"});
  check_error(sb + "LDB.U32 R0.x, s[R0.x + 2][0];\nEND\n", {5, 24, "buffer index offset out of bounds for 's'"});
  check_error(sb + "LDB.U32 R0.x, s[2][0];\nEND\n", {5, 17, "buffer index out of bounds for 's'"});
  // NV_parameter_buffer_object: a plain BUFFER variable binds one element; program.buffer[a][b..c] needs an array.
  check_error(kHead + "BUFFER w = program.buffer[0][1..2];\nEND\n", {4, 8, "binds more than one element"});
  // Two-dimensional BUFFER / BUFFER4 arrays (several bindings read as operands) are not supported; CBUFFER's are.
  check_error(kHead + "BUFFER w[][] = { program.buffer[0..1] };\nEND\n", {4, 11, "BUFFER arrays over several"});
  // A two-dimensional declaration takes the buffer index first even when it binds one buffer.
  check_error(kHead + "CBUFFER c[][] = { program.buffer[0] };\nLDC.U32 R0.x, c[0];\nEND\n",
              {5, 19, "expected '['"});
  check_error(kHead + "STORAGE s[][] = { program.storage[0] };\nLDB.U32 R0.x, s[4];\nEND\n",
              {5, 17, "buffer index out of bounds for 's'"});
  // Only LDC's operand is a vector operand with swizzle, negation and absolute value (NV_gpu_program5, LDC).
  check_error(sb + "LDB.U32 R0.x, -s[0][0];\nEND\n", {5, 15, "only LDC takes swizzle"});
  check_error(sb + "LDB.U32 R0.x, s[0][0].y;\nEND\n", {5, 15, "only LDC takes swizzle"});
  check_error(sb + "STB.U32 R0.x, s[0][0].y;\nEND\n", {5, 22, "expected ';'"});
  check_error(kHead + "CBUFFER c = program.buffer[0];\nLDC.F32 R0, |c[0];\nEND\n", {5, 18, "expected '|'"});
}

TEST_CASE("errors: no input crashes or throws (truncated corpus prefixes)", "[nvasm][errors]") {
  const std::string source = kHead + "MOV.U R0, {1, 2.5e3, 0x10, -4};\nIF NE.x;\nREP {2}.x;\nBRK (EQ.y);\nENDREP;\nENDIF;\nEND\n";
  for (size_t n = 0; n <= source.size(); ++n) {
    auto r = assemble(source.substr(0, n));
    if (!r) CHECK(static_cast<size_t>(r.error().code) <= n);
  }
}

TEST_CASE("errors: IF and REP nested deeper than 64 levels", "[nvasm][errors]") {
  std::string source = kHead;
  for (int i = 0; i < 65; ++i) source += "IF NE.x;\n";
  check_error(source + "END\n", {68, 1, "nested too deeply"});
}

TEST_CASE("errors: calls that fan out past the inlining bound", "[nvasm][errors]") {
  // Every call is inlined (SPIR-V functions are inlined by the optimizer): 2^40 copies must not be attempted.
  std::string source = kHead + "main:\nCAL s0;\nRET;\n";
  for (int i = 0; i < 40; ++i) {
    source += "s" + std::to_string(i) + ":\nADD.U R0.x, R0.x, {1}.x;\n";
    if (i + 1 < 40) source += "CAL s" + std::to_string(i + 1) + ";\nCAL s" + std::to_string(i + 1) + ";\n";
    source += "RET;\n";
  }
  auto result = assemble(source + "END\n");
  REQUIRE_FALSE(result);
  CHECK_THAT(result.error().message, Catch::Contains("once inlined"));
}

TEST_CASE("errors: SHARED without SHARED_MEMORY", "[nvasm][errors]") {
  check_error(kHead + "SHARED s[] = { program.sharedmem };\nEND\n", {4, 8, "SHARED needs a SHARED_MEMORY declaration"});
}
