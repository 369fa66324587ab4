// The table of sized internal formats (pixel_formats.hpp).
#include "pixel_formats.hpp"

#include <algorithm>
#include <vector>

namespace bismuth::gl {
namespace {

using N = Numeric;
using IC = ImageClass;

constexpr GLenum base_of(uint8_t components) {
  return components == 1 ? GL_RED : components == 2 ? GL_RG : components == 3 ? GL_RGB : GL_RGBA;
}

constexpr GLenum client_format_of(uint8_t components, N numeric) {
  const bool integer = numeric == N::Uint || numeric == N::Sint;
  switch (components) {
    case 1: return integer ? GL_RED_INTEGER : GL_RED;
    case 2: return integer ? GL_RG_INTEGER : GL_RG;
    case 3: return integer ? GL_RGB_INTEGER : GL_RGB;
    default: return integer ? GL_RGBA_INTEGER : GL_RGBA;
  }
}

constexpr GLenum client_type_of(N numeric, uint8_t bits) {
  switch (numeric) {
    case N::Unorm:
    case N::Uint: return bits == 8 ? GL_UNSIGNED_BYTE : bits == 16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
    case N::Snorm:
    case N::Sint: return bits == 8 ? GL_BYTE : bits == 16 ? GL_SHORT : GL_INT;
    case N::Float: return bits == 16 ? GL_HALF_FLOAT : GL_FLOAT;
    default: return GL_NONE;
  }
}

// An array format: `components` components of `bits` each, one after the other in memory (R first). Three
// components are stored in the four-component Vulkan format (header comment).
constexpr SizedFormat array(GLenum internalformat, const char* name, uint8_t components, N numeric, uint8_t bits,
                            VkFormat vk, IC image_class = IC::None, const char* qualifier = nullptr,
                            bool srgb = false) {
  const uint8_t vk_components = components == 3 ? 4 : components;
  std::array<uint8_t, 4> b{};
  for (uint8_t i = 0; i < components; ++i) b[i] = bits;
  return SizedFormat{internalformat,
                     name,
                     base_of(components),
                     components,
                     numeric,
                     b,
                     srgb,
                     false,
                     vk,
                     static_cast<uint8_t>(vk_components * bits / 8),
                     vk_components,
                     image_class,
                     qualifier,
                     client_format_of(components, numeric),
                     client_type_of(numeric, bits)};
}

// A format stored as one 32-bit word, R in the least significant bits (Vulkan's *_PACK32 formats name the
// components from the most significant bits down: A2B10G10R10 is R in bits 0-9).
constexpr SizedFormat packed(GLenum internalformat, const char* name, uint8_t components, N numeric,
                             std::array<uint8_t, 4> bits, VkFormat vk, IC image_class, const char* qualifier,
                             GLenum natural_type) {
  return SizedFormat{internalformat,
                     name,
                     base_of(components),
                     components,
                     numeric,
                     bits,
                     false,
                     true,
                     vk,
                     4,
                     components,
                     image_class,
                     qualifier,
                     client_format_of(components, numeric),
                     natural_type};
}

constexpr SizedFormat depth(GLenum internalformat, const char* name, GLenum base, uint8_t depth_bits, VkFormat vk,
                            uint8_t texel_bytes, GLenum natural_type) {
  return SizedFormat{internalformat, name, base,     1,       N::Depth, {depth_bits, 0, 0, 0}, false, false, vk,
                     texel_bytes,    1,    IC::None, nullptr, base,     natural_type};
}

// A 16-bit packed format (GL 4.6 §8.5.1 requires RGB565, RGBA4 and RGB5_A1): stored in the Vulkan format of the
// same bits, which every Vulkan device samples and filters (the mandatory R5G6B5_UNORM_PACK16,
// B4G4R4A4_UNORM_PACK16, A1R5G5B5_UNORM_PACK16); their component order differs from GL's, the texel codec places each
// component (packed16_shifts in pixel_transfer.cpp).
constexpr SizedFormat packed16(GLenum internalformat, const char* name, uint8_t components, std::array<uint8_t, 4> bits,
                               VkFormat vk, GLenum natural_type) {
  return SizedFormat{
      internalformat, name,    base_of(components), components,  N::Unorm, bits, false, true, vk, 2, components,
      IC::None,       nullptr, base_of(components), natural_type};
}

// GL 4.6 table 8.12 (the sized color formats this shim stores), table 8.13 (depth). The image qualifiers and
// classes are those of tables 8.27/8.28.
constexpr SizedFormat kFormats[] = {
    array(GL_R8, "GL_R8", 1, N::Unorm, 8, VK_FORMAT_R8_UNORM, IC::C1x8, "r8"),
    array(GL_R8_SNORM, "GL_R8_SNORM", 1, N::Snorm, 8, VK_FORMAT_R8_SNORM, IC::C1x8, "r8_snorm"),
    array(GL_R16, "GL_R16", 1, N::Unorm, 16, VK_FORMAT_R16_UNORM, IC::C1x16, "r16"),
    array(GL_R16_SNORM, "GL_R16_SNORM", 1, N::Snorm, 16, VK_FORMAT_R16_SNORM, IC::C1x16, "r16_snorm"),
    array(GL_RG8, "GL_RG8", 2, N::Unorm, 8, VK_FORMAT_R8G8_UNORM, IC::C2x8, "rg8"),
    array(GL_RG8_SNORM, "GL_RG8_SNORM", 2, N::Snorm, 8, VK_FORMAT_R8G8_SNORM, IC::C2x8, "rg8_snorm"),
    array(GL_RG16, "GL_RG16", 2, N::Unorm, 16, VK_FORMAT_R16G16_UNORM, IC::C2x16, "rg16"),
    array(GL_RG16_SNORM, "GL_RG16_SNORM", 2, N::Snorm, 16, VK_FORMAT_R16G16_SNORM, IC::C2x16, "rg16_snorm"),
    array(GL_RGB8, "GL_RGB8", 3, N::Unorm, 8, VK_FORMAT_R8G8B8A8_UNORM),
    array(GL_RGB8_SNORM, "GL_RGB8_SNORM", 3, N::Snorm, 8, VK_FORMAT_R8G8B8A8_SNORM),
    array(GL_RGB16, "GL_RGB16", 3, N::Unorm, 16, VK_FORMAT_R16G16B16A16_UNORM),
    array(GL_RGB16_SNORM, "GL_RGB16_SNORM", 3, N::Snorm, 16, VK_FORMAT_R16G16B16A16_SNORM),
    array(GL_RGBA8, "GL_RGBA8", 4, N::Unorm, 8, VK_FORMAT_R8G8B8A8_UNORM, IC::C4x8, "rgba8"),
    array(GL_RGBA8_SNORM, "GL_RGBA8_SNORM", 4, N::Snorm, 8, VK_FORMAT_R8G8B8A8_SNORM, IC::C4x8, "rgba8_snorm"),
    packed16(GL_RGB565, "GL_RGB565", 3, {5, 6, 5, 0}, VK_FORMAT_R5G6B5_UNORM_PACK16, GL_UNSIGNED_SHORT_5_6_5),
    packed16(GL_RGBA4, "GL_RGBA4", 4, {4, 4, 4, 4}, VK_FORMAT_B4G4R4A4_UNORM_PACK16, GL_UNSIGNED_SHORT_4_4_4_4),
    packed16(GL_RGB5_A1, "GL_RGB5_A1", 4, {5, 5, 5, 1}, VK_FORMAT_A1R5G5B5_UNORM_PACK16, GL_UNSIGNED_SHORT_5_5_5_1),
    packed(GL_RGB10_A2, "GL_RGB10_A2", 4, N::Unorm, {10, 10, 10, 2}, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
           IC::C10_10_10_2, "rgb10_a2", GL_UNSIGNED_INT_2_10_10_10_REV),
    packed(GL_RGB10_A2UI, "GL_RGB10_A2UI", 4, N::Uint, {10, 10, 10, 2}, VK_FORMAT_A2B10G10R10_UINT_PACK32,
           IC::C10_10_10_2, "rgb10_a2ui", GL_UNSIGNED_INT_2_10_10_10_REV),
    array(GL_RGBA16, "GL_RGBA16", 4, N::Unorm, 16, VK_FORMAT_R16G16B16A16_UNORM, IC::C4x16, "rgba16"),
    array(GL_RGBA16_SNORM, "GL_RGBA16_SNORM", 4, N::Snorm, 16, VK_FORMAT_R16G16B16A16_SNORM, IC::C4x16, "rgba16_snorm"),
    array(GL_SRGB8, "GL_SRGB8", 3, N::Unorm, 8, VK_FORMAT_R8G8B8A8_SRGB, IC::None, nullptr, true),
    array(GL_SRGB8_ALPHA8, "GL_SRGB8_ALPHA8", 4, N::Unorm, 8, VK_FORMAT_R8G8B8A8_SRGB, IC::None, nullptr, true),
    array(GL_R16F, "GL_R16F", 1, N::Float, 16, VK_FORMAT_R16_SFLOAT, IC::C1x16, "r16f"),
    array(GL_RG16F, "GL_RG16F", 2, N::Float, 16, VK_FORMAT_R16G16_SFLOAT, IC::C2x16, "rg16f"),
    array(GL_RGB16F, "GL_RGB16F", 3, N::Float, 16, VK_FORMAT_R16G16B16A16_SFLOAT),
    array(GL_RGBA16F, "GL_RGBA16F", 4, N::Float, 16, VK_FORMAT_R16G16B16A16_SFLOAT, IC::C4x16, "rgba16f"),
    array(GL_R32F, "GL_R32F", 1, N::Float, 32, VK_FORMAT_R32_SFLOAT, IC::C1x32, "r32f"),
    array(GL_RG32F, "GL_RG32F", 2, N::Float, 32, VK_FORMAT_R32G32_SFLOAT, IC::C2x32, "rg32f"),
    array(GL_RGB32F, "GL_RGB32F", 3, N::Float, 32, VK_FORMAT_R32G32B32A32_SFLOAT),
    array(GL_RGBA32F, "GL_RGBA32F", 4, N::Float, 32, VK_FORMAT_R32G32B32A32_SFLOAT, IC::C4x32, "rgba32f"),
    packed(GL_R11F_G11F_B10F, "GL_R11F_G11F_B10F", 3, N::UFloat, {11, 11, 10, 0}, VK_FORMAT_B10G11R11_UFLOAT_PACK32,
           IC::C11_11_10, "r11f_g11f_b10f", GL_UNSIGNED_INT_10F_11F_11F_REV),
    packed(GL_RGB9_E5, "GL_RGB9_E5", 3, N::SharedExp, {9, 9, 9, 0}, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, IC::None, nullptr,
           GL_UNSIGNED_INT_5_9_9_9_REV),
    array(GL_R8I, "GL_R8I", 1, N::Sint, 8, VK_FORMAT_R8_SINT, IC::C1x8, "r8i"),
    array(GL_R8UI, "GL_R8UI", 1, N::Uint, 8, VK_FORMAT_R8_UINT, IC::C1x8, "r8ui"),
    array(GL_R16I, "GL_R16I", 1, N::Sint, 16, VK_FORMAT_R16_SINT, IC::C1x16, "r16i"),
    array(GL_R16UI, "GL_R16UI", 1, N::Uint, 16, VK_FORMAT_R16_UINT, IC::C1x16, "r16ui"),
    array(GL_R32I, "GL_R32I", 1, N::Sint, 32, VK_FORMAT_R32_SINT, IC::C1x32, "r32i"),
    array(GL_R32UI, "GL_R32UI", 1, N::Uint, 32, VK_FORMAT_R32_UINT, IC::C1x32, "r32ui"),
    array(GL_RG8I, "GL_RG8I", 2, N::Sint, 8, VK_FORMAT_R8G8_SINT, IC::C2x8, "rg8i"),
    array(GL_RG8UI, "GL_RG8UI", 2, N::Uint, 8, VK_FORMAT_R8G8_UINT, IC::C2x8, "rg8ui"),
    array(GL_RG16I, "GL_RG16I", 2, N::Sint, 16, VK_FORMAT_R16G16_SINT, IC::C2x16, "rg16i"),
    array(GL_RG16UI, "GL_RG16UI", 2, N::Uint, 16, VK_FORMAT_R16G16_UINT, IC::C2x16, "rg16ui"),
    array(GL_RG32I, "GL_RG32I", 2, N::Sint, 32, VK_FORMAT_R32G32_SINT, IC::C2x32, "rg32i"),
    array(GL_RG32UI, "GL_RG32UI", 2, N::Uint, 32, VK_FORMAT_R32G32_UINT, IC::C2x32, "rg32ui"),
    array(GL_RGB8I, "GL_RGB8I", 3, N::Sint, 8, VK_FORMAT_R8G8B8A8_SINT),
    array(GL_RGB8UI, "GL_RGB8UI", 3, N::Uint, 8, VK_FORMAT_R8G8B8A8_UINT),
    array(GL_RGB16I, "GL_RGB16I", 3, N::Sint, 16, VK_FORMAT_R16G16B16A16_SINT),
    array(GL_RGB16UI, "GL_RGB16UI", 3, N::Uint, 16, VK_FORMAT_R16G16B16A16_UINT),
    array(GL_RGB32I, "GL_RGB32I", 3, N::Sint, 32, VK_FORMAT_R32G32B32A32_SINT),
    array(GL_RGB32UI, "GL_RGB32UI", 3, N::Uint, 32, VK_FORMAT_R32G32B32A32_UINT),
    array(GL_RGBA8I, "GL_RGBA8I", 4, N::Sint, 8, VK_FORMAT_R8G8B8A8_SINT, IC::C4x8, "rgba8i"),
    array(GL_RGBA8UI, "GL_RGBA8UI", 4, N::Uint, 8, VK_FORMAT_R8G8B8A8_UINT, IC::C4x8, "rgba8ui"),
    array(GL_RGBA16I, "GL_RGBA16I", 4, N::Sint, 16, VK_FORMAT_R16G16B16A16_SINT, IC::C4x16, "rgba16i"),
    array(GL_RGBA16UI, "GL_RGBA16UI", 4, N::Uint, 16, VK_FORMAT_R16G16B16A16_UINT, IC::C4x16, "rgba16ui"),
    array(GL_RGBA32I, "GL_RGBA32I", 4, N::Sint, 32, VK_FORMAT_R32G32B32A32_SINT, IC::C4x32, "rgba32i"),
    array(GL_RGBA32UI, "GL_RGBA32UI", 4, N::Uint, 32, VK_FORMAT_R32G32B32A32_UINT, IC::C4x32, "rgba32ui"),
    // Depth (table 8.13). X8_D24 and D24_S8 are optional in Vulkan (NVIDIA has them; AMD lacks D24_S8).
    depth(GL_DEPTH_COMPONENT16, "GL_DEPTH_COMPONENT16", GL_DEPTH_COMPONENT, 16, VK_FORMAT_D16_UNORM, 2,
          GL_UNSIGNED_SHORT),
    depth(GL_DEPTH_COMPONENT24, "GL_DEPTH_COMPONENT24", GL_DEPTH_COMPONENT, 24, VK_FORMAT_X8_D24_UNORM_PACK32, 4,
          GL_UNSIGNED_INT),
    depth(GL_DEPTH_COMPONENT32F, "GL_DEPTH_COMPONENT32F", GL_DEPTH_COMPONENT, 32, VK_FORMAT_D32_SFLOAT, 4, GL_FLOAT),
    depth(GL_DEPTH24_STENCIL8, "GL_DEPTH24_STENCIL8", GL_DEPTH_STENCIL, 24, VK_FORMAT_D24_UNORM_S8_UINT, 4,
          GL_UNSIGNED_INT_24_8),
    depth(GL_DEPTH32F_STENCIL8, "GL_DEPTH32F_STENCIL8", GL_DEPTH_STENCIL, 32, VK_FORMAT_D32_SFLOAT_S8_UINT, 4,
          GL_FLOAT_32_UNSIGNED_INT_24_8_REV),
    // Stencil (table 8.13, ARB_texture_stencil8): the 8-bit index in R8_UINT on every device, not S8_UINT. Bismuth
    // never runs a stencil test, so a stencil format buys nothing, while R8_UINT is a colour format every queue
    // copies, clears and samples (a compute-only queue cannot copy the stencil aspect, and sampling S8_UINT needs
    // a stencil-aspect view); a usampler reads it as (S, 0, 0, 1) as GL 4.6 table 15.1 asks of a stencil index.
    SizedFormat{GL_STENCIL_INDEX8, "GL_STENCIL_INDEX8", GL_STENCIL_INDEX, 1, N::Uint, {8, 0, 0, 0}, false, false,
                VK_FORMAT_R8_UINT, 1, 1, IC::None, nullptr, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE},
};

// The Vulkan formats a 24-bit depth format falls back to where the device cannot sample its own (as Zink does:
// X8_D24 → D24S8 → D32, D24S8 → D32S8): the same GL format, a wider Vulkan format. Not in kFormats, so that
// find_sized_format and sized_formats() never see them; a texture's levels point at the row it is stored in.
constexpr SizedFormat kDepthFallbacks[] = {
    depth(GL_DEPTH_COMPONENT24, "GL_DEPTH_COMPONENT24", GL_DEPTH_COMPONENT, 24, VK_FORMAT_D24_UNORM_S8_UINT, 4,
          GL_UNSIGNED_INT),
    depth(GL_DEPTH_COMPONENT24, "GL_DEPTH_COMPONENT24", GL_DEPTH_COMPONENT, 24, VK_FORMAT_D32_SFLOAT, 4,
          GL_UNSIGNED_INT),
    depth(GL_DEPTH24_STENCIL8, "GL_DEPTH24_STENCIL8", GL_DEPTH_STENCIL, 24, VK_FORMAT_D32_SFLOAT_S8_UINT, 4,
          GL_UNSIGNED_INT_24_8),
};

// Depth formats stored in a colour format (depth_color_storage): where depth-aspect copies and clears are not
// available (a compute-only Vulkan queue) the depth values live in the red channel of R16_UNORM (16-bit) or
// R32_SFLOAT (24- and 32-bit: the texels of the D32_SFLOAT rows, a float holding the GL format's precision), whose
// texels are exactly those of the depth formats' depth aspects (D16: a 16-bit unorm, D32: a float).
constexpr SizedFormat kDepthColorRows[] = {
    depth(GL_DEPTH_COMPONENT16, "GL_DEPTH_COMPONENT16", GL_DEPTH_COMPONENT, 16, VK_FORMAT_R16_UNORM, 2,
          GL_UNSIGNED_SHORT),
    depth(GL_DEPTH_COMPONENT24, "GL_DEPTH_COMPONENT24", GL_DEPTH_COMPONENT, 24, VK_FORMAT_R32_SFLOAT, 4,
          GL_UNSIGNED_INT),
    depth(GL_DEPTH_COMPONENT32F, "GL_DEPTH_COMPONENT32F", GL_DEPTH_COMPONENT, 32, VK_FORMAT_R32_SFLOAT, 4, GL_FLOAT),
    depth(GL_DEPTH24_STENCIL8, "GL_DEPTH24_STENCIL8", GL_DEPTH_STENCIL, 24, VK_FORMAT_R32_SFLOAT, 4,
          GL_UNSIGNED_INT_24_8),
    depth(GL_DEPTH32F_STENCIL8, "GL_DEPTH32F_STENCIL8", GL_DEPTH_STENCIL, 32, VK_FORMAT_R32_SFLOAT, 4,
          GL_FLOAT_32_UNSIGNED_INT_24_8_REV),
};

}  // namespace

const SizedFormat* depth_color_storage(const SizedFormat& format) {
  for (const SizedFormat& f : kDepthColorRows) {
    if (f.internalformat == format.internalformat) return &f;
  }
  return nullptr;
}

std::span<const SizedFormat> sized_formats() {
  return kFormats;
}

const SizedFormat* find_sized_format(GLenum internalformat) {
  const auto* it = std::find_if(std::begin(kFormats), std::end(kFormats),
                                [&](const SizedFormat& f) { return f.internalformat == internalformat; });
  return it == std::end(kFormats) ? nullptr : it;
}

std::vector<const SizedFormat*> storage_choices(const SizedFormat& format) {
  std::vector<const SizedFormat*> out{&format};
  for (const SizedFormat& f : kDepthFallbacks) {
    if (f.internalformat == format.internalformat) out.push_back(&f);
  }
  return out;
}

const SizedFormat* resolve_internal_format(GLenum internalformat, GLenum type) {
  if (const SizedFormat* sized = find_sized_format(internalformat)) return sized;
  // Per base format: 8-bit unorm, 8-bit snorm, 16-bit unorm, 16-bit snorm, 16F, 32F.
  struct Choices {
    GLenum base, unorm8, snorm8, unorm16, snorm16, half, single;
  };
  static constexpr Choices kChoices[] = {
      {GL_RED, GL_R8, GL_R8_SNORM, GL_R16, GL_R16_SNORM, GL_R16F, GL_R32F},
      {GL_RG, GL_RG8, GL_RG8_SNORM, GL_RG16, GL_RG16_SNORM, GL_RG16F, GL_RG32F},
      {GL_RGB, GL_RGB8, GL_RGB8_SNORM, GL_RGB16, GL_RGB16_SNORM, GL_RGB16F, GL_RGB32F},
      {GL_RGBA, GL_RGBA8, GL_RGBA8_SNORM, GL_RGBA16, GL_RGBA16_SNORM, GL_RGBA16F, GL_RGBA32F},
  };
  GLenum chosen = GL_NONE;
  switch (internalformat) {
    case GL_SRGB: chosen = GL_SRGB8; break;
    case GL_SRGB_ALPHA: chosen = GL_SRGB8_ALPHA8; break;
    case GL_DEPTH_COMPONENT:
      chosen = type == GL_FLOAT            ? GL_DEPTH_COMPONENT32F
               : type == GL_UNSIGNED_SHORT ? GL_DEPTH_COMPONENT16
                                           : GL_DEPTH_COMPONENT24;
      break;
    case GL_DEPTH_STENCIL:
      chosen = type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV ? GL_DEPTH32F_STENCIL8 : GL_DEPTH24_STENCIL8;
      break;
    case GL_STENCIL_INDEX: chosen = GL_STENCIL_INDEX8; break;
    default:
      for (const Choices& c : kChoices) {
        if (c.base != internalformat) continue;
        switch (type) {
          case GL_FLOAT: chosen = c.single; break;
          case GL_HALF_FLOAT: chosen = c.half; break;
          case GL_UNSIGNED_SHORT:
          case GL_UNSIGNED_INT: chosen = c.unorm16; break;
          case GL_BYTE: chosen = c.snorm8; break;
          case GL_SHORT:
          case GL_INT: chosen = c.snorm16; break;
          case GL_UNSIGNED_INT_10F_11F_11F_REV: chosen = c.base == GL_RGB ? GL_R11F_G11F_B10F : c.half; break;
          case GL_UNSIGNED_INT_5_9_9_9_REV: chosen = c.base == GL_RGB ? GL_RGB9_E5 : c.half; break;
          case GL_UNSIGNED_INT_2_10_10_10_REV:
          case GL_UNSIGNED_INT_10_10_10_2: chosen = c.base == GL_RGBA ? GL_RGB10_A2 : c.unorm16; break;
          default: chosen = c.unorm8; break;
        }
      }
  }
  return chosen == GL_NONE ? nullptr : find_sized_format(chosen);
}

const char* image_class_name(ImageClass c) {
  switch (c) {
    case IC::None: return "none";
    case IC::C4x32: return "4x32";
    case IC::C2x32: return "2x32";
    case IC::C1x32: return "1x32";
    case IC::C4x16: return "4x16";
    case IC::C2x16: return "2x16";
    case IC::C1x16: return "1x16";
    case IC::C4x8: return "4x8";
    case IC::C2x8: return "2x8";
    case IC::C1x8: return "1x8";
    case IC::C11_11_10: return "(11,11,10)";
    case IC::C10_10_10_2: return "(10,10,10,2)";
  }
  return "none";
}

}  // namespace bismuth::gl
