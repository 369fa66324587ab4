#include "opaque_uniforms.hpp"

#include <glslang/Include/Types.h>

#include <unordered_set>

#include "bismuth/spirv_patch/module.hpp"
#include "glslang_globals.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace bismuth::translator {

namespace {

// GL enums (glcorearb.h): the texture targets of GL 4.6 Table 7.3's sampler and image types.
constexpr uint32_t kTexture1D = 0x0DE0, kTexture2D = 0x0DE1, kTexture3D = 0x806F, kTextureCubeMap = 0x8513,
                   kTextureRectangle = 0x84F5, kTexture1DArray = 0x8C18, kTexture2DArray = 0x8C1A,
                   kTextureBuffer = 0x8C2A, kTextureCubeMapArray = 0x9009, kTexture2DMultisample = 0x9100,
                   kTexture2DMultisampleArray = 0x9102;

uint32_t texture_target(const glslang::TSampler& s) {
  switch (s.dim) {
    case glslang::Esd1D: return s.arrayed ? kTexture1DArray : kTexture1D;
    case glslang::Esd2D:
      if (s.ms) return s.arrayed ? kTexture2DMultisampleArray : kTexture2DMultisample;
      return s.arrayed ? kTexture2DArray : kTexture2D;
    case glslang::Esd3D: return kTexture3D;
    case glslang::EsdCube: return s.arrayed ? kTextureCubeMapArray : kTextureCubeMap;
    case glslang::EsdRect: return kTextureRectangle;
    case glslang::EsdBuffer: return kTextureBuffer;
    default: return 0;
  }
}

// GL 4.6 Table 8.27 ("Supported image unit formats, with equivalent format layout qualifiers"): the layout
// qualifier's name, as glslang spells it, to the GL internal format.
struct ImageFormat {
  std::string_view qualifier;
  uint32_t internal_format;
};
constexpr ImageFormat kImageFormats[] = {
    {"rgba32f", 0x8814},
    {"rgba16f", 0x881A},
    {"rg32f", 0x8230},
    {"rg16f", 0x822F},
    {"r11f_g11f_b10f", 0x8C3A},
    {"r32f", 0x822E},
    {"r16f", 0x822D},
    {"rgba32ui", 0x8D70},
    {"rgba16ui", 0x8D76},
    {"rgb10_a2ui", 0x906F},
    {"rgba8ui", 0x8D7C},
    {"rg32ui", 0x823C},
    {"rg16ui", 0x823A},
    {"rg8ui", 0x8238},
    {"r32ui", 0x8236},
    {"r16ui", 0x8234},
    {"r8ui", 0x8232},
    {"rgba32i", 0x8D82},
    {"rgba16i", 0x8D88},
    {"rgba8i", 0x8D8E},
    {"rg32i", 0x823B},
    {"rg16i", 0x8239},
    {"rg8i", 0x8237},
    {"r32i", 0x8235},
    {"r16i", 0x8233},
    {"r8i", 0x8231},
    {"rgba16", 0x805B},
    {"rgb10_a2", 0x8059},
    {"rgba8", 0x8058},
    {"rg16", 0x822C},
    {"rg8", 0x822B},
    {"r16", 0x822A},
    {"r8", 0x8229},
    {"rgba16_snorm", 0x8F9B},
    {"rgba8_snorm", 0x8F97},
    {"rg16_snorm", 0x8F99},
    {"rg8_snorm", 0x8F95},
    {"r16_snorm", 0x8F98},
    {"r8_snorm", 0x8F94},
};

uint32_t internal_format(glslang::TLayoutFormat format) {
  if (format == glslang::ElfNone) return 0;
  const std::string_view name = glslang::TQualifier::getLayoutFormatString(format);
  for (const ImageFormat& f : kImageFormats) {
    if (f.qualifier == name) return f.internal_format;
  }
  return 0;
}

}  // namespace

std::optional<GlOpaqueInfo> opaque_info(const glslang::TType& type) {
  if (type.getBasicType() != glslang::EbtSampler) return std::nullopt;
  const glslang::TSampler& s = type.getSampler();
  if (s.isPureSampler() || (!s.isImage() && !s.isCombined())) return std::nullopt;
  GlOpaqueInfo info;
  const bool buffer = s.dim == glslang::EsdBuffer;
  info.kind = s.isImage() ? (buffer ? GlResourceKind::ImageBuffer : GlResourceKind::Image)
                          : (buffer ? GlResourceKind::TextureBuffer : GlResourceKind::Texture);
  info.target = texture_target(s);
  if (info.target == 0) return std::nullopt;
  info.shadow = s.shadow;
  info.sampled_type = s.type == glslang::EbtInt    ? GlSampledType::Int
                      : s.type == glslang::EbtUint ? GlSampledType::Uint
                                                   : GlSampledType::Float;
  if (s.isImage()) {
    const glslang::TQualifier& q = type.getQualifier();
    info.format = internal_format(q.layoutFormat);
    info.memory = (q.readonly ? kImageReadonly : 0u) | (q.writeonly ? kImageWriteonly : 0u) |
                  (q.coherent ? kImageCoherent : 0u) | (q.volatil ? kImageVolatile : 0u) |
                  (q.restrict ? kImageRestrict : 0u);
  }
  return info;
}

