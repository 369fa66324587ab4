// LOAD, STORE and ATOM on GPU addresses (NV_shader_buffer_load, NV_shader_buffer_store, NV_gpu_program5's ATOM),
// run on the test device over Vulkan buffer device addresses. The addresses are the device addresses of the run's
// buffers, written into program.local or into buffers before the run; every expected value comes from a CPU model
// of the bytes in memory.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;

namespace {

// The header of a program that reads a GPU address from program.local[0].xy (PK64 packs x and y into a 64-bit
// integer, x the low half) into P.x.
std::string pointer_program(const std::string& body, const std::string& group = "1") {
  return "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_buffer_load;\n"
         "OPTION NV_shader_buffer_store;\nGROUP_SIZE " +
         group +
         ";\n"
         "STORAGE out[] = { program.storage[0] };\nSTORAGE in[] = { program.storage[1] };\n"
         "TEMP R0, R1, R2, R3;\nLONG TEMP P, D;\nPK64.U P.x, program.local[0];\n" +
         body + "END\n";
}

std::vector<uint32_t> pattern(size_t words, uint32_t seed) {
  std::vector<uint32_t> w(words);
  uint32_t x = seed;
  for (auto& v : w) {
    x = x * 1664525u + 1013904223u;
    v = x;
  }
  return w;
}

uint64_t read_bytes(const std::vector<uint32_t>& words, size_t byte, uint32_t n) {
  uint64_t v = 0;
  std::memcpy(&v, reinterpret_cast<const uint8_t*>(words.data()) + byte, n);
  return v;
}

// IEEE half -> float, for the model of F16 loads.
float half_to_float(uint32_t h) {
  const uint32_t sign = h >> 15, exponent = (h >> 10) & 31, mantissa = h & 1023;
  float v = 0.0f;
  if (exponent == 0)
    v = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mantissa | 1024), static_cast<int>(exponent) - 25);
  return sign ? -v : v;
}

struct Format {
  const char* name;
  uint32_t bits;
  uint32_t count;
  bool sign;
  bool half;
};

// The register value of element `e` of a load of format `f` at byte `at`, as the 32-bit word the register holds.
uint32_t model_element(const std::vector<uint32_t>& mem, const Format& f, size_t at, uint32_t e) {
  const uint64_t raw = read_bytes(mem, at + e * f.bits / 8, f.bits / 8);
  if (f.half) return bits(half_to_float(static_cast<uint32_t>(raw)));
  if (f.sign && f.bits < 32) {
    const int64_t shifted = static_cast<int64_t>(raw << (64 - f.bits)) >> (64 - f.bits);
    return static_cast<uint32_t>(shifted);
  }
  return static_cast<uint32_t>(raw);
}

}  // namespace

