// case.json and expected.bin of a corpus case (tests/data/corpus/README.md) read strictly: every bad field is an
// error naming the file and the field, never a number that wraps or truncates, never an exception later in the
// worker; the comparison rules compare every word.
#include <catch2/catch.hpp>

#include <cstring>
#include <nlohmann/json.hpp>

#include "corpus_case.hpp"
#include "runner_test_support.hpp"

using namespace bismuth::tools::runner;
using namespace bismuth::runnertest;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A valid case as the corpus writes them (examples/corpus/saxpy_uniform, shortened).
json valid_case() {
  return json::parse(R"({
    "case": "c", "num_groups": [4, 1, 1], "group_size": null,
    "input": {"binding": 0, "words": 16}, "output": {"binding": 1, "words": 16, "init": "0xDEADBEEF"},
    "uniforms": [{"name": "a", "type": "float", "value": 2.5, "program_local": 0},
                 {"name": "n", "type": "uint", "value": 500, "program_local": 1},
                 {"name": "k", "type": "int", "value": -3, "program_local": 2}],
    "nv_storage_map": [{"program_storage": 0, "gl_binding": 0}, {"program_storage": 1, "gl_binding": 1}],
    "compare": "exact", "requires_subgroup_size": null})");
}

struct Loaded {
  TempDir dir;
  bismuth::Expected<CorpusCase> result = bismuth::fail("not loaded");
};

// Writes `text` as dir/case.json and loads the case.
void load_text(Loaded& l, const std::string& text) {
  l.dir.write("case.json", text);
  l.result = load_corpus_case(l.dir.path().string());
}

void load(Loaded& l, const json& j) {
  load_text(l, j.dump());
}

// The case must be refused with an error that names case.json and contains `what`.
void require_refused(const json& j, const std::string& what) {
  Loaded l;
  load(l, j);
  INFO(j.dump());
  REQUIRE_FALSE(l.result);
  CHECK_THAT(l.result.error().message,
             Catch::StartsWith((l.dir.path() / "case.json").string() + ": ") && Catch::Contains(what));
}

}  // namespace

TEST_CASE("case.json counts are integers 0..4294967295: negative, too large and fractional values are errors") {
  // The corpus README: "input.words 32-bit words", "output.words words", "Dispatch num_groups" — counts of a GL
  // dispatch and of 32-bit buffers. -1 used to become 4294967295 words, 4294967296 groups 0, 8.5 words 8.
  {
    Loaded l;  // the valid case loads with every field
    load(l, valid_case());
    REQUIRE(l.result);
    const CorpusCase& c = *l.result;
    CHECK(c.name == "c");
    CHECK(c.num_groups == std::array<uint32_t, 3>{4, 1, 1});
    CHECK(c.output_init == 0xDEADBEEFu);
    REQUIRE(c.uniforms.size() == 3);
    const float a = 2.5f;
    uint32_t a_bits = 0;
    std::memcpy(&a_bits, &a, 4);
    CHECK(c.uniforms[0].bits == a_bits);
    CHECK(c.uniforms[1].bits == 500u);
    CHECK(c.uniforms[2].bits == static_cast<uint32_t>(-3));
    CHECK(c.storage_map.size() == 2);
  }
  auto j = valid_case();
  j["output"]["words"] = -1;
  require_refused(j, "\"output.words\": expected an integer 0..4294967295, got -1");
  j = valid_case();
  j["num_groups"] = json::parse("[4294967296, 1, 1]");
  require_refused(j, "\"num_groups[0]\": expected an integer 0..4294967295, got 4294967296");
  j = valid_case();
  j["input"]["words"] = 8.5;
  require_refused(j, "\"input.words\": expected an integer 0..4294967295, got 8.5");
  j = valid_case();
  j["output"]["binding"] = "1";
  require_refused(j, "\"output.binding\"");
  j = valid_case();
  j["nv_storage_map"][1]["gl_binding"] = -2;
  require_refused(j, "\"nv_storage_map[1].gl_binding\"");
  j = valid_case();
  j["uniforms"][0]["program_local"] = 1e20;
  require_refused(j, "\"uniforms[0].program_local\"");
  j = valid_case();
  j["group_size"] = json::parse("[64, 1]");
  require_refused(j, "\"group_size\": expected an array of 3 integers");
}

TEST_CASE("output.init text is decimal or 0x hex of at most 32 bits") {
  // README: "every word set to output.init (0xDEADBEEF or 0)". "0x1DEADBEEF" used to become 0xDEADBEEF.
  for (const char* bad : {"0x1DEADBEEF", "4294967296", "-1", "0x", "12abc", " 7", "+7", "0xDEAD BEEF"}) {
    auto j = valid_case();
    j["output"]["init"] = bad;
    require_refused(j, "\"output.init\"");
  }
  auto j = valid_case();
  j["output"]["init"] = "4294967295";
  Loaded l;
  load(l, j);
  REQUIRE(l.result);
  CHECK(l.result->output_init == 0xFFFFFFFFu);
}

