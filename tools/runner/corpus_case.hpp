// A reference corpus case folder (case.json + shader.comp + program.nvcp5 + expected.bin; the corpus README
// says how to run one) as a value, plus the two rules every front shares: the input words and the comparison.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

struct CorpusUniform {
  std::string name;
  std::string type;            // float | uint | int
  uint32_t bits = 0;           // the value's bit pattern
  uint32_t program_local = 0;  // program.local[k] of the assembly program
};

enum class CompareRule { Exact, Float32, Float64 };

struct CorpusCase {
  std::string name;  // the folder name: also the input seed
  std::string dir;
  std::array<uint32_t, 3> num_groups{};
  std::optional<std::array<uint32_t, 3>> group_size;  // local_size_variable dispatch
  uint32_t input_binding = 0, input_words = 0;
  uint32_t output_binding = 1, output_words = 0, output_init = 0;
  std::vector<CorpusUniform> uniforms;
  std::vector<std::pair<uint32_t, uint32_t>> storage_map;  // program.storage[i] -> GL binding
  std::string compare;                                     // exact | float32:R | float64:R, as written
  CompareRule compare_rule = CompareRule::Exact;
  double tolerance = 0;  // R of float32:R / float64:R: finite, >= 0
  std::optional<uint32_t> requires_subgroup_size;
  std::string hlsl_entry = "main";  // "hlsl_entry": shader.hlsl's entry point (the HLSL front)
};

// Parses the text of a case.json; errors are "PATH: ..." and name the field ("output.words", "uniforms[1].value").
// Every number is checked, never wrapped or truncated: a count or binding is an integer 0..4294967295 (output.init
// also "0x..." or decimal text), an int uniform fits 32 bits, a float uniform is inside the float range, the
// tolerance R is a finite number >= 0, and float64 needs an even output.words (doubles are word pairs).
Expected<CorpusCase> parse_corpus_case(std::string_view text, const std::string& path);
// Reads dir/case.json (a regular file; a directory or a symlink loop there is an error naming it).
Expected<CorpusCase> load_corpus_case(const std::string& dir);
// xorshift32 seeded by FNV-1a of the case name; at least one word (binding 0 always holds a buffer).
std::vector<uint32_t> corpus_input(const CorpusCase& c);
// Compares the output with expected.bin under the case's rule; an error message names the first mismatches.
Expected<void> corpus_compare(const CorpusCase& c, const std::vector<uint32_t>& got,
                              const std::vector<uint32_t>& expected);
// dir/expected.bin as words; an error when its size is not output.words * 4 (checked before it is read).
Expected<std::vector<uint32_t>> corpus_expected(const CorpusCase& c);

}  // namespace bismuth::tools::runner
