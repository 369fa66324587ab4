// The whole reference corpus through glProgramStringARB: each case's program.nvcp5 loaded, dispatched and compared
// with expected.bin by the corpus rules every front shares (the runner's corpus_case.hpp).
#include "translator/gl/asm_program_support.hpp"
#include "corpus_case.hpp"
#include "translator/gl/corpus_paths.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;

namespace {

void run_case(const std::string& name) {
  const auto dir = corpus_dir() / name;
  REQUIRE(std::filesystem::exists(dir / "case.json"));
  const auto spec = nlohmann::json::parse(read_text(dir / "case.json"));
  const std::string source = read_text(dir / "program.nvcp5");
  GlContext gl;
  REQUIRE(has_extension("GL_NV_compute_program5"));

  new_program();
  const GLenum loaded = load(source);
  if (loaded != GL_NO_ERROR) {
    // Only the cases that need NVIDIA's 32-lane warps may fail, only where the device cannot run them, and with
    // the clear error.
    INFO(error_string());
    CHECK(loaded == GL_INVALID_OPERATION);
    REQUIRE_FALSE(spec["requires_subgroup_size"].is_null());
    CHECK_FALSE(has_extension("GL_NV_shader_thread_group"));
    CHECK(error_string().find("need a subgroup size of 32") != std::string::npos);
    CHECK(error_string().rfind("line ", 0) == 0);
    CHECK(error_position() > 0);
    CHECK(error_position() < static_cast<GLint>(source.size()));
    WARN(name << ": fails to load on this device, as expected: " << error_string());
    return;
  }
  REQUIRE(error_position() == -1);
  REQUIRE(error_string().empty());

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
  // program.storage[k] is GL_SHADER_STORAGE_BUFFER binding point k (NV_shader_storage_buffer_object); the map
  // says which of the case's buffers (by their GLSL binding) each program.storage index is.
  for (const auto& m : spec["nv_storage_map"]) {
    const uint32_t g = m["gl_binding"].get<uint32_t>();
    const GLuint buffer = g == spec["input"].value("binding", 0u) ? in_buffer : out_buffer;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, m["program_storage"].get<GLuint>(), buffer);
  }
  for (const auto& u : spec["uniforms"]) {
    const GLuint index = u["program_local"].get<GLuint>();
    const std::string type = u["type"];
    if (type == "float") {
      glProgramLocalParameter4fARB(GL_COMPUTE_PROGRAM_NV, index, u["value"].get<float>(), 0, 0, 0);
    } else if (type == "uint") {
      glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, index, u["value"].get<uint32_t>(), 0, 0, 0);
    } else if (type == "int") {
      glProgramLocalParameterI4iNV(GL_COMPUTE_PROGRAM_NV, index, u["value"].get<int32_t>(), 0, 0, 0);
    } else {
      FAIL("uniform type " << type);
    }
  }
  glEnable(GL_COMPUTE_PROGRAM_NV);
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
  const std::vector<uint32_t> got = read_words(out_buffer, output_words);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
  CHECK_FALSE(gl.saw_message_containing("dispatch was skipped"));

  auto expected = bismuth::tools::runner::corpus_expected(*corpus);
  INFO((expected ? std::string() : expected.error().message));
  REQUIRE(expected);
  const auto compared = bismuth::tools::runner::corpus_compare(*corpus, got, *expected);
  INFO(compared.error().message);
  CHECK(compared.has_value());
}

}  // namespace

#define ASM_CORPUS_CASE(name) \
  TEST_CASE("Assembly corpus case " name " runs through glProgramStringARB", "[asm][corpus]") { run_case(name); }

ASM_CORPUS_CASE("ballot_arb")
ASM_CORPUS_CASE("dispatch3d")
ASM_CORPUS_CASE("float_atomic_nv")
ASM_CORPUS_CASE("float_math")
ASM_CORPUS_CASE("fp64_math")
ASM_CORPUS_CASE("histogram_atomic")
ASM_CORPUS_CASE("int_bits")
ASM_CORPUS_CASE("iota_store")
ASM_CORPUS_CASE("saxpy_uniform")
ASM_CORPUS_CASE("shared_atomics")
ASM_CORPUS_CASE("shared_reduce")
ASM_CORPUS_CASE("subgroup_khr")
ASM_CORPUS_CASE("thread_group_nv")
ASM_CORPUS_CASE("transpose_tile")
ASM_CORPUS_CASE("var_size_ids")
ASM_CORPUS_CASE("var_size_ids_b")
ASM_CORPUS_CASE("var_size_reduce")

TEST_CASE("The assembly corpus test covers every case", "[asm]") {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) {
    n += entry.is_directory() && std::filesystem::exists(entry.path() / "program.nvcp5");
  }
  CHECK(n == 17);
}