TEST_CASE("Uniform values fit their type: int in 32 bits, uint unsigned 32 bits, float inside the float range") {
  auto j = valid_case();
  j["uniforms"][2]["value"] = 3000000000u;
  require_refused(j, "\"uniforms[2].value\": expected an integer -2147483648..2147483647");
  j = valid_case();
  j["uniforms"][2]["value"] = 2.5;
  require_refused(j, "\"uniforms[2].value\"");
  j = valid_case();
  j["uniforms"][1]["value"] = -1;
  require_refused(j, "\"uniforms[1].value\": expected an integer 0..4294967295");
  j = valid_case();
  j["uniforms"][0]["value"] = 1e39;
  require_refused(j, "\"uniforms[0].value\": expected a number in the float range");
  j = valid_case();
  j["uniforms"][0]["type"] = "vec2";
  require_refused(j, "unknown type \"vec2\"");
}

TEST_CASE("A compare tolerance that is not a number >= 0 is an error at load, not after the dispatch") {
  // README: "float32:R / float64:R (each element within relative tolerance R ...)". "float32:abc" used to throw
  // std::invalid_argument in the worker after the dispatch (a Crash, not a Fail naming the file).
  for (const char* bad : {"float32:abc", "float32:", "float64:1e-9x", "float32:-1", "float32:nan", "float32:inf",
                          "float64:1e999", "exactly"}) {
    auto j = valid_case();
    j["compare"] = bad;
    require_refused(j, "\"compare\": unknown compare rule \"" + std::string(bad) + "\"");
  }
  auto j = valid_case();
  j["compare"] = "float32:1e-5";
  j["output"]["words"] = 1;
  Loaded l;
  load(l, j);
  REQUIRE(l.result);
  auto word = [](float f) {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    return std::vector<uint32_t>{bits};
  };
  CHECK(corpus_compare(*l.result, word(1.000001f), word(1.0f)));
  CHECK_FALSE(corpus_compare(*l.result, word(1.001f), word(1.0f)));
}

TEST_CASE("float64 compares every word: an odd output.words is an error, a corrupted last pair fails") {
  // README: "float64:R (each element within relative tolerance R ...)": elements are doubles, pairs of words. With
  // an odd count the last word was never compared, so any value there passed.
  auto j = valid_case();
  j["compare"] = "float64:1e-9";
  j["output"]["words"] = 3;
  require_refused(j, "\"compare\": float64:1e-9 compares doubles (pairs of words), but output.words is 3");

  j["compare"] = "float64:0";
  j["output"]["words"] = 4;
  Loaded l;
  load(l, j);
  REQUIRE(l.result);
  const double values[2] = {1.5, -2.25};
  std::vector<uint32_t> expected(4);
  std::memcpy(expected.data(), values, sizeof values);
  CHECK(corpus_compare(*l.result, expected, expected));
  auto got = expected;
  got[3] ^= 1u;
  const auto compared = corpus_compare(*l.result, got, expected);
  REQUIRE_FALSE(compared);
  CHECK_THAT(compared.error().message, Catch::Contains("double 1:"));
}

TEST_CASE("requires_subgroup_size is a power of two") {
  auto j = valid_case();
  j["requires_subgroup_size"] = 0;
  require_refused(j, "\"requires_subgroup_size\"");
  j["requires_subgroup_size"] = 24;
  require_refused(j, "\"requires_subgroup_size\": expected a power of two");
  j["requires_subgroup_size"] = 32;
  Loaded l;
  load(l, j);
  REQUIRE(l.result);
  CHECK(l.result->requires_subgroup_size == 32u);
}

TEST_CASE("Missing fields, wrong types and bad JSON name case.json and the field") {
  auto j = valid_case();
  j.erase("compare");
  require_refused(j, "\"compare\" is missing");
  j = valid_case();
  j["output"] = 5;
  require_refused(j, "\"output\": expected an object, got 5");
  j = valid_case();
  j["uniforms"] = "none";
  require_refused(j, "\"uniforms\": expected an array");
  require_refused(json::array(), "(the document)");
  Loaded l;
  load_text(l, "{\"case\": ");
  REQUIRE_FALSE(l.result);
  CHECK_THAT(l.result.error().message, Catch::Contains("case.json: not valid JSON"));
}

TEST_CASE("A case.json or expected.bin that is a directory is an error that says so") {
  TempDir dir;
  fs::create_directories(dir.path() / "case.json");
  auto loaded = load_corpus_case(dir.path().string());
  REQUIRE_FALSE(loaded);
  CHECK_THAT(loaded.error().message, Catch::Contains("case.json: cannot read the file: it is a directory"));

  Loaded l;
  load(l, valid_case());
  REQUIRE(l.result);
  fs::create_directories(l.dir.path() / "expected.bin");
  const auto expected = corpus_expected(*l.result);
  REQUIRE_FALSE(expected);
  // It used to read as "0 bytes, case.json says 16 words".
  CHECK_THAT(expected.error().message, Catch::Contains("expected.bin: cannot read the file: it is a directory"));
}

TEST_CASE("A case.json that is a symlink loop is an error naming it") {
  TempDir dir;
  fs::create_symlink("case.json", dir.path() / "case.json");
  const auto loaded = load_corpus_case(dir.path().string());
  REQUIRE_FALSE(loaded);
  CHECK_THAT(loaded.error().message,
             Catch::Contains("case.json: cannot read the file: Too many levels of symbolic links"));
}
