// GL_BISMUTH_num_waves through libbismuth-gl's public API: one test per rule of docs/GL_BISMUTH_num_waves.txt
// ("Additions to the OpenGL API"), quoting it, on whatever device BISMUTH_DEVICE selects (lavapipe: waves of 8;
// the H100: 32).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

// The fixture first: it asks glcorearb.h for prototypes, which glext_bismuth.h includes too.
#include "translator/gl/gl_fixture.hpp"

#include "bismuth/gl/glext_bismuth.h"

using namespace bismuth::gltest;

namespace {

// Every invocation records (wave index, lane, wave size, gl_NumWaves) at its flat position in the group.
const char* kWaves = R"(#version 450
#extension GL_BISMUTH_num_waves : require
layout(num_waves = 3) in;
layout(std430, binding = 0) buffer B { uvec4 v[]; };
shared uint per_wave[gl_NumWaves];
void main() {
  uint flat_id = gl_WorkGroupID.x * gl_NumWaves * gl_WaveSize + gl_WaveIndex * gl_WaveSize + gl_WaveLaneIndex;
  if (gl_WaveLaneIndex == 0u) per_wave[gl_WaveIndex] = gl_WaveIndex + 1u;
  barrier();
  v[flat_id] = uvec4(gl_WaveIndex, gl_WaveLaneIndex, gl_WaveSize, per_wave[gl_WaveIndex] * 100u + gl_NumWaves);
}
)";

GLint program_int(GLuint program, GLenum pname) {
  GLint v = -1;
  glGetProgramiv(program, pname, &v);
  return v;
}

std::string link_log(GLuint program) {
  char log[4096] = {};
  glGetProgramInfoLog(program, sizeof log, nullptr, log);
  return log;
}

// Compiles `source` (HLSL when `entry` is set) into a program and links it; returns the program either way.
GLuint link_program(const std::string& source, const char* entry = nullptr, GLint hint = GL_DONT_CARE) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  if (entry) {
    glShaderSourceHLSLBISMUTH(shader, 1, &text, nullptr, entry);
  } else {
    glShaderSource(shader, 1, &text, nullptr);
  }
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  glProgramParameteri(program, GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH, hint);
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  return program;
}


}  // namespace

