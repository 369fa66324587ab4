// Large TEMP arrays in the scratch storage buffer (AssembleOptions::scratch_threshold_bytes; docs/nvasm.md, "TEMP
// arrays"). NV_gpu_program4: temporaries are "private to each program invocation" and, as Bismuth defines them,
// start at zero; the slices of the invocations of a dispatch must therefore never overlap, whatever the group
// counts and sizes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "bismuth/nvasm/gl_program_layout.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "program_runner.hpp"

using namespace bismuth;
using namespace bismuth::test::nvasm_run;

namespace {

// Every invocation computes its linear global index G as ProgramInfo documents it, writes {G, i, G * 65536 + i, 42}
// into each element i of a[n], then reads the whole array back: out[4G..] = {a[0].x, a[n-1].y, sum of a[i].z,
// a[n].w (clamped to a[n-1])}. `group` is the GROUP_SIZE line (or the variable group size option).
std::string pattern_program(uint32_t n, const std::string& group, const std::string& extra_decls = "") {
  std::ostringstream s;
  s << "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\n"
    << group << "\nSTORAGE out[] = { program.storage[0] };\n"
    << "TEMP a[" << n << "];\n"
    << extra_decls << "TEMP G, I, V, S, R;\n"
    << "MAD.U G.x, invocation.groupid.z, invocation.groupcount.y, invocation.groupid.y;\n"
    << "MAD.U G.x, G.x, invocation.groupcount.x, invocation.groupid.x;\n"
    << "MUL.U G.y, invocation.groupsize.x, invocation.groupsize.y;\n"
    << "MUL.U G.y, G.y, invocation.groupsize.z;\n"
    << "MAD.U G.x, G.x, G.y, invocation.localindex;\n"
    << "MOV.U I.x, {0}.x;\n"
    << "REP.S {" << n << "}.x;\n"
    << "  MOV.U V.x, G.x;\n  MOV.U V.y, I.x;\n  MAD.U V.z, G.x, {65536}.x, I.x;\n  MOV.U V.w, {42}.x;\n"
    << "  MOV.U a[I.x], V;\n  ADD.U I.x, I.x, {1}.x;\nENDREP;\n"
    << "MOV.U S, {0, 0, 0, 0};\nMOV.U I.x, {0}.x;\n"
    << "REP.S {" << n << "}.x;\n  MOV.U R, a[I.x];\n  ADD.U S.z, S.z, R.z;\n  ADD.U I.x, I.x, {1}.x;\nENDREP;\n"
    << "MOV.U R, a[0];\nMOV.U S.x, R.x;\nMOV.U R, a[" << n - 1 << "];\nMOV.U S.y, R.y;\n"
    << "MOV.U I.y, {" << n << "}.x;\nMOV.U R, a[I.y];\nMOV.U S.w, R.w;\n"
    << "MUL.U G.z, G.x, {16}.x;\nSTB.U32X4 S, out[G.z];\nEND\n";
  return s.str();
}

// Runs pattern_program on `invocations` invocations and checks each one's results and its slice of the scratch
// buffer (when the arrays are there).
void check_pattern(Run r, uint32_t n, uint32_t invocations, bool expect_scratch) {
  uint32_t slice = 0;
  std::vector<uint32_t> scratch;
  r.words = 4 * invocations;
  r.scratch_bytes = &slice;
  r.scratch_out = &scratch;
  const auto out = run(r);
  REQUIRE(out.size() == 4 * invocations);
  if (expect_scratch) {
    // The slice holds the array, rounded up to 32 bytes.
    CHECK(slice == (n * 16 + 31) / 32 * 32);
    REQUIRE(scratch.size() == size_t(slice / 4) * invocations);
  } else {
    CHECK(slice == 0);
    CHECK(scratch.empty());
  }
  for (uint32_t g = 0; g < invocations; ++g) {
    INFO("invocation " << g);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += g * 65536 + i;
    CHECK(out[4 * g] == g);
    CHECK(out[4 * g + 1] == n - 1);
    CHECK(out[4 * g + 2] == sum);
    CHECK(out[4 * g + 3] == 42u);
    if (!expect_scratch) continue;
    // Invocation g's slice is bytes [g * slice, (g + 1) * slice): its own pattern, no other invocation's.
    bool slice_ok = true;
    for (uint32_t i = 0; i < n && slice_ok; ++i) {
      const uint32_t* e = &scratch[size_t(g) * slice / 4 + 4 * i];
      slice_ok = e[0] == g && e[1] == i && e[2] == g * 65536 + i && e[3] == 42u;
    }
    CHECK(slice_ok);
  }
}

}  // namespace

