// The (internalformat, format, type) checks of pixel transfers: desktop GL 4.6 (§8.4.4, §8.5 TexImage errors,
// §8.11.4 GetTexImage errors, §18.2 ReadPixels) and OpenGL ES 3.2 (table 8.2, §16.1.2).
#include <catch2/catch.hpp>

#include <set>
#include <tuple>
#include <vector>

#include "pixel_transfer.hpp"

using namespace bismuth::gl;

namespace {

GLenum unpack_error(GLenum internalformat, GLenum format, GLenum type) {
  const auto r = check_unpack_gl(internalformat, format, type);
  if (!r.ok()) CHECK_FALSE(r.message.empty());
  return r.error;
}
GLenum pack_error(GLenum internalformat, GLenum format, GLenum type) {
  return check_pack_gl(internalformat, format, type).error;
}

}  // namespace

TEST_CASE("GL 4.6: valid combinations across precisions are accepted", "[pixels][errors]") {
  // Desktop GL converts between any color format/type and any non-integer internal format.
  CHECK(unpack_error(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGBA8, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGBA32F, GL_RGBA, GL_UNSIGNED_BYTE) == GL_NO_ERROR);
  CHECK(unpack_error(GL_R8, GL_RGBA, GL_FLOAT) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT) == GL_NO_ERROR);
  CHECK(unpack_error(GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV) == GL_NO_ERROR);
  CHECK(unpack_error(GL_R32I, GL_RED_INTEGER, GL_INT) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGBA8UI, GL_RGBA_INTEGER, GL_INT) == GL_NO_ERROR);
  CHECK(unpack_error(GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT) == GL_NO_ERROR);
}

// Enums outside the format table (8.3) and the type table (8.2): "An INVALID_ENUM error is generated if format
// or type is not one of the accepted values".
TEST_CASE("GL 4.6: unknown format or type enums are INVALID_ENUM", "[pixels][errors]") {
  CHECK(unpack_error(GL_RGBA8, GL_RGBA8, GL_UNSIGNED_BYTE) == GL_INVALID_ENUM);
  CHECK(unpack_error(GL_RGBA8, GL_RGBA, GL_RGBA) == GL_INVALID_ENUM);
  CHECK(pack_error(GL_RGBA8, GL_RGBA, GL_DOUBLE) == GL_INVALID_ENUM);
}

// glTexImage2D reference page: "GL_INVALID_VALUE is generated if internalformat is not one of the accepted
// resolution and format symbolic constants."
TEST_CASE("GL 4.6: an unknown internal format is INVALID_VALUE", "[pixels][errors]") {
  CHECK(unpack_error(0x1234, GL_RGBA, GL_UNSIGNED_BYTE) == GL_INVALID_VALUE);
}

// "An INVALID_OPERATION error is generated if the internal format is integer and format is not one of the integer
// formats ..., or if the internal format is not integer and format is an integer format."
TEST_CASE("GL 4.6: integer formats only with integer internal formats", "[pixels][errors]") {
  CHECK(unpack_error(GL_RGBA8, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGBA8UI, GL_RGBA, GL_UNSIGNED_BYTE) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_R32F, GL_RED_INTEGER, GL_INT) == GL_INVALID_OPERATION);
  // The same for reads: glGetTexImage "if format is one of the integer formats ... and the internal format of the
  // texture image is not integer, or format is not one of the integer formats and the internal format is integer".
  CHECK(pack_error(GL_RGBA32I, GL_RGBA, GL_FLOAT) == GL_INVALID_OPERATION);
  CHECK(pack_error(GL_RGBA8, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE) == GL_INVALID_OPERATION);
}

