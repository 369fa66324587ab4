// The binding qualifiers a parsed shader declares on its uniform and shader storage blocks, read from glslang's
// tree at compile time, before any link. The link needs what the user wrote: GLSL 4.60 §4.4.5 gives a block
// without a binding qualifier binding 0, and glslang's mapIO rewrites the shader's own types when it numbers the
// blocks (a relink of the same shader objects would read those numbers instead).
#pragma once

#include <string>
#include <unordered_map>

namespace glslang {
class TIntermediate;
}

namespace bismuth::translator {

struct DeclaredBindings {
  // Block name -> binding qualifier; a block declared without one is absent (binding 0).
  std::unordered_map<std::string, int> uniform_blocks;
  std::unordered_map<std::string, int> storage_blocks;
  // Default-block uniform name -> `layout(location = N)` (GLSL 4.60 §4.4.3), from a GL-rules parse, where such
  // uniforms are variables of their own (glslang's Vulkan rules move them into a block and drop the qualifier).
  std::unordered_map<std::string, int> uniform_locations;
  // Sampler and image uniform name -> `layout(binding = N)`: its initial texture or image unit (GLSL 4.60 §4.4.6).
  std::unordered_map<std::string, int> opaque_bindings;

  // The GL binding of element `element` of block `name` (0 for a block that is not an array): "the first element
  // of the array takes the specified block binding and each subsequent element takes the next consecutive binding
  // point" (GLSL 4.60 §4.4.5).
  static unsigned binding(const std::unordered_map<std::string, int>& blocks, const std::string& name,
                          unsigned element);
  // Adds another shader's declarations (blocks of one program match by name; an explicit binding wins).
  void merge(const DeclaredBindings& other);
};

DeclaredBindings declared_bindings(const glslang::TIntermediate& intermediate);
std::unordered_map<std::string, int> declared_uniform_locations(const glslang::TIntermediate& intermediate);

}  // namespace bismuth::translator
