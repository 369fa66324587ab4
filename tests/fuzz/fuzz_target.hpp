// One source per fuzz target, two ways to build it:
// - with clang and BISMUTH_BUILD_FUZZERS, each target is its own libFuzzer binary (LLVMFuzzerTestOneInput);
// - in every build, all targets register themselves in spirv_patch_corpus_replay, which runs the seed corpus
//   under AddressSanitizer + UndefinedBehaviorSanitizer as a ctest.
// A target returns 0; it calls std::abort() when an invariant breaks (a pass output that no longer parses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace bismuth::fuzz {

using Target = int (*)(const uint8_t* data, size_t size);
bool register_target(const char* name, Target target);

// The input's bytes as SPIR-V words (a trailing partial word is dropped, as a loader would reject it).
inline std::vector<uint32_t> words_of(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  return words;
}

}  // namespace bismuth::fuzz

#ifdef BISMUTH_LIBFUZZER
#define BISMUTH_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#else
#define BISMUTH_FUZZ_TARGET(name)                                                                   \
  static int fuzz_##name(const uint8_t* data, size_t size);                                        \
  [[maybe_unused]] static const bool registered_##name = bismuth::fuzz::register_target(#name, fuzz_##name); \
  static int fuzz_##name(const uint8_t* data, size_t size)
#endif
