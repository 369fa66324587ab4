#include "transform_feedback_varyings.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <map>
#include <optional>

#include "glslang_globals.hpp"

namespace bismuth::translator {

namespace {

using Limits = GlTransformFeedbackLimits;

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
    default: return 0;  // structures (named member by member); GLSL outputs cannot be bool (GLSL 4.60 §4.3.6)
  }
}

// Components of one element of a type of basic type; a double counts two (GL 4.6 §11.1.2.1: "Each component of
// ... double-precision ... consumes two components").
uint32_t element_components(const glslang::TType& element) {
  const uint32_t scalars = element.isMatrix() ? static_cast<uint32_t>(element.getMatrixCols() * element.getMatrixRows())
                                              : static_cast<uint32_t>(element.getVectorSize());
  return scalars * (element.getBasicType() == glslang::EbtDouble ? 2u : 1u);
}

std::string link_error(const std::string& text) {
  return "error: " + text + "\n";
}

// An output the varyings array may name: a variable ("v"), a member of a user block ("Block.m"), a built-in
// ("gl_Position", a gl_PerVertex member named by itself), a structure member ("s.f", "s[1].f", "Block.s.f") or a
// whole structure or array element of one (named, to be refused with a clear log).
struct Output {
  std::string name;
  const glslang::TType* type = nullptr;  // in the stage's tree, or in the element storage
};

// Adds `name` and, for a structure, its members and elements (GL 4.6 §7.3.1.1's naming).
void add_output(std::vector<Output>& out, std::deque<glslang::TType>& elements, const std::string& name,
                const glslang::TType& type) {
  out.push_back({name, &type});
  if (type.getBasicType() != glslang::EbtStruct) return;
  if (type.isArray()) {
    const glslang::TType& element = elements.emplace_back(type, 0);
    for (int i = 0; i < std::max(type.getOuterArraySize(), 0); ++i) {
      add_output(out, elements, name + "[" + std::to_string(i) + "]", element);
    }
    return;
  }
  for (const glslang::TTypeLoc& member : *type.getStruct()) {
    add_output(out, elements, name + "." + member.type->getFieldName().c_str(), *member.type);
  }
}

// Calls `visit(name, type, block qualifier or null)` for every output of the stage and every user block member.
template <class Visit>
void for_each_output(const glslang::TIntermediate& tree, Visit visit) {
  for_each_global(tree, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    if (type.getQualifier().storage != glslang::EvqVaryingOut) return;
    if (type.getBasicType() != glslang::EbtBlock) {
      visit(std::string(symbol.getName().c_str()), type, static_cast<const glslang::TQualifier*>(nullptr));
      return;
    }
    const std::string block(type.getTypeName().c_str());
    for (const glslang::TTypeLoc& member : *type.getStruct()) {
      const std::string field(member.type->getFieldName().c_str());
      const bool built_in = member.type->getQualifier().builtIn != glslang::EbvNone || field.starts_with("gl_");
      visit(built_in ? field : block + "." + field, *member.type, &type.getQualifier());
    }
  });
}

// "a[2]": the base name and the element; nullopt for a name that does not end in a subscript.
std::optional<std::pair<std::string, uint32_t>> split_subscript(const std::string& name) {
  const size_t bracket = name.rfind('[');
  if (bracket == std::string::npos || !name.ends_with("]")) return std::nullopt;
  uint32_t index = 0;
  const char* first = name.data() + bracket + 1;
  const char* last = name.data() + name.size() - 1;
  auto [ptr, ec] = std::from_chars(first, last, index);
  if (ec != std::errc() || ptr != last || first == last) return std::nullopt;
  return std::make_pair(name.substr(0, bracket), index);
}

