// Shared memory above the device's limit: `shared uint s[10000];` (40,000 bytes, lavapipe allows
// 32,768) linked and ran on the GLSL path. GLSL 4.60 §4.3.8: "There is a limit to the total size of all variables
// declared as shared in a single program object. This limit, expressed in units of basic machine units, may be
// determined by using the OpenGL API to query the value of MAX_COMPUTE_SHARED_MEMORY_SIZE." The link fails above
// it, as the NV assembly path already does.
#include <catch2/catch.hpp>

#include <string>

#include "bismuth/translator/gl_program.hpp"

using namespace bismuth::translator;

namespace {

bismuth::Expected<GlLinkedProgram> link_with_limit(const std::string& declarations, const std::string& uses,
                                                   std::optional<uint32_t> limit) {
  auto shader = GlShader::compile(
      "#version 450\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { float o[]; };\n" +
      declarations + "void main() {\n" + uses + "}\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  const std::shared_ptr<const GlShader> shaders[] = {shader};
  return link_gl_program(shaders, {.max_compute_shared_memory_size = limit});
}

}  // namespace

TEST_CASE("Shared variables above GL_MAX_COMPUTE_SHARED_MEMORY_SIZE fail to link") {
  auto program = link_with_limit("shared uint s[10000];\n", "s[gl_LocalInvocationIndex] = 1u; o[0] = s[3];\n", 32768);
  REQUIRE_FALSE(program);
  CHECK(program.error().message ==
        "error: too much shared memory: the program's shared variables take 40000 bytes (std430 layout), above "
        "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE (32768 bytes)\n");
  // Exactly the limit links; so does any size when no limit is given (`bismuth compile` knows no device).
  auto at_limit = link_with_limit("shared uint s[8192];\n", "s[gl_LocalInvocationIndex] = 1u; o[0] = s[3];\n", 32768);
  REQUIRE(at_limit);
  CHECK(at_limit->shared_memory_bytes == 32768);
  CHECK(link_with_limit("shared uint s[10000];\n", "s[gl_LocalInvocationIndex] = 1u; o[0] = s[3];\n", std::nullopt));
}

TEST_CASE("Every shared variable counts toward the limit") {
  // Two arrays of 20,000 bytes: each fits, together they do not.
  auto program =
      link_with_limit("shared uint a[5000];\nshared uint b[5000];\n",
                      "a[gl_LocalInvocationIndex] = 1u; b[gl_LocalInvocationIndex] = 2u; o[0] = a[1] + b[2];\n", 32768);
  REQUIRE_FALSE(program);
  CHECK_THAT(program.error().message, Catch::Contains("take 40000 bytes"));
}

TEST_CASE("Shared sizes follow std430") {
  // GL 4.6 §7.6.2.2 (std430): a three-component vector aligns to four components and an array's stride is its
  // element's size rounded up to the element's alignment; a matrix is an array of its column vectors; a
  // structure aligns to its most-aligned member and is padded to a multiple of that alignment.
  struct Case {
    const char* declaration;
    const char* use;
    uint64_t bytes;
  };
  const Case cases[] = {
      {"shared vec3 v[10];\n", "v[gl_LocalInvocationIndex] = vec3(1.0); o[0] = v[2].y;\n", 160},
      {"shared vec2 v[3];\n", "v[gl_LocalInvocationIndex] = vec2(1.0); o[0] = v[2].y;\n", 24},
      {"shared mat3 m;\n", "m = mat3(1.0); o[0] = m[1][1];\n", 48},
      {"shared mat2x3 m[2];\n", "m[gl_LocalInvocationIndex] = mat2x3(1.0); o[0] = m[1][1][1];\n", 64},
      {"struct S { float a; vec3 b; };\nshared S s[2];\n", "s[gl_LocalInvocationIndex].a = 1.0; o[0] = s[1].b.x;\n",
       64},
      {"struct T { float a; double d; };\nshared T t;\n", "t.a = 1.0; t.d = 2.0; o[0] = float(t.d);\n", 16},
      {"shared bool flags[3];\n", "flags[gl_LocalInvocationIndex] = true; o[0] = flags[1] ? 1.0 : 0.0;\n", 12},
  };
  for (const Case& c : cases) {
    INFO(c.declaration);
    auto program = link_with_limit(c.declaration, c.use, std::nullopt);
    REQUIRE(program);
    CHECK(program->shared_memory_bytes == c.bytes);
  }
}