TEST_CASE("num_waves: the program reports the committed wave size, the count and the work group size") {
  // "COMPUTE_WAVE_SIZE_BISMUTH returns the wave size the program committed to at its last successful link ...
  // COMPUTE_WORK_GROUP_SIZE returns (num_waves x the wave size, 1, 1)."
  GlContext gl;
  REQUIRE(has_extension("GL_BISMUTH_num_waves"));
  const GLuint program = link_program(kWaves);
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  const GLint w = program_int(program, GL_COMPUTE_WAVE_SIZE_BISMUTH);
  GLint subgroup = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &subgroup);
  CHECK(w > 0);
  CHECK((w & (w - 1)) == 0);
  CHECK(program_int(program, GL_COMPUTE_NUM_WAVES_BISMUTH) == 3);
  GLint size[3] = {};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  CHECK(size[0] == 3 * w);
  CHECK(size[1] == 1);
  CHECK(size[2] == 1);
  CHECK(glGetError() == GL_NO_ERROR);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("num_waves: every invocation sees its wave, its lane and the committed wave size") {
  // "gl_WaveIndex is the index of the invocation's wave in its work group, 0 .. gl_NumWaves - 1; gl_WaveLaneIndex
  // its index in the wave, 0 .. gl_WaveSize - 1; gl_WaveSize the committed wave size."
  GlContext gl;
  const GLuint program = link_program(kWaves);
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  const auto w = static_cast<uint32_t>(program_int(program, GL_COMPUTE_WAVE_SIZE_BISMUTH));
  constexpr uint32_t kGroups = 5;
  std::vector<uint32_t> init(size_t{kGroups} * 3 * w * 4, 0xdeadbeefu);
  const GLuint buffer = make_buffer(static_cast<GLsizeiptr>(init.size() * 4), init.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(kGroups, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const std::vector<uint32_t> got = read_words(buffer, init.size());
  for (uint32_t g = 0; g < kGroups; ++g) {
    for (uint32_t wave = 0; wave < 3; ++wave) {
      for (uint32_t lane = 0; lane < w; ++lane) {
        const size_t at = ((size_t{g} * 3 + wave) * w + lane) * 4;
        INFO("group " << g << " wave " << wave << " lane " << lane);
        REQUIRE(got[at] == wave);
        REQUIRE(got[at + 1] == lane);
        REQUIRE(got[at + 2] == w);
        REQUIRE(got[at + 3] == (wave + 1) * 100 + 3);
      }
    }
  }
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("num_waves: the wave-size hint chooses within the possible sizes at the next link") {
  // "COMPUTE_WAVE_SIZE_HINT_BISMUTH ... COMPUTE_WAVE_SIZE_SMALL_BISMUTH selects the smallest wave size the program
  // can commit to, COMPUTE_WAVE_SIZE_LARGE_BISMUTH the largest."
  GlContext gl;
  const GLuint small = link_program(kWaves, nullptr, GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH);
  const GLuint large = link_program(kWaves, nullptr, GL_COMPUTE_WAVE_SIZE_LARGE_BISMUTH);
  REQUIRE(program_int(small, GL_LINK_STATUS) == GL_TRUE);
  REQUIRE(program_int(large, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(small, GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH) == GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH);
  CHECK(program_int(small, GL_COMPUTE_WAVE_SIZE_BISMUTH) <= program_int(large, GL_COMPUTE_WAVE_SIZE_BISMUTH));
  glDeleteProgram(small);
  glDeleteProgram(large);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("num_waves: a hint other than the three values is INVALID_VALUE") {
  // "An INVALID_VALUE error is generated by ProgramParameteri if pname is COMPUTE_WAVE_SIZE_HINT_BISMUTH and value
  // is not DONT_CARE, COMPUTE_WAVE_SIZE_SMALL_BISMUTH or COMPUTE_WAVE_SIZE_LARGE_BISMUTH."
  GlContext gl;
  const GLuint program = glCreateProgram();
  glProgramParameteri(program, GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH, GL_TRUE);
  CHECK(glGetError() == GL_INVALID_VALUE);
  CHECK(program_int(program, GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH) == GL_DONT_CARE);
  glDeleteProgram(program);
}

TEST_CASE("num_waves: a wave-size range the device cannot meet fails the link, naming the device's sizes") {
  // "If no wave size satisfies the declared range and the device's limits, the link fails."
  GlContext gl;
  const GLuint program = link_program(R"(#version 450
#extension GL_BISMUTH_num_waves : require
layout(num_waves = 2) in;
layout(wave_size_min = 128, wave_size_max = 128) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_WorkGroupID.x] = gl_WaveIndex; }
)");
  CHECK(program_int(program, GL_LINK_STATUS) == GL_FALSE);
  const std::string log = link_log(program);
  CHECK(log.find("cannot honour 2 waves") != std::string::npos);
  CHECK(program_int(program, GL_COMPUTE_WAVE_SIZE_BISMUTH) == 0);
  glDeleteProgram(program);
}

TEST_CASE("num_waves: DispatchComputeGroupSizeARB on a num_waves program is INVALID_OPERATION") {
  // "An INVALID_OPERATION error is generated by DispatchComputeGroupSizeARB if the active program for the compute
  // shader stage declares num_waves."
  GlContext gl;
  const GLuint program = link_program(kWaves);
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  glUseProgram(program);
  glDispatchComputeGroupSizeARB(1, 1, 1, 8, 1, 1);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glDeleteProgram(program);
}

TEST_CASE("num_waves: other programs report 0 for the wave size and count") {
  // "For a program that does not declare num_waves, COMPUTE_WAVE_SIZE_BISMUTH and COMPUTE_NUM_WAVES_BISMUTH are 0."
  GlContext gl;
  const GLuint program = make_program("#version 450\nlayout(local_size_x = 4) in;\nvoid main() {}\n");
  CHECK(program_int(program, GL_COMPUTE_WAVE_SIZE_BISMUTH) == 0);
  CHECK(program_int(program, GL_COMPUTE_NUM_WAVES_BISMUTH) == 0);
  CHECK(glGetError() == GL_NO_ERROR);
  glDeleteProgram(program);
}

TEST_CASE("HLSL: glShaderSourceHLSLBISMUTH compiles an HLSL compute shader that links and runs") {
  // "ShaderSourceHLSLBISMUTH sets the source of a compute shader object to HLSL ... SHADER_SOURCE_HLSL_BISMUTH is
  // TRUE until ShaderSource replaces it."
  GlContext gl;
  const char* hlsl = R"(RWStructuredBuffer<uint> Out : register(u0);
[numWaves(2)]
void Main(uint3 group : SV_GroupID) {
  Out[(group.x * GetGroupNumWaves() + GetGroupWaveIndex()) * WaveGetLaneCount() + WaveGetLaneIndex()] =
      GetGroupWaveIndex() * 1000 + WaveGetLaneIndex();
}
)";
  const GLuint program = link_program(hlsl, "Main");
  INFO(link_log(program));
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  const auto w = static_cast<uint32_t>(program_int(program, GL_COMPUTE_WAVE_SIZE_BISMUTH));
  std::vector<uint32_t> init(size_t{4} * 2 * w, 0xffffffffu);
  const GLuint buffer = make_buffer(static_cast<GLsizeiptr>(init.size() * 4), init.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(4, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const std::vector<uint32_t> got = read_words(buffer, init.size());
  for (uint32_t i = 0; i < got.size(); ++i) {
    const uint32_t wave = (i / w) % 2, lane = i % w;
    INFO("word " << i);
    REQUIRE(got[i] == wave * 1000 + lane);
  }
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("HLSL: the HLSL flag follows the last source call, and only compute shaders take HLSL") {
  GlContext gl;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = "[numthreads(1,1,1)] void main() {}";
  glShaderSourceHLSLBISMUTH(shader, 1, &text, nullptr, nullptr);
  GLint hlsl = -1;
  glGetShaderiv(shader, GL_SHADER_SOURCE_HLSL_BISMUTH, &hlsl);
  CHECK(hlsl == GL_TRUE);
  glCompileShader(shader);
  GLint compiled = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  CHECK(compiled == GL_TRUE);
  const char* glsl = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  glShaderSource(shader, 1, &glsl, nullptr);
  glGetShaderiv(shader, GL_SHADER_SOURCE_HLSL_BISMUTH, &hlsl);
  CHECK(hlsl == GL_FALSE);
  // GL 4.6 §7.1's rule for ShaderSource, kept: "An INVALID_VALUE error is generated if count is negative."
  glShaderSourceHLSLBISMUTH(shader, -1, &text, nullptr, nullptr);
  CHECK(glGetError() == GL_INVALID_VALUE);
  const GLuint vertex = glCreateShader(GL_VERTEX_SHADER);
  glShaderSourceHLSLBISMUTH(vertex, 1, &text, nullptr, nullptr);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glShaderSourceHLSLBISMUTH(12345, 1, &text, nullptr, nullptr);
  CHECK(glGetError() == GL_INVALID_VALUE);
  glDeleteShader(shader);
  glDeleteShader(vertex);
}
