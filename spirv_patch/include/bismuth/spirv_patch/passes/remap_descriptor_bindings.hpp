// Gives a module's resources new descriptor bindings: the fronts decide a compact layout (a GL program's storage
// blocks, uniform blocks, atomic counters and default uniform block; an assembly program's program.storage,
// program.buffer, program.local and program.env) and this pass writes it into the Binding decorations.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct DescriptorBindingRemap {
  // What happens to a Binding decoration the maps below do not cover.
  enum class Unmapped {
    Keep,         // left as it is
    NumberAfter,  // numbered after every mapped binding, one number per distinct old binding (declared, unused)
    Error,        // the module is not what the front promised: fail
  };
  // Variables given a binding by id, in this order; checked before `by_binding`.
  std::vector<std::pair<uint32_t, uint32_t>> by_variable;
  // Old binding -> new binding.
  std::unordered_map<uint32_t, uint32_t> by_binding;
  Unmapped unmapped = Unmapped::Keep;
  // When set, every variable of `by_variable` gets this DescriptorSet (the decoration is added when missing).
  std::optional<uint32_t> descriptor_set;
};

Status remap_descriptor_bindings(Module& module, const DescriptorBindingRemap& remap);

}  // namespace bismuth::spirv_patch