bool drop_opaque_locations(spirv_patch::Module& module) {
  std::unordered_set<uint32_t> uniform_constants;
  for (spirv_patch::InstructionHandle h : module.instructions(spirv_patch::Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) == spv::Op::OpVariable && w.size() >= 4 &&
        static_cast<spv::StorageClass>(w[3]) == spv::StorageClass::UniformConstant) {
      uniform_constants.insert(w[2]);
    }
  }
  bool changed = false;
  for (spirv_patch::InstructionHandle h : module.instructions(spirv_patch::Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) == spv::Op::OpDecorate && w.size() >= 3 &&
        static_cast<spv::Decoration>(w[2]) == spv::Decoration::Location && uniform_constants.count(w[1])) {
      module.erase(h);
      changed = true;
    }
  }
  return changed;
}

namespace {

// The line and column of the first whole-word `name` on a line that also says "uniform"; 1, 1 when there is none.
std::pair<int, int> declaration_position(std::string_view source, std::string_view name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  int line = 1;
  for (size_t start = 0; start <= source.size();) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view text = source.substr(start, end - start);
    if (text.find("uniform") != std::string_view::npos) {
      for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
        const bool starts = at == 0 || !word(text[at - 1]);
        const bool ends = at + name.size() == text.size() || !word(text[at + name.size()]);
        if (starts && ends) return {line, static_cast<int>(at) + 1};
      }
    }
    ++line;
    start = end + 1;
  }
  return {1, 1};
}

}  // namespace

std::vector<Diagnostic> opaque_declaration_errors(const glslang::TIntermediate& intermediate, std::string_view source,
                                                  std::string_view source_name) {
  std::vector<Diagnostic> errors;
  auto error = [&](const std::string& name, std::string text) {
    const auto [line, column] = declaration_position(source, name);
    errors.push_back({Diagnostic::Severity::Error, std::string(source_name), line, column, std::move(text)});
  };
  auto in_structure = [&](const std::string& name) {
    error(name, "'" + name +
                    "' : structures holding samplers or images are not supported by Bismuth (declare the sampler or "
                    "image as a uniform of its own)");
  };
  for_each_global(intermediate, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    const glslang::TQualifier& q = type.getQualifier();
    if (q.storage != glslang::EvqUniform) return;
    const std::string name = symbol.getName().c_str();
    // The relaxed Vulkan rules have already gathered default-block uniforms into a block: look at its members.
    if (type.getBasicType() == glslang::EbtBlock) {
      for (const glslang::TTypeLoc& member : *type.getStruct()) {
        if (member.type->getBasicType() != glslang::EbtSampler && member.type->containsOpaque())
          in_structure(member.type->getFieldName().c_str());
      }
      return;
    }
    if (type.getBasicType() == glslang::EbtStruct && type.containsOpaque()) {
      in_structure(name);
      return;
    }
    if (type.getBasicType() != glslang::EbtSampler) return;
    if (type.getSampler().dim == glslang::EsdRect) {
      error(name, "'" + name +
                      "' : rectangle samplers and images are not supported by Bismuth (Vulkan has no "
                      "rectangle textures)");
      return;
    }
    if (type.isArrayOfArrays()) {
      error(name, "'" + name +
                      "' : arrays of arrays of samplers or images are not supported by Bismuth (Vulkan "
                      "takes one array dimension)");
      return;
    }
    if (!type.getSampler().isImage() || !q.hasBinding()) return;
    const uint64_t elements = type.isSizedArray() ? static_cast<uint64_t>(type.getCumulativeArraySize()) : 1;
    if (uint64_t(q.layoutBinding) + elements <= GlTextureLimits::kImageUnits) return;
    error(name, "'binding' : image binding " + std::to_string(q.layoutBinding) +
                    (elements > 1 ? " with " + std::to_string(elements) + " elements" : std::string()) +
                    " is not less than gl_MaxImageUnits (" + std::to_string(GlTextureLimits::kImageUnits) + ")");
  });
  return errors;
}

std::optional<std::string> opaque_limit_error(const GlLinkedProgram& linked) {
  uint32_t samplers = 0, images = 0;
  for (const GlUniform& u : linked.uniforms) {
    if (!u.opaque) continue;
    const bool image = u.opaque->kind == GlResourceKind::Image || u.opaque->kind == GlResourceKind::ImageBuffer;
    (image ? images : samplers) += u.array_size;
  }
  if (samplers > GlTextureLimits::kComputeTextureImageUnits) {
    return "too many samplers: the compute shader uses " + std::to_string(samplers) +
           " texture image units, above GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS (" +
           std::to_string(GlTextureLimits::kComputeTextureImageUnits) + ")";
  }
  if (images > GlTextureLimits::kComputeImageUniforms) {
    return "too many image uniforms: the compute shader uses " + std::to_string(images) +
           ", above GL_MAX_COMPUTE_IMAGE_UNIFORMS (" + std::to_string(GlTextureLimits::kComputeImageUniforms) + ")";
  }
  return std::nullopt;
}

}  // namespace bismuth::translator
