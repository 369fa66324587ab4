// Program subroutine parameters through the GL API (ARB_shader_subroutine, "Dependencies on NV_gpu_program5"):
// glProgramSubroutineParametersuivNV picks what CALI calls between dispatches, glGetProgramSubroutineParameteruivNV
// reads it back, the spec's errors, and the limits glGetProgramivARB reports.
#include <algorithm>

#include "translator/gl/asm_program_support.hpp"

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;

namespace {

// Four invocations; invocation i writes shade(i + 3) to out[i]. One implementation (tri) is recursive.
const std::string kSource = R"(!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 4;
STORAGE out[] = { program.storage[0] };
TEMP R0, R1, R2, R3;
SUBROUTINETYPE Shade { triple, mix_bits, tri };
SUBROUTINE Shade shade = program.subroutine[0];
triple SUBROUTINENUM(0):
  MUL.U R1.x, R0.x, {3}.x;
  RET;
mix_bits SUBROUTINENUM(7):
  XOR.U R1.x, R0.x, {0x5A5A}.x;
  RET;
tri SUBROUTINENUM(2):
  SEQ.U.CC R3.x, R0.x, {0}.x;
  RET (NE.x);
  ADD.U R1.x, R1.x, R0.x;
  SUB.U R0.x, R0.x, {1}.x;
  CAL tri;
  RET;
main:
  MUL.U R2.x, invocation.globalid.x, {4}.x;
  ADD.U R0.x, invocation.globalid.x, {3}.x;
  MOV.U R1.x, {0}.x;
  CALI shade;
  STB.U32 R1.x, out[R2.x];
END
)";

// The CPU model of shade(n) for each SUBROUTINENUM.
std::vector<uint32_t> expected(GLuint number) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t n = i + 3;
    out.push_back(number == 0 ? n * 3 : number == 7 ? (n ^ 0x5A5Au) : n * (n + 1) / 2);
  }
  return out;
}

std::vector<uint32_t> run(GLuint out) {
  glDispatchCompute(1, 1, 1);
  return read_words(out, 4);
}

}  // namespace

TEST_CASE("glProgramSubroutineParametersuivNV selects the subroutine CALI calls, dispatch by dispatch", "[asm]") {
  GlContext gl;
  const GLuint out = poisoned_buffer(4);
  new_program();
  REQUIRE(load(kSource) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  // GL_PROGRAM_INSTRUCTIONS_ARB counts instructions only: not the SUBROUTINETYPE / SUBROUTINE declarations, not
  // the SUBROUTINENUM labels (triple 2, mix_bits 2, tri 6, main 5).
  GLint instructions = 0;
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_INSTRUCTIONS_ARB, &instructions);
  CHECK(instructions == 2 + 2 + 6 + 5);
  // "Program subroutine parameters are assigned to labels by setting the corresponding SUBROUTINENUMs via
  // ProgramSubroutineParametersuivNV."
  for (GLuint number : {7u, 2u, 0u, 7u}) {
    INFO("SUBROUTINENUM " << number);
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 1, &number);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    GLuint back = 99;
    glGetProgramSubroutineParameteruivNV(GL_COMPUTE_PROGRAM_NV, 0, &back);
    CHECK(back == number);
    CHECK(run(out) == expected(number));
    REQUIRE_GL_ERROR(GL_NO_ERROR);
  }
}

