// glslang's relaxed Vulkan rules turn each GL atomic-counter binding b into a storage block
// "gl_AtomicCounterBlock_<b>" bound at b plus the storage-buffer shift, i.e. inside the storage-buffer namespace.
// GL keeps the two namespaces apart, so this moves each such block to its own Vulkan binding (base + b).
#pragma once

#include <cstdint>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::translator {

// Edits `words` (glslang's output) in place.
Status move_atomic_counter_blocks(std::vector<uint32_t>& words, uint32_t binding_base);

}  // namespace bismuth::translator
