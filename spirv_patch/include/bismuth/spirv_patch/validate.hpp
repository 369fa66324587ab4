// SPIR-V validation through SPIRV-Tools, for tests and for callers that must not hand a driver an invalid module.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/target_env.hpp"

namespace bismuth::spirv_patch {

// Runs the SPIRV-Tools validator for `env`. On failure the error message holds every diagnostic, each with
// the word offset of the offending instruction when the validator gives one.
Status validate(std::span<const uint32_t> words, TargetEnv env);

// How many modules validate checked on the calling thread so far: lets a caller say whether a piece of its work ran
// spirv-val (the GL shim's debug output after a link, which its tests read).
uint64_t validations_on_this_thread();

// SPIR-V assembly text of `words` (SPIRV-Tools' disassembler, friendly names, no header comment).
Expected<std::string> disassemble(std::span<const uint32_t> words);

}  // namespace bismuth::spirv_patch