// "An INVALID_OPERATION error is generated if format is one of the integer formats in table 8.3 and type is one of
// FLOAT, HALF_FLOAT, UNSIGNED_INT_10F_11F_11F_REV, or UNSIGNED_INT_5_9_9_9_REV."
TEST_CASE("GL 4.6: integer formats take no floating-point type", "[pixels][errors]") {
  CHECK(unpack_error(GL_RGBA32I, GL_RGBA_INTEGER, GL_FLOAT) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGBA32UI, GL_RGBA_INTEGER, GL_HALF_FLOAT) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGB32UI, GL_RGB_INTEGER, GL_UNSIGNED_INT_10F_11F_11F_REV) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGB32UI, GL_RGB_INTEGER, GL_UNSIGNED_INT_5_9_9_9_REV) == GL_INVALID_OPERATION);
  CHECK(pack_error(GL_R32I, GL_RED_INTEGER, GL_FLOAT) == GL_INVALID_OPERATION);
}

// Packed types (the packed-pixel table) "can only be used with the formats listed for them; INVALID_OPERATION is
// generated otherwise": three-component types with RGB, four-component ones with RGBA and BGRA.
TEST_CASE("GL 4.6: packed types need a format of their component count", "[pixels][errors]") {
  CHECK(unpack_error(GL_RGBA8, GL_RGB, GL_UNSIGNED_SHORT_4_4_4_4) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGBA8, GL_RGBA, GL_UNSIGNED_SHORT_5_6_5) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGBA8, GL_RED, GL_UNSIGNED_INT_2_10_10_10_REV) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_R11F_G11F_B10F, GL_RGBA, GL_UNSIGNED_INT_10F_11F_11F_REV) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGB9_E5, GL_RG, GL_UNSIGNED_INT_5_9_9_9_REV) == GL_INVALID_OPERATION);
  CHECK(pack_error(GL_RGBA8, GL_RGB, GL_UNSIGNED_INT_8_8_8_8) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGB8, GL_RGB, GL_UNSIGNED_SHORT_5_6_5) == GL_NO_ERROR);
  CHECK(unpack_error(GL_RGBA8, GL_BGRA, GL_UNSIGNED_SHORT_1_5_5_5_REV) == GL_NO_ERROR);
  // UNSIGNED_INT_24_8 and FLOAT_32_UNSIGNED_INT_24_8_REV belong to DEPTH_STENCIL.
  CHECK(unpack_error(GL_RGBA8, GL_RGBA, GL_UNSIGNED_INT_24_8) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8) == GL_NO_ERROR);
}

// §8.5: "An INVALID_OPERATION error is generated if one of the base internal format and format is DEPTH_COMPONENT
// or DEPTH_STENCIL, and the other is neither of these values." §8.11.4 (GetTexImage): STENCIL_INDEX reads need a
// stencil component, DEPTH_STENCIL reads a depth-stencil texture.
TEST_CASE("GL 4.6: depth and stencil formats against color formats", "[pixels][errors]") {
  CHECK(unpack_error(GL_RGBA8, GL_DEPTH_COMPONENT, GL_FLOAT) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_DEPTH_COMPONENT32F, GL_RED, GL_FLOAT) == GL_INVALID_OPERATION);
  CHECK(unpack_error(GL_RGBA8, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE) == GL_INVALID_OPERATION);
  CHECK(pack_error(GL_DEPTH24_STENCIL8, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE) == GL_NO_ERROR);
  CHECK(pack_error(GL_DEPTH_COMPONENT24, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE) == GL_INVALID_OPERATION);
  CHECK(pack_error(GL_DEPTH_COMPONENT24, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8) == GL_INVALID_OPERATION);
  CHECK(pack_error(GL_DEPTH24_STENCIL8, GL_DEPTH_COMPONENT, GL_FLOAT) == GL_NO_ERROR);
}