// Buffers, offsets and strides of the varyings the application named (GL 4.6 §11.1.2.1): with INTERLEAVED_ATTRIBS
// they follow one another in buffer 0, gl_NextBuffer moving on to the next buffer; with SEPARATE_ATTRIBS each is
// at offset 0 of a buffer of its own.
std::vector<GlTransformFeedbackBuffer> place_named(std::vector<GlTransformFeedbackVarying>& varyings,
                                                   bool interleaved) {
  std::vector<GlTransformFeedbackBuffer> buffers;
  uint32_t buffer = 0, offset = 0;
  for (uint32_t i = 0; i < varyings.size(); ++i) {
    GlTransformFeedbackVarying& v = varyings[i];
    if (!interleaved) {
      buffer = i;
      offset = 0;
    }
    v.buffer = buffer;
    v.offset = offset;
    if (v.name == "gl_NextBuffer") {
      ++buffer;
      offset = 0;
      continue;
    }
    if (buffers.empty() || buffers.back().binding != buffer) buffers.push_back({buffer, 0, {}});
    buffers.back().varyings.push_back(i);
    offset += v.bytes;
    buffers.back().stride = offset;
  }
  return buffers;
}

// GL 4.6 §11.1.2.1's limits on what the names capture.
Status check_named_limits(const std::vector<GlTransformFeedbackVarying>& varyings,
                          const std::vector<GlTransformFeedbackBuffer>& buffers, bool interleaved) {
  if (!interleaved) {
    // "the total number of components to capture in any output in varyings is greater than the value of
    // MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS and the buffer mode is SEPARATE_ATTRIBS".
    for (const GlTransformFeedbackVarying& v : varyings) {
      if (v.components > Limits::kSeparateComponents) {
        return fail(link_error("transform feedback varying `" + v.name + "' has " + std::to_string(v.components) +
                               " components, more than GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS (" +
                               std::to_string(Limits::kSeparateComponents) + ") with GL_SEPARATE_ATTRIBS"));
      }
    }
    return {};
  }
  // "the total number of components to capture in any transform feedback buffer is greater than the value of
  // MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS and the buffer mode is INTERLEAVED_ATTRIBS" (gl_SkipComponentsN
  // counts its N).
  for (const GlTransformFeedbackBuffer& b : buffers) {
    uint32_t components = 0;
    for (uint32_t i : b.varyings) components += varyings[i].components;
    if (components > Limits::kInterleavedComponents) {
      return fail(link_error("transform feedback buffer " + std::to_string(b.binding) + " captures " +
                             std::to_string(components) +
                             " components, more than GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS (" +
                             std::to_string(Limits::kInterleavedComponents) + ")"));
    }
  }
  // gl_NextBuffer moves to the next binding point; the binding points are MAX_TRANSFORM_FEEDBACK_BUFFERS.
  const auto next_buffers = std::count_if(
      varyings.begin(), varyings.end(), [](const GlTransformFeedbackVarying& v) { return v.name == "gl_NextBuffer"; });
  if (static_cast<uint32_t>(next_buffers) + 1 > Limits::kBuffers) {
    return fail(
        link_error("the varyings write " + std::to_string(next_buffers + 1) +
                   " transform feedback buffers (gl_NextBuffer), more than GL_MAX_TRANSFORM_FEEDBACK_BUFFERS (" +
                   std::to_string(Limits::kBuffers) + ")"));
  }
  return {};
}

