// NV_shader_atomic_counters (COUNTER, ATOMCTR) and ATOMCTROP, the form NVIDIA's GLSL compiler writes for
// ARB_shader_atomic_counter_ops, run on the test device. The spec: "The extension uses the same set of atomic
// counter buffer binding points as the ARB_shader_atomic_counters extension", "Atomic counter buffers are arrays
// consisting of single-component unsigned integer values stored in a buffer object", and its grammar
//   <ATOMCTRop_instuction> ::= <ATOMCTRop> <opModifiers> <instResult> "," <counterUseV>
//   <opModifier>           ::= "INCR" | "DECR" | "GET"
//   <COUNTER_statement>    ::= "COUNTER" <establishName> <counterSingleInit>
//   <COUNTER_statement>    ::= "COUNTER" <establishName> <optArraySize> <counterMultipleInit>
//   <counterMultipleInit>  ::= "{" <counterItemList> "}"
// leave open what an index counts and what each operation returns; NVIDIA's driver answers it
// (tests/data/nv_reference): the programs there, and NVIDIA's own assembly of its GLSL probes, must leave the words
// NVIDIA's H100 left.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "bismuth/nvasm/gl_program_layout.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "nv_reference_support.hpp"
#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;
namespace ref = bismuth::test::nv_reference;

namespace {

struct CounterRun {
  std::vector<uint32_t> storage;
  std::vector<std::vector<uint32_t>> counters;
};

// One run with the probe's inputs: counter bindings 0 and 1, storage 0 poisoned.
CounterRun run_probe(const std::string& source) {
  Run r;
  r.source = source;
  r.words = ref::kWords;
  r.init = ref::kPoison;
  r.counters = {{0, ref::initial_counters(0)}, {1, ref::initial_counters(1)}};
  CounterRun out;
  r.counters_out = &out.counters;
  out.storage = run(r);
  return out;
}

void check_like_nvidia(const std::string& run_name, const std::string& source,
                       const std::vector<size_t>& storage_words_not_compared = {}) {
  INFO(run_name);
  const auto nvidia = ref::nvidia_run(run_name);
  REQUIRE(nvidia);
  REQUIRE(nvidia->load_error.empty());
  REQUIRE(!source.empty());
  const CounterRun got = run_probe(source);
  REQUIRE(got.counters.size() == 2);
  CHECK(got.counters[0] == nvidia->counters[0]);
  CHECK(got.counters[1] == nvidia->counters[1]);
  REQUIRE(got.storage.size() == nvidia->storage.size());
  for (size_t i = 0; i < got.storage.size(); ++i) {
    if (std::find(storage_words_not_compared.begin(), storage_words_not_compared.end(), i) !=
        storage_words_not_compared.end()) {
      continue;
    }
    INFO("storage word " << i);
    CHECK(got.storage[i] == nvidia->storage[i]);
  }
}

void check_load_error(const std::string& source, uint32_t line, uint32_t column, const std::string& text) {
  auto result = bismuth::nvasm::assemble(source);
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  const std::string prefix = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": error: ";
  CHECK(result.error().message.rfind(prefix, 0) == 0);
  CHECK_THAT(result.error().message, Catch::Contains(text));
}

const std::string kHead =
    "!!NVcp5.0\nOPTION NV_shader_atomic_counters;\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\n"
    "STORAGE out[] = { program.storage[0] };\nTEMP R0, R1;\n";

}  // namespace

// NVIDIA: "the array index of a COUNTER variable counts 32-bit counters from the start of the binding",
// `program.counter[b][i]` is counter i of binding b, INCR returns the value before, DECR the value after, GET the
// value; `c[R0.y + 4]` indexes with a register.
TEST_CASE("counters: the tests/data/nv_reference assembly probes leave NVIDIA's words", "[nvasm][counters]") {
  for (const char* name : {"q_const1.nvcp5", "q_const4.nvcp5", "q_single.nvcp5"}) {
    check_like_nvidia(name, ref::read_file(name));
  }
  // q_offs stores R0.y after `ATOMCTR.INCR R0.xy`: .y is not written, so it is the register's earlier value
  // (NVIDIA's uninitialized register held 73006600; registers start at zero here).
  check_like_nvidia("q_offs.nvcp5", ref::read_file("q_offs.nvcp5"), {1});
  CHECK(run_probe(ref::read_file("q_offs.nvcp5")).storage[1] == 0);
}

