/* ARB_gl_spirv / GL 4.6 SPIR-V programs as an application uses them: glShaderBinary(GL_SHADER_BINARY_FORMAT_SPIR_V),
 * glSpecializeShader, default-block uniforms by location, atomic counters by binding point, and the errors the
 * specs list. Plain C against EGL + GL headers. */
#include "conformance.h"
#include "gl_spirv_modules.h"

static GLuint buffer_with(GLenum target, GLsizeiptr size, const void* data) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(target, b);
  glBufferData(target, size, data, GL_DYNAMIC_COPY);
  return b;
}

static void read_back(GLuint buffer, GLsizeiptr size, void* out) {
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, size, out);
}

static GLuint binary_shader(const uint32_t* words, GLsizei bytes) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words, bytes);
  return shader;
}

/* Specializes with no constants and links; 0 when either fails (the log on stderr). */
static GLuint spirv_program(const uint32_t* words, GLsizei bytes) {
  GLuint shader = binary_shader(words, bytes);
  glSpecializeShader(shader, "main", 0, NULL, NULL);
  GLint ok = 0;
  char log[2048];
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "specialization failed:\n%s\n", log);
    return 0;
  }
  return conformance_link_shader(shader);
}

static void check_queries(void) {
  /* GL 4.6 §7.2: SHADER_BINARY_FORMAT_SPIR_V is listed in SHADER_BINARY_FORMATS. */
  GLint formats = 0, list[16] = {0};
  glGetIntegerv(GL_NUM_SHADER_BINARY_FORMATS, &formats);
  CHECK(formats >= 1 && formats <= 16, "NUM_SHADER_BINARY_FORMATS is %d", formats);
  if (formats >= 1 && formats <= 16) glGetIntegerv(GL_SHADER_BINARY_FORMATS, list);
  int found = 0;
  for (GLint i = 0; i < formats && i < 16; ++i) found |= list[i] == GL_SHADER_BINARY_FORMAT_SPIR_V;
  CHECK(found, "SHADER_BINARY_FORMATS lists SHADER_BINARY_FORMAT_SPIR_V");
  /* GL 4.6 §22.2: GetStringi(SPIR_V_EXTENSIONS, i) for i < NUM_SPIR_V_EXTENSIONS, INVALID_VALUE past it. */
  GLint n = -1;
  glGetIntegerv(GL_NUM_SPIR_V_EXTENSIONS, &n);
  CHECK(n >= 0, "NUM_SPIR_V_EXTENSIONS is %d", n);
  for (GLint i = 0; i < n; ++i) CHECK(glGetStringi(GL_SPIR_V_EXTENSIONS, (GLuint)i) != NULL, "extension %d", i);
  CHECK_GL_ERROR(GL_NO_ERROR, "after reading SPIR_V_EXTENSIONS");
  CHECK(glGetStringi(GL_SPIR_V_EXTENSIONS, (GLuint)n) == NULL, "index NUM_SPIR_V_EXTENSIONS has no string");
  CHECK_GL_ERROR(GL_INVALID_VALUE, "GetStringi(SPIR_V_EXTENSIONS, NUM_SPIR_V_EXTENSIONS)");
}

static void check_uniforms_by_location(void) {
  GLuint program = spirv_program(kUniformsModule, (GLsizei)sizeof kUniformsModule);
  CHECK(program != 0, "the uniforms module links");
  if (!program) return;
  /* ARB_gl_spirv: uniforms are identified by their Location decoration; names play no part. */
  CHECK(glGetUniformLocation(program, "mul") == -1, "GetUniformLocation finds no name in a SPIR-V program");
  glUseProgram(program);
  glUniform1ui(0, 3u);
  const GLfloat offs[8] = {0, 10, 0, 0, 0, 20, 0, 0};
  glUniform4fv(2, 2, offs);
  GLfloat m[9] = {0};
  m[5] = 7.0f; /* column 1, row 2 */
  glUniformMatrix3fv(4, 1, GL_FALSE, m);
  glUniform1i(7, 1);
  glProgramUniform2i(program, 8, 0, 5);
  CHECK_GL_ERROR(GL_NO_ERROR, "setting the uniforms by location");
  GLuint out = buffer_with(GL_SHADER_STORAGE_BUFFER, 8 * 4, NULL);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(2, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  uint32_t words[8] = {0};
  read_back(out, sizeof words, words);
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t expected = i * 3u + ((i & 1u) ? 20u : 10u) + 7u + 1000u + 5u;
    CHECK(words[i] == expected, "o[%u] = %u, expected %u", i, words[i], expected);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "dispatching the uniforms program");
}

