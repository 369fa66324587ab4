// Replays every file of the seed corpus through every fuzz target (built with ASan + UBSan in every build).
// Usage: spirv_patch_corpus_replay CORPUS_DIR [TARGET]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz_target.hpp"

namespace bismuth::fuzz {

static std::map<std::string, Target>& targets() {
  static std::map<std::string, Target> all;
  return all;
}

bool register_target(const char* name, Target target) {
  targets()[name] = target;
  return true;
}

}  // namespace bismuth::fuzz

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [TARGET]\n", argv[0]);
    return 2;
  }
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[1], error)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  if (error || files.empty()) {
    std::fprintf(stderr, "no corpus files under %s\n", argv[1]);
    return 1;
  }
  int runs = 0;
  for (const auto& [name, target] : bismuth::fuzz::targets()) {
    if (argc >= 3 && name != argv[2]) continue;
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      target(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      ++runs;
    }
    std::printf("%s: %zu inputs\n", name.c_str(), files.size());
  }
  if (runs == 0) {
    std::fprintf(stderr, "no fuzz target named %s\n", argc >= 3 ? argv[2] : "?");
    return 1;
  }
  return 0;
}
