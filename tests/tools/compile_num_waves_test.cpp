// `bismuth compile` with numWaves programs (issue 16): HLSL through glslang's HLSL front (`x.hlsl -E entry`, or
// --language hlsl), GLSL with GL_BISMUTH_num_waves, and --wave-size. Every module written is checked with spirv-val.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "bismuth/spirv_patch/validate.hpp"
#include "support/run_process.hpp"

using bismuth::test::run_process;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("bismuth-cli-num-waves-" + std::to_string(getpid()));
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

std::string example(const std::string& name) {
  return std::string(BISMUTH_SOURCE_DIR) + "/examples/num_waves/" + name;
}

void check_valid_module(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() % 4 == 0);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  auto valid = bismuth::spirv_patch::validate(words, bismuth::spirv_patch::TargetEnv::Vulkan1_1);
  if (!valid) FAIL(valid.error().message);
}

}  // namespace

TEST_CASE("bismuth compile x.hlsl -E entry: the proposal's examples, in the num_waves module form") {
  Scratch s;
  struct Case {
    const char* file;
    const char* entry;
    const char* note;
  };
  const Case cases[] = {{"tile_minmax_1wave.hlsl", "ComputeMinMaxZ", "num_waves: 1 wave of size 8..64"},
                        {"tile_minmax_2wave.hlsl", "ComputeMinMaxZ", "num_waves: 2 waves of size 8..32"},
                        {"compaction_4wave.hlsl", "Main", "num_waves: 4 waves of size 8..64"}};
  for (const Case& c : cases) {
    INFO(c.file);
    const std::string output = (s.dir / "out.spv").string();
    auto result = run_process({cli(), "compile", example(c.file), "-E", c.entry, "-o", output, "--disasm"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.err, Catch::Contains(c.note) && Catch::Contains("SpecIds 31488 31489 31490"));
    // Seam 1 of the design: SpecIds 0x7B00..0x7B02 carry the group size.
    CHECK_THAT(result.out, Catch::Contains("SpecId 31488") && Catch::Contains("SpecId 31490") &&
                               Catch::Contains(std::string("OpEntryPoint GLCompute %") + c.entry));
    check_valid_module(output);
  }
}

TEST_CASE("bismuth compile --language hlsl, plain [numthreads] HLSL, and HLSL errors as file:line:column") {
  Scratch s;
  const auto plain = s.write("plain.txt",
                             "RWStructuredBuffer<uint> o : register(u0);\n[numthreads(64, 1, 1)]\n"
                             "void main(uint3 t : SV_DispatchThreadID) { o[t.x] = WavePrefixCountBits(true); }\n");
  const std::string output = (s.dir / "plain.spv").string();
  auto ok = run_process({cli(), "compile", plain, "--language", "hlsl", "-o", output});
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);
  check_valid_module(output);
  const auto bad = s.write("bad.hlsl",
                           "RWStructuredBuffer<uint> o : register(u0);\n[numWaves(2)]\n"
                           "void main(uint3 t : SV_GroupThreadID) { o[t.x] = 1; }\n");
  auto failed = run_process({cli(), "compile", bad, "-o", output});
  CHECK(failed.exit_code != 0);
  CHECK_THAT(failed.err, Catch::StartsWith(bad + ":3:21: error: 'SV_GroupThreadID' cannot be used in a [numWaves]"));
  auto unknown = run_process({cli(), "compile", bad, "--language", "cuda", "-o", output});
  CHECK(unknown.exit_code != 0);
  CHECK_THAT(unknown.err, Catch::Contains("unknown --language"));
}

TEST_CASE("bismuth compile: GLSL num_waves shaders") {
  Scratch s;
  for (const char* file : {"tile_minmax_1wave.comp", "tile_minmax_2wave.comp", "compaction_4wave.comp"}) {
    INFO(file);
    const std::string output = (s.dir / "glsl.spv").string();
    auto result = run_process({cli(), "compile", example(file), "-o", output});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.err, Catch::Contains("num_waves: "));
    check_valid_module(output);
  }
  const auto bad = s.write("bad.comp",
                           "#version 450\n#extension GL_BISMUTH_num_waves : require\nlayout(num_waves = 2) in;\n"
                           "layout(std430, binding = 0) buffer B { uint o[]; };\n"
                           "void main() { o[gl_LocalInvocationIndex] = 1u; }\n");
  auto failed = run_process({cli(), "compile", bad, "-o", (s.dir / "bad.spv").string()});
  CHECK(failed.exit_code != 0);
  CHECK_THAT(failed.err, Catch::StartsWith(bad + ":5:17: error: 'gl_LocalInvocationIndex' cannot be used"));
}

TEST_CASE("bismuth compile --wave-size checks the wave size against the program's range") {
  // docs/GL_BISMUTH_num_waves.txt 4.4.1.4: the committed wave size is a power of two within
  // [wave_size_min, wave_size_max].
  Scratch s;
  const std::string output = (s.dir / "w.spv").string();
  for (const char* size : {"24", "4", "128"}) {
    auto result = run_process(
        {cli(), "compile", example("compaction_4wave.hlsl"), "-E", "Main", "-o", output, "--wave-size", size});
    INFO(size);
    CHECK(result.exit_code != 0);
    CHECK_THAT(result.err, Catch::Contains("not a power of two within the program's range (4 waves of size 8..64)"));
  }
  const auto fixed = s.write("fixed.hlsl", "[numthreads(8, 1, 1)]\nvoid main() {}\n");
  auto not_num_waves = run_process({cli(), "compile", fixed, "-o", output, "--wave-size", "32"});
  CHECK(not_num_waves.exit_code != 0);
  CHECK_THAT(not_num_waves.err, Catch::Contains("does not declare num_waves"));
  auto specialized = run_process({cli(), "compile", example("compaction_4wave.hlsl"), "-E", "Main", "-o", output,
                                  "--wave-size", "32", "--disasm"});
  INFO(specialized.err);
  REQUIRE(specialized.exit_code == 0);
  // 4 waves of 32: the group size (128, 1, 1) whatever form the module states it in.
  CHECK_THAT(specialized.out, Catch::Contains("128"));
  check_valid_module(output);
}