static void check_atomic_counters(void) {
  GLuint program = spirv_program(kCountersModule, (GLsizei)sizeof kCountersModule);
  CHECK(program != 0, "the atomic counter module links");
  if (!program) return;
  const uint32_t first[4] = {0, 5, 0, 0}, second[4] = {0, 0, 100, 200};
  GLuint b0 = buffer_with(GL_ATOMIC_COUNTER_BUFFER, sizeof first, first);
  GLuint b2 = buffer_with(GL_ATOMIC_COUNTER_BUFFER, sizeof second, second);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, b0);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 2, b2);
  GLuint out = buffer_with(GL_SHADER_STORAGE_BUFFER, 16 * 4, NULL);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_ATOMIC_COUNTER_BARRIER_BIT);
  /* GL 4.6 §7.7: the counter at offset o of binding b is the uint at byte o of the buffer bound to b. */
  uint32_t c0[4] = {0}, c2[4] = {0};
  read_back(b0, sizeof c0, c0);
  read_back(b2, sizeof c2, c2);
  CHECK(c0[1] == 13u, "ctr = %u after 8 increments from 5", c0[1]);
  CHECK(c2[2] == 96u && c2[3] == 196u, "arr = %u %u after 4 decrements each", c2[2], c2[3]);
  /* atomicCounterIncrement returns the value before: 5..12 once each; o.length() = 16. */
  uint32_t o[8] = {0};
  read_back(out, sizeof o, o);
  uint32_t seen = 0;
  for (int i = 0; i < 8; ++i) {
    if (o[i] >= 16005u && o[i] < 16013u) seen |= 1u << (o[i] - 16005u);
  }
  CHECK(seen == 0xFFu, "the increments returned 5..12 (mask 0x%x)", seen);
  CHECK_GL_ERROR(GL_NO_ERROR, "dispatching the counters program");
}

static void check_errors(void) {
  /* GL 4.6 §7.2: SPIR_V_BINARY is TRUE for a shader given a SPIR-V module. */
  GLuint shader = binary_shader(kCountersModule, (GLsizei)sizeof kCountersModule);
  GLint flag = 0;
  glGetShaderiv(shader, GL_SPIR_V_BINARY, &flag);
  CHECK(flag == GL_TRUE, "SPIR_V_BINARY is TRUE");
  /* GL 4.6 §7.2.1: "An INVALID_VALUE error is generated if pEntryPoint does not name a valid entry point" and "if
   * any element of pConstantIndex refers to a specialization constant that does not exist in the module". */
  glSpecializeShader(shader, "entry", 0, NULL, NULL);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "SpecializeShader with an unknown entry point");
  const GLuint id = 10, value = 10;
  glSpecializeShader(shader, "main", 1, &id, &value);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "SpecializeShader with an unknown specialization constant");
  /* GL 4.6 §7.3: linking fails if a SPIR-V shader was not specialized. */
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = 1;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_FALSE, "a program with an unspecialized SPIR-V shader does not link");
  /* ... or if it mixes shaders with and without SPIR_V_BINARY. */
  glSpecializeShader(shader, "main", 0, NULL, NULL);
  CHECK_GL_ERROR(GL_NO_ERROR, "SpecializeShader");
  GLuint glsl = glCreateShader(GL_COMPUTE_SHADER);
  const char* source = "#version 450\nvoid helper() {}\n";
  glShaderSource(glsl, 1, &source, NULL);
  glCompileShader(glsl);
  glAttachShader(program, glsl);
  glLinkProgram(program);
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_FALSE, "a program mixing SPIR-V and GLSL shaders does not link");
  /* GL 4.6 §7.2: "INVALID_VALUE is generated if the data pointed to by binary does not match the format". */
  uint32_t bad[64];
  memcpy(bad, kCountersModule, sizeof bad);
  bad[0] = 0x12345678u;
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, bad, (GLsizei)sizeof bad);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "ShaderBinary with a wrong magic number");
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, kCountersModule, 12);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "ShaderBinary with a truncated module");
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  if (!conformance_has_extension("GL_ARB_gl_spirv")) conformance_skip("GL_ARB_gl_spirv is not supported");
  check_queries();
  check_uniforms_by_location();
  check_atomic_counters();
  check_errors();
  return conformance_result();
}