namespace {

const std::vector<GLenum> kEsFormats = {GL_RED,           GL_RED_INTEGER,   GL_RG,
                                        GL_RG_INTEGER,    GL_RGB,           GL_RGB_INTEGER,
                                        GL_RGBA,          GL_RGBA_INTEGER,  GL_DEPTH_COMPONENT,
                                        GL_DEPTH_STENCIL, GL_STENCIL_INDEX, GL_ALPHA};
const std::vector<GLenum> kEsTypes = {GL_UNSIGNED_BYTE,
                                      GL_BYTE,
                                      GL_UNSIGNED_SHORT,
                                      GL_SHORT,
                                      GL_UNSIGNED_INT,
                                      GL_INT,
                                      GL_HALF_FLOAT,
                                      GL_FLOAT,
                                      GL_UNSIGNED_SHORT_5_6_5,
                                      GL_UNSIGNED_SHORT_4_4_4_4,
                                      GL_UNSIGNED_SHORT_5_5_5_1,
                                      GL_UNSIGNED_INT_2_10_10_10_REV,
                                      GL_UNSIGNED_INT_10F_11F_11F_REV,
                                      GL_UNSIGNED_INT_5_9_9_9_REV,
                                      GL_UNSIGNED_INT_24_8,
                                      GL_FLOAT_32_UNSIGNED_INT_24_8_REV};

using Triple = std::tuple<GLenum, GLenum, GLenum>;

// OpenGL ES 3.2 table 8.2, "Valid combinations of format, type, and sized internalformat", the rows whose
// internal format this shim stores (typed from the table, one row per line).
const std::set<Triple> kEsTable = {
    {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE},
    {GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_BYTE},
    {GL_RGBA4, GL_RGBA, GL_UNSIGNED_BYTE},
    {GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1},
    {GL_RGBA4, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4},
    {GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV},
    {GL_RGB565, GL_RGB, GL_UNSIGNED_BYTE},
    {GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5},
    {GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE},
    {GL_RGBA8_SNORM, GL_RGBA, GL_BYTE},
    {GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV},
    {GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT},
    {GL_RGBA16F, GL_RGBA, GL_FLOAT},
    {GL_RGBA32F, GL_RGBA, GL_FLOAT},
    {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE},
    {GL_RGBA8I, GL_RGBA_INTEGER, GL_BYTE},
    {GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT},
    {GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT},
    {GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT},
    {GL_RGBA32I, GL_RGBA_INTEGER, GL_INT},
    {GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV},
    {GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE},
    {GL_SRGB8, GL_RGB, GL_UNSIGNED_BYTE},
    {GL_RGB8_SNORM, GL_RGB, GL_BYTE},
    {GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV},
    {GL_R11F_G11F_B10F, GL_RGB, GL_HALF_FLOAT},
    {GL_R11F_G11F_B10F, GL_RGB, GL_FLOAT},
    {GL_RGB9_E5, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV},
    {GL_RGB9_E5, GL_RGB, GL_HALF_FLOAT},
    {GL_RGB9_E5, GL_RGB, GL_FLOAT},
    {GL_RGB16F, GL_RGB, GL_HALF_FLOAT},
    {GL_RGB16F, GL_RGB, GL_FLOAT},
    {GL_RGB32F, GL_RGB, GL_FLOAT},
    {GL_RGB8UI, GL_RGB_INTEGER, GL_UNSIGNED_BYTE},
    {GL_RGB8I, GL_RGB_INTEGER, GL_BYTE},
    {GL_RGB16UI, GL_RGB_INTEGER, GL_UNSIGNED_SHORT},
    {GL_RGB16I, GL_RGB_INTEGER, GL_SHORT},
    {GL_RGB32UI, GL_RGB_INTEGER, GL_UNSIGNED_INT},
    {GL_RGB32I, GL_RGB_INTEGER, GL_INT},
    {GL_RG8, GL_RG, GL_UNSIGNED_BYTE},
    {GL_RG8_SNORM, GL_RG, GL_BYTE},
    {GL_RG16F, GL_RG, GL_HALF_FLOAT},
    {GL_RG16F, GL_RG, GL_FLOAT},
    {GL_RG32F, GL_RG, GL_FLOAT},
    {GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_BYTE},
    {GL_RG8I, GL_RG_INTEGER, GL_BYTE},
    {GL_RG16UI, GL_RG_INTEGER, GL_UNSIGNED_SHORT},
    {GL_RG16I, GL_RG_INTEGER, GL_SHORT},
    {GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT},
    {GL_RG32I, GL_RG_INTEGER, GL_INT},
    {GL_R8, GL_RED, GL_UNSIGNED_BYTE},
    {GL_R8_SNORM, GL_RED, GL_BYTE},
    {GL_R16F, GL_RED, GL_HALF_FLOAT},
    {GL_R16F, GL_RED, GL_FLOAT},
    {GL_R32F, GL_RED, GL_FLOAT},
    {GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE},
    {GL_R8I, GL_RED_INTEGER, GL_BYTE},
    {GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT},
    {GL_R16I, GL_RED_INTEGER, GL_SHORT},
    {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT},
    {GL_R32I, GL_RED_INTEGER, GL_INT},
    {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT},
    {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT},
    {GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT},
    {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT},
    {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8},
    {GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV},
    {GL_STENCIL_INDEX8, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE},
};

// GL_EXT_texture_norm16's additions to table 8.2.
const std::set<Triple> kNorm16Rows = {
    {GL_R16, GL_RED, GL_UNSIGNED_SHORT},   {GL_RG16, GL_RG, GL_UNSIGNED_SHORT},
    {GL_RGB16, GL_RGB, GL_UNSIGNED_SHORT}, {GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT},
    {GL_R16_SNORM, GL_RED, GL_SHORT},      {GL_RG16_SNORM, GL_RG, GL_SHORT},
    {GL_RGB16_SNORM, GL_RGB, GL_SHORT},    {GL_RGBA16_SNORM, GL_RGBA, GL_SHORT},
};

}  // namespace

