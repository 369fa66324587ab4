// ARB_gl_spirv's atomic counters as Vulkan storage buffers. GL SPIR-V declares a counter (`layout(binding = 1,
// offset = 4) uniform atomic_uint c;`) as an OpVariable in AtomicCounter storage decorated Binding and Offset, and
// counts with OpAtomic* on it; Vulkan has no such storage class. This pass gives every GL atomic-counter binding
// point the program uses one storage buffer of uints (the buffer bound to GL_ATOMIC_COUNTER_BUFFER there, as GL 4.6
// §7.7 reads it: a counter is the uint at its byte offset) and turns each counter access into an access to its uint.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct AtomicCounterVariable {
  uint32_t variable = 0;
  uint32_t gl_binding = 0;
  uint32_t offset = 0;      // bytes into the buffer
  uint32_t array_size = 0;  // 0: a single counter
};

// The module's AtomicCounter variables, in declaration order. Fails for a counter without Binding or Offset, an
// offset that is not a multiple of 4, or a type other than a 32-bit unsigned integer or an array of them.
Expected<std::vector<AtomicCounterVariable>> atomic_counter_variables(const Module& module);

struct AtomicCounterBufferOptions {
  uint32_t descriptor_set = 0;
  std::map<uint32_t, uint32_t> vk_binding;  // GL atomic-counter binding -> Vulkan binding (every one used)
};

// Rewrites the counters (no edit without them). Memory semantics lose AtomicCounterMemory (UniformMemory instead
// when they order memory), and the AtomicStorage / AtomicStorageOps capabilities go. Fails (module untouched) for
// the analysis' failures, a binding without a Vulkan binding, and uses other than atomics and access chains.
Expected<std::vector<AtomicCounterVariable>> atomic_counters_to_storage_buffers(
    Module& module, const AtomicCounterBufferOptions& options);

}  // namespace bismuth::spirv_patch
