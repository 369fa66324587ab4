// ARB_gl_spirv: SPIR-V modules in GL's binding namespaces through glShaderBinary + glSpecializeShader.
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// glslangValidator -G (GL SPIR-V) of:
//   #version 450
//   layout(local_size_x = 4) in;
//   layout(constant_id = 3) const uint kAdd = 1u;
//   layout(std430, binding = 2) buffer Out { uint o[]; };
//   layout(std140, binding = 2) uniform Params { uint mul; };
//   void main() { o[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * mul + kAdd; }
// Storage block 2 and uniform block 2 share the number but not the namespace.
const uint32_t kModule[] = {
    0x07230203, 0x00010000, 0x0008000b, 0x00000023, 0x00000000, 0x00020011, 0x00000001, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001,
    0x0006000f, 0x00000005, 0x00000004, 0x6e69616d, 0x00000000, 0x0000000f, 0x00060010, 0x00000004,
    0x00000011, 0x00000004, 0x00000001, 0x00000001, 0x00030003, 0x00000002, 0x000001c2, 0x00040005,
    0x00000004, 0x6e69616d, 0x00000000, 0x00030005, 0x00000008, 0x0074754f, 0x00040006, 0x00000008,
    0x00000000, 0x0000006f, 0x00030005, 0x0000000a, 0x00000000, 0x00080005, 0x0000000f, 0x475f6c67,
    0x61626f6c, 0x766e496c, 0x7461636f, 0x496e6f69, 0x00000044, 0x00040005, 0x00000016, 0x61726150,
    0x0000736d, 0x00040006, 0x00000016, 0x00000000, 0x006c756d, 0x00030005, 0x00000018, 0x00000000,
    0x00040005, 0x0000001d, 0x6464416b, 0x00000000, 0x00040047, 0x00000007, 0x00000006, 0x00000004,
    0x00050048, 0x00000008, 0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000008, 0x00000003,
    0x00040047, 0x0000000a, 0x00000022, 0x00000000, 0x00040047, 0x0000000a, 0x00000021, 0x00000002,
    0x00040047, 0x0000000f, 0x0000000b, 0x0000001c, 0x00050048, 0x00000016, 0x00000000, 0x00000023,
    0x00000000, 0x00030047, 0x00000016, 0x00000002, 0x00040047, 0x00000018, 0x00000022, 0x00000000,
    0x00040047, 0x00000018, 0x00000021, 0x00000002, 0x00040047, 0x0000001d, 0x00000001, 0x00000003,
    0x00040047, 0x00000022, 0x0000000b, 0x00000019, 0x00020013, 0x00000002, 0x00030021, 0x00000003,
    0x00000002, 0x00040015, 0x00000006, 0x00000020, 0x00000000, 0x0003001d, 0x00000007, 0x00000006,
    0x0003001e, 0x00000008, 0x00000007, 0x00040020, 0x00000009, 0x00000002, 0x00000008, 0x0004003b,
    0x00000009, 0x0000000a, 0x00000002, 0x00040015, 0x0000000b, 0x00000020, 0x00000001, 0x0004002b,
    0x0000000b, 0x0000000c, 0x00000000, 0x00040017, 0x0000000d, 0x00000006, 0x00000003, 0x00040020,
    0x0000000e, 0x00000001, 0x0000000d, 0x0004003b, 0x0000000e, 0x0000000f, 0x00000001, 0x0004002b,
    0x00000006, 0x00000010, 0x00000000, 0x00040020, 0x00000011, 0x00000001, 0x00000006, 0x0003001e,
    0x00000016, 0x00000006, 0x00040020, 0x00000017, 0x00000002, 0x00000016, 0x0004003b, 0x00000017,
    0x00000018, 0x00000002, 0x00040020, 0x00000019, 0x00000002, 0x00000006, 0x00040032, 0x00000006,
    0x0000001d, 0x00000001, 0x0004002b, 0x00000006, 0x00000020, 0x00000004, 0x0004002b, 0x00000006,
    0x00000021, 0x00000001, 0x0006002c, 0x0000000d, 0x00000022, 0x00000020, 0x00000021, 0x00000021,
    0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8, 0x00000005, 0x00050041,
    0x00000011, 0x00000012, 0x0000000f, 0x00000010, 0x0004003d, 0x00000006, 0x00000013, 0x00000012,
    0x00050041, 0x00000011, 0x00000014, 0x0000000f, 0x00000010, 0x0004003d, 0x00000006, 0x00000015,
    0x00000014, 0x00050041, 0x00000019, 0x0000001a, 0x00000018, 0x0000000c, 0x0004003d, 0x00000006,
    0x0000001b, 0x0000001a, 0x00050084, 0x00000006, 0x0000001c, 0x00000015, 0x0000001b, 0x00050080,
    0x00000006, 0x0000001e, 0x0000001c, 0x0000001d, 0x00060041, 0x00000019, 0x0000001f, 0x0000000a,
    0x0000000c, 0x00000013, 0x0003003e, 0x0000001f, 0x0000001e, 0x000100fd, 0x00010038,
};

GLuint spirv_shader() {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, kModule, sizeof kModule);
  return shader;
}

}  // namespace

TEST_CASE("A specialized SPIR-V module links and runs with GL's separate binding namespaces") {
  GlContext gl;
  const GLuint shader = spirv_shader();
  GLint flag = 0;
  glGetShaderiv(shader, GL_SPIR_V_BINARY, &flag);
  CHECK(flag == GL_TRUE);
  const GLuint index = 3, value = 100;
  glSpecializeShader(shader, "main", 1, &index, &value);
  glGetShaderiv(shader, GL_COMPILE_STATUS, &flag);
  REQUIRE(flag == GL_TRUE);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glGetProgramiv(program, GL_LINK_STATUS, &flag);
  REQUIRE(flag == GL_TRUE);
  const uint32_t params[4] = {10, 0, 0, 0};
  GLuint ubo = 0;
  glGenBuffers(1, &ubo);
  glBindBuffer(GL_UNIFORM_BUFFER, ubo);
  glBufferData(GL_UNIFORM_BUFFER, sizeof params, params, GL_STATIC_DRAW);
  glBindBufferBase(GL_UNIFORM_BUFFER, 2, ubo);
  std::vector<uint32_t> zeros(8, 0);
  const GLuint out = make_buffer(32, zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, out);
  glUseProgram(program);
  glDispatchCompute(2, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto words = read_words(out, 8);
  for (uint32_t i = 0; i < 8; ++i) CHECK(words[i] == i * 10 + 100);
  GLint size[3] = {};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  CHECK(size[0] == 4);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glShaderBinary with another format is INVALID_ENUM, with bad data INVALID_VALUE") {
  GlContext gl;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderBinary(1, &shader, 0x1234, kModule, sizeof kModule);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  const uint32_t garbage[6] = {1, 2, 3, 4, 5, 6};
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, garbage, sizeof garbage);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, kModule, 7);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
}

TEST_CASE("glSpecializeShader on a GLSL shader or twice is INVALID_OPERATION") {
  // ARB_gl_spirv: "An INVALID_OPERATION error is generated if <shader> does not reference a shader object created
  // from a SPIR-V module, or if the shader has already been specialized."
  GlContext gl;
  glSpecializeShader(glCreateShader(GL_COMPUTE_SHADER), "main", 0, nullptr, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  const GLuint shader = spirv_shader();
  glSpecializeShader(shader, "main", 0, nullptr, nullptr);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glSpecializeShader(shader, "main", 0, nullptr, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}