TEST_CASE("TEMP arrays in scratch: slices of a 3-D dispatch of 3-D groups never overlap", "[nvasm][limits][scratch]") {
  Run r;
  r.source = pattern_program(300, "GROUP_SIZE 2 2 2;");
  r.groups = {3, 2, 2};
  check_pattern(r, 300, 3 * 2 * 2 * 8, true);
}

TEST_CASE("TEMP arrays in scratch: a 2-D dispatch of 1-D groups, and a variable group size",
          "[nvasm][limits][scratch]") {
  SECTION("GROUP_SIZE 5, 4 x 3 groups") {
    Run r;
    r.source = pattern_program(280, "GROUP_SIZE 5;");
    r.groups = {4, 3, 1};
    check_pattern(r, 280, 60, true);
  }
  SECTION("ARB_compute_variable_group_size 3 x 2 x 1, 2 x 1 x 2 groups") {
    Run r;
    r.source = pattern_program(280, "OPTION ARB_compute_variable_group_size;");
    r.variable_size = {3, 2, 1};
    r.groups = {2, 1, 2};
    check_pattern(r, 280, 24, true);
  }
}

TEST_CASE("TEMP arrays in scratch: the threshold counts the bytes of all TEMP arrays", "[nvasm][limits][scratch]") {
  // kScratchThresholdBytes (4096): 256 vec4s stay Private, 257 go to the scratch buffer.
  REQUIRE(nvasm::kScratchThresholdBytes == 4096);
  for (const uint32_t n : {256u, 257u}) {
    INFO(n << " elements");
    Run r;
    r.source = pattern_program(n, "GROUP_SIZE 2 1 1;");
    r.groups = {2, 1, 1};
    check_pattern(r, n, 4, n == 257);
  }
  // Two arrays of 128 vec4s and one LONG of 1 element: 4128 bytes in all, so they move, each 32-byte aligned.
  uint32_t slice = 0;
  Run r;
  r.source = pattern_program(128, "GROUP_SIZE 1;", "TEMP b[128];\nLONG TEMP c[1];\n");
  r.scratch_bytes = &slice;
  r.words = 4;
  run(r);
  CHECK(slice == 128 * 16 + 128 * 16 + 32);
  // The option forces either placement.
  for (const uint32_t threshold : {0u, UINT32_MAX}) {
    INFO("threshold " << threshold);
    Run f;
    f.source = pattern_program(20, "GROUP_SIZE 3;");
    f.groups = {2, 1, 1};
    f.scratch_threshold_bytes = threshold;
    check_pattern(f, 20, 6, threshold == 0);
  }
}

// glProgramStringARB's layout: the scratch buffer is the storage binding right after program.storage, and the uniform
// buffers move one binding on; the pipeline writes that into the module, which still validates.
TEST_CASE("TEMP arrays in scratch: the GL layout binds the scratch buffer after program.storage",
          "[nvasm][scratch][description]") {
  const std::string source =
      "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 4;\nSTORAGE s = program.storage[3];\n"
      "STORAGE t = program.storage[1];\nPARAM p = program.local[2];\nTEMP a[300], R0;\n"
      "MOV.U a[5], p;\nMOV.U R0, a[5];\nSTB.U32 R0.x, s[0];\nSTB.U32 R0.y, t[0];\nEND\n";
  auto p = nvasm::assemble(source, nvasm::gl_assemble_options(bismuth::CompileTarget{}));
  INFO((p ? std::string() : p.error().message));
  REQUIRE(p);
  CHECK(p->info.scratch_bytes_per_invocation == 300 * 16);
  CHECK(p->info.scratch_binding == nvasm::kGlScratchBinding);
  const auto layout = nvasm::gl_program_layout(p->info);
  CHECK(layout.storage == std::vector<uint32_t>{1, 3});
  CHECK(layout.scratch_binding == 2);
  CHECK(layout.storage_buffer_count() == 3);
  CHECK(layout.local_binding == 3);
  auto piped = spirv_patch::run_pipeline(p->spirv, nvasm::gl_program_pipeline(p->info, layout));
  INFO((piped ? std::string() : piped.error().message));
  REQUIRE(piped);
  REQUIRE(spirv_patch::validate(piped->words, spirv_patch::TargetEnv::Vulkan1_1));
  // Below the threshold: no scratch binding, program.local right after the storage buffers.
  nvasm::AssembleOptions options = nvasm::gl_assemble_options(bismuth::CompileTarget{});
  options.scratch_threshold_bytes = UINT32_MAX;
  auto private_arrays = nvasm::assemble(source, options);
  REQUIRE(private_arrays);
  CHECK(private_arrays->info.scratch_bytes_per_invocation == 0);
  const auto plain = nvasm::gl_program_layout(private_arrays->info);
  CHECK(plain.scratch_binding == -1);
  CHECK(plain.local_binding == 2);
}
