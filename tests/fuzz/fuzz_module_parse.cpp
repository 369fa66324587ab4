// Module::parse and serialize: any byte string either fails with a message or round-trips word for word.
#include <cstdlib>

#include "bismuth/spirv_patch/module.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(module_parse) {
  const auto words = bismuth::fuzz::words_of(data, size);
  auto module = bismuth::spirv_patch::Module::parse(words);
  if (!module) {
    if (module.error().message.empty()) std::abort();
    return 0;
  }
  if (module->serialize() != words) std::abort();
  for (auto h : module->instructions()) (void)module->describe(h);
  (void)module->entry_points();
  return 0;
}