// ES 3.2 §8.5 (TexImage*): "An INVALID_OPERATION error is generated if the combination of internalformat, format
// and type is not one of those in table 8.2" (sized internal formats).
TEST_CASE("ES 3.2: exactly the rows of table 8.2 are valid", "[pixels][errors][es]") {
  for (const SizedFormat& f : sized_formats()) {
    const bool norm16 = (f.numeric == Numeric::Unorm || f.numeric == Numeric::Snorm) && f.bits[0] == 16;
    for (GLenum format : kEsFormats)
      for (GLenum type : kEsTypes) {
        INFO(f.name << " format 0x" << std::hex << format << " type 0x" << type);
        const Triple t{f.internalformat, format, type};
        if (norm16) {
          CHECK(check_unpack_es(f.internalformat, format, type).error == GL_INVALID_VALUE);
          CHECK(check_unpack_es(f.internalformat, format, type, true).error ==
                (kNorm16Rows.count(t) ? GL_NO_ERROR : GL_INVALID_OPERATION));
        } else {
          CHECK(check_unpack_es(f.internalformat, format, type).error ==
                (kEsTable.count(t) ? GL_NO_ERROR : GL_INVALID_OPERATION));
        }
      }
  }
}

// ES 3.2 has no BGRA format or 8_8_8_8 types (INVALID_ENUM, "format or type is not one of the accepted values").
TEST_CASE("ES 3.2: desktop-only enums are INVALID_ENUM", "[pixels][errors][es]") {
  CHECK(check_unpack_es(GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE).error == GL_INVALID_ENUM);
  CHECK(check_unpack_es(GL_RGBA8, GL_RGBA, GL_UNSIGNED_INT_8_8_8_8_REV).error == GL_INVALID_ENUM);
  CHECK(check_unpack_es(GL_RGBA8, GL_RGBA, GL_DOUBLE).error == GL_INVALID_ENUM);
}

