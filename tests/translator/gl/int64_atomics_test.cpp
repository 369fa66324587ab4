// GL_NV_shader_atomic_int64 through libbismuth-gl: every atomic memory function on int64_t and uint64_t, in a
// storage buffer and in shared memory, at #version 150 (with GL_ARB_compute_shader), 430 and 450, results checked
// against the spec's definition of each function.
//
// NV_shader_atomic_int64: "This extension provides additional GLSL built-in functions and assembly opcodes
// allowing shaders to perform additional atomic read-modify-write operations on 64-bit signed and unsigned
// integers stored in buffer object memory [and shared memory]." GLSL 4.60 §8.11: atomicAdd "Adds a copy of data
// to the contents of mem", atomicMin/Max "Computes a new value by taking the minimum/maximum of the value of data
// and the contents of mem" (signed comparison for int64_t, unsigned for uint64_t), atomicAnd/Or/Xor the bitwise
// operation, atomicExchange "Computes a new value by simply copying the value of data", atomicCompSwap "Compares
// the value of compare and the contents of mem. If the values are equal, the new value is given by data;
// otherwise, it is taken from the original contents of mem." "All of these functions return the original
// contents of mem", and the memory update is atomic: the result does not depend on the order of the invocations.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

constexpr int kInvocations = 64;

// The std430 layouts of the shader's blocks (every member 8 bytes).
struct Inputs {
  int64_t cas_compare;
  int64_t v[kInvocations];
  uint64_t and_ops[kInvocations];
  uint64_t or_ops[kInvocations];
  uint64_t xor_ops[kInvocations];
};

struct Totals {
  int64_t sum, smin, smax;
  uint64_t umin, umax, band, bor, bxor;
  int64_t xchg, cas;
};

struct Results {
  Totals t;
  int64_t xchg_old[kInvocations];
  int64_t cas_old[kInvocations];
};

std::string shader(int version, bool shared_memory) {
  std::string s = "#version " + std::to_string(version) + "\n";
  if (version < 430) {
    s += "#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n";
  }
  s += R"(#extension GL_ARB_gpu_shader_int64 : require
#extension GL_NV_shader_atomic_int64 : require
layout(local_size_x = 64) in;
struct Totals { int64_t sum, smin, smax; uint64_t umin, umax, band, bor, bxor; int64_t xchg, cas; };
layout(std430, binding = 0) buffer In {
  int64_t cas_compare; int64_t v[64]; uint64_t and_ops[64]; uint64_t or_ops[64]; uint64_t xor_ops[64];
};
layout(std430, binding = 1) buffer Out { Totals t; int64_t xchg_old[64]; int64_t cas_old[64]; } acc;
)";
  s += shared_memory ? "shared Totals s;\n#define T s\n" : "#define T acc.t\n";
  s += R"(void main() {
  uint i = gl_LocalInvocationIndex;
)";
  if (shared_memory) s += "  if (i == 0u) s = acc.t;\n  barrier();\n";
  s += R"(  int64_t x = v[i];
  atomicAdd(T.sum, x);
  atomicMin(T.smin, x);
  atomicMax(T.smax, x);
  atomicMin(T.umin, uint64_t(x));
  atomicMax(T.umax, uint64_t(x));
  atomicAnd(T.band, and_ops[i]);
  atomicOr(T.bor, or_ops[i]);
  atomicXor(T.bxor, xor_ops[i]);
  acc.xchg_old[i] = atomicExchange(T.xchg, x);
  acc.cas_old[i] = atomicCompSwap(T.cas, cas_compare, x);
)";
  if (shared_memory) s += "  barrier();\n  if (i == 0u) acc.t = s;\n";
  s += "}\n";
  return s;
}

// Values on both sides of zero and beyond 32 bits, all distinct: signed and unsigned minimum and maximum differ.
Inputs make_inputs() {
  Inputs in{};
  uint64_t lcg = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return lcg;
  };
  for (int i = 0; i < kInvocations; ++i) {
    // (i - 32) * 2^33 + small: distinct, negative for i < 32; the low bits keep them apart.
    in.v[i] = (static_cast<int64_t>(i) - 32) * (int64_t{1} << 33) + static_cast<int64_t>(next() % 1000);
    in.and_ops[i] = ~(uint64_t{1} << ((i * 5) % 64)) | (next() & 0xFFFF'0000'0000'0000ull);
    in.or_ops[i] = uint64_t{1} << ((i * 3) % 64);
    in.xor_ops[i] = next();
  }
  in.cas_compare = 0x0123'4567'89AB'CDEF;
  return in;
}

