// Which program a dispatch runs (the current GLSL program, else the enabled assembly program) and the
// ARB_compute_variable_group_size rules for assembly programs.
#include "translator/gl/asm_program_support.hpp"

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;

TEST_CASE("Dispatch runs the current GLSL program, else the enabled assembly program", "[asm]") {
  GlContext gl;
  const GLuint out = poisoned_buffer(4);
  // Nothing to run.
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(glIsEnabled(GL_COMPUTE_PROGRAM_NV) == GL_FALSE);
  // Enabled, but the bound program has no valid string.
  glEnable(GL_COMPUTE_PROGRAM_NV);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsEnabled(GL_COMPUTE_PROGRAM_NV) == GL_TRUE);
  GLboolean enabled = GL_FALSE;
  glGetBooleanv(GL_COMPUTE_PROGRAM_NV, &enabled);
  CHECK(enabled == GL_TRUE);
  const GLuint program = new_program();
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(load("!!NVcp5.0\nBAD\n") == GL_INVALID_OPERATION);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE(load(store_program("{1, 1, 1, 1}")) == GL_NO_ERROR);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{1, 1, 1, 1});
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // A current GLSL program wins.
  const GLuint glsl = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint v[]; };
void main() { v[0] = 2u; v[1] = 2u; v[2] = 2u; v[3] = 2u; }
)");
  glUseProgram(glsl);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{2, 2, 2, 2});
  glUseProgram(0);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{1, 1, 1, 1});
  // The default program (0) is a program too.
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, 0);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE(load(store_program("{3, 3, 3, 3}")) == GL_NO_ERROR);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{3, 3, 3, 3});
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, program);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{1, 1, 1, 1});
  // Disabled again: nothing to run.
  glDisable(GL_COMPUTE_PROGRAM_NV);
  CHECK(glIsEnabled(GL_COMPUTE_PROGRAM_NV) == GL_FALSE);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);

  // Indirect dispatch of an assembly program.
  glEnable(GL_COMPUTE_PROGRAM_NV);
  REQUIRE(load(store_program("{4, 4, 4, 4}")) == GL_NO_ERROR);
  const GLuint counts[3] = {1, 1, 1};
  GLuint indirect = 0;
  glGenBuffers(1, &indirect);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
  glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof counts, counts, GL_STATIC_DRAW);
  glDispatchComputeIndirect(0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(read_words(out, 4) == std::vector<uint32_t>{4, 4, 4, 4});
  // A missing storage buffer skips the dispatch with a message (as for GLSL programs).
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(gl.saw_message_containing("program.storage binding 0 has no buffer"));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Variable group size assembly programs follow the ARB_compute_variable_group_size rules", "[asm]") {
  GlContext gl;
  REQUIRE(has_extension("GL_ARB_compute_variable_group_size"));
  const GLuint out = poisoned_buffer(64 * 4);
  const std::string variable = R"(!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION ARB_compute_variable_group_size;
STORAGE out[] = { program.storage[0] };
TEMP A, R0;
MAD.U A.x, invocation.groupid.x, invocation.groupsize.x, invocation.localid.x;
MUL.U A.x, A.x, {16}.x;
MOV.U R0, invocation.groupsize;
MOV.U R0.w, invocation.globalid.x;
STB.U32X4 R0, out[A.x];
END
)";
  new_program();
  REQUIRE(load(variable) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDispatchComputeGroupSizeARB(2, 1, 1, 0, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLint max_size = 0;
  glGetIntegeri_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, 0, &max_size);
  glDispatchComputeGroupSizeARB(1, 1, 1, static_cast<GLuint>(max_size) + 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLuint indirect = 0;
  glGenBuffers(1, &indirect);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
  const GLuint counts[3] = {1, 1, 1};
  glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof counts, counts, GL_STATIC_DRAW);
  glDispatchComputeIndirect(0);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Two sizes: each selects its own pipeline.
  for (GLuint size : {8u, 32u}) {
    INFO("size " << size);
    glDispatchComputeGroupSizeARB(2, 1, 1, size, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto got = read_words(out, 64 * 4);
    for (GLuint i = 0; i < 2 * size; ++i) {
      CHECK(got[i * 4 + 0] == size);
      CHECK(got[i * 4 + 1] == 1);
      CHECK(got[i * 4 + 2] == 1);
      CHECK(got[i * 4 + 3] == i);
    }
  }
  // A fixed-size program rejects glDispatchComputeGroupSizeARB.
  REQUIRE(load(store_program("{1, 1, 1, 1}")) == GL_NO_ERROR);
  glDispatchComputeGroupSizeARB(1, 1, 1, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