// NV_shader_buffer_load: "The LOAD instruction generates a result vector by reading an address from the single
// unsigned integer scalar operand and fetching data from buffer object memory" and NV_gpu_program5 2.X.4.5: "When the
// storage modifier specifies that fewer than four components should be fetched, remaining components are filled
// with zeroes."
TEST_CASE("LOAD reads every 32-bit-register storage modifier at a GPU address", "[nvasm][pointer]") {
  const std::vector<Format> formats = {
      {"U8", 8, 1, false, false},     {"S8", 8, 1, true, false},      {"U16", 16, 1, false, false},
      {"S16", 16, 1, true, false},    {"U32", 32, 1, false, false},   {"S32", 32, 1, true, false},
      {"F32", 32, 1, false, false},   {"U32X2", 32, 2, false, false}, {"S32X4", 32, 4, true, false},
      {"F32X4", 32, 4, false, false}, {"U8X2", 8, 2, false, false},   {"S8X4", 8, 4, true, false},
      {"U16X2", 16, 2, false, false}, {"S16X4", 16, 4, true, false},  {"F16", 16, 1, false, true},
      {"F16X2", 16, 2, false, true},  {"F16X4", 16, 4, false, true},
  };
  std::vector<uint32_t> input = pattern(64, 7);
  // Halves the model decodes exactly (normal, subnormal, negative, zero) at the F16 loads' bytes (16..23).
  input[4] = 0xC0003C00u;  // 1.0, -2.0
  input[5] = 0x80010203u;  // 0x0203 a subnormal, 0x8001 the smallest negative subnormal
  for (const Format& f : formats) {
    DYNAMIC_SECTION(f.name) {
      const uint32_t size = f.bits / 8 * f.count;
      // An address aligned to the access's size, away from the buffer's start.
      const uint32_t at = f.half ? 16 : 32 + size * 3;
      Run r;
      r.pointers = true;
      r.input = input;
      r.locals = {{0, 0, 0, 0}};
      r.addresses = {{true, 0, 0, 1, at}};
      r.source = pointer_program(std::string("MOV.U R0, {0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA};\nLOAD.") +
                                 f.name + " R0, P.x;\nSTB.U32X4 R0, out[0];\n");
      const auto out = run(r);
      if (out.empty()) continue;
      for (uint32_t e = 0; e < 4; ++e) {
        INFO("component " << e);
        CHECK(out[e] == (e < f.count ? model_element(input, f, at, e) : 0u));
      }
    }
  }
}

TEST_CASE("LOAD reads 64-bit storage modifiers into a LONG TEMP", "[nvasm][pointer]") {
  const std::vector<uint32_t> input = pattern(64, 11);
  for (const char* name : {"U64", "S64", "F64", "U64X2", "S64X4"}) {
    DYNAMIC_SECTION(name) {
      const uint32_t count = std::string(name).find("X4") != std::string::npos   ? 4
                             : std::string(name).find("X2") != std::string::npos ? 2
                                                                                 : 1;
      const uint32_t at = 64;  // aligned for every count (32 bytes for X4)
      Run r;
      r.pointers = true;
      r.input = input;
      r.words = 8;
      r.locals = {{0, 0, 0, 0}};
      r.addresses = {{true, 0, 0, 1, at}};
      r.source = pointer_program(std::string("LOAD.") + name + " D, P.x;\nSTB.U64X4 D, out[0];\n");
      const auto out = run(r);
      if (out.empty()) continue;
      for (uint32_t e = 0; e < 4; ++e) {
        INFO("component " << e);
        const uint64_t expected = e < count ? read_bytes(input, at + 8 * e, 8) : 0;
        CHECK((out[2 * e] | uint64_t(out[2 * e + 1]) << 32) == expected);
      }
    }
  }
}

// The address is a 64-bit integer: arithmetic on it (ADD.U64) reaches the next element, and a 32-bit register would
// lose the high half of a device address, so the test only passes when all 64 bits reach the access.
TEST_CASE("LOAD at an address computed with 64-bit arithmetic", "[nvasm][pointer]") {
  const std::vector<uint32_t> input = pattern(32, 3);
  Run r;
  r.pointers = true;
  r.input = input;
  r.locals = {{0, 0, 0, 0}};
  r.addresses = {{true, 0, 0, 1, 0}};
  r.source = pointer_program(R"(
MOV.U R1, {0, 0, 0, 0};
REP.S {4}.x;
  CVT.U64.U32 D.x, R1.x;
  MUL.U64 D.x, D.x, {12}.x;
  ADD.U64 D.y, P.x, D.x;
  LOAD.U32 R2.x, D.y;
  STB.U32 R2.x, out[R1.y];
  ADD.U R1.x, R1.x, {1}.x;
  ADD.U R1.y, R1.y, {4}.x;
ENDREP;
)");
  const auto out = run(r);
  if (out.empty()) return;
  for (uint32_t i = 0; i < 4; ++i) CHECK(out[i] == input[3 * i]);
}