TEST_CASE("program subroutine parameters: defaults after a load or a bind, and the spec's errors", "[asm]") {
  GlContext gl;
  const GLuint out = poisoned_buffer(4);
  const GLuint name = new_program();
  REQUIRE(load(kSource) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  const std::vector<GLuint> numbers = {0, 7, 2};
  auto is_number = [&](GLuint v) { return std::find(numbers.begin(), numbers.end(), v) != numbers.end(); };

  SECTION("reset to a SUBROUTINENUM of the type when the string is respecified or the program bound") {
    // "Program subroutine parameters for a given target are reset to arbitrary defaults when the program string is
    // respecified, and when BindProgram is called to bind a program to that target, even if the specified program
    // is already bound." Bismuth's default is one of the type's SUBROUTINENUMs, so CALI calls one of them.
    GLuint v = 99;
    glGetProgramSubroutineParameteruivNV(GL_COMPUTE_PROGRAM_NV, 0, &v);
    REQUIRE(is_number(v));
    CHECK(run(out) == expected(v));
    GLuint seven = 7;
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 1, &seven);
    glBindProgramARB(GL_COMPUTE_PROGRAM_NV, name);
    glGetProgramSubroutineParameteruivNV(GL_COMPUTE_PROGRAM_NV, 0, &v);
    CHECK(is_number(v));
    CHECK(run(out) == expected(v));
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 1, &seven);
    REQUIRE(load(kSource) == GL_NO_ERROR);
    glGetProgramSubroutineParameteruivNV(GL_COMPUTE_PROGRAM_NV, 0, &v);
    CHECK(is_number(v));
    REQUIRE_GL_ERROR(GL_NO_ERROR);
  }
  SECTION("errors leave the parameters as they were") {
    GLuint two = 2;
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 1, &two);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // "The error INVALID_VALUE is generated if <count> is not equal to one plus the maximum program subroutine
    // parameter index used in the currently bound program."
    const GLuint pair[2] = {0, 0};
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 2, pair);
    CHECK(glGetError() == GL_INVALID_VALUE);
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 0, nullptr);
    CHECK(glGetError() == GL_INVALID_VALUE);
    // "The error INVALID_OPERATION is generated ... if ... <params>[<i>] is not a SUBROUTINENUM that was associated
    // to that SUBROUTINETYPE"
    GLuint five = 5;
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 1, &five);
    CHECK(glGetError() == GL_INVALID_OPERATION);
    // "The error INVALID_ENUM is generated ... if <target> specifies a nonexistent program target."
    glProgramSubroutineParametersuivNV(GL_VERTEX_PROGRAM_ARB, 1, &two);
    CHECK(glGetError() == GL_INVALID_ENUM);
    GLuint v = 99;
    glGetProgramSubroutineParameteruivNV(GL_VERTEX_PROGRAM_ARB, 0, &v);
    CHECK(glGetError() == GL_INVALID_ENUM);
    // "The error INVALID_VALUE is generated by GetProgramSubroutineParameteruivNV if <index> is greater than or
    // equal to the max number of program subroutine parameters"
    GLint max = 0;
    glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV, &max);
    glGetProgramSubroutineParameteruivNV(GL_COMPUTE_PROGRAM_NV, static_cast<GLuint>(max), &v);
    CHECK(glGetError() == GL_INVALID_VALUE);
    glGetProgramSubroutineParameteruivNV(GL_COMPUTE_PROGRAM_NV, 0, &v);
    CHECK(v == 2u);
    CHECK(run(out) == expected(2));
  }
  SECTION("a program without SUBROUTINE declarations takes count 0") {
    REQUIRE(load(store_program("{1, 2, 3, 4}")) == GL_NO_ERROR);
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 0, nullptr);
    CHECK(glGetError() == GL_NO_ERROR);
    GLuint zero = 0;
    glProgramSubroutineParametersuivNV(GL_COMPUTE_PROGRAM_NV, 1, &zero);
    CHECK(glGetError() == GL_INVALID_VALUE);
  }
}

TEST_CASE("glGetProgramivARB reports the subroutine limits and the call depth recursion is lowered to", "[asm]") {
  GlContext gl;
  new_program();
  GLint v = 0;
  // ARB_shader_subroutine: MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV minimum 1024, MAX_PROGRAM_SUBROUTINE_NUM_NV 256.
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV, &v);
  CHECK(v >= 1024);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_SUBROUTINE_NUM_NV, &v);
  CHECK(v >= 256);
  // A SUBROUTINENUM at the limit does not load; one below does.
  const std::string head = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\n";
  CHECK(load(head + "a SUBROUTINENUM(" + std::to_string(v) + "):\nRET;\nEND\n") == GL_INVALID_OPERATION);
  CHECK(load(head + "a SUBROUTINENUM(" + std::to_string(v - 1) + "):\nRET;\nEND\n") == GL_NO_ERROR);
  // NV_gpu_program4's call stack holds MAX_PROGRAM_CALL_DEPTH_NV entries: count(n) recurses n + 1 deep from main,
  // storing its depth first; main adds 1000 after it returns. n = depth - 1 fits, n = depth overflows (Bismuth:
  // the invocation ends there, docs/nvasm.md).
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_CALL_DEPTH_NV, &v);
  REQUIRE(v >= 4);
  const GLuint out = poisoned_buffer(1);
  REQUIRE(load(R"(!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE out[] = { program.storage[0] };
PARAM n = program.local[0];
TEMP R0, R1, R3;
count:
  ADD.U R1.x, R1.x, {1}.x;
  STB.U32 R1.x, out[0];
  SEQ.U.CC R3.x, R0.x, {0}.x;
  RET (NE.x);
  SUB.U R0.x, R0.x, {1}.x;
  CAL count;
  RET;
main:
  MOV.U R0.x, n.x;
  MOV.U R1.x, {0}.x;
  CAL count;
  ADD.U R1.x, R1.x, {1000}.x;
  STB.U32 R1.x, out[0];
END
)") == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 0, static_cast<GLuint>(v - 1), 0, 0, 0);
  CHECK(dispatch_and_read(out, 1) == std::vector<uint32_t>{static_cast<uint32_t>(v) + 1000});
  glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 0, static_cast<GLuint>(v), 0, 0, 0);
  CHECK(dispatch_and_read(out, 1) == std::vector<uint32_t>{static_cast<uint32_t>(v)});
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}