Totals initial_totals(const Inputs& in) {
  Totals t{};
  t.sum = -5;
  t.smin = INT64_MAX;
  t.smax = INT64_MIN;
  t.umin = UINT64_MAX;
  t.umax = 0;
  t.band = ~uint64_t{0};
  t.bor = 0x10;
  t.bxor = 0xDEAD'BEEF'0000'0001ull;
  t.xchg = 77;
  t.cas = in.cas_compare;
  return t;
}


void check_results(const Inputs& in, const Totals& init, const Results& r) {
  // Commutative and associative operations: the final value is the fold over every invocation's operand.
  uint64_t sum = static_cast<uint64_t>(init.sum);
  int64_t smin = init.smin, smax = init.smax;
  uint64_t umin = init.umin, umax = init.umax, band = init.band, bor = init.bor, bxor = init.bxor;
  for (int i = 0; i < kInvocations; ++i) {
    sum += static_cast<uint64_t>(in.v[i]);
    smin = std::min(smin, in.v[i]);
    smax = std::max(smax, in.v[i]);
    umin = std::min(umin, static_cast<uint64_t>(in.v[i]));
    umax = std::max(umax, static_cast<uint64_t>(in.v[i]));
    band &= in.and_ops[i];
    bor |= in.or_ops[i];
    bxor ^= in.xor_ops[i];
  }
  CHECK(static_cast<uint64_t>(r.t.sum) == sum);
  CHECK(r.t.smin == smin);
  CHECK(r.t.smax == smax);
  CHECK(r.t.umin == umin);
  CHECK(r.t.umax == umax);
  CHECK(r.t.band == band);
  CHECK(r.t.bor == bor);
  CHECK(r.t.bxor == bxor);
  // The inputs make the signed and unsigned orders disagree, so each comparison is really checked.
  CHECK(smin < 0);
  CHECK(umin != static_cast<uint64_t>(smin));

  // atomicExchange: the originals returned plus the final value are the initial value and every operand, each
  // once (the invocations form one chain of exchanges).
  std::vector<int64_t> seen(r.xchg_old, r.xchg_old + kInvocations);
  seen.push_back(r.t.xchg);
  std::vector<int64_t> expected(in.v, in.v + kInvocations);
  expected.push_back(init.xchg);
  std::sort(seen.begin(), seen.end());
  std::sort(expected.begin(), expected.end());
  CHECK(seen == expected);

  // atomicCompSwap with the initial value as `compare`: exactly one invocation finds it and stores its operand;
  // every other one returns that operand and changes nothing.
  const auto winners = std::count(r.cas_old, r.cas_old + kInvocations, in.cas_compare);
  CHECK(winners == 1);
  const auto winner = std::find(r.cas_old, r.cas_old + kInvocations, in.cas_compare) - r.cas_old;
  if (winner < kInvocations) {
    CHECK(r.t.cas == in.v[winner]);
    for (int i = 0; i < kInvocations; ++i) {
      if (i != winner) CHECK(r.cas_old[i] == r.t.cas);
    }
  }
}

}  // namespace

TEST_CASE("64-bit atomic memory functions on buffer and shared variables give the spec's results") {
  GlContext gl;
  if (!has_extension("GL_NV_shader_atomic_int64")) {
    // The device lacks shaderBufferInt64Atomics or shaderSharedInt64Atomics (VK_KHR_shader_atomic_int64).
    WARN("skipped: GL_NV_shader_atomic_int64 is not advertised on this device");
    return;
  }
  const Inputs in = make_inputs();
  const Totals init = initial_totals(in);
  for (int version : {150, 430, 450}) {
    for (bool shared_memory : {false, true}) {
      INFO("#version " << version << (shared_memory ? ", shared memory" : ", buffer"));
      const GLuint program = make_program(shader(version, shared_memory));
      Results start{};
      start.t = init;
      const GLuint in_buffer = make_buffer(sizeof in, &in);
      const GLuint out_buffer = make_buffer(sizeof start, &start);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, in_buffer);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out_buffer);
      glUseProgram(program);
      glDispatchCompute(1, 1, 1);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      Results r{};
      glBindBuffer(GL_COPY_READ_BUFFER, out_buffer);
      glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof r, &r);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      check_results(in, init, r);
      glDeleteBuffers(1, &in_buffer);
      glDeleteBuffers(1, &out_buffer);
      glDeleteProgram(program);
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