// NVIDIA's GLSL compiler output for GLSL atomic counters (p1, p6) and ARB_shader_atomic_counter_ops (p2: ATOMCTROP
// under OPTION NV_internal), run as NVIDIA ran the GLSL.
TEST_CASE("counters: NVIDIA's own assembly of the GLSL probes p1, p2, p6 leaves NVIDIA's words", "[nvasm][counters]") {
  for (const char* name : {"p1.comp", "p2.comp", "p6.comp"}) {
    check_like_nvidia(name, ref::nvidia_assembly(name));
  }
}

// NVIDIA (q_offs): `ATOMCTR.INCR R0.xy, c[3]` increments once and writes only .x.
TEST_CASE("counters: a vector destination gets the result in .x only, and the counter changes once",
          "[nvasm][counters]") {
  const CounterRun got = run_probe(kHead + R"(COUNTER c[] = { program.counter[0] };
MOV.U R0, {7, 7, 7, 7};
ATOMCTR.INCR.U R0, c[1];
STB.U32X4 R0, out[0];
MOV.U R1, {5, 5, 5, 5};
ATOMCTR.DECR.U R1.xyz, c[2];
STB.U32X4 R1, out[16];
END
)");
  const auto init = ref::initial_counters(0);
  CHECK(got.storage[0] == init[1]);
  CHECK(got.storage[1] == 7);
  CHECK(got.storage[2] == 7);
  CHECK(got.storage[3] == 7);
  CHECK(got.counters[0][1] == init[1] + 1);
  CHECK(got.storage[4] == init[2] - 1);
  CHECK(got.storage[5] == 5);
  CHECK(got.storage[6] == 5);
  CHECK(got.storage[7] == 5);
  CHECK(got.counters[0][2] == init[2] - 1);
}

// ARB_shader_atomic_counter_ops: each function "atomically" applies its operation to the counter and returns the
// value the counter had before (atomicCounterCompSwapARB: "compares the value of compare and the contents of c. If
// the values are equal, the new value is given by data; otherwise, it is taken from the original value of c"). NVIDIA
// writes them as ATOMCTROP.op.U with the operand's .x (CSWAP: compare .x, data .y).
TEST_CASE("counters: ATOMCTROP's nine operations return the old value and store the result", "[nvasm][counters]") {
  struct Case {
    const char* op;
    uint32_t a, b;
    uint32_t (*apply)(uint32_t old, uint32_t a, uint32_t b);
  };
  const std::vector<Case> cases = {
      {"ADD", 5, 0, [](uint32_t o, uint32_t a, uint32_t) { return o + a; }},
      {"SUB", 7, 0, [](uint32_t o, uint32_t a, uint32_t) { return o - a; }},
      {"SUB", 0x7FFFFFFF, 0, [](uint32_t o, uint32_t a, uint32_t) { return o - a; }},  // wraps
      {"MIN", 25, 0, [](uint32_t o, uint32_t a, uint32_t) { return std::min(o, a); }},
      {"MIN", 0xFFFFFFF0, 0, [](uint32_t o, uint32_t a, uint32_t) { return std::min(o, a); }},  // unsigned
      {"MAX", 0x80000000, 0, [](uint32_t o, uint32_t a, uint32_t) { return std::max(o, a); }},
      {"AND", 0x1C, 0, [](uint32_t o, uint32_t a, uint32_t) { return o & a; }},
      {"OR", 0x101, 0, [](uint32_t o, uint32_t a, uint32_t) { return o | a; }},
      {"XOR", 0xFF, 0, [](uint32_t o, uint32_t a, uint32_t) { return o ^ a; }},
      {"EXCH", 1234, 0, [](uint32_t, uint32_t a, uint32_t) { return a; }},
      {"CSWAP", 1080, 9, [](uint32_t o, uint32_t a, uint32_t b) { return o == a ? b : o; }},  // counter 8: 1080
      {"CSWAP", 1081, 9, [](uint32_t o, uint32_t a, uint32_t b) { return o == a ? b : o; }},
  };
  for (const Case& c : cases) {
    INFO(c.op << " " << c.a << ", " << c.b);
    const CounterRun got = run_probe(
        "!!NVcp5.0\nOPTION NV_shader_atomic_counters;\nOPTION NV_internal;\n"
        "OPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\n"
        "STORAGE out[] = { program.storage[0] };\nTEMP R0;\n"
        "COUNTER c[] = { program.counter[1] };\n"
        "ATOMCTROP." +
        std::string(c.op) + ".U R0.x, c[8], {" + std::to_string(c.a) + ", " + std::to_string(c.b) +
        ", 0, 0};\nSTB.U32 R0.x, out[0];\nEND\n");
    const uint32_t old = ref::initial_counters(1)[8];
    CHECK(got.storage[0] == old);
    CHECK(got.counters[1][8] == c.apply(old, c.a, c.b));
    auto others = got.counters[1];
    others[8] = old;
    CHECK(others == ref::initial_counters(1));
    CHECK(got.counters[0] == ref::initial_counters(0));
  }
}