Expected<ResolvedTransformFeedback> resolve_named(const glslang::TIntermediate& tree, ShaderStage stage,
                                                  const std::vector<std::string>& names, bool interleaved) {
  std::vector<Output> outputs;
  std::deque<glslang::TType> elements;
  for_each_output(tree, [&](const std::string& name, const glslang::TType& type, const glslang::TQualifier*) {
    add_output(outputs, elements, name, type);
  });
  auto find = [&](const std::string& name) -> const Output* {
    for (const Output& o : outputs) {
      if (o.name == name) return &o;
    }
    return nullptr;
  };
  ResolvedTransformFeedback out;
  std::map<std::string, std::vector<std::optional<uint32_t>>> captured;  // base name -> whole (nullopt), elements
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
      out.varyings.push_back({name, 0, n, 4 * n, n});
      continue;
    }
    const Output* found = find(name);
    std::optional<uint32_t> element;
    if (found == nullptr) {
      if (auto split = split_subscript(name)) {
        found = find(split->first);
        element = split->second;
      }
    }
    // "any variable name specified in the varyings array is not declared as an output in the last vertex
    // processing stage", or an array element past the end of its array, fails the link.
    if (found == nullptr || (element && (!found->type->isArray() ||
                                         (found->type->getOuterArraySize() > 0 &&
                                          *element >= static_cast<uint32_t>(found->type->getOuterArraySize()))))) {
      return fail(link_error("transform feedback varying `" + name + "' is not an output of the " + stage_name(stage) +
                             " shader"));
    }
    // "any two entries in the varyings array specify the same output variable": the same name twice, or one
    // array element twice (an array and one of its elements are different entries, as Mesa's linker has it).
    const std::string base = element ? name.substr(0, name.rfind('[')) : name;
    std::vector<std::optional<uint32_t>>& taken = captured[base];
    for (const std::optional<uint32_t>& t : taken) {
      if (t == element) {
        return fail(link_error("transform feedback varying `" + name + "' specifies an output already captured"));
      }
    }
    taken.push_back(element);
    std::optional<glslang::TType> element_type;  // the array's element (TType copies only by dereference)
    if (found->type->isArray()) element_type.emplace(*found->type, 0);
    const glslang::TType& captured_type = element_type ? *element_type : *found->type;
    if (captured_type.getBasicType() == glslang::EbtStruct) {
      return fail(link_error("transform feedback varying `" + name +
                             "' is a structure: name each member to capture (\"" + name + ".member\")"));
    }
    const uint32_t gl_type = gl_type_of(captured_type);
    if (gl_type == 0) {
      return fail(link_error("transform feedback varying `" + name + "' has a type that cannot be captured (" +
                             std::string(captured_type.getCompleteString().c_str()) + ")"));
    }
    const uint32_t count =
        element || !found->type->isArray() ? 1u : static_cast<uint32_t>(std::max(found->type->getOuterArraySize(), 1));
    const uint32_t components = element_components(captured_type) * count;
    out.varyings.push_back({name, gl_type, count, 4 * components, components});
  }
  out.buffers = place_named(out.varyings, interleaved);
  if (Status limits = check_named_limits(out.varyings, out.buffers, interleaved); !limits) return limits.error();
  return out;
}

// Bytes a captured output of any type takes (GLSL 4.60 §4.4.2.1: members and elements are "assigned consecutive
// offsets"; a double-precision member starts at a multiple of 8).
uint32_t size_of(const glslang::TType& type) {
  const uint32_t elements = type.isSizedArray() ? static_cast<uint32_t>(type.getCumulativeArraySize()) : 1u;
  if (type.getBasicType() != glslang::EbtStruct) return 4 * element_components(type) * elements;
  uint32_t size = 0;
  for (const glslang::TTypeLoc& member : *type.getStruct()) {
    if (member.type->containsDouble()) size = (size + 7) / 8 * 8;
    size += size_of(*member.type);
  }
  return size * elements;
}

