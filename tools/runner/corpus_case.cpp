#include "corpus_case.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>

#include "input_file.hpp"
#include "json_fields.hpp"

namespace bismuth::tools::runner {

namespace {

uint32_t fnv1a(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// The corpus README's rule: relative tolerance, or absolute below magnitude 1; NaN never passes.
bool close(double got, double want, double r) {
  if (std::isnan(got) || std::isnan(want)) return false;
  const double diff = std::fabs(got - want);
  return std::fabs(want) < 1 ? diff <= r : diff <= r * std::fabs(want);
}

// "exact", "float32:R" or "float64:R" with R a finite decimal >= 0 ("float32:abc" is an error here, not an
// exception in the worker after the dispatch).
bool parse_compare(const std::string& text, CompareRule* rule, double* tolerance) {
  if (text == "exact") {
    *rule = CompareRule::Exact;
    return true;
  }
  if (text.rfind("float32:", 0) == 0) {
    *rule = CompareRule::Float32;
  } else if (text.rfind("float64:", 0) == 0) {
    *rule = CompareRule::Float64;
  } else {
    return false;
  }
  const char* begin = text.data() + 8;
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(begin, end, *tolerance);
  return begin != end && ec == std::errc() && at == end && std::isfinite(*tolerance) && *tolerance >= 0;
}

bool is_power_of_two(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

Expected<CorpusCase> parse_corpus_case(std::string_view text, const std::string& path) {
  using json = nlohmann::json;
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    return fail(path + ": not valid JSON: " + e.what());
  }
  CorpusCase c;
  JsonFields f;
  c.name = f.string(f.member(&j, "", "case", true), "case");
  c.num_groups = f.u32x3(f.member(&j, "", "num_groups", true), "num_groups");
  if (const json* size = f.member(&j, "", "group_size", true); size && !size->is_null()) {
    c.group_size = f.u32x3(size, "group_size");
  }
  const json* input = f.member(&j, "", "input", true);
  if (const json* binding = f.member(input, "input", "binding", false))
    c.input_binding = f.u32(binding, "input.binding");
  c.input_words = f.u32(f.member(input, "input", "words", true), "input.words");
  const json* output = f.member(&j, "", "output", true);
  if (const json* binding = f.member(output, "output", "binding", false)) {
    c.output_binding = f.u32(binding, "output.binding");
  }
  c.output_words = f.u32(f.member(output, "output", "words", true), "output.words");
  c.output_init = f.u32(f.member(output, "output", "init", true), "output.init", /*text=*/true);
  if (const json* uniforms = f.member(&j, "", "uniforms", false); uniforms && !uniforms->is_null()) {
    if (!uniforms->is_array()) f.fail("\"uniforms\": expected an array");
    for (size_t i = 0; f.ok() && i < uniforms->size(); ++i) {
      const json* u = &(*uniforms)[i];
      const std::string name = "uniforms[" + std::to_string(i) + "]";
      CorpusUniform cu;
      cu.name = f.string(f.member(u, name, "name", true), name + ".name");
      cu.type = f.string(f.member(u, name, "type", true), name + ".type");
      if (const json* local = f.member(u, name, "program_local", false)) {
        cu.program_local = f.u32(local, name + ".program_local");
      }
      const json* value = f.member(u, name, "value", true);
      if (cu.type == "float") {
        const float v = f.f32(value, name + ".value");
        std::memcpy(&cu.bits, &v, 4);
      } else if (cu.type == "uint") {
        cu.bits = f.u32(value, name + ".value");
      } else if (cu.type == "int") {
        cu.bits = static_cast<uint32_t>(f.i32(value, name + ".value"));
      } else if (f.ok()) {
        f.fail("\"" + name + ".type\": uniform \"" + cu.name + "\" has unknown type \"" + cu.type +
               "\" (float, uint, int)");
      }
      c.uniforms.push_back(cu);
    }
  }
  if (const json* map = f.member(&j, "", "nv_storage_map", false); map && !map->is_null()) {
    if (!map->is_array()) f.fail("\"nv_storage_map\": expected an array");
    for (size_t i = 0; f.ok() && i < map->size(); ++i) {
      const json* m = &(*map)[i];
      const std::string name = "nv_storage_map[" + std::to_string(i) + "]";
      const uint32_t storage = f.u32(f.member(m, name, "program_storage", true), name + ".program_storage");
      const uint32_t binding = f.u32(f.member(m, name, "gl_binding", true), name + ".gl_binding");
      c.storage_map.emplace_back(storage, binding);
    }
  }
  c.compare = f.string(f.member(&j, "", "compare", true), "compare");
  if (f.ok() && !parse_compare(c.compare, &c.compare_rule, &c.tolerance)) {
    f.fail("\"compare\": unknown compare rule \"" + c.compare +
           "\" (exact, float32:R or float64:R with R a number >= 0)");
  }
  if (f.ok() && c.compare_rule == CompareRule::Float64 && c.output_words % 2 != 0) {
    f.fail("\"compare\": " + c.compare + " compares doubles (pairs of words), but output.words is " +
           std::to_string(c.output_words) + ", an odd number");
  }
  if (const json* s = f.member(&j, "", "requires_subgroup_size", false); s && !s->is_null()) {
    c.requires_subgroup_size = f.u32(s, "requires_subgroup_size");
    if (f.ok() && !is_power_of_two(*c.requires_subgroup_size)) {
      f.fail("\"requires_subgroup_size\": expected a power of two (a subgroup size), got " +
             std::to_string(*c.requires_subgroup_size));
    }
  }
  if (const json* e = f.member(&j, "", "hlsl_entry", false); e && !e->is_null()) {
    c.hlsl_entry = f.string(e, "hlsl_entry");
    if (f.ok() && c.hlsl_entry.empty()) f.fail("\"hlsl_entry\": expected the name of shader.hlsl's entry point");
  }
  if (!f.ok()) return fail(path + ": " + f.error());
  return c;
}

Expected<CorpusCase> load_corpus_case(const std::string& dir) {
  const std::string path = dir + "/case.json";
  auto text = read_input_file(path);
  if (!text) return text.error();
  auto c = parse_corpus_case(*text, path);
  if (c) c->dir = dir;
  return c;
}

std::vector<uint32_t> corpus_input(const CorpusCase& c) {
  std::vector<uint32_t> input(std::max<uint32_t>(1, c.input_words), 0);
  uint32_t x = fnv1a(c.name);
  if (x == 0) x = 1;
  for (uint32_t i = 0; i < c.input_words; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    input[i] = x;
  }
  return input;
}

Expected<std::vector<uint32_t>> corpus_expected(const CorpusCase& c) {
  const std::string path = c.dir + "/expected.bin";
  // The size first: output.words may be anything up to 4294967295, and the file need not be read to refuse it.
  auto size = input_file_size(path);
  if (!size) return size.error();
  const uint64_t want = uint64_t{c.output_words} * 4;
  if (*size != want) {
    return fail(path + ": " + std::to_string(*size) + " bytes, case.json says " + std::to_string(c.output_words) +
                " words");
  }
  auto bytes = read_input_file(path, want);
  if (!bytes) return bytes.error();
  if (bytes->size() != want) {
    return fail(path + ": " + std::to_string(bytes->size()) + " bytes, case.json says " +
                std::to_string(c.output_words) + " words");
  }
  std::vector<uint32_t> words(c.output_words);
  if (!words.empty()) std::memcpy(words.data(), bytes->data(), bytes->size());
  return words;
}

Expected<void> corpus_compare(const CorpusCase& c, const std::vector<uint32_t>& got,
                              const std::vector<uint32_t>& expected) {
  if (got.size() != expected.size())
    return fail("output has " + std::to_string(got.size()) + " words, expected " + std::to_string(expected.size()));
  // Doubles are word pairs: an odd count would leave a last word that no rule compares.
  if (c.compare_rule == CompareRule::Float64 && expected.size() % 2 != 0) {
    return fail(c.compare + " compares pairs of words, but the output has " + std::to_string(expected.size()) +
                " words, an odd number");
  }
  size_t mismatches = 0;
  std::ostringstream first;
  auto report = [&](const std::string& what) {
    if (mismatches++ < 4) first << (mismatches > 1 ? "; " : "") << what;
  };
  const double r = c.tolerance;
  switch (c.compare_rule) {
    case CompareRule::Exact:
      for (size_t i = 0; i < expected.size(); ++i) {
        if (got[i] != expected[i]) {
          std::ostringstream s;
          s << "word " << i << ": expected 0x" << std::hex << expected[i] << ", observed 0x" << got[i];
          report(s.str());
        }
      }
      break;
    case CompareRule::Float32:
      for (size_t i = 0; i < expected.size(); ++i) {
        float g, e;
        std::memcpy(&g, &got[i], 4);
        std::memcpy(&e, &expected[i], 4);
        const bool good = expected[i] == c.output_init ? got[i] == c.output_init : close(g, e, r);
        if (!good) {
          std::ostringstream s;
          s.precision(9);
          s << "float " << i << ": expected " << e << ", observed " << g;
          report(s.str());
        }
      }
      break;
    case CompareRule::Float64:
      for (size_t i = 0; i + 1 < expected.size(); i += 2) {
        double g, e;
        std::memcpy(&g, &got[i], 8);
        std::memcpy(&e, &expected[i], 8);
        const bool poison = expected[i] == c.output_init && expected[i + 1] == c.output_init;
        const bool good = poison ? (got[i] == c.output_init && got[i + 1] == c.output_init) : close(g, e, r);
        if (!good) {
          std::ostringstream s;
          s.precision(17);
          s << "double " << i / 2 << ": expected " << e << ", observed " << g;
          report(s.str());
        }
      }
      break;
  }
  if (mismatches == 0) return {};
  return fail(std::to_string(mismatches) + " mismatch(es) (" + c.compare + "): " + first.str());
}

}  // namespace bismuth::tools::runner