// NV_shader_buffer_store: "The STORE instruction writes the contents of the first vector operand to buffer object
// memory at the address specified by the second unsigned integer scalar operand"; the bytes around a narrow store
// keep their values.
TEST_CASE("STORE writes every storage modifier at a GPU address", "[nvasm][pointer]") {
  const std::vector<Format> formats = {
      {"U8", 8, 1, false, false},     {"S8", 8, 1, true, false},      {"U16", 16, 1, false, false},
      {"S16", 16, 1, true, false},    {"U32", 32, 1, false, false},   {"S32X2", 32, 2, true, false},
      {"U32X4", 32, 4, false, false}, {"U8X2", 8, 2, false, false},   {"U8X4", 8, 4, false, false},
      {"S16X2", 16, 2, true, false},  {"U16X4", 16, 4, false, false},
  };
  const std::vector<uint32_t> values = {0x89ABCDEFu, 0x01234567u, 0xFEDCBA98u, 0x76543210u};
  for (const Format& f : formats) {
    DYNAMIC_SECTION(f.name) {
      const uint32_t size = f.bits / 8 * f.count;
      const uint32_t at = 16 + size * 3;
      const std::vector<uint32_t> before = pattern(32, 5);
      Run r;
      r.pointers = true;
      r.locals = {{0, 0, 0, 0}};
      r.more_storage = {{2, before}};
      std::vector<std::vector<uint32_t>> storage;
      r.storage_out = &storage;
      r.addresses = {{true, 0, 0, 2, at}};
      r.source = pointer_program("MOV.U R0, {0x89ABCDEF, 0x01234567, 0xFEDCBA98, 0x76543210};\nSTORE." +
                                 std::string(f.name) + " R0, P.x;\n");
      if (run(r).empty()) continue;
      std::vector<uint32_t> expected = before;
      auto* bytes = reinterpret_cast<uint8_t*>(expected.data());
      for (uint32_t e = 0; e < f.count; ++e) std::memcpy(bytes + at + e * f.bits / 8, &values[e], f.bits / 8);
      REQUIRE(storage.size() == 1);
      CHECK(storage[0] == expected);
    }
  }
}

TEST_CASE("STORE of F16X2 and F64 values", "[nvasm][pointer]") {
  Run r;
  r.pointers = true;
  r.locals = {{0, 0, 0, 0}};
  r.more_storage = {{2, std::vector<uint32_t>(8, 0)}};
  std::vector<std::vector<uint32_t>> storage;
  r.storage_out = &storage;
  r.addresses = {{true, 0, 0, 2, 0}};
  r.source = pointer_program(R"(
MOV.F R0, {1.5, -0.25, 0, 0};
STORE.F16X2 R0, P.x;
MOV.F64 D, {3.25, 0, 0, 0};
ADD.U64 P.y, P.x, {8}.x;
STORE.F64 D.x, P.y;
)");
  if (run(r).empty()) return;
  REQUIRE(storage.size() == 1);
  CHECK(half_to_float(storage[0][0] & 0xFFFF) == 1.5f);
  CHECK(half_to_float(storage[0][0] >> 16) == -0.25f);
  double d = 0;
  std::memcpy(&d, &storage[0][2], 8);
  CHECK(d == 3.25);
}

// NV_gpu_program5, ATOM: "performs an atomic global memory operation by reading from memory at the address specified
// by the second unsigned integer scalar operand, computing a new value based on the value read from memory and the
// first (vector) operand, and writing the result back to the same memory address. ... returns the value read".
TEST_CASE("ATOM.ADD from 64 invocations on one GPU address returns each old value once", "[nvasm][pointer]") {
  Run r;
  r.pointers = true;
  r.words = 64;
  r.locals = {{0, 0, 0, 0}};
  r.more_storage = {{2, std::vector<uint32_t>(4, 5)}};
  std::vector<std::vector<uint32_t>> storage;
  r.storage_out = &storage;
  r.addresses = {{true, 0, 0, 2, 4}};
  r.source = pointer_program(R"(
ATOM.ADD.U32 R0.x, {1}.x, P.x;
MUL.U R1.x, invocation.localid.x, {4}.x;
STB.U32 R0.x, out[R1.x];
)",
                             "64");
  const auto out = run(r);
  if (out.empty()) return;
  std::vector<uint32_t> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < 64; ++i) CHECK(sorted[i] == 5 + i);
  REQUIRE(storage.size() == 1);
  CHECK(storage[0] == std::vector<uint32_t>{5, 5 + 64, 5, 5});
}