// ES 3.2 §16.1.2 (ReadPixels): "Only two combinations of format and type are accepted in most cases. The first
// varies depending on the format of the currently bound rendering surface. For normalized fixed-point rendering
// surfaces, the combination format RGBA and type UNSIGNED_BYTE is accepted. For signed integer rendering
// surfaces, the combination format RGBA_INTEGER and type INT is accepted. For unsigned integer rendering surfaces,
// the combination format RGBA_INTEGER and type UNSIGNED_INT is accepted. ... The second is an
// implementation-chosen format from among those defined in table 8.2" (IMPLEMENTATION_COLOR_READ_FORMAT/TYPE);
// floating-point surfaces take RGBA/FLOAT (§16.1.2 with EXT_color_buffer_float, core in ES 3.2).
TEST_CASE("ES 3.2: glReadPixels format/type pairs", "[pixels][errors][es]") {
  CHECK(check_read_pixels_es(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE).ok());
  CHECK(check_read_pixels_es(GL_RGBA8, GL_RGB, GL_UNSIGNED_BYTE).error == GL_INVALID_OPERATION);
  CHECK(check_read_pixels_es(GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_BYTE).ok());
  CHECK(check_read_pixels_es(GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV).ok());
  CHECK(check_read_pixels_es(GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT).ok());
  CHECK(check_read_pixels_es(GL_RGBA8UI, GL_RGBA_INTEGER, GL_INT).error == GL_INVALID_OPERATION);
  CHECK(check_read_pixels_es(GL_RGBA8UI, GL_RGBA, GL_UNSIGNED_BYTE).error == GL_INVALID_OPERATION);
  CHECK(check_read_pixels_es(GL_R32I, GL_RGBA_INTEGER, GL_INT).ok());
  CHECK(check_read_pixels_es(GL_R32F, GL_RGBA, GL_FLOAT).ok());
  CHECK(check_read_pixels_es(GL_R32F, GL_RGBA, GL_UNSIGNED_BYTE).error == GL_INVALID_OPERATION);
  CHECK(check_read_pixels_es(GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT).error ==
        GL_INVALID_OPERATION);
  // The implementation-chosen pair of an R32F surface is RED/FLOAT (its table 8.2 row), which is then accepted.
  const FormatType r32f = es_implementation_read_format(GL_R32F);
  CHECK(r32f.format == GL_RED);
  CHECK(r32f.type == GL_FLOAT);
  CHECK(check_read_pixels_es(GL_R32F, GL_RED, GL_FLOAT).ok());
}

// Every image format of GL 4.6 table 8.27 is in the table with its class of table 8.28.
TEST_CASE("the image formats of table 8.27 and their classes", "[pixels][formats]") {
  const std::vector<std::tuple<GLenum, const char*, const char*>> image_formats = {
      {GL_RGBA32F, "rgba32f", "4x32"},
      {GL_RGBA16F, "rgba16f", "4x16"},
      {GL_RG32F, "rg32f", "2x32"},
      {GL_RG16F, "rg16f", "2x16"},
      {GL_R11F_G11F_B10F, "r11f_g11f_b10f", "(11,11,10)"},
      {GL_R32F, "r32f", "1x32"},
      {GL_R16F, "r16f", "1x16"},
      {GL_RGBA32UI, "rgba32ui", "4x32"},
      {GL_RGBA16UI, "rgba16ui", "4x16"},
      {GL_RGB10_A2UI, "rgb10_a2ui", "(10,10,10,2)"},
      {GL_RGBA8UI, "rgba8ui", "4x8"},
      {GL_RG32UI, "rg32ui", "2x32"},
      {GL_RG16UI, "rg16ui", "2x16"},
      {GL_RG8UI, "rg8ui", "2x8"},
      {GL_R32UI, "r32ui", "1x32"},
      {GL_R16UI, "r16ui", "1x16"},
      {GL_R8UI, "r8ui", "1x8"},
      {GL_RGBA32I, "rgba32i", "4x32"},
      {GL_RGBA16I, "rgba16i", "4x16"},
      {GL_RGBA8I, "rgba8i", "4x8"},
      {GL_RG32I, "rg32i", "2x32"},
      {GL_RG16I, "rg16i", "2x16"},
      {GL_RG8I, "rg8i", "2x8"},
      {GL_R32I, "r32i", "1x32"},
      {GL_R16I, "r16i", "1x16"},
      {GL_R8I, "r8i", "1x8"},
      {GL_RGBA16, "rgba16", "4x16"},
      {GL_RGB10_A2, "rgb10_a2", "(10,10,10,2)"},
      {GL_RGBA8, "rgba8", "4x8"},
      {GL_RG16, "rg16", "2x16"},
      {GL_RG8, "rg8", "2x8"},
      {GL_R16, "r16", "1x16"},
      {GL_R8, "r8", "1x8"},
      {GL_RGBA16_SNORM, "rgba16_snorm", "4x16"},
      {GL_RGBA8_SNORM, "rgba8_snorm", "4x8"},
      {GL_RG16_SNORM, "rg16_snorm", "2x16"},
      {GL_RG8_SNORM, "rg8_snorm", "2x8"},
      {GL_R16_SNORM, "r16_snorm", "1x16"},
      {GL_R8_SNORM, "r8_snorm", "1x8"},
  };
  CHECK(image_formats.size() == 39);
  size_t in_table = 0;
  for (const SizedFormat& f : sized_formats()) in_table += f.image_class != ImageClass::None;
  CHECK(in_table == image_formats.size());
  for (const auto& [e, qualifier, cls] : image_formats) {
    const SizedFormat* f = find_sized_format(e);
    REQUIRE(f);
    INFO(f->name);
    REQUIRE(f->image_qualifier);
    CHECK(std::string(f->image_qualifier) == qualifier);
    CHECK(std::string(image_class_name(f->image_class)) == cls);
  }
}

