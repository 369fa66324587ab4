// case_json: `bismuth run`'s case.json reader (tools/runner/corpus_case) over arbitrary bytes. It returns a case or
// a "case.json: ..." error; it never crashes, and a case it returns holds only what the corpus README allows: a
// compare rule with a finite tolerance >= 0, an even output.words under float64, a power-of-two subgroup size,
// uniforms of the three types. The comparison then runs over every word without reading past either buffer.
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "corpus_case.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(case_json) {
  using namespace bismuth::tools::runner;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parse_corpus_case(text, "case.json");
  if (!parsed) {
    if (parsed.error().message.rfind("case.json: ", 0) != 0) std::abort();  // every error names the file
    return 0;
  }
  const CorpusCase& c = *parsed;
  if (!std::isfinite(c.tolerance) || c.tolerance < 0) std::abort();
  if ((c.compare == "exact") != (c.compare_rule == CompareRule::Exact)) std::abort();
  if (c.compare_rule == CompareRule::Float64 && c.output_words % 2 != 0) std::abort();
  if (c.requires_subgroup_size &&
      (*c.requires_subgroup_size == 0 || (*c.requires_subgroup_size & (*c.requires_subgroup_size - 1)) != 0)) {
    std::abort();
  }
  for (const auto& u : c.uniforms) {
    if (u.type != "float" && u.type != "uint" && u.type != "int") std::abort();
  }
  // The comparison over the case's own words (bounded: output.words may be 4294967295), against itself and
  // against the poison, which must pass and may fail respectively but never read out of bounds.
  if (c.output_words <= 4096) {
    std::vector<uint32_t> expected(c.output_words);
    for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<uint32_t>(i * 0x9E3779B9u);
    if (!corpus_compare(c, expected, expected) && c.compare_rule == CompareRule::Exact) std::abort();
    const std::vector<uint32_t> poison(c.output_words, c.output_init);
    (void)corpus_compare(c, poison, expected);
  }
  return 0;
}
