// Assembly programs whose TEMP arrays live in the scratch storage buffer (ProgramInfo::scratch_bytes_per_invocation;
// docs/gl_shim.md, "Assembly programs"): every dispatch form sizes the context's scratch buffer for its invocations
// (glDispatchCompute, glDispatchComputeIndirect from counts read back on the host, glDispatchComputeGroupSizeARB
// with the dispatch's group size), and the bindings after it (program.local here) stay where the layout puts them.
// NV_gpu_program4: temporaries are private to each invocation, so no invocation may see another's array.
#include "translator/gl/asm_program_support.hpp"

#include <sstream>

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;

namespace {

// Each invocation computes its linear global index G, writes {G, i, G * 65536 + i, local.x} into every element i of
// a[n] (n vec4s: past the 4 KiB threshold), reads all of them back and stores {a[0].x, a[n-1].y, sum of a[i].z,
// a[n-1].w} to out[4G..].
std::string scratch_program(uint32_t n, const std::string& group) {
  std::ostringstream s;
  s << "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\n"
    << group << "\nSTORAGE out[] = { program.storage[0] };\n"
    << "PARAM local = program.local[0];\nTEMP a[" << n << "];\nTEMP G, I, V, S, R;\n"
    << "MAD.U G.x, invocation.groupid.z, invocation.groupcount.y, invocation.groupid.y;\n"
    << "MAD.U G.x, G.x, invocation.groupcount.x, invocation.groupid.x;\n"
    << "MUL.U G.y, invocation.groupsize.x, invocation.groupsize.y;\n"
    << "MUL.U G.y, G.y, invocation.groupsize.z;\n"
    << "MAD.U G.x, G.x, G.y, invocation.localindex;\n"
    << "MOV.U I.x, {0}.x;\nREP.S {" << n << "}.x;\n"
    << "  MOV.U V.x, G.x;\n  MOV.U V.y, I.x;\n  MAD.U V.z, G.x, {65536}.x, I.x;\n  MOV.U V.w, local.x;\n"
    << "  MOV.U a[I.x], V;\n  ADD.U I.x, I.x, {1}.x;\nENDREP;\n"
    << "MOV.U S, {0, 0, 0, 0};\nMOV.U I.x, {0}.x;\n"
    << "REP.S {" << n << "}.x;\n  MOV.U R, a[I.x];\n  ADD.U S.z, S.z, R.z;\n  ADD.U I.x, I.x, {1}.x;\nENDREP;\n"
    << "MOV.U R, a[0];\nMOV.U S.x, R.x;\nMOV.U R, a[" << n - 1 << "];\nMOV.U S.y, R.y;\nMOV.U S.w, R.w;\n"
    << "MUL.U G.z, G.x, {16}.x;\nSTB.U32X4 S, out[G.z];\nEND\n";
  return s.str();
}

void check_results(const std::vector<uint32_t>& out, uint32_t n, uint32_t invocations, uint32_t local) {
  REQUIRE(out.size() >= 4 * invocations);
  for (uint32_t g = 0; g < invocations; ++g) {
    INFO("invocation " << g);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += g * 65536 + i;
    CHECK(out[4 * g] == g);
    CHECK(out[4 * g + 1] == n - 1);
    CHECK(out[4 * g + 2] == sum);
    CHECK(out[4 * g + 3] == local);
  }
}

void set_local(uint32_t v) {
  glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 0, v, 0, 0, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

TEST_CASE("Assembly TEMP arrays in scratch: direct and indirect dispatches of several groups", "[asm][scratch]") {
  GlContext gl;
  glEnable(GL_COMPUTE_PROGRAM_NV);
  new_program();
  constexpr uint32_t n = 300;
  REQUIRE(load(scratch_program(n, "GROUP_SIZE 2 2 1;")) == GL_NO_ERROR);
  set_local(77);
  // 2-D: 3 x 2 groups of 4.
  GLuint out = poisoned_buffer(4 * 96);
  glDispatchCompute(3, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  check_results(read_words(out, 4 * 24), n, 24, 77);
  // 3-D and larger (the scratch buffer grows): 2 x 3 x 4 groups.
  glDispatchCompute(2, 3, 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  check_results(read_words(out, 4 * 96), n, 96, 77);

  // Indirect: the counts the buffer holds when the dispatch runs, including ones a later glBufferSubData wrote.
  set_local(5);
  GLuint counts[4] = {0, 3, 1, 2};  // the command at offset 4
  GLuint indirect = make_buffer(sizeof counts, counts);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
  glDispatchComputeIndirect(4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  check_results(read_words(out, 4 * 24), n, 24, 5);
  const GLuint more[3] = {4, 2, 3};
  glBufferSubData(GL_DISPATCH_INDIRECT_BUFFER, 4, sizeof more, more);
  glDispatchComputeIndirect(4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  check_results(read_words(out, 4 * 96), n, 96, 5);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Assembly TEMP arrays in scratch: a variable group size uses the dispatch's size", "[asm][scratch]") {
  GlContext gl;
  REQUIRE(has_extension("GL_ARB_compute_variable_group_size"));
  glEnable(GL_COMPUTE_PROGRAM_NV);
  new_program();
  constexpr uint32_t n = 260;
  REQUIRE(load(scratch_program(n, "OPTION ARB_compute_variable_group_size;")) == GL_NO_ERROR);
  set_local(9);
  GLuint out = poisoned_buffer(4 * 64);
  glDispatchComputeGroupSizeARB(2, 1, 2, 3, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  check_results(read_words(out, 4 * 24), n, 24, 9);
  glDispatchComputeGroupSizeARB(1, 2, 1, 4, 2, 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  check_results(read_words(out, 4 * 64), n, 64, 9);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Assembly TEMP arrays in scratch: a dispatch needing more than the device binds is GL_OUT_OF_MEMORY",
          "[asm][scratch]") {
  GlContext gl;
  glEnable(GL_COMPUTE_PROGRAM_NV);
  new_program();
  // 32000 vec4s: 512000 bytes per invocation; 4096 invocations need 2 GB, past the 1 GiB cap.
  REQUIRE(load(scratch_program(32000, "GROUP_SIZE 64;")) == GL_NO_ERROR);
  poisoned_buffer(4);
  glDispatchCompute(64, 1, 1);
  REQUIRE_GL_ERROR(GL_OUT_OF_MEMORY);
  CHECK(gl.saw_message_containing("TEMP arrays take 512000 bytes per invocation"));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
