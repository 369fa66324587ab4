// Final Vulkan bindings for a linked GL program's resources.
//
// glslang's relaxed Vulkan rules bind each resource in a GL namespace (GlBindingMap: storage blocks at b, uniform
// blocks at 32 + b, ...), except atomic counters: each GL atomic-counter binding b becomes a storage block
// "gl_AtomicCounterBlock_<b>" bound at b, inside the storage-buffer namespace. This step moves those blocks to
// their own namespace (kAtomicCounterBufferBase + b), then maps every namespace binding to a compact one
// (0..n-1, the program's descriptor set layout), so a program needs only as many descriptors as it uses —
// push-descriptor set layouts are limited to maxPushDescriptors (32 on common drivers).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::translator {

// `compact` maps the namespace bindings of active resources to final ones; inactive resources (declared, never
// used) get numbers after those. Edits `words` (glslang's output) in place.
Status assign_resource_bindings(std::vector<uint32_t>& words, uint32_t atomic_counter_base,
                                const std::unordered_map<uint32_t, uint32_t>& compact);

}  // namespace bismuth::translator
