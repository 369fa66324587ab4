// Renumbers a module's ids 1, 2, 3, ... in order of first appearance, with the bound one past the last. Two modules
// that differ only in ids allocated and later dropped (constants removed by literals_to_push_constants) become the
// same words, so their content hashes — the pipeline cache's key — agree.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// Fails only on words Module::parse refuses.
Expected<std::vector<uint32_t>> compact_ids(std::span<const uint32_t> words);

// The same for a module at hand: compact_ids(module.serialize()) without serializing and parsing it again (the
// run-time group-size variant of every program link takes this).
std::vector<uint32_t> compact_ids(const Module& module);

}  // namespace bismuth::spirv_patch
