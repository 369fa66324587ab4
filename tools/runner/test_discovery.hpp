// Which tests a `bismuth run` covers: directories (searched recursively for *.shader_test files and corpus case
// folders, i.e. folders with a case.json), single files, list files (one path or glob per line) and globs.
#pragma once

#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

struct TestSpec {
  enum class Kind { ShaderTest, CorpusCase };
  Kind kind = Kind::ShaderTest;
  // Stable name for baselines and reports: the path relative to the directory given on the command line,
  // without ".shader_test"; corpus cases end in "@glsl", "@hlsl" or "@nvasm" (the front).
  std::string name;
  std::string path;   // the .shader_test file or the case folder
  std::string front;  // corpus cases: "glsl", "hlsl" or "nvasm"
};

struct DiscoveryOptions {
  bool glsl = true;    // corpus cases through the GLSL front
  bool nvasm = false;  // ... and/or through the NV assembly front
  bool hlsl = false;   // ... and/or, for cases that have a shader.hlsl, through the HLSL front
};

// Tests of every input, sorted by name, each path once. A list file is a file that is neither a .shader_test
// nor a case.json: each non-empty, non-'#' line is a path or glob relative to the list file's folder.
// Errors name the input that matched nothing or could not be read.
Expected<std::vector<TestSpec>> discover_tests(const std::vector<std::string>& inputs, const DiscoveryOptions& options);

}  // namespace bismuth::tools::runner
