// tests/data/nv_reference: what NVIDIA's own GL (H100, driver 580.159.04) did with the probe programs there. Reads
// the programs, the !!NVcp5.0 text NVIDIA's GLSL compiler wrote for the GLSL probes (`=== dump NAME`), and the
// buffers after each run (`=== run NAME`), from nvidia-h100-580.159.04.txt, so the tests compare with NVIDIA's words
// rather than with values written again here. The probe's fixed inputs (tests/gpu/nv_reference_probe.c): atomic
// counter buffers at bindings 0 and 1, 16 words each, word i = 1000 * binding + 10 * i; 16 words of 0xDEADBEEF at
// shader storage binding 0.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace bismuth::test::nv_reference {

inline constexpr uint32_t kWords = 16;
inline constexpr uint32_t kPoison = 0xDEADBEEFu;

inline std::filesystem::path directory() {
  const auto built = std::filesystem::path(BISMUTH_SOURCE_DIR) / "tests/data/nv_reference";
  if (std::filesystem::exists(built)) return built;
  return std::filesystem::current_path() / "tests/data/nv_reference";
}

inline std::string read_file(const std::string& name) {
  std::ifstream in(directory() / name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The probe's initial counter buffer of GL atomic counter binding `binding`.
inline std::vector<uint32_t> initial_counters(uint32_t binding) {
  std::vector<uint32_t> words(kWords);
  for (uint32_t i = 0; i < kWords; ++i) words[i] = 1000 * binding + 10 * i;
  return words;
}

struct RunResult {
  std::array<std::vector<uint32_t>, 2> counters;  // bindings 0 and 1 after the dispatch
  std::vector<uint32_t> storage;                  // shader storage binding 0 after the dispatch
  std::string load_error;                         // "load error at ...": the program did not load
};

namespace detail {

inline std::vector<std::string> section(const std::string& header) {
  std::istringstream in(read_file("nvidia-h100-580.159.04.txt"));
  std::vector<std::string> lines;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("=== ", 0) == 0) {
      if (inside) break;
      inside = line == header;
      continue;
    }
    if (inside) lines.push_back(line);
  }
  return lines;
}

inline std::vector<uint32_t> words_after(const std::string& line, const std::string& prefix) {
  std::vector<uint32_t> words;
  std::istringstream in(line.substr(prefix.size()));
  unsigned long v = 0;
  while (in >> v) words.push_back(static_cast<uint32_t>(v));
  return words;
}

}  // namespace detail

// `=== run NAME`: the buffers NVIDIA's driver left (nullopt when the file has no such section).
inline std::optional<RunResult> nvidia_run(const std::string& name) {
  const auto lines = detail::section("=== run " + name);
  if (lines.empty()) return std::nullopt;
  RunResult r;
  for (const std::string& line : lines) {
    for (uint32_t b = 0; b < 2; ++b) {
      const std::string prefix = "counters binding " + std::to_string(b) + ":";
      if (line.rfind(prefix, 0) == 0) r.counters[b] = detail::words_after(line, prefix);
    }
    if (line.rfind("storage 0:", 0) == 0) r.storage = detail::words_after(line, "storage 0:");
    if (line.rfind("load error", 0) == 0) r.load_error = line;
  }
  return r;
}

// `=== dump NAME`: the !!NVcp5.0 program NVIDIA's GLSL compiler wrote for a GLSL probe ("" when absent).
inline std::string nvidia_assembly(const std::string& name) {
  std::string text;
  for (const std::string& line : detail::section("=== dump " + name)) {
    if (line.rfind("#", 0) == 0) continue;
    text += line + "\n";
  }
  return text;
}

}  // namespace bismuth::test::nv_reference
