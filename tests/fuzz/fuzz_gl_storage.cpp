// default_uniforms_to_uniform_block + atomic_counters_to_storage_buffers (ARB_gl_spirv storage): each fails with a
// message, or produces a module that parses again and has no default-block uniform
// or atomic counter left.
#include <cstdio>
#include <cstdlib>

#include "bismuth/spirv_patch/passes/atomic_counters_to_storage_buffers.hpp"
#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"
#include "fuzz_target.hpp"

namespace {

void check_reparses(const bismuth::spirv_patch::Module& module) {
  using namespace bismuth::spirv_patch;
  auto again = Module::parse(module.serialize());
  if (!again) {
    std::fprintf(stderr, "pass output does not parse: %s\n", again.error().message.c_str());
    std::abort();
  }
}

}  // namespace

BISMUTH_FUZZ_TARGET(gl_storage) {
  using namespace bismuth::spirv_patch;
  auto parsed = Module::parse(bismuth::fuzz::words_of(data, size));
  if (!parsed) return 0;
  Module& module = *parsed;
  auto block = default_uniforms_to_uniform_block(module, {0, 7});
  if (!block) {
    if (block.error().message.empty()) std::abort();
    return 0;
  }
  check_reparses(module);
  if (!block->variables.empty() && !default_uniform_candidates(module).empty()) std::abort();
  auto counters = atomic_counter_variables(module);
  if (!counters) return 0;
  AtomicCounterBufferOptions options;
  for (const auto& c : *counters) options.vk_binding.emplace(c.gl_binding, 8 + c.gl_binding % 64);
  auto lowered = atomic_counters_to_storage_buffers(module, options);
  if (!lowered) {
    if (lowered.error().message.empty()) std::abort();
    return 0;
  }
  check_reparses(module);
  auto left = atomic_counter_variables(module);
  if (left && !left->empty()) std::abort();
  return 0;
}
