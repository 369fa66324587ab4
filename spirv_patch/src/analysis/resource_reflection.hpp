// SPIRV-Cross's C API behind a header that does not include spirv.hpp11 (SPIRV-Cross brings its own spirv.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/analysis/descriptor_binding.hpp"

namespace bismuth::spirv_patch {

// Descriptors and push constants statically used by the entry point `name` with execution model `model`
// (a spv::ExecutionModel value). `words` must be a valid module.
Expected<EntryPointResources> reflect_resources(std::span<const uint32_t> words, const std::string& name,
                                                uint32_t model);

}  // namespace bismuth::spirv_patch
