// reflect: fails with a message or reflects; SPIRV-Cross only ever sees modules the validator accepted.
#include <cstdlib>

#include "bismuth/spirv_patch/analysis/reflection.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(reflect) {
  const auto words = bismuth::fuzz::words_of(data, size);
  auto reflection = bismuth::spirv_patch::reflect(words);
  if (!reflection && reflection.error().message.empty()) std::abort();
  return 0;
}