// Atomic: under contention every value a counter passes through is returned exactly once (GLSL 4.60 8.10: "The
// underlying counter is a 32-bit unsigned integer ... atomic with respect to each other").
TEST_CASE("counters: 256 invocations on one counter each get a distinct value", "[nvasm][counters]") {
  Run r;
  r.source = R"(!!NVcp5.0
OPTION NV_shader_atomic_counters;
OPTION NV_internal;
OPTION NV_shader_storage_buffer;
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
COUNTER up = program.counter[0][3];
COUNTER all[] = { program.counter[1] };
TEMP G, R0;
MAD.U G.x, invocation.groupid.x, {64}.x, invocation.localindex.x;
MUL.U G.x, G.x, {12}.x;
ATOMCTR.INCR R0.x, up;
STB.U32 R0.x, out[G.x];
ATOMCTR.DECR.U R0.x, all[5];
STB.U32 R0.x, out[G.x + 4];
ATOMCTROP.ADD.U R0.x, all[R0.y + 2], {3, 0, 0, 0};
STB.U32 R0.x, out[G.x + 8];
END
)";
  constexpr uint32_t n = 256;
  r.groups = {4, 1, 1};
  r.words = 3 * n;
  r.counters = {{0, {0, 0, 0, 500, 0}}, {1, std::vector<uint32_t>(8, 100000)}};
  std::vector<std::vector<uint32_t>> counters;
  r.counters_out = &counters;
  const auto out = run(r);
  std::vector<uint32_t> incr, decr, add;
  for (uint32_t i = 0; i < n; ++i) {
    incr.push_back(out[3 * i]);
    decr.push_back(out[3 * i + 1]);
    add.push_back(out[3 * i + 2]);
  }
  std::sort(incr.begin(), incr.end());
  std::sort(decr.begin(), decr.end());
  std::sort(add.begin(), add.end());
  for (uint32_t k = 0; k < n; ++k) {
    INFO("k " << k);
    CHECK(incr[k] == 500 + k);         // the values before each increment
    CHECK(decr[k] == 100000 - n + k);  // the values after each decrement
    CHECK(add[k] == 100000 + 3 * k);   // the values before each addition
  }
  CHECK(counters[0][3] == 500 + n);
  CHECK(counters[1][5] == 100000 - n);
  CHECK(counters[1][2] == 100000 + 3 * n);
  CHECK(counters[1][1] == 100000);
}