// The Vulkan side: texel sizes and the formats whose layout must match GL's packed types bit for bit.
TEST_CASE("Vulkan formats and texel sizes", "[pixels][formats]") {
  CHECK(find_sized_format(GL_RGBA8)->vk_format == VK_FORMAT_R8G8B8A8_UNORM);
  CHECK(find_sized_format(GL_RGB8)->vk_format == VK_FORMAT_R8G8B8A8_UNORM);
  CHECK(find_sized_format(GL_RGB8)->vk_texel_bytes == 4);
  CHECK(find_sized_format(GL_SRGB8_ALPHA8)->vk_format == VK_FORMAT_R8G8B8A8_SRGB);
  CHECK(find_sized_format(GL_R11F_G11F_B10F)->vk_format == VK_FORMAT_B10G11R11_UFLOAT_PACK32);
  CHECK(find_sized_format(GL_RGB10_A2)->vk_format == VK_FORMAT_A2B10G10R10_UNORM_PACK32);
  CHECK(find_sized_format(GL_RGB9_E5)->vk_format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32);
  CHECK(find_sized_format(GL_RGB32F)->vk_texel_bytes == 16);
  CHECK(find_sized_format(GL_RG16F)->vk_texel_bytes == 4);
  CHECK(find_sized_format(GL_R8_SNORM)->vk_texel_bytes == 1);
  CHECK(find_sized_format(GL_RGBA32UI)->vk_texel_bytes == 16);
  CHECK(find_sized_format(GL_RGBA) == nullptr);  // unsized
}

