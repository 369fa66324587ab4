/* GL_NV_shader_atomic_int64 through the GL API: what the order-free probes of the shader_test files cannot say.
 *
 * NV_shader_atomic_int64: 64-bit atomicAdd/Min/Max/And/Or/Xor/Exchange/CompSwap on int64_t and uint64_t buffer
 * and shared variables. GLSL 4.60 §8.11: "All of these functions return the original contents of mem", and
 * "atomicCompSwap: Compares the value of compare and the contents of mem. If the values are equal, the new value
 * is given by data; otherwise, it is taken from the original contents of mem." §8.11 also: "A shader will fail to
 * compile if the value passed to the mem argument of an atomic memory function does not correspond to a buffer or
 * shared variable."
 *
 * Checked here, for a buffer and a shared variable at #version 150 (GL_ARB_compute_shader) and 460:
 *  - atomicExchange: the values returned plus the final value are the initial value and every invocation's
 *    operand, each exactly once;
 *  - atomicCompSwap with the initial value as compare: exactly one invocation gets it back and its operand is
 *    the final value; all others get that operand back;
 *  - the same functions on a local variable fail to compile. */
#include "conformance.h"

#include <stdint.h>

#define N 64

static const char* const kHead150 =
    "#version 150\n#extension GL_ARB_compute_shader : require\n"
    "#extension GL_ARB_shader_storage_buffer_object : require\n";
static const char* const kHead460 = "#version 460\n";

static const char* const kBody =
    "#extension GL_ARB_gpu_shader_int64 : require\n"
    "#extension GL_NV_shader_atomic_int64 : require\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) buffer B { int64_t xchg; uint64_t cas; int64_t xchg_old[64]; uint64_t cas_old[64]; };\n"
    "shared int64_t s_xchg; shared uint64_t s_cas;\n"
    "void main() {\n"
    "  uint i = gl_LocalInvocationIndex;\n"
    "  int64_t x = (int64_t(i) - 32l) * 0x300000007l;\n"
    "  uint64_t u = uint64_t(i) * 0x8000000000000001ul + 5ul;\n"
    "#ifdef SHARED\n"
    "  if (i == 0u) { s_xchg = xchg; s_cas = cas; }\n"
    "  barrier();\n"
    "  xchg_old[i] = atomicExchange(s_xchg, x);\n"
    "  cas_old[i] = atomicCompSwap(s_cas, 77ul, u);\n"
    "  barrier();\n"
    "  if (i == 0u) { xchg = s_xchg; cas = s_cas; }\n"
    "#else\n"
    "  xchg_old[i] = atomicExchange(xchg, x);\n"
    "  cas_old[i] = atomicCompSwap(cas, 77ul, u);\n"
    "#endif\n"
    "}\n";

static int64_t operand_x(int i) { return ((int64_t)i - 32) * (int64_t)0x300000007; }
static uint64_t operand_u(int i) { return (uint64_t)i * 0x8000000000000001ull + 5u; }

static int compare_i64(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return x < y ? -1 : x > y;
}

struct Block {
  int64_t xchg;
  uint64_t cas;
  int64_t xchg_old[N];
  uint64_t cas_old[N];
};

static void run(const char* head, int shared_memory) {
  char source[4096];
  snprintf(source, sizeof source, "%s%s%s", head, shared_memory ? "#define SHARED 1\n" : "", kBody);
  GLuint program = conformance_compute_program(source);
  CHECK(program != 0, "the shader compiles and links (%s, %s)", head, shared_memory ? "shared" : "buffer");
  if (!program) return;
  struct Block block;
  memset(&block, 0, sizeof block);
  block.xchg = -9;
  block.cas = 77;
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof block, &block, GL_DYNAMIC_COPY);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof block, &block);
  CHECK_GL_ERROR(GL_NO_ERROR, "dispatch and read back");

  int64_t seen[N + 1], expected[N + 1];
  for (int i = 0; i < N; ++i) {
    seen[i] = block.xchg_old[i];
    expected[i] = operand_x(i);
  }
  seen[N] = block.xchg;
  expected[N] = -9;
  qsort(seen, N + 1, sizeof seen[0], compare_i64);
  qsort(expected, N + 1, sizeof expected[0], compare_i64);
  CHECK(memcmp(seen, expected, sizeof seen) == 0,
        "atomicExchange returns each original exactly once and keeps the last operand (%s, %s)", head,
        shared_memory ? "shared" : "buffer");

  int winners = 0, winner = -1;
  for (int i = 0; i < N; ++i) {
    if (block.cas_old[i] == 77) {
      ++winners;
      winner = i;
    }
  }
  CHECK(winners == 1, "exactly one atomicCompSwap finds compare (%d did)", winners);
  if (winners == 1) {
    CHECK(block.cas == operand_u(winner), "the final value is the winner's operand");
    for (int i = 0; i < N; ++i) {
      if (i != winner) CHECK(block.cas_old[i] == block.cas, "invocation %d gets the winner's operand back", i);
    }
  }
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  if (!conformance_has_extension("GL_NV_shader_atomic_int64")) {
    conformance_skip("GL_NV_shader_atomic_int64 is not advertised (the device lacks 64-bit buffer or shared atomics)");
  }
  for (int shared_memory = 0; shared_memory <= 1; ++shared_memory) {
    run(kHead150, shared_memory);
    run(kHead460, shared_memory);
  }
  static const char* const kLocal[] = {
      "#version 150\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_gpu_shader_int64 : require\n"
      "#extension GL_NV_shader_atomic_int64 : require\nlayout(local_size_x = 1) in;\n"
      "void main() { int64_t v = 0l; atomicAdd(v, 1l); }\n",
      "#version 460\n#extension GL_ARB_gpu_shader_int64 : require\n#extension GL_NV_shader_atomic_int64 : require\n"
      "layout(local_size_x = 1) in;\nvoid main() { uint64_t v = 0ul; atomicCompSwap(v, 0ul, 1ul); }\n",
  };
  for (int i = 0; i < 2; ++i) CHECK(!conformance_compiles(kLocal[i]), "an atomic function on a local variable fails to compile");
  return conformance_result();
}
