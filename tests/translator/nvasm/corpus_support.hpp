// The reference corpus (tests/data/corpus): NVIDIA's own !!NVcp5.0 output for GLSL compute shaders, with the words
// an H100 produced. Reads a case and runs it as tests/data/corpus/README.md says.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/nvasm/assembler.hpp"

namespace bismuth::test::corpus {

struct Case {
  std::string name;
  std::string program;                 // program.nvcp5
  std::vector<uint32_t> expected;      // expected.bin
  std::array<uint32_t, 3> num_groups{1, 1, 1};
  std::optional<std::array<uint32_t, 3>> group_size;
  uint32_t input_words = 0;
  uint32_t output_words = 0;
  uint32_t output_init = 0;
  struct Uniform {
    std::string type;
    double value = 0;
    uint32_t program_local = 0;
  };
  std::vector<Uniform> uniforms;
  std::vector<uint32_t> storage_map;   // program.storage[i] -> GL binding
  std::string compare;
  std::optional<uint32_t> requires_subgroup_size;
};

std::string corpus_dir();
std::vector<std::string> case_names();
Case load_case(const std::string& name);
std::vector<uint32_t> input_words(const Case& c);
// Empty when the output matches; else a description of the first mismatches.
std::string compare_output(const Case& c, const std::vector<uint32_t>& actual);

}  // namespace bismuth::test::corpus
