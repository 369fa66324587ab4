#include "corpus_support.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace bismuth::test::corpus {

// BISMUTH_CORPUS_DIR, else the source tree this binary was built from, else the working directory's tests/data
// (a bundled binary on another machine runs from a copy of the repository).
std::string corpus_dir() {
  if (const char* dir = std::getenv("BISMUTH_CORPUS_DIR")) return dir;
  const auto built = std::filesystem::path(BISMUTH_SOURCE_DIR) / "tests/data/corpus/nvidia-h100";
  if (std::filesystem::exists(built)) return built.string();
  return (std::filesystem::current_path() / "tests/data/corpus/nvidia-h100").string();
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

static std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Case load_case(const std::string& name) {
  Case c;
  c.name = name;
  const std::string dir = corpus_dir() + "/" + name;
  c.program = read_text(dir + "/program.nvcp5");
  const std::string bin = read_text(dir + "/expected.bin");
  c.expected.resize(bin.size() / 4);
  std::memcpy(c.expected.data(), bin.data(), c.expected.size() * 4);
  const auto j = nlohmann::json::parse(read_text(dir + "/case.json"));
  for (int i = 0; i < 3; ++i) c.num_groups[i] = j["num_groups"][i].get<uint32_t>();
  if (!j["group_size"].is_null()) {
    std::array<uint32_t, 3> g{};
    for (int i = 0; i < 3; ++i) g[i] = j["group_size"][i].get<uint32_t>();
    c.group_size = g;
  }
  c.input_words = j["input"]["words"].get<uint32_t>();
  c.output_words = j["output"]["words"].get<uint32_t>();
  c.output_init = static_cast<uint32_t>(std::stoul(j["output"]["init"].get<std::string>(), nullptr, 0));
  for (const auto& u : j["uniforms"]) {
    c.uniforms.push_back({u["type"].get<std::string>(), u["value"].get<double>(), u["program_local"].get<uint32_t>()});
  }
  for (const auto& m : j["nv_storage_map"]) {
    const uint32_t index = m["program_storage"].get<uint32_t>();
    if (c.storage_map.size() <= index) c.storage_map.resize(index + 1, 0);
    c.storage_map[index] = m["gl_binding"].get<uint32_t>();
  }
  c.compare = j["compare"].get<std::string>();
  if (!j["requires_subgroup_size"].is_null()) c.requires_subgroup_size = j["requires_subgroup_size"].get<uint32_t>();
  return c;
}

std::vector<uint32_t> input_words(const Case& c) {
  // README step 1: xorshift32 seeded with the FNV-1a hash of the case name (0 becomes 1).
  uint32_t seed = 2166136261u;
  for (unsigned char ch : c.name) seed = (seed ^ ch) * 16777619u;
  if (seed == 0) seed = 1;
  std::vector<uint32_t> words(c.input_words == 0 ? 1 : c.input_words, 0);
  if (c.input_words == 0) return words;
  uint32_t x = seed;
  for (auto& w : words) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    w = x;
  }
  return words;
}

std::string compare_output(const Case& c, const std::vector<uint32_t>& actual) {
  std::ostringstream out;
  int reported = 0;
  auto report = [&](size_t i, const std::string& what) {
    if (reported++ < 8) out << "word " << i << ": " << what << "\n";
  };
  if (actual.size() != c.expected.size()) {
    out << "size " << actual.size() << " != expected " << c.expected.size() << "\n";
    return out.str();
  }
  const bool f32 = c.compare.rfind("float32:", 0) == 0;
  const bool f64 = c.compare.rfind("float64:", 0) == 0;
  const double tolerance = (f32 || f64) ? std::stod(c.compare.substr(8)) : 0.0;
  auto close = [&](double e, double a) {
    if (std::isnan(e) || std::isnan(a)) return false;
    const double diff = std::fabs(e - a);
    return std::fabs(e) < 1.0 ? diff <= tolerance : diff <= tolerance * std::fabs(e);
  };
  const size_t step = f64 ? 2 : 1;
  for (size_t i = 0; i + step <= actual.size(); i += step) {
    const bool poison = c.expected[i] == c.output_init && (!f64 || c.expected[i + 1] == c.output_init);
    if (!(f32 || f64) || poison) {
      for (size_t k = 0; k < step; ++k) {
        if (actual[i + k] != c.expected[i + k]) {
          std::ostringstream s;
          s << std::hex << "0x" << actual[i + k] << " != expected 0x" << c.expected[i + k];
          report(i + k, s.str());
        }
      }
      continue;
    }
    double e, a;
    if (f32) {
      float fe, fa;
      std::memcpy(&fe, &c.expected[i], 4);
      std::memcpy(&fa, &actual[i], 4);
      e = fe;
      a = fa;
    } else {
      std::memcpy(&e, &c.expected[i], 8);
      std::memcpy(&a, &actual[i], 8);
    }
    if (!close(e, a)) {
      std::ostringstream s;
      s.precision(17);
      s << a << " != expected " << e;
      report(i, s.str());
    }
  }
  if (reported > 8) out << "... " << reported << " mismatches in all\n";
  return out.str();
}

}  // namespace bismuth::test::corpus
