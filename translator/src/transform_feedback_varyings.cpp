#include "transform_feedback_varyings.hpp"

#include <charconv>
#include <optional>
#include <unordered_set>

#include "glslang_globals.hpp"

namespace bismuth::translator {

namespace {

// The GL type enum (GL/glcorearb.h) of a scalar, vector or matrix type; 0 for anything else.
uint32_t gl_type_of(const glslang::TType& type) {
  const int vector = type.getVectorSize();
  switch (type.getBasicType()) {
    case glslang::EbtFloat:
      if (type.isMatrix()) {
        static constexpr uint32_t kMatrices[3][3] = {
            {0x8B5A, 0x8B65, 0x8B66}, {0x8B67, 0x8B5B, 0x8B68}, {0x8B69, 0x8B6A, 0x8B5C}};  // [cols-2][rows-2]
        return kMatrices[type.getMatrixCols() - 2][type.getMatrixRows() - 2];
      }
      return vector == 1 ? 0x1406 : 0x8B50 + static_cast<uint32_t>(vector - 2);  // GL_FLOAT, GL_FLOAT_VEC2..4
    case glslang::EbtDouble:
      if (type.isMatrix()) {
        static constexpr uint32_t kMatrices[3][3] = {
            {0x8F46, 0x8F49, 0x8F4A}, {0x8F4B, 0x8F47, 0x8F4C}, {0x8F4D, 0x8F4E, 0x8F48}};
        return kMatrices[type.getMatrixCols() - 2][type.getMatrixRows() - 2];
      }
      return vector == 1 ? 0x140A : 0x8FFC + static_cast<uint32_t>(vector - 2);  // GL_DOUBLE, GL_DOUBLE_VEC2..4
    case glslang::EbtInt: return vector == 1 ? 0x1404 : 0x8B53 + static_cast<uint32_t>(vector - 2);
    case glslang::EbtUint: return vector == 1 ? 0x1405 : 0x8DC6 + static_cast<uint32_t>(vector - 2);
    default: return 0;  // structures, booleans: not capturable here
  }
}

uint32_t bytes_of(const glslang::TType& element) {
  const uint32_t scalar = element.getBasicType() == glslang::EbtDouble ? 8 : 4;
  const uint32_t components = element.isMatrix()
                                  ? static_cast<uint32_t>(element.getMatrixCols() * element.getMatrixRows())
                                  : static_cast<uint32_t>(element.getVectorSize());
  return scalar * components;
}

// An output of the stage a varying may name: a variable ("v"), a member of a user block ("Block.m"), a built-in
// ("gl_Position", a gl_PerVertex member named by itself).
struct Output {
  std::string name;
  const glslang::TType* type = nullptr;  // in the stage's tree
};

std::vector<Output> stage_outputs(const glslang::TIntermediate& tree) {
  std::vector<Output> out;
  for_each_global(tree, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    if (type.getQualifier().storage != glslang::EvqVaryingOut) return;
    if (type.getBasicType() != glslang::EbtBlock) {
      out.push_back({symbol.getName().c_str(), &type});
      return;
    }
    const std::string block(type.getTypeName().c_str());
    for (const glslang::TTypeLoc& member : *type.getStruct()) {
      const std::string field(member.type->getFieldName().c_str());
      const bool built_in = member.type->getQualifier().builtIn != glslang::EbvNone || field.starts_with("gl_");
      out.push_back({built_in ? field : block + "." + field, member.type});
    }
  });
  return out;
}

std::string link_error(const std::string& text) {
  return "error: " + text + "\n";
}

}  // namespace

Expected<std::vector<GlTransformFeedbackVarying>> resolve_transform_feedback_varyings(
    const glslang::TIntermediate& tree, ShaderStage stage, const std::vector<std::string>& names, bool interleaved) {
  const std::vector<Output> outputs = stage_outputs(tree);
  std::vector<GlTransformFeedbackVarying> out;
  std::unordered_set<std::string> seen;
  for (const std::string& name : names) {
    // GL 4.6 §11.1.2.1: gl_NextBuffer and gl_SkipComponents1..4 "may be specified only in INTERLEAVED_ATTRIBS
    // mode"; they capture nothing.
    if (name == "gl_NextBuffer" ||
        (name.starts_with("gl_SkipComponents") && name.size() == 18 && name[17] >= '1' && name[17] <= '4')) {
      if (!interleaved) {
        return fail(
            link_error("transform feedback varying `" + name + "' is allowed only with GL_INTERLEAVED_ATTRIBS"));
      }
      const uint32_t n = name == "gl_NextBuffer" ? 0u : static_cast<uint32_t>(name[17] - '0');
      out.push_back({name, 0, n, 4 * n});
      continue;
    }
    // "any two entries in the varyings array specify the same output variable" fails the link.
    if (!seen.insert(name).second) {
      return fail(link_error("transform feedback varying `" + name + "' is specified more than once"));
    }
    std::string base = name;
    std::optional<uint32_t> element;
    if (const size_t bracket = name.find('['); bracket != std::string::npos && name.ends_with("]")) {
      uint32_t index = 0;
      const char* first = name.data() + bracket + 1;
      const char* last = name.data() + name.size() - 1;
      auto [ptr, ec] = std::from_chars(first, last, index);
      if (ec == std::errc() && ptr == last && first != last) {
        base = name.substr(0, bracket);
        element = index;
      }
    }
    const Output* found = nullptr;
    for (const Output& o : outputs) {
      if (o.name == base) found = &o;
    }
    // "any variable name specified in the varyings array is not declared as an output in the last vertex
    // processing stage", or an array element past the end of its array, fails the link.
    if (found == nullptr || (element && (!found->type->isArray() ||
                                         (found->type->getOuterArraySize() > 0 &&
                                          *element >= static_cast<uint32_t>(found->type->getOuterArraySize()))))) {
      return fail(link_error("transform feedback varying `" + name + "' is not an output of the " + stage_name(stage) +
                             " shader"));
    }
    std::optional<glslang::TType> element_type;  // the array's element (TType copies only by dereference)
    if (found->type->isArray()) element_type.emplace(*found->type, 0);
    const glslang::TType& captured = element_type ? *element_type : *found->type;
    const uint32_t gl_type = gl_type_of(captured);
    if (gl_type == 0) {
      return fail(link_error("transform feedback varying `" + name + "' has a type Bismuth cannot capture (" +
                             std::string(captured.getCompleteString().c_str()) + ")"));
    }
    const uint32_t count =
        element || !found->type->isArray() ? 1u : static_cast<uint32_t>(std::max(found->type->getOuterArraySize(), 1));
    out.push_back({name, gl_type, count, bytes_of(captured) * count});
  }
  return out;
}

}  // namespace bismuth::translator