TEST_CASE("ATOM operations on GPU addresses: the old value and the stored value", "[nvasm][pointer]") {
  struct Case {
    const char* op;
    uint32_t before;
    uint32_t operand_x, operand_y;
    uint32_t after;
  };
  // The stored value of each operation (NV_gpu_program5's ATOM table), computed here from its definition.
  const std::vector<Case> cases = {
      {"ADD.U32", 10, 7, 0, 10 + 7},
      {"MIN.S32", uint32_t(-3), 2, 0, uint32_t(-3)},
      {"MAX.S32", uint32_t(-3), 2, 0, 2},
      {"MIN.U32", 9, 4, 0, 4},
      {"IWRAP.U32", 5, 5, 0, 0},  // (old >= operand) ? 0 : old + 1
      {"IWRAP.U32", 3, 5, 0, 4},
      {"DWRAP.U32", 0, 5, 0, 5},  // (old == 0 || old > operand) ? operand : old - 1
      {"DWRAP.U32", 3, 5, 0, 2},
      {"AND.U32", 0xF0F0u, 0xFF00u, 0, 0xF000u},
      {"OR.U32", 0xF0F0u, 0x0F00u, 0, 0xFFF0u},
      {"XOR.U32", 0xF0F0u, 0xFF00u, 0, 0x0FF0u},
      {"EXCH.U32", 1, 99, 0, 99},
      {"CSWAP.U32", 8, 8, 42, 42},
      {"CSWAP.U32", 8, 7, 42, 8},
      {"ADD.F32", bits(1.5f), bits(2.25f), 0, bits(3.75f)},
      {"EXCH.F32", bits(1.5f), bits(-4.0f), 0, bits(-4.0f)},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.op << " on " << c.before) {
      Run r;
      r.pointers = true;
      r.locals = {{0, 0, 0, 0}, {c.operand_x, c.operand_y, 0, 0}};
      r.more_storage = {{2, {0, 0, c.before, 0}}};
      std::vector<std::vector<uint32_t>> storage;
      r.storage_out = &storage;
      r.addresses = {{true, 0, 0, 2, 8}};
      r.source = pointer_program(std::string("MOV.U R1, program.local[1];\nATOM.") + c.op +
                                 " R0.x, R1, P.x;\nSTB.U32 R0.x, out[0];\n");
      const auto out = run(r);
      if (out.empty()) continue;
      CHECK(out[0] == c.before);
      REQUIRE(storage.size() == 1);
      CHECK(storage[0][2] == c.after);
      CHECK(storage[0][1] == 0);
      CHECK(storage[0][3] == 0);
    }
  }
}

TEST_CASE("ATOM.ADD.U64 and ATOM.CSWAP.U64 on a GPU address", "[nvasm][pointer]") {
  Run r;
  r.pointers = true;
  r.int64_atomics = true;
  r.words = 4;
  r.locals = {{0, 0, 0, 0}};
  r.more_storage = {{2, {0xFFFFFFFFu, 1, 0, 0}}};
  std::vector<std::vector<uint32_t>> storage;
  r.storage_out = &storage;
  r.addresses = {{true, 0, 0, 2, 0}};
  r.source = pointer_program(R"(
ATOM.ADD.U64 D.x, {1}.x, P.x;
ADD.U64 P.y, P.x, {8}.x;
MOV.U64 D.z, {0}.x;
MOV.U64 D.w, {77}.x;
ATOM.CSWAP.U64 D.y, D.zwzw, P.y;
STB.U64X2 D, out[0];
)");
  const auto out = run(r);
  if (out.empty()) return;
  CHECK(out == std::vector<uint32_t>{0xFFFFFFFFu, 1, 0, 0});
  REQUIRE(storage.size() == 1);
  CHECK(storage[0] == std::vector<uint32_t>{0, 2, 77, 0});
}