// COUNTER arrays of single counters (<counterItemList>): element k is the k-th listed counter; a register index is
// clamped into the list, as register-array indices are.
TEST_CASE("counters: arrays listing single counters, indexed with constants and registers", "[nvasm][counters]") {
  const CounterRun got =
      run_probe(kHead + R"(COUNTER run[3] = { program.counter[0][4], program.counter[0][5], program.counter[0][6] };
COUNTER mixed[] = { program.counter[1][9], program.counter[1][2], program.counter[1][12] };
MOV.U R1, {0, 1, 2, 7};
ATOMCTR.GET R0.x, run[1];
STB.U32 R0.x, out[0];
ATOMCTR.INCR R0.x, run[R1.z];
STB.U32 R0.x, out[4];
ATOMCTR.INCR R0.x, run[R1.w];
STB.U32 R0.x, out[8];
ATOMCTR.INCR R0.x, mixed[R1.x];
STB.U32 R0.x, out[12];
ATOMCTR.INCR R0.x, mixed[R1.y];
STB.U32 R0.x, out[16];
ATOMCTR.INCR R0.x, mixed[R1.y + 1];
STB.U32 R0.x, out[20];
ATOMCTR.GET R0.x, mixed[2];
STB.U32 R0.x, out[24];
END
)");
  const auto c0 = ref::initial_counters(0), c1 = ref::initial_counters(1);
  CHECK(got.storage[0] == c0[5]);
  CHECK(got.storage[1] == c0[6]);
  CHECK(got.storage[2] == c0[6] + 1);  // index 7 clamped to element 2
  CHECK(got.counters[0][6] == c0[6] + 2);
  CHECK(got.storage[3] == c1[9]);
  CHECK(got.storage[4] == c1[2]);
  CHECK(got.storage[5] == c1[12]);
  CHECK(got.storage[6] == c1[12] + 1);
  CHECK(got.counters[1][9] == c1[9] + 1);
  CHECK(got.counters[1][2] == c1[2] + 1);
}

TEST_CASE("counters: the program description lists program.counter bindings", "[nvasm][counters]") {
  bismuth::nvasm::AssembleOptions options;
  options.counter_bindings = {20, 21, 22};
  auto program = bismuth::nvasm::assemble(kHead + R"(COUNTER b[] = { program.counter[2] };
COUNTER a = program.counter[0][1];
COUNTER c[] = { program.counter[5][0] };
ATOMCTR.INCR R0.x, a;
END
)",
                                          options);
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  const auto& list = program->info.counter_buffers;
  REQUIRE(list.size() == 3);
  CHECK(list[0].program_counter == 0);
  CHECK(list[0].binding == 20);
  CHECK(list[1].program_counter == 2);
  CHECK(list[1].binding == 22);
  CHECK(list[2].program_counter == 5);
  CHECK(list[2].binding == bismuth::nvasm::kCounterBindingBase + 5);
  REQUIRE(bismuth::spirv_patch::validate(program->spirv, bismuth::spirv_patch::TargetEnv::Vulkan1_1));
}