// Adds the resources one captured output at (buffer, offset) makes: an output of basic type or an array of one is
// one resource ("a[0]" for an array: GL 4.6 §7.3.1.1), a structure one per member, an array of structures one per
// element and member.
void add_declared(std::vector<GlTransformFeedbackVarying>& out, const std::string& name, const glslang::TType& type,
                  uint32_t buffer, uint32_t offset) {
  if (type.getBasicType() == glslang::EbtStruct) {
    if (type.isArray()) {
      const glslang::TType element(type, 0);
      const uint32_t stride = size_of(element);
      for (int i = 0; i < std::max(type.getOuterArraySize(), 0); ++i) {
        add_declared(out, name + "[" + std::to_string(i) + "]", element, buffer,
                     offset + stride * static_cast<uint32_t>(i));
      }
      return;
    }
    for (const glslang::TTypeLoc& member : *type.getStruct()) {
      if (member.type->containsDouble()) offset = (offset + 7) / 8 * 8;
      add_declared(out, name + "." + member.type->getFieldName().c_str(), *member.type, buffer, offset);
      offset += size_of(*member.type);
    }
    return;
  }
  std::optional<glslang::TType> element_type;
  if (type.isArray()) element_type.emplace(type, 0);
  const glslang::TType& element = element_type ? *element_type : type;
  const uint32_t count = type.isSizedArray() ? static_cast<uint32_t>(type.getCumulativeArraySize()) : 1u;
  const uint32_t components = element_components(element) * count;
  out.push_back(
      {type.isArray() ? name + "[0]" : name, gl_type_of(element), count, 4 * components, components, buffer, offset});
}

// GL 4.6 §11.1.2.1: "If the shader used to record output variables for transform feedback varyings uses the
// xfb_buffer, xfb_offset, or xfb_stride layout qualifiers, the values specified by TransformFeedbackVaryings are
// ignored, and the set of variables captured for transform feedback is instead derived from the specified layout
// qualifiers": the outputs with an xfb_offset (a block's members take the block's offset and buffer, GLSL 4.60
// §4.4.2.1). glslang checks the qualifiers' own errors (overlaps, alignment, a stride too small or too large, a
// buffer number out of range) when it compiles and links the stage.
ResolvedTransformFeedback resolve_declared(const glslang::TIntermediate& tree) {
  ResolvedTransformFeedback out;
  out.declared = true;
  for_each_output(tree, [&](const std::string& name, const glslang::TType& type, const glslang::TQualifier* block) {
    const glslang::TQualifier& q = type.getQualifier();
    if (!q.hasXfbOffset()) return;
    const uint32_t buffer = q.hasXfbBuffer()                            ? q.layoutXfbBuffer
                            : block != nullptr && block->hasXfbBuffer() ? block->layoutXfbBuffer
                                                                        : 0u;
    add_declared(out.varyings, name, type, buffer, q.layoutXfbOffset);
  });
  std::stable_sort(out.varyings.begin(), out.varyings.end(),
                   [](const GlTransformFeedbackVarying& a, const GlTransformFeedbackVarying& b) {
                     return a.buffer != b.buffer ? a.buffer < b.buffer : a.offset < b.offset;
                   });
  for (uint32_t i = 0; i < out.varyings.size(); ++i) {
    const GlTransformFeedbackVarying& v = out.varyings[i];
    if (out.buffers.empty() || out.buffers.back().binding != v.buffer) {
      // The stride the shader declared, else the one glslang's link derived ("the smallest multiple of 4 (or 8)
      // that holds every captured output", GLSL 4.60 §4.4.2.1).
      const unsigned stride = tree.getXfbStride(static_cast<int>(v.buffer));
      out.buffers.push_back({v.buffer, stride == glslang::TQualifier::layoutXfbStrideEnd ? 0u : stride, {}});
    }
    out.buffers.back().varyings.push_back(i);
    out.buffers.back().stride = std::max(out.buffers.back().stride, v.offset + v.bytes);
  }
  return out;
}

}  // namespace

bool declares_transform_feedback(const glslang::TIntermediate& tree) {
  return tree.getXfbMode();
}

Expected<ResolvedTransformFeedback> resolve_transform_feedback(const glslang::TIntermediate& tree, ShaderStage stage,
                                                               const std::vector<std::string>& names,
                                                               bool interleaved) {
  if (declares_transform_feedback(tree)) return resolve_declared(tree);
  return resolve_named(tree, stage, names, interleaved);
}

}  // namespace bismuth::translator