// A program shaped like a client of NV_shader_buffer_load: a linked list whose nodes lie in two buffers, each node
// {value, unused, next address (low, high)}, next = 0 at the end; the program follows the pointers and sums.
TEST_CASE("a linked list across two buffers, traversed through GPU addresses", "[nvasm][pointer]") {
  // Nodes: storage[2] node 0 -> storage[3] node 1 -> storage[2] node 2 -> storage[3] node 0 -> end.
  std::vector<uint32_t> a(16, 0), b(16, 0);
  a[0] = 3;     // node a0
  a[8] = 40;    // node a2 (word 8)
  b[4] = 500;   // node b1 (word 4)
  b[0] = 6000;  // node b0
  Run r;
  r.pointers = true;
  r.locals = {{0, 0, 0, 0}};
  r.more_storage = {{2, a}, {3, b}};
  r.addresses = {
      {true, 0, 0, 2, 0},    // head: a0
      {false, 2, 2, 3, 16},  // a0.next = b1
      {false, 3, 6, 2, 32},  // b1.next = a2
      {false, 2, 10, 3, 0},  // a2.next = b0 (b0.next stays 0)
  };
  r.source = pointer_program(R"(
MOV.U R1, {0, 0, 0, 0};
REP.S;
  LOAD.U32X4 R0, P.x;
  ADD.U R1.x, R1.x, R0.x;
  ADD.U R1.y, R1.y, {1}.x;
  PK64.U P.x, R0.zwzw;
  SEQ.U64.CC D.x, P.x, {0}.x;
  BRK (NE.x);
ENDREP;
STB.U32X2 R1, out[0];
)");
  const auto out = run(r);
  if (out.empty()) return;
  CHECK(out[0] == 3 + 500 + 40 + 6000);
  CHECK(out[1] == 4);
}

// A table of pointers to several buffers: invocation i reads table[i], stores its buffer's word 1 into out[i] and
// adds i to that word. (A scalar LOAD writes its value to .x: "remaining components are filled with zeroes", so
// `LOAD.U64 D.y, ...` would write 0 to D.y.)
TEST_CASE("a table of GPU addresses of several buffers, one per invocation", "[nvasm][pointer]") {
  Run r;
  r.pointers = true;
  r.words = 4;
  r.locals = {{0, 0, 0, 0}};
  r.more_storage = {
      {2, std::vector<uint32_t>(8, 0)}, {3, {0, 11, 0, 0}}, {4, {0, 22, 0, 0}}, {5, {0, 33, 0, 0}}, {6, {0, 44, 0, 0}}};
  for (uint32_t i = 0; i < 4; ++i) r.addresses.push_back({false, 2, 2 * i, 3 + i, 4});
  r.addresses.push_back({true, 0, 0, 2, 0});
  std::vector<std::vector<uint32_t>> storage;
  r.storage_out = &storage;
  r.source = pointer_program(R"(
CVT.U64.U32 D.x, invocation.localid.x;
MUL.U64 D.x, D.x, {8}.x;
ADD.U64 D.y, P.x, D.x;
LOAD.U64 D.x, D.y;
LOAD.U32 R0.x, D.x;
ATOM.ADD.U32 R0.y, invocation.localid.x, D.x;
MUL.U R1.x, invocation.localid.x, {4}.x;
STB.U32 R0.x, out[R1.x];
)",
                             "4");
  const auto out = run(r);
  if (out.empty()) return;
  CHECK(out == std::vector<uint32_t>{11, 22, 33, 44});
  REQUIRE(storage.size() == 5);
  for (uint32_t i = 0; i < 4; ++i) CHECK(storage[1 + i][1] == (i + 1) * 11 + i);
}

