// `bismuth compile` takes .comp files through the GL shim's GLSL front: GL-style GLSL that Vulkan GLSL rejects
// (local_size_variable, default-block uniforms, atomic counters) compiles, with the binding map as a note.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "support/run_process.hpp"

using bismuth::test::run_process;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("bismuth-cli-gl-" + std::to_string(getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

std::string cli() {
  return bismuth::test::tool_path(BISMUTH_CLI_PATH);
}

const char* kGlShader = R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(binding = 0, offset = 0) uniform atomic_uint counter;
uniform float scale;
layout(std430, binding = 3) buffer B { float v[]; };
void main() {
  v[gl_GlobalInvocationID.x] = scale;
  atomicCounterIncrement(counter);
}
)";

}  // namespace

TEST_CASE("bismuth compile accepts local_size_variable, default uniforms and atomic counters") {
  Scratch s;
  const auto input = s.write("gl.comp", kGlShader);
  const auto output = (s.dir / "gl.spv").string();
  auto result = run_process({cli(), "compile", input, "-o", output, "--disasm"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(fs::file_size(output) > 20);
  // GL's binding namespaces are renumbered into set 0; the note says how.
  CHECK_THAT(result.err, Catch::Contains("binding 0: shader storage buffer 3") &&
                             Catch::Contains("atomic counter buffer 0") && Catch::Contains("default uniform block"));
  CHECK_THAT(result.err, Catch::Contains("local_size_variable: the group size is specialization constants"));
  CHECK_THAT(result.out, Catch::Contains("OpDecorate") && Catch::Contains("SpecId 31488"));
}

TEST_CASE("bismuth compile --variable-group-size leaves a local_size_variable shader's spec constants alone") {
  Scratch s;
  const auto input = s.write("gl.comp", kGlShader);
  auto result = run_process({cli(), "compile", input, "-o", (s.dir / "out.spv").string(), "--variable-group-size"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, !Catch::Contains("warning"));
}

TEST_CASE("bismuth compile reports GL front errors as file:line:column") {
  Scratch s;
  const auto input =
      s.write("bad.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  uint x = nope;\n}\n");
  auto result = run_process({cli(), "compile", input, "-o", (s.dir / "out.spv").string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith(input + ":4:12: error: 'nope' : undeclared identifier"));
  // A GL link error (no group size at all) is reported too, naming the file.
  const auto nosize = s.write("nosize.comp", "#version 450\nvoid main() {}\n");
  result = run_process({cli(), "compile", nosize, "-o", (s.dir / "out.spv").string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith(nosize + ": error: compute shader must declare a local group size"));
}
