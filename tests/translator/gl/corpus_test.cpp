// The reference corpus (tests/data/corpus/nvidia-h100, README.md there) run through the GL API from shader.comp:
// input at binding 0 (xorshift32 seeded by FNV-1a of the case name), output at binding 1 poisoned with
// output.init, uniforms by name, glDispatchComputeGroupSizeARB for local_size_variable cases, compared as
// case.json says. Cases with requires_subgroup_size hold only on devices of that subgroup size: elsewhere they run
// for crashes and validity only and are never reported as passing against expected.bin.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "translator/gl/gl_fixture.hpp"
#include "corpus_case.hpp"
#include "translator/gl/corpus_paths.hpp"

using namespace bismuth::gltest;

namespace {

void run_case(const std::string& name) {
  const auto dir = corpus_dir() / name;
  REQUIRE(std::filesystem::exists(dir / "case.json"));
  const auto spec = nlohmann::json::parse(read_text(dir / "case.json"));
  const std::string source = read_text(dir / "shader.comp");
  GlContext gl;

  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  char log[4096] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  if (name == "thread_group_nv") {
    // GL_NV_shader_thread_group has no glslang equivalent: a clear compile error, never a crash.
    CHECK_FALSE(ok);
    CHECK(std::string(log).find("NVIDIA-only") != std::string::npos);
    WARN(name << ": unsupported (NVIDIA-only GLSL extension): " << log);
    return;
  }
  INFO(log);
  REQUIRE(ok);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  glGetProgramInfoLog(program, sizeof log, nullptr, log);
  INFO(log);
  REQUIRE(ok);
  glUseProgram(program);

  // The corpus rules every front shares (input words, comparison) come from the runner's corpus_case.
  auto corpus = bismuth::tools::runner::load_corpus_case(dir.string());
  INFO((corpus ? std::string() : corpus.error().message));
  REQUIRE(corpus);
  const std::vector<uint32_t> input = bismuth::tools::runner::corpus_input(*corpus);
  const uint32_t output_words = corpus->output_words;
  const uint32_t init = corpus->output_init;
  std::vector<uint32_t> output(output_words, init);
  const GLuint in_buffer = make_buffer(static_cast<GLsizeiptr>(input.size() * 4), input.data());
  const GLuint out_buffer = make_buffer(static_cast<GLsizeiptr>(output.size() * 4), output.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, spec["input"].value("binding", 0u), in_buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, spec["output"].value("binding", 1u), out_buffer);

  for (const auto& u : spec["uniforms"]) {
    const GLint location = glGetUniformLocation(program, u["name"].get<std::string>().c_str());
    INFO("uniform " << u["name"]);
    REQUIRE(location >= 0);
    const std::string type = u["type"];
    if (type == "float") {
      glUniform1f(location, u["value"].get<float>());
    } else if (type == "uint") {
      glUniform1ui(location, u["value"].get<uint32_t>());
    } else if (type == "int") {
      glUniform1i(location, u["value"].get<int32_t>());
    } else {
      FAIL("uniform type " << type);
    }
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  const auto groups = spec["num_groups"];
  if (spec["group_size"].is_null()) {
    glDispatchCompute(groups[0], groups[1], groups[2]);
  } else {
    const auto size = spec["group_size"];
    glDispatchComputeGroupSizeARB(groups[0], groups[1], groups[2], size[0], size[1], size[2]);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  // Read back through a mapping, as GL programs usually do.
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, out_buffer);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(output_words * 4), GL_MAP_READ_BIT);
  REQUIRE(mapped != nullptr);
  std::vector<uint32_t> got(output_words);
  std::memcpy(got.data(), mapped, got.size() * 4);
  REQUIRE(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);

  if (!spec["requires_subgroup_size"].is_null()) {
    GLint subgroup = 0;
    glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &subgroup);
    const GLint required = spec["requires_subgroup_size"].get<GLint>();
    if (subgroup != required) {
      WARN(name << ": ran for validity only (subgroup size " << subgroup << ", expected.bin needs " << required
                << "); not compared");
      return;
    }
  }

  auto expected = bismuth::tools::runner::corpus_expected(*corpus);
  INFO((expected ? std::string() : expected.error().message));
  REQUIRE(expected);
  const auto compared = bismuth::tools::runner::corpus_compare(*corpus, got, *expected);
  INFO(compared.error().message);
  CHECK(compared.has_value());
}

}  // namespace

#define CORPUS_CASE(name) \
  TEST_CASE("Corpus case " name " runs through the GL API", "[corpus]") { run_case(name); }

CORPUS_CASE("ballot_arb")
CORPUS_CASE("dispatch3d")
CORPUS_CASE("float_atomic_nv")
CORPUS_CASE("float_math")
CORPUS_CASE("fp64_math")
CORPUS_CASE("histogram_atomic")
CORPUS_CASE("int_bits")
CORPUS_CASE("iota_store")
CORPUS_CASE("saxpy_uniform")
CORPUS_CASE("shared_atomics")
CORPUS_CASE("shared_reduce")
CORPUS_CASE("subgroup_khr")
CORPUS_CASE("thread_group_nv")
CORPUS_CASE("transpose_tile")
CORPUS_CASE("var_size_ids")
CORPUS_CASE("var_size_ids_b")
CORPUS_CASE("var_size_reduce")

TEST_CASE("The corpus has exactly the cases this file runs") {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) n += entry.is_directory();
  CHECK(n == 17);
}
