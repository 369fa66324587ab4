#include "declared_bindings.hpp"

#include "glslang_globals.hpp"

namespace bismuth::translator {

unsigned DeclaredBindings::binding(const std::unordered_map<std::string, int>& blocks, const std::string& name,
                                   unsigned element) {
  auto it = blocks.find(name);
  return (it == blocks.end() ? 0u : static_cast<unsigned>(it->second)) + element;
}

void DeclaredBindings::merge(const DeclaredBindings& other) {
  uniform_blocks.insert(other.uniform_blocks.begin(), other.uniform_blocks.end());
  storage_blocks.insert(other.storage_blocks.begin(), other.storage_blocks.end());
  uniform_locations.insert(other.uniform_locations.begin(), other.uniform_locations.end());
  opaque_bindings.insert(other.opaque_bindings.begin(), other.opaque_bindings.end());
}

std::unordered_map<std::string, int> declared_uniform_locations(const glslang::TIntermediate& intermediate) {
  std::unordered_map<std::string, int> locations;
  for_each_global(intermediate, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    const glslang::TQualifier& q = type.getQualifier();
    if (q.storage != glslang::EvqUniform || type.getBasicType() == glslang::EbtBlock || !q.hasLocation()) return;
    locations[std::string(symbol.getName().c_str())] = static_cast<int>(q.layoutLocation);
  });
  return locations;
}

DeclaredBindings declared_bindings(const glslang::TIntermediate& intermediate) {
  DeclaredBindings declared;
  for_each_global(intermediate, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TQualifier& q = symbol.getType().getQualifier();
    if (!q.hasBinding()) return;
    if (symbol.getType().getBasicType() == glslang::EbtSampler && q.storage == glslang::EvqUniform) {
      declared.opaque_bindings[std::string(symbol.getName().c_str())] = static_cast<int>(q.layoutBinding);
      return;
    }
    if (symbol.getType().getBasicType() != glslang::EbtBlock) return;
    const std::string name(symbol.getType().getTypeName().c_str());
    const int binding = static_cast<int>(q.layoutBinding);
    if (q.storage == glslang::EvqUniform) declared.uniform_blocks[name] = binding;
    if (q.storage == glslang::EvqBuffer) declared.storage_blocks[name] = binding;
  });
  return declared;
}

}  // namespace bismuth::translator