// NVIDIA's driver: without their options COUNTER and ATOMCTROP are "invalid statement" (q_noopt: line 4, column 1;
// q_multi: line 13, column 1); a whole binding only in an unsized array ("full counter buffer binding supported only
// for unsized array variables"); binding ranges do not load.
TEST_CASE("counters: load errors point at line and column", "[nvasm][counters]") {
  check_load_error(ref::read_file("q_noopt.nvcp5"), 4, 1, "COUNTER declarations need OPTION NV_shader_atomic_counters");
  check_load_error(ref::read_file("q_multi.nvcp5"), 13, 1, "needs OPTION NV_internal");
  const std::string noopt = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0;\n";
  check_load_error(noopt + "ATOMCTR.INCR R0.x, c;\nEND\n", 4, 1, "needs OPTION NV_shader_atomic_counters");
  check_load_error(kHead + "COUNTER c = program.counter[0];\nEND\n", 7, 13, "only for unsized array variables");
  check_load_error(kHead + "COUNTER c[4] = { program.counter[0] };\nEND\n", 7, 18, "only for unsized array");
  check_load_error(kHead + "COUNTER c[] = { program.counter[0], program.counter[1] };\nEND\n", 7, 37,
                   "only for unsized array");
  check_load_error(kHead + "COUNTER c[] = { program.counter[0..1] };\nEND\n", 7, 34, "binding ranges");
  check_load_error(kHead + "COUNTER c[] = { program.counter[0][1..2] };\nEND\n", 7, 37, "counter ranges");
  check_load_error(kHead + "COUNTER c[] = { program.counter[8] };\nEND\n", 7, 33, "invalid counter buffer binding 8");
  check_load_error(kHead + "COUNTER c[] = { program.counter[0][1], program.counter[1][1] };\nEND\n", 7, 40,
                   "more than one program.counter binding");
  check_load_error(kHead + "COUNTER c[2] = { program.counter[0][1] };\nEND\n", 7, 9, "declares 2 counters but binds 1");
  check_load_error(kHead + "COUNTER c[] = { program.sharedmem };\nEND\n", 7, 25, "invalid counter binding");
  const std::string decl = kHead + "COUNTER c[] = { program.counter[0] };\nCOUNTER s = program.counter[1][3];\n";
  check_load_error(decl + "ATOMCTR R0.x, c[0];\nEND\n", 9, 1, "needs an operation modifier (INCR, DECR or GET)");
  check_load_error(decl + "ATOMCTR.ADD R0.x, c[0];\nEND\n", 9, 9, "invalid modifier 'ADD'");
  check_load_error(decl + "ATOMCTR.INCR.S R0.x, c[0];\nEND\n", 9, 14, "invalid modifier 'S'");
  check_load_error(decl + "ATOMCTR.INCR.U.U R0.x, c[0];\nEND\n", 9, 16, "invalid modifier 'U'");
  check_load_error(decl + "ATOMCTR.INCR R0.x, R1;\nEND\n", 9, 20, "'R1' is not a COUNTER variable");
  check_load_error(decl + "ATOMCTR.INCR R0.x, c;\nEND\n", 9, 20, "array 'c' needs an index");
  check_load_error(decl + "ATOMCTR.INCR R0.x, s[0];\nEND\n", 9, 21, "'s' is not an array");
  check_load_error(decl + "ATOMCTR.GET out[0], c[0];\nEND\n", 9, 13, "is not a writable TEMP");
  check_load_error(decl + "ATOMCTR.INCR.CC R0.x, c[0];\nEND\n", 9, 14, "invalid modifier 'CC'");
  const std::string internal =
      "!!NVcp5.0\nOPTION NV_shader_atomic_counters;\nOPTION NV_internal;\nGROUP_SIZE 1;\n"
      "TEMP R0;\nCOUNTER c[] = { program.counter[0] };\n";
  check_load_error(internal + "ATOMCTROP.INCR.U R0.x, c[0], {1};\nEND\n", 7, 11, "invalid modifier 'INCR'");
  check_load_error(internal + "ATOMCTROP.ADD.U R0.x, c[0];\nEND\n", 7, 27, "expected ','");
  check_load_error(internal + "ATOMCTROP.U R0.x, c[0], {1};\nEND\n", 7, 11, "invalid modifier 'U'");
}

// gl_program_layout.hpp: program.counter in increasing binding after program.storage and the scratch buffer, before
// the uniform buffers; the pipeline writes those bindings and the module still validates.
TEST_CASE("counters: the GL layout puts program.counter after program.storage and the scratch buffer",
          "[nvasm][counters]") {
  bismuth::nvasm::AssembleOptions options = bismuth::nvasm::gl_assemble_options(bismuth::CompileTarget{});
  options.scratch_threshold_bytes = 0;
  auto p = bismuth::nvasm::assemble(R"(!!NVcp5.0
OPTION NV_shader_atomic_counters;
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE b3[] = { program.storage[3] };
STORAGE b1[] = { program.storage[1] };
COUNTER c2[] = { program.counter[2] };
COUNTER c0 = program.counter[0][1];
PARAM l = program.local[0];
TEMP a[4];
TEMP R0;
MOV.U a[1], l;
ATOMCTR.INCR R0.x, c2[R0.y + 1];
ATOMCTR.GET R0.y, c0;
ADD.U R0.x, R0.x, a[1].x;
STB.U32 R0.x, b3[0];
STB.U32 R0.y, b1[0];
END
)",
                                    options);
  INFO((p ? std::string() : p.error().message));
  REQUIRE(p);
  const auto layout = bismuth::nvasm::gl_program_layout(p->info);
  CHECK(layout.storage == std::vector<uint32_t>{1, 3});
  CHECK(layout.scratch_binding == 2);
  CHECK(layout.counter == std::vector<uint32_t>{0, 2});
  CHECK(layout.counter_binding_base() == 3);
  CHECK(layout.storage_buffer_count() == 5);
  CHECK(layout.local_binding == 5);
  auto piped = bismuth::spirv_patch::run_pipeline(p->spirv, bismuth::nvasm::gl_program_pipeline(p->info, layout));
  INFO((piped ? std::string() : piped.error().message));
  REQUIRE(piped);
  REQUIRE(bismuth::spirv_patch::validate(piped->words, bismuth::spirv_patch::TargetEnv::Vulkan1_1));
}
