// Program pipeline objects (GL 4.6 §7.4; core in OpenGL ES 3.1: separate shader objects) with compute programs:
// each test quotes the rule it checks.
#include "translator/gl/gl_fixture.hpp"

using bismuth::gltest::GlContext;

namespace {

const char* const kScaleShader =
    "#version 430\n"
    "layout(local_size_x = 8) in;\n"
    "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
    "uniform uint factor;\n"
    "void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * factor; }\n";

GLint pipeline_value(GLuint pipeline, GLenum pname) {
  GLint v = -1;
  glGetProgramPipelineiv(pipeline, pname, &v);
  return v;
}

}  // namespace

TEST_CASE("Without a current program, the bound pipeline's compute program dispatches and takes glUniform*") {
  GlContext gl;
  // GL 4.6 §7.3: CreateShaderProgramv links the program with PROGRAM_SEPARABLE set to TRUE.
  const GLuint program = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &kScaleShader);
  GLint separable = 0;
  glGetProgramiv(program, GL_PROGRAM_SEPARABLE, &separable);
  CHECK(separable == GL_TRUE);
  GLuint pipeline = 0;
  glGenProgramPipelines(1, &pipeline);
  // "If pipeline is a name returned by GenProgramPipelines but that has not yet been bound ... IsProgramPipeline
  // returns FALSE."
  CHECK(glIsProgramPipeline(pipeline) == GL_FALSE);
  glBindProgramPipeline(pipeline);
  CHECK(glIsProgramPipeline(pipeline) == GL_TRUE);
  GLint binding = 0;
  glGetIntegerv(GL_PROGRAM_PIPELINE_BINDING, &binding);
  CHECK(binding == static_cast<GLint>(pipeline));
  glUseProgramStages(pipeline, GL_COMPUTE_SHADER_BIT, program);
  glActiveShaderProgram(pipeline, program);
  CHECK(pipeline_value(pipeline, GL_COMPUTE_SHADER) == static_cast<GLint>(program));
  CHECK(pipeline_value(pipeline, GL_ACTIVE_PROGRAM) == static_cast<GLint>(program));
  // GL 4.6 §7.6.1: with no current program, Uniform* writes the pipeline's active program.
  glUniform1ui(glGetUniformLocation(program, "factor"), 3u);
  const GLuint buffer = bismuth::gltest::make_buffer(16 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glDispatchCompute(2, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  auto values = bismuth::gltest::read_words(buffer, 16);
  for (uint32_t i = 0; i < 16; ++i) CHECK(values[i] == i * 3u);
  // A current program wins over the pipeline (GL 4.6 §7.3): dispatch and uniforms go to it.
  const GLuint other = bismuth::gltest::make_program(kScaleShader);
  glUseProgram(other);
  glUniform1ui(glGetUniformLocation(other, "factor"), 5u);
  glDispatchCompute(2, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  values = bismuth::gltest::read_words(buffer, 16);
  for (uint32_t i = 0; i < 16; ++i) CHECK(values[i] == i * 5u);
  glUseProgram(0);
  // Deleting the bound pipeline reverts the binding to zero; dispatch then has no program.
  glDeleteProgramPipelines(1, &pipeline);
  glGetIntegerv(GL_PROGRAM_PIPELINE_BINDING, &binding);
  CHECK(binding == 0);
  glDispatchCompute(1, 1, 1);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  glDeleteProgram(other);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Program pipeline calls check their names, programs and bits") {
  GlContext gl;
  GLuint pipeline = 0;
  glCreateProgramPipelines(1, &pipeline);
  CHECK(glIsProgramPipeline(pipeline) == GL_TRUE);  // CreateProgramPipelines makes the objects
  // "An INVALID_OPERATION error is generated if pipeline is not zero or a name returned from a previous call to
  // GenProgramPipelines".
  glBindProgramPipeline(pipeline + 1000);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  // UseProgramStages: "An INVALID_OPERATION error is generated if program refers to a program object that was not
  // linked with its PROGRAM_SEPARABLE status set"; stages other than the stage bits or ALL_SHADER_BITS are
  // INVALID_VALUE.
  const GLuint plain = bismuth::gltest::make_program(kScaleShader);
  glUseProgramStages(pipeline, GL_COMPUTE_SHADER_BIT, plain);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glProgramParameteri(plain, GL_PROGRAM_SEPARABLE, GL_TRUE);
  glUseProgramStages(pipeline, GL_COMPUTE_SHADER_BIT, plain);  // separable now, but not linked so
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glLinkProgram(plain);
  glUseProgramStages(pipeline, GL_COMPUTE_SHADER_BIT, plain);
  CHECK(glGetError() == GL_NO_ERROR);
  glUseProgramStages(pipeline, 0x80000000u, plain);
  CHECK(glGetError() == GL_INVALID_VALUE);
  // ProgramParameteri: a pname other than the two program parameters is INVALID_ENUM, a value other than TRUE /
  // FALSE INVALID_VALUE.
  glProgramParameteri(plain, GL_LINK_STATUS, GL_TRUE);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glProgramParameteri(plain, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 2);
  CHECK(glGetError() == GL_INVALID_VALUE);
  glProgramParameteri(plain, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  GLint hint = 0;
  glGetProgramiv(plain, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, &hint);
  CHECK(hint == GL_TRUE);
  // ValidateProgramPipeline: VALIDATE_STATUS, with an info log when the pipeline is not valid.
  glValidateProgramPipeline(pipeline);
  CHECK(pipeline_value(pipeline, GL_VALIDATE_STATUS) == GL_TRUE);
  glUseProgramStages(pipeline, GL_ALL_SHADER_BITS, 0);
  CHECK(pipeline_value(pipeline, GL_COMPUTE_SHADER) == 0);
  glValidateProgramPipeline(pipeline);
  CHECK(pipeline_value(pipeline, GL_VALIDATE_STATUS) == GL_FALSE);
  CHECK(pipeline_value(pipeline, GL_INFO_LOG_LENGTH) > 1);
  char log[256] = {};
  glGetProgramPipelineInfoLog(pipeline, sizeof log, nullptr, log);
  CHECK(std::string(log).size() > 0);
  glGetProgramPipelineiv(pipeline, GL_LINK_STATUS, &hint);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glDeleteProgramPipelines(1, &pipeline);
  glDeleteProgram(plain);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
