// The sized internal formats of GL textures and images (GL 4.6 §8.5, tables 8.12/8.13; the image formats of
// table 8.27 with their compatibility classes of table 8.28) and the Vulkan format each is stored in. CPU-only: no
// Vulkan calls, only the VkFormat enum. Pixel transfers (pixel_transfer.hpp) convert client pixels to and from the
// tightly packed texels of `vk_format`.
//
// Three-component array formats (RGB8, RGB16F, RGB32F, the RGB integer formats ...) are stored in the
// four-component Vulkan format with alpha 1 (`vk_components` 4 > `components` 3): Vulkan devices rarely support the
// three-component formats for sampled or storage images with optimal tiling (none of them is in Vulkan's list of
// mandatory format features), and GL reads alpha of an RGB texture as 1 anyway. The packed RGB formats
// (R11F_G11F_B10F, RGB9_E5) have Vulkan formats of their own.
#pragma once

#include <GL/glcorearb.h>
#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace bismuth::gl {

// How the components of a format hold their values.
enum class Numeric : uint8_t {
  Unorm,      // unsigned normalized fixed point, c / (2^b - 1) (GL 4.6 §2.3.5.1); sRGB formats too (`srgb`)
  Snorm,      // signed normalized fixed point, max(c / (2^(b-1) - 1), -1) (§2.3.5.2)
  Uint,       // unsigned integer
  Sint,       // signed integer
  Float,      // 16- or 32-bit floating point (§2.3.4)
  UFloat,     // unsigned 11- and 10-bit floats of R11F_G11F_B10F (§2.3.4.3, §2.3.4.4)
  SharedExp,  // RGB9_E5: three 9-bit mantissas and a shared 5-bit exponent (§8.5.2)
  Depth,      // depth (and depth-stencil) formats: the depth aspect's texels (pixel_transfer.hpp); the stencil of
              // DEPTH24_STENCIL8 / DEPTH32F_STENCIL8 lives in a STENCIL_INDEX8 plane (TextureObject::stencil_plane)
};

// Image format compatibility classes of GL 4.6 table 8.28 (formats of one class may alias through
// glBindImageTexture's format argument when GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE applies).
enum class ImageClass : uint8_t {
  None,  // not an image unit format (table 8.27)
  C4x32,
  C2x32,
  C1x32,
  C4x16,
  C2x16,
  C1x16,
  C4x8,
  C2x8,
  C1x8,
  C11_11_10,
  C10_10_10_2,
};

struct SizedFormat {
  GLenum internalformat;
  const char* name;    // "GL_RGBA8"
  GLenum base_format;  // GL_RED, GL_RG, GL_RGB, GL_RGBA, GL_DEPTH_COMPONENT, GL_DEPTH_STENCIL, GL_STENCIL_INDEX
  uint8_t components;  // components of the base format (1..4)
  Numeric numeric;
  std::array<uint8_t, 4> bits;  // per component, R G B A order
  bool srgb;                    // RGB stored sRGB-encoded (transfers copy the encoded values unchanged)
  bool packed;                  // the Vulkan texel is one 32-bit word, R in the least significant bits
  VkFormat vk_format;
  uint8_t vk_texel_bytes;       // bytes of one texel of vk_format (depth formats: of its depth aspect)
  uint8_t vk_components;        // components of vk_format; more than `components`: the extra alpha is stored as 1
  ImageClass image_class;       // ImageClass::None: not usable with glBindImageTexture
  const char* image_qualifier;  // the GLSL layout qualifier of an image format ("rgba8"), else nullptr
  // The pixel format/type of table 8.28 (image formats) or of the ES 3.2 table 8.2 row with the same precision:
  // the "natural" client layout of one texel, also GL_IMPLEMENTATION_COLOR_READ_FORMAT/TYPE.
  GLenum natural_format;
  GLenum natural_type;
};

// Every sized format of the table, in GL 4.6 table 8.12 order (color), then depth.
std::span<const SizedFormat> sized_formats();

// The table's row for a sized internal format, or nullptr (unsized, compressed or unknown enums).
const SizedFormat* find_sized_format(GLenum internalformat);

// The rows a texture of `format` may be stored in, the preferred first: `format` itself, then for the 24-bit depth
// formats the rows of the same GL format in wider Vulkan formats (DEPTH_COMPONENT24: D24_UNORM_S8_UINT,
// D32_SFLOAT; DEPTH24_STENCIL8: D32_SFLOAT_S8_UINT), which a device that cannot sample X8_D24 / D24S8 uses (both
// are optional in Vulkan). The texels keep the GL format's 24-bit precision (pixel_transfer.hpp).
std::vector<const SizedFormat*> storage_choices(const SizedFormat& format);

// The row of a depth format stored in a colour format (R16_UNORM for DEPTH_COMPONENT16, R32_SFLOAT for the others:
// the same texels as the depth aspect of D16_UNORM / D32_SFLOAT), for devices whose queue cannot copy or clear
// depth aspects (texture_storage.cpp, BISMUTH_DEPTH_TEXTURES); nullptr for a format that is not a depth format.
// Not in sized_formats(), like the fallbacks of storage_choices.
const SizedFormat* depth_color_storage(const SizedFormat& format);

// The format a texture of `internalformat` gets: a sized format as is; one of GL 4.6 table 8.11's base internal
// formats (RED, RG, RGB, RGBA, SRGB, SRGB_ALPHA, DEPTH_COMPONENT, DEPTH_STENCIL, STENCIL_INDEX) becomes a sized format of that base
// which holds `type`'s values (§8.5: the GL chooses the resolution): FLOAT → 32F, HALF_FLOAT → 16F, 16- and 32-bit
// unsigned → 16-bit unorm, signed → snorm, the packed float types → R11F_G11F_B10F / RGB9_E5,
// UNSIGNED_INT_2_10_10_10_REV (RGBA) → RGB10_A2, else 8-bit unorm; depth FLOAT → 32F, UNSIGNED_SHORT → 16, else 24.
// nullptr for any other enum.
const SizedFormat* resolve_internal_format(GLenum internalformat, GLenum type);

inline bool is_integer(const SizedFormat& f) {
  return f.numeric == Numeric::Uint || f.numeric == Numeric::Sint;
}
inline bool is_depth(const SizedFormat& f) {
  return f.numeric == Numeric::Depth;
}
// STENCIL_INDEX8: stored as R8_UINT (numeric Uint, so it samples through a usampler and needs NEAREST filters like an
// integer format, GL 4.6 §8.17), but transferred with format STENCIL_INDEX only and never color-renderable.
inline bool is_stencil_index(const SizedFormat& f) {
  return f.base_format == GL_STENCIL_INDEX;
}
// Depth, depth-stencil or stencil: the formats GL 4.6 §8.5 keeps to the depth targets and §9.4 to the depth and
// stencil attachment points.
inline bool is_depth_or_stencil(const SizedFormat& f) {
  return is_depth(f) || is_stencil_index(f);
}
// DEPTH24_STENCIL8 / DEPTH32F_STENCIL8 (in any storage row): a depth format whose textures also hold stencil indices,
// in a STENCIL_INDEX8 plane beside the depth image (TextureObject::stencil_plane).
inline bool is_depth_stencil(const SizedFormat& f) {
  return f.base_format == GL_DEPTH_STENCIL;
}

const char* image_class_name(ImageClass c);  // "4x32" ... "(10,10,10,2)", "none"

}  // namespace bismuth::gl