// GL 4.6 §8.5: for a base internal format (table 8.11) "the GL will choose an internal representation that closely
// approximates that requested by internalformat"; the chosen format has that base format (SRGB → RGB, SRGB_ALPHA →
// RGBA, table 8.12's sRGB rows). Sized formats are kept.
TEST_CASE("unsized internal formats resolve to a sized format of the same base", "[pixels][formats]") {
  const std::vector<std::pair<GLenum, GLenum>> bases = {{GL_RED, GL_RED},
                                                        {GL_RG, GL_RG},
                                                        {GL_RGB, GL_RGB},
                                                        {GL_RGBA, GL_RGBA},
                                                        {GL_SRGB, GL_RGB},
                                                        {GL_SRGB_ALPHA, GL_RGBA},
                                                        {GL_DEPTH_COMPONENT, GL_DEPTH_COMPONENT},
                                                        {GL_DEPTH_STENCIL, GL_DEPTH_STENCIL}};
  const std::vector<GLenum> types = {GL_UNSIGNED_BYTE,
                                     GL_BYTE,
                                     GL_UNSIGNED_SHORT,
                                     GL_SHORT,
                                     GL_UNSIGNED_INT,
                                     GL_INT,
                                     GL_HALF_FLOAT,
                                     GL_FLOAT,
                                     GL_UNSIGNED_SHORT_5_6_5,
                                     GL_UNSIGNED_INT_2_10_10_10_REV,
                                     GL_UNSIGNED_INT_10F_11F_11F_REV,
                                     GL_UNSIGNED_INT_5_9_9_9_REV,
                                     GL_UNSIGNED_INT_24_8,
                                     GL_FLOAT_32_UNSIGNED_INT_24_8_REV};
  for (const auto& [internal, base] : bases)
    for (GLenum type : types) {
      INFO("internalformat 0x" << std::hex << internal << " type 0x" << type);
      const SizedFormat* f = resolve_internal_format(internal, type);
      REQUIRE(f);
      CHECK(f->base_format == base);
    }
  // The client's own data fits: RGBA/FLOAT gets a float format, RGB/10F_11F_11F_REV a format that takes it.
  CHECK(resolve_internal_format(GL_RGBA, GL_FLOAT)->numeric == Numeric::Float);
  CHECK(check_unpack_gl(resolve_internal_format(GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV)->internalformat, GL_RGB,
                        GL_UNSIGNED_INT_10F_11F_11F_REV)
            .ok());
  CHECK(resolve_internal_format(GL_RGBA8UI, GL_FLOAT)->internalformat == GL_RGBA8UI);
  CHECK(resolve_internal_format(GL_RGBA_INTEGER, GL_INT) == nullptr);  // not an internal format
  CHECK(resolve_internal_format(4, GL_UNSIGNED_BYTE) == nullptr);      // legacy component counts: compatibility only
}

// ES 3.2 table 8.3, "Valid combinations of format, type, and unsized internalformat": RGB with UNSIGNED_BYTE or
// UNSIGNED_SHORT_5_6_5; RGBA with UNSIGNED_BYTE, UNSIGNED_SHORT_4_4_4_4 or UNSIGNED_SHORT_5_5_5_1;
// LUMINANCE_ALPHA, LUMINANCE and ALPHA with UNSIGNED_BYTE (format equal to internalformat).
TEST_CASE("ES 3.2: exactly the rows of table 8.3 are valid for unsized formats", "[pixels][errors][es]") {
  constexpr GLenum kLuminance = 0x1909, kLuminanceAlpha = 0x190A;
  const std::set<Triple> rows = {
      {GL_RGB, GL_RGB, GL_UNSIGNED_BYTE},
      {GL_RGB, GL_RGB, GL_UNSIGNED_SHORT_5_6_5},
      {GL_RGBA, GL_RGBA, GL_UNSIGNED_BYTE},
      {GL_RGBA, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4},
      {GL_RGBA, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1},
      {kLuminanceAlpha, kLuminanceAlpha, GL_UNSIGNED_BYTE},
      {kLuminance, kLuminance, GL_UNSIGNED_BYTE},
      {GL_ALPHA, GL_ALPHA, GL_UNSIGNED_BYTE},
  };
  std::vector<GLenum> formats = kEsFormats;
  formats.push_back(kLuminance);
  formats.push_back(kLuminanceAlpha);
  for (GLenum internal : {GLenum(GL_RGB), GLenum(GL_RGBA), kLuminanceAlpha, kLuminance, GLenum(GL_ALPHA)})
    for (GLenum format : formats)
      for (GLenum type : kEsTypes) {
        INFO("internalformat 0x" << std::hex << internal << " format 0x" << format << " type 0x" << type);
        CHECK(check_unpack_es(internal, format, type).error ==
              (rows.count({internal, format, type}) ? GL_NO_ERROR : GL_INVALID_OPERATION));
      }
}
