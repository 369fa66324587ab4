// Where the GL corpus tests find the reference corpus, and reading its files (shared by corpus_test.cpp,
// asm_corpus_test.cpp and the CLI's tests/tools/compile_nvasm_test.cpp; the corpus rules themselves come from the
// runner's corpus_case.hpp).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace bismuth::gltest {

// BISMUTH_CORPUS_DIR, else the source tree this binary was built from, else tests/data/corpus/nvidia-h100 under
// the working directory (bundled binaries run from a copy of the repository on another machine).
inline std::filesystem::path corpus_dir() {
  if (const char* dir = std::getenv("BISMUTH_CORPUS_DIR")) return dir;
  const auto built = std::filesystem::path(BISMUTH_SOURCE_DIR) / "tests/data/corpus/nvidia-h100";
  if (std::filesystem::exists(built)) return built;
  return std::filesystem::current_path() / "tests/data/corpus/nvidia-h100";
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace bismuth::gltest
