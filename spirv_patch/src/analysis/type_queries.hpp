// What a type declaration is, for passes that accept only some shapes.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// When `type` is a 32-bit integer scalar (count 1) or a vector of `count` such components: its signedness.
std::optional<bool> int32_type(const Module& module, uint32_t type, uint32_t count);

// The result type id of the instruction that defines `id`, or 0 (no such instruction, or one without a type).
uint32_t result_type(const Module& module, uint32_t id);

// (storage class, pointee) of a pointer type.
std::optional<std::pair<uint32_t, uint32_t>> pointer_type(const Module& module, uint32_t type);

}  // namespace bismuth::spirv_patch
