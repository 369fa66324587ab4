// A reference corpus case folder (case.json + shader.comp + program.nvcp5 + expected.bin; the corpus README
// says how to run one) as a value, plus the two rules every front shares: the input words and the comparison.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::runner {

struct CorpusUniform {
  std::string name;
  std::string type;            // float | uint | int
  uint32_t bits = 0;           // the value's bit pattern
  uint32_t program_local = 0;  // program.local[k] of the assembly program
};

struct CorpusCase {
  std::string name;  // the folder name: also the input seed
  std::string dir;
  std::array<uint32_t, 3> num_groups{};
  std::optional<std::array<uint32_t, 3>> group_size;  // local_size_variable dispatch
  uint32_t input_binding = 0, input_words = 0;
  uint32_t output_binding = 1, output_words = 0, output_init = 0;
  std::vector<CorpusUniform> uniforms;
  std::vector<std::pair<uint32_t, uint32_t>> storage_map;  // program.storage[i] -> GL binding
  std::string compare;                                     // exact | float32:R | float64:R
  std::optional<uint32_t> requires_subgroup_size;
};

// Reads dir/case.json; errors name the file and the field.
Expected<CorpusCase> load_corpus_case(const std::string& dir);
// xorshift32 seeded by FNV-1a of the case name; at least one word (binding 0 always holds a buffer).
std::vector<uint32_t> corpus_input(const CorpusCase& c);
// Compares the output with expected.bin under the case's rule; an error message names the first mismatches.
Expected<void> corpus_compare(const CorpusCase& c, const std::vector<uint32_t>& got,
                              const std::vector<uint32_t>& expected);
// dir/expected.bin as words; an error when its size is not output.words * 4.
Expected<std::vector<uint32_t>> corpus_expected(const CorpusCase& c);

}  // namespace bismuth::runner
