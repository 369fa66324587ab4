// match_gl_arithmetic: GL arithmetic where GLSL leaves the choice to the implementation.
//  GLSL 4.50 §4.7.1: without `precise`, "a * b + c" may be computed as one fused operation (GL drivers do).
//  GLSL 4.50 §5.9: for %, "if either operand is negative, the result is undefined" (NVIDIA computes the remainder of
//  the bit patterns as unsigned integers).
#include <catch2/catch.hpp>

#include <string>

#include "bismuth/spirv_patch/passes/gl_arithmetic.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::GlArithmeticOptions;
using bismuth::spirv_patch::match_gl_arithmetic;
using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::compile_or_fail;

namespace {

struct Applied {
  bismuth::spirv_patch::GlArithmeticReport report;
  std::string text;  // disassembly of the result
};

Applied apply(const char* source, GlArithmeticOptions options = {}) {
  const auto words = compile_or_fail(source);
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  auto report = match_gl_arithmetic(*module, options);
  REQUIRE_OK(report);
  const auto out = module->serialize();
  REQUIRE_VALID(out, TargetEnv::Vulkan1_1);
  auto text = bismuth::spirv_patch::disassemble(out);
  REQUIRE_OK(text);
  return {*report, *text};
}

const char* kMulAdd = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float a, b, c, r, s; };
void main() {
  r = a * b + c;
  s = c - a * b;
})";

}  // namespace

TEST_CASE("GL arithmetic: a multiply feeding one add or subtract becomes GLSL.std.450 Fma") {
  const Applied applied = apply(kMulAdd);
  CHECK(applied.report.fused == 2);
  CHECK(applied.text.find("Fma") != std::string::npos);
  CHECK(applied.text.find("OpFMul") == std::string::npos);
  CHECK(applied.text.find("OpFNegate") != std::string::npos);  // c - a*b = fma(-a, b, c)
}

TEST_CASE("GL arithmetic: `precise` (NoContraction) and a product used twice stay separate") {
  const Applied precise = apply(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float a, b, c, r; };
void main() {
  precise float p = a * b + c;
  r = p;
})");
  CHECK(precise.report.fused == 0);
  CHECK(precise.text.find("Fma") == std::string::npos);

  const Applied shared = apply(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float a, b, c, r, s; };
void main() {
  float p = a * b;
  r = p + c;
  s = p;
})");
  CHECK(shared.report.fused == 0);
  CHECK(shared.text.find("OpFMul") != std::string::npos);
}

TEST_CASE("GL arithmetic: fma_through_double computes the multiply-add in double precision") {
  const Applied applied = apply(kMulAdd, {.fma_through_double = true});
  CHECK(applied.report.fused == 2);
  CHECK(applied.text.find("Fma") == std::string::npos);
  CHECK(applied.text.find("OpCapability Float64") != std::string::npos);
  CHECK(applied.text.find("OpFConvert") != std::string::npos);
}

TEST_CASE("GL arithmetic: signed % becomes OpUMod on the operands' bit patterns") {
  const Applied applied = apply(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int x, y, r; ivec2 u, v, w; };
void main() {
  r = x % y;
  w = u % v;
})");
  CHECK(applied.report.remainders == 2);
  CHECK(applied.text.find("OpSRem") == std::string::npos);
  CHECK(applied.text.find("OpSMod") == std::string::npos);
  CHECK(applied.text.find("OpUMod") != std::string::npos);
}

TEST_CASE("GL arithmetic: a module without either pattern is untouched") {
  const auto words = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float a, b, r; uint x, y, q; };
void main() {
  r = a * b;
  q = x % y;
})");
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  auto report = match_gl_arithmetic(*module);
  REQUIRE_OK(report);
  CHECK(report->fused == 0);
  CHECK(report->remainders == 0);
  CHECK(module->serialize() == words);
}
