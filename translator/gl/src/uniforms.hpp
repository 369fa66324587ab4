// Default-block uniform storage (uniforms.cpp): what other files need to know of how glUniform* lays out a uniform.
#pragma once

#include <cstdint>

#include "gl_internal.hpp"

namespace bismuth::gl {

// The end of the bytes glUniform* and glGetUniform* touch for `u` in the default uniform block: its last element's
// last component, at the strides uniforms.cpp writes with. A program binary's load checks it against the block's
// size, so that no glUniform* call on a loaded program writes past the block.
uint64_t uniform_storage_end(const translator::GlUniform& u);

}  // namespace bismuth::gl
