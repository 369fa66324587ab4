// Format rules of texture copies, views and buffer textures (GL 4.6 §8.9, §8.18, §18.3.3), pure: textures.cpp
// implements them next to the other texture rules.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>

#include "pixel_formats.hpp"

namespace bismuth::gl {

// The bits of one texel in GL's terms (GL 4.6 table 8.22's view classes, §18.3.3's copy compatibility): the sum of
// the component sizes (RGB8: 24 although it is stored in four bytes).
uint32_t gl_texel_bits(const SizedFormat& format);

// GL 4.6 §18.3.3 (glCopyImageSubData) and §8.18 (glTextureView) for uncompressed colour formats: two internal
// formats are compatible when they are in one view class of table 8.22, i.e. have the same texel size.
bool copy_compatible(const SizedFormat& a, const SizedFormat& b);

// GL 4.6 table 8.18: the internal formats of buffer textures (glTexBuffer).
bool buffer_texture_format(GLenum internalformat);

}  // namespace bismuth::gl