TEST_CASE("LOAD/STORE/ATOM modules declare PhysicalStorageBuffer64 and pass spirv-val", "[nvasm][pointer]") {
  bismuth::nvasm::AssembleOptions options;
  options.buffer_device_address = true;
  options.optimize = false;
  const auto program = bismuth::nvasm::assemble(
      pointer_program("LOAD.F32X4 R0, P.x;\nSTORE.U8 R0, P.x;\nATOM.OR.U32 R1.x, R0, P.x;\n"), options);
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  CHECK(program->info.uses_buffer_device_address);
  CHECK(program->info.uses_int64);
  REQUIRE(bismuth::spirv_patch::validate(program->spirv, bismuth::spirv_patch::TargetEnv::Vulkan1_1));
  const auto& w = program->spirv;
  // OpMemoryModel (opcode 14) PhysicalStorageBuffer64 (5348) GLSL450.
  bool model = false;
  for (size_t i = 5; i < w.size(); i += w[i] >> 16) {
    if ((w[i] & 0xFFFF) == 14) model = w[i + 1] == 5348;
  }
  CHECK(model);
}

namespace {

void check_error(const std::string& source, uint32_t line, uint32_t column, const std::string& text,
                 const bismuth::nvasm::AssembleOptions& options) {
  const auto result = bismuth::nvasm::assemble(source, options);
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  CHECK(result.error().message.rfind(
            "line " + std::to_string(line) + ", column " + std::to_string(column) + ": error: ", 0) == 0);
  CHECK_THAT(result.error().message, Catch::Contains(text));
}

}  // namespace

// docs/nvasm.md: a device without bufferDeviceAddress cannot run GPU-address accesses; the program fails to load
// with an error that names the feature, at the instruction.
TEST_CASE("errors: LOAD/STORE/ATOM without bufferDeviceAddress, and malformed address operands",
          "[nvasm][pointer][errors]") {
  bismuth::nvasm::AssembleOptions without;
  bismuth::nvasm::AssembleOptions with;
  with.buffer_device_address = true;
  // pointer_program's header is 10 lines; the body starts on line 11.
  check_error(pointer_program("MOV.U R0, {1, 2, 3, 4};\n  LOAD.U32 R0.x, P.x;\n"), 12, 3, "bufferDeviceAddress",
              without);
  check_error(pointer_program("STORE.U32 R0, P.x;\n"), 11, 1, "bufferDeviceAddress", without);
  check_error(pointer_program("ATOM.ADD.U32 R0.x, R1, P.x;\n"), 11, 1, "bufferDeviceAddress", without);
  // The address is a register operand, not a buffer reference.
  check_error(pointer_program("LOAD.U32 R0.x, in[0];\n"), 11, 16, "memory declaration", with);
  check_error(pointer_program("LOAD.U32 R0.x, {1.5}.x;\n"), 11, 16, "integer operand", with);
  // The storage modifier is required (NV_gpu_program5: LOAD, STORE and ATOM take one).
  check_error(pointer_program("LOAD R0.x, P.x;\n"), 11, 1, "needs a storage modifier", with);
  check_error(pointer_program("ATOM R0.x, R1, P.x;\n"), 11, 1, "needs an atomic operation modifier", with);
  check_error(pointer_program("ATOM.U32 R0.x, R1, P.x;\n"), 11, 6, "invalid modifier 'U32' for ATOM", with);
  check_error(pointer_program("ATOM.IWRAP.U64 D.x, R1, P.x;\n"), 11, 1, "atomic operation not supported", with);
  // 64-bit atomics also need shaderBufferInt64Atomics.
  check_error(pointer_program("ATOM.ADD.U64 D.x, D, P.x;\n"), 11, 1, "shaderBufferInt64Atomics", with);
}
