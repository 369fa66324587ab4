// `bismuth compile` hands on the words the GL shim gives the driver (spirv_patch/pipeline.hpp: one pipeline, the
// same options from translator/gl_program_pipeline.hpp and nvasm/gl_program_layout.hpp). For every GLSL compute
// shader and NV assembly program under tests/data and examples/ (shader_test files: their [compute shader]
// sections, linked together), the modules the shim creates with vkCreateShaderModule — the program's module and,
// for a variable group size, its run-time group size variant — are caught with BISMUTH_DUMP_SPIRV and compared byte
// for byte with `bismuth compile --device default` (the same device rule) and its --runtime-output.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"
#include <GL/glext.h>
#include "shader_test.hpp"
#include "support/run_process.hpp"

namespace fs = std::filesystem;
using bismuth::test::run_process;

namespace {

struct Case {
  std::string name;                // for messages
  std::vector<std::string> files;  // GLSL shaders of one program, or one .nvcp5
  bool assembly = false;
};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The source tree this binary was built from, else the working directory (bundled binaries run from a copy of the
// repository on another machine).
fs::path source_root() {
  const fs::path built(BISMUTH_SOURCE_DIR);
  return fs::exists(built / "tests/data") ? built : fs::current_path();
}

// Every program in the trees, shader_test sections written out as .comp files under `scratch`.
std::vector<Case> collect_cases(const fs::path& scratch) {
  std::vector<fs::path> paths;
  for (const char* root : {"tests/data", "examples"}) {
    for (const auto& entry : fs::recursive_directory_iterator(source_root() / root)) {
      if (entry.is_regular_file()) paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Case> cases;
  for (const fs::path& p : paths) {
    const std::string ext = p.extension().string();
    if (ext == ".comp") cases.push_back({p.string(), {p.string()}, false});
    if (ext == ".nvcp5") cases.push_back({p.string(), {p.string()}, true});
    if (ext != ".shader_test") continue;
    auto parsed = bismuth::tools::runner::parse_shader_test(read_bytes(p), p.string());
    REQUIRE(parsed);
    if (parsed->glsl_shaders.empty()) continue;
    Case c{p.string(), {}, false};
    for (size_t i = 0; i < parsed->glsl_shaders.size(); ++i) {
      const fs::path out = scratch / (p.stem().string() + "." + std::to_string(i) + ".comp");
      std::ofstream(out) << parsed->glsl_shaders[i].text;
      c.files.push_back(out.string());
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// Links (or loads) the case through GL with BISMUTH_DUMP_SPIRV=dir; the dump file prefix on success.
std::optional<std::string> build_with_gl(const Case& c, const fs::path& dir) {
  setenv("BISMUTH_DUMP_SPIRV", dir.c_str(), 1);
  std::optional<std::string> prefix;
  if (c.assembly) {
    const std::string source = read_bytes(c.files[0]);
    GLuint program = 0;
    glGenProgramsARB(1, &program);
    glBindProgramARB(GL_COMPUTE_PROGRAM_NV, program);
    glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ASCII_ARB, static_cast<GLsizei>(source.size()),
                       source.data());
    if (glGetError() == GL_NO_ERROR) prefix = "GL_assembly_program_" + std::to_string(program);
  } else {
    const GLuint program = glCreateProgram();
    for (const std::string& file : c.files) {
      const std::string source = read_bytes(file);
      const GLchar* text = source.c_str();
      const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
      glShaderSource(shader, 1, &text, nullptr);
      glCompileShader(shader);
      glAttachShader(program, shader);
      glDeleteShader(shader);
    }
    glLinkProgram(program);
    GLint linked = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    if (linked == GL_TRUE) prefix = "GL_program_" + std::to_string(program);
  }
  unsetenv("BISMUTH_DUMP_SPIRV");
  return prefix;
}

}  // namespace

TEST_CASE("bismuth compile writes the words the GL shim hands vkCreateShaderModule, per variant", "[cli_matches_gl]") {
  const fs::path scratch = fs::temp_directory_path() / ("bismuth-cli-matches-gl-" + std::to_string(getpid()));
  fs::create_directories(scratch);
  bismuth::gltest::GlContext gl;
  const std::vector<Case> cases = collect_cases(scratch);
  const std::string cli = bismuth::test::tool_path(BISMUTH_CLI_PATH);

  size_t compared = 0, variants = 0, refused_by_gl = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    INFO(c.name);
    const fs::path dir = scratch / std::to_string(i);
    fs::create_directories(dir);
    const auto prefix = build_with_gl(c, dir);
    if (!prefix) {
      // The device refuses it (limits, extensions the device lacks): GL reports that, and there is nothing to
      // compare; `bismuth compile` without those checks may still compile it.
      ++refused_by_gl;
      continue;
    }
    const fs::path gl_main = dir / (*prefix + ".spv");
    const fs::path gl_runtime = dir / (*prefix + "__runtime_group_size_.spv");
    REQUIRE(fs::exists(gl_main));

    std::vector<std::string> argv = {cli, "compile"};
    argv.insert(argv.end(), c.files.begin(), c.files.end());
    const fs::path cli_main = dir / "cli.spv";
    const fs::path cli_runtime = dir / "cli.runtime.spv";
    argv.insert(argv.end(), {"-o", cli_main.string(), "--device", "default"});
    if (fs::exists(gl_runtime)) argv.insert(argv.end(), {"--runtime-output", cli_runtime.string()});
    const auto result = run_process(argv);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(read_bytes(cli_main) == read_bytes(gl_main));
    ++compared;
    if (fs::exists(gl_runtime)) {
      CHECK(read_bytes(cli_runtime) == read_bytes(gl_runtime));
      ++variants;
    }
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  WARN("compared " << compared << " programs and " << variants << " run-time group size variants; " << refused_by_gl
                   << " programs this device refuses");
  // The trees hold ~60 programs; most run on any Vulkan 1.1 device, several with variable group sizes.
  CHECK(compared >= 30);
  CHECK(variants >= 5);
  REQUIRE(gl.validation_messages().empty());
}
