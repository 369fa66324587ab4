#include "corpus_case.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace bismuth::runner {

namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

uint32_t fnv1a(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// Numbers in case.json are JSON numbers or strings such as "0xDEADBEEF".
uint32_t word(const nlohmann::json& v) {
  if (v.is_string()) return static_cast<uint32_t>(std::stoul(v.get<std::string>(), nullptr, 0));
  return v.get<uint32_t>();
}

std::array<uint32_t, 3> triple(const nlohmann::json& v) {
  if (!v.is_array() || v.size() != 3) throw std::runtime_error("expected an array of 3 numbers");
  return {v[0].get<uint32_t>(), v[1].get<uint32_t>(), v[2].get<uint32_t>()};
}

// The corpus README's rule: relative tolerance, or absolute below magnitude 1; NaN never passes.
bool close(double got, double want, double r) {
  if (std::isnan(got) || std::isnan(want)) return false;
  const double diff = std::fabs(got - want);
  return std::fabs(want) < 1 ? diff <= r : diff <= r * std::fabs(want);
}

}  // namespace

Expected<CorpusCase> load_corpus_case(const std::string& dir) {
  const std::string path = dir + "/case.json";
  const auto text = read_file(path);
  if (!text) return fail(path + ": cannot read the file");
  CorpusCase c;
  c.dir = dir;
  try {
    const auto j = nlohmann::json::parse(*text);
    c.name = j.at("case").get<std::string>();
    c.num_groups = triple(j.at("num_groups"));
    if (!j.at("group_size").is_null()) c.group_size = triple(j.at("group_size"));
    c.input_binding = j.at("input").value("binding", 0u);
    c.input_words = j.at("input").at("words").get<uint32_t>();
    c.output_binding = j.at("output").value("binding", 1u);
    c.output_words = j.at("output").at("words").get<uint32_t>();
    c.output_init = word(j.at("output").at("init"));
    for (const auto& u : j.value("uniforms", nlohmann::json::array())) {
      CorpusUniform cu;
      cu.name = u.at("name").get<std::string>();
      cu.type = u.at("type").get<std::string>();
      cu.program_local = u.value("program_local", 0u);
      if (cu.type == "float") {
        const float f = u.at("value").get<float>();
        std::memcpy(&cu.bits, &f, 4);
      } else if (cu.type == "uint") {
        cu.bits = u.at("value").get<uint32_t>();
      } else if (cu.type == "int") {
        cu.bits = static_cast<uint32_t>(u.at("value").get<int32_t>());
      } else {
        return fail(path + ": uniform \"" + cu.name + "\" has unknown type \"" + cu.type + "\"");
      }
      c.uniforms.push_back(cu);
    }
    for (const auto& m : j.value("nv_storage_map", nlohmann::json::array())) {
      c.storage_map.emplace_back(m.at("program_storage").get<uint32_t>(), m.at("gl_binding").get<uint32_t>());
    }
    c.compare = j.at("compare").get<std::string>();
    if (j.contains("requires_subgroup_size") && !j["requires_subgroup_size"].is_null()) {
      c.requires_subgroup_size = j["requires_subgroup_size"].get<uint32_t>();
    }
  } catch (const std::exception& e) {
    return fail(path + ": " + e.what());
  }
  if (c.compare != "exact" && c.compare.rfind("float32:", 0) != 0 && c.compare.rfind("float64:", 0) != 0) {
    return fail(path + ": unknown compare rule \"" + c.compare + "\" (exact, float32:R, float64:R)");
  }
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
  const auto bytes = read_file(c.dir + "/expected.bin");
  if (!bytes) return fail(c.dir + "/expected.bin: cannot read the file");
  if (bytes->size() != static_cast<size_t>(c.output_words) * 4) {
    return fail(c.dir + "/expected.bin: " + std::to_string(bytes->size()) + " bytes, case.json says " +
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
  size_t mismatches = 0;
  std::ostringstream first;
  auto report = [&](const std::string& what) {
    if (mismatches++ < 4) first << (mismatches > 1 ? "; " : "") << what;
  };
  if (c.compare == "exact") {
    for (size_t i = 0; i < expected.size(); ++i) {
      if (got[i] != expected[i]) {
        std::ostringstream s;
        s << "word " << i << ": expected 0x" << std::hex << expected[i] << ", observed 0x" << got[i];
        report(s.str());
      }
    }
  } else if (c.compare.rfind("float32:", 0) == 0) {
    const double r = std::stod(c.compare.substr(8));
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
  } else {
    const double r = std::stod(c.compare.substr(8));
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
  }
  if (mismatches == 0) return {};
  return fail(std::to_string(mismatches) + " mismatch(es) (" + c.compare + "): " + first.str());
}

}  // namespace bismuth::runner
