// The descriptor-backed resource variables of glslang's module for a GL program, each with the name of its block
// (samplers and images: of its variable):
// what the GLSL front needs to give every block a Vulkan binding of its own (gl_program.cpp), whatever binding
// glslang gave it. GL rebinds blocks one by one after link (glShaderStorageBlockBinding, glUniformBlockBinding),
// so two blocks that share a GL binding point at link must still be two descriptors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::translator {

// Opaque: a sampler or image variable (UniformConstant storage), named by its variable.
enum class BlockStorage { ShaderStorage, Uniform, Opaque };

struct BlockVariable {
  uint32_t variable = 0;   // OpVariable result id
  std::string block_name;  // OpName of the block's struct type ("SSBO", "gl_DefaultUniformBlock", ...)
  // OpName of the variable: GLSL's instance name (often empty); an HLSL buffer's resource name, which is what
  // reflection calls it, since glslang gives resources of one type one shared struct type (a cbuffer's is empty).
  std::string variable_name;
  BlockStorage storage = BlockStorage::ShaderStorage;
  uint32_t array_size = 1;  // descriptors: elements of an array of blocks, 1 otherwise
};

// Every OpVariable of StorageBuffer storage, of Uniform storage whose block is decorated Block (a uniform
// block) or BufferBlock (a storage block in SPIR-V 1.0-1.2), or of UniformConstant storage holding (an array of)
// images or sampled images (Opaque: GLSL's sampler and image uniforms), in module order. The link's module, parsed
// once for all of its checks.
std::vector<BlockVariable> block_variables(const spirv_patch::Module& module);

}  // namespace bismuth::translator
