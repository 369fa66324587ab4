// Texture objects, sampler objects, texture units and image units of the GL shim (GL 4.6 chapter 8, OpenGL ES 3.2
// chapter 8; issue 18), and the pure helpers the entry points and dispatch share: target properties, level
// extents, texture completeness (§8.17), the effective sampler state of a unit (§8.2: a bound sampler object wins
// over the texture's own parameters) and image-unit validity (§8.26). The entry points are texture_objects.cpp
// (names, binding), texture_storage.cpp (glTexStorage*, glTexImage*, where a level's texels live),
// texture_transfer.cpp (sub-image uploads and reads), texture_parameters.cpp, texture_queries.cpp,
// sampler_objects.cpp, image_units.cpp and pixel_store.cpp.
//
// Storage: an immutable texture (glTexStorage*) is one backend::Image with every level. A mutable texture
// (glTexImage*) keeps the levels consistent with level 0 in one backend::Image (`image`, levels [0, image levels))
// and any other defined level in an image of its own (`level_images`): a glTexImage* that changes a level inside
// `image` copies its levels out first ("dissolves" it), and make_texture_image copies the level images back into
// one image again when the levels are consistent (texture_storage.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <GL/glcorearb.h>

#include "bismuth/backend/device.hpp"
#include "bismuth/backend/image.hpp"
#include "pixel_formats.hpp"

namespace bismuth::gl {

struct BufferObject;

// Sampler state (GL 4.6 table 23.18 for sampler objects; a texture object has the same state of its own).
struct SamplerState {
  GLenum min_filter = GL_NEAREST_MIPMAP_LINEAR;
  GLenum mag_filter = GL_LINEAR;
  GLenum wrap_s = GL_REPEAT, wrap_t = GL_REPEAT, wrap_r = GL_REPEAT;
  std::array<float, 4> border_color{};  // as float; border_integer holds the *Iiv / *Iuiv form
  std::array<uint32_t, 4> border_integer{};
  bool border_is_integer = false;  // set through TexParameterI*: border_integer is the value
  float min_lod = -1000.0f, max_lod = 1000.0f, lod_bias = 0.0f;
  GLenum compare_mode = GL_NONE;
  GLenum compare_func = GL_LEQUAL;
  float max_anisotropy = 1.0f;
  friend bool operator==(const SamplerState&, const SamplerState&) = default;
};

struct SamplerObject {
  GLuint name = 0;
  SamplerState state;
  std::string label;
};

// One mip level of one face (cube maps: six faces; every other target one) as glTexImage*/glTexStorage* defined
// it. For array targets `depth` (2D arrays, cube map arrays: layer-faces) or `height` (1D arrays) counts layers.
struct TextureLevel {
  const SizedFormat* format = nullptr;  // null: the level is not defined
  GLenum internalformat = GL_NONE;      // as the application named it (GL_TEXTURE_INTERNAL_FORMAT)
  uint32_t width = 0, height = 0, depth = 0;
  bool defined() const { return format != nullptr; }
};

// Levels a texture records per face: more than log2 of any Vulkan device's largest image dimension + 1.
inline constexpr uint32_t kMaxTextureLevels = 20;

struct TextureObject {
  GLuint name = 0;
  GLenum target = GL_NONE;  // GL_NONE until first bound (glGenTextures) or from glCreateTextures
  bool immutable = false;   // TEXTURE_IMMUTABLE_FORMAT
  GLuint immutable_levels = 0;
  // levels[face][level], faces: 6 for CUBE_MAP, else 1; sized to the largest level count of the target.
  std::vector<std::vector<TextureLevel>> levels;
  // Storage (see the header comment). `image` covers levels [0, image->desc().mip_levels) of every face.
  std::shared_ptr<backend::Image> image;
  // Mutable textures: a level outside `image`, per face (index face * kMaxTextureLevels + level; a cube map face's
  // level image is a 2D image of one layer).
  std::vector<std::shared_ptr<backend::Image>> level_images;
  // Levels of a compressed internal format (compressed_formats.hpp; texture_compressed.cpp): the application's
  // blocks of each (face, level), index face * kMaxTextureLevels + level, layer after layer, each layer's blocks row
  // by row. glGetCompressedTexImage returns them; the image holds them natively (a Vulkan block format) or their
  // decoded texels (texture_compressed.cpp, compressed_storage_format).
  std::vector<std::vector<uint8_t>> compressed_blocks;
  // The stencil indices of DEPTH24_STENCIL8 / DEPTH32F_STENCIL8 levels (texture_stencil_plane.cpp): a texture object
  // of its own (never named or bound) with the same target, levels, layers and samples, each depth-stencil level
  // there a STENCIL_INDEX8 level (an R8_UINT image, like a stencil texture's), so that stencil transfers, clears,
  // copies and stencil sampling take the STENCIL_INDEX8 paths on any queue, whichever way the depth is stored
  // (docs/gl_shim.md "Depth textures"). Null while no level is a depth-stencil one.
  std::shared_ptr<TextureObject> stencil_plane;
  // A view of a compressed texture (glTextureView): the texture whose compressed_blocks it shows (the original's
  // owner for a view of a view); null for a texture with blocks of its own. Its TEXTURE_VIEW_MIN_LEVEL / MIN_LAYER
  // locate its levels and layers among the owner's (texture_compressed.cpp, block_home).
  std::shared_ptr<TextureObject> blocks_owner;
  // The owner's images of its blocks decoded as another format of their view class whose texels differ (a SIGNED_
  // RGTC / EAC view of an unsigned texture, BC6H signed vs unsigned), one per decoding: each has the layout of
  // `image`; every write of blocks decodes into `image` and each of these.
  std::vector<std::pair<GLenum, std::shared_ptr<backend::Image>>> decoded_views;
  SamplerState sampler;
  GLint base_level = 0, max_level = 1000;
  std::array<GLenum, 4> swizzle{GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
  GLenum depth_stencil_mode = GL_DEPTH_COMPONENT;
  // Multisample textures (2D_MULTISAMPLE(_ARRAY); texture_multisample.cpp): TEXTURE_SAMPLES, the samples the image
  // has (0 for every other texture), and TEXTURE_FIXED_SAMPLE_LOCATIONS (table 23.17; TRUE initially).
  uint32_t samples = 0;
  bool fixed_sample_locations = true;
  // glTextureView (not implemented yet: the fields answer TEXTURE_VIEW_* for every texture).
  GLuint view_min_level = 0, view_num_levels = 0, view_min_layer = 0, view_num_layers = 0;
  // Buffer textures (glTexBuffer*, not implemented yet).
  std::shared_ptr<BufferObject> buffer;
  GLenum buffer_format = GL_R8;
  GLintptr buffer_offset = 0;
  GLsizeiptr buffer_size = 0;
  std::string label;
};

// A texture unit: the texture bound to each target and the sampler object (GL 4.6 §8.1, §8.2).
struct TextureUnit {
  static constexpr size_t kTargets = 11;
  std::array<std::shared_ptr<TextureObject>, kTargets> textures;
  std::shared_ptr<SamplerObject> sampler;
};

// An image unit (GL 4.6 §8.26, table 23.45).
struct ImageUnit {
  std::shared_ptr<TextureObject> texture;
  GLint level = 0;
  bool layered = false;
  GLint layer = 0;
  GLenum access = GL_READ_ONLY;
  GLenum format = GL_R8;
};

// ---- targets ----

// The index of a texture target in TextureUnit::textures, or -1 for a target that is not one. OpenGL ES contexts
// (es_minor: 1 or 2) have no 1D, 1D_ARRAY or RECTANGLE textures, and ES 3.1 no CUBE_MAP_ARRAY, BUFFER or
// 2D_MULTISAMPLE_ARRAY (OpenGL ES 3.2 §8.1).
int target_index(GLenum target, bool es, int es_minor);
GLenum target_of_index(int index);
GLenum binding_pname(GLenum target);  // GL_TEXTURE_BINDING_2D for GL_TEXTURE_2D ...
const char* target_name(GLenum target);

// Target properties.
bool is_cube_face(GLenum target);         // TEXTURE_CUBE_MAP_POSITIVE_X ... NEGATIVE_Z
uint32_t face_index(GLenum face_target);  // 0..5
uint32_t face_count(GLenum target);       // 6 for CUBE_MAP, else 1
bool is_array(GLenum target);             // 1D_ARRAY, 2D_ARRAY, CUBE_MAP_ARRAY, 2D_MULTISAMPLE_ARRAY
uint32_t dimensions(GLenum target);       // 1 (1D), 2 (2D, RECT, CUBE, 1D_ARRAY), 3 (3D, 2D_ARRAY, CUBE_ARRAY)
bool has_mipmaps(GLenum target);          // not RECTANGLE, BUFFER, multisample
// glGetTexImage's and glGetCompressedTexImage's targets (GL 4.6 §8.11.4: not CUBE_MAP itself, its faces instead;
// no buffer or multisample).
bool is_get_tex_image_target(GLenum target);

// The largest level count of a target for a base size (GL 4.6 §8.14.3: floor(log2(max dimension)) + 1; array
// layers do not count), 1 for RECTANGLE.
uint32_t full_level_count(GLenum target, uint32_t width, uint32_t height, uint32_t depth);

// A level's size from the base level's (§8.14.3): each dimension halved and floored, at least 1; array layers
// (1D arrays' height, 2D/cube arrays' depth) unchanged.
TextureLevel level_of(GLenum target, const TextureLevel& base, uint32_t level);

// The device limits the texture entry points check (GL 4.6 table 23.53), from the Vulkan device.
struct TextureSizeLimits {
  uint32_t max_texture_size = 16384;  // MAX_TEXTURE_SIZE (1D, 2D)
  uint32_t max_3d_size = 2048;        // MAX_3D_TEXTURE_SIZE
  uint32_t max_cube_size = 16384;     // MAX_CUBE_MAP_TEXTURE_SIZE
  uint32_t max_rectangle_size = 16384;
  uint32_t max_array_layers = 2048;  // MAX_ARRAY_TEXTURE_LAYERS
  uint32_t max_texture_buffer_size = 65536;
  uint32_t texture_buffer_offset_alignment = 256;
  float max_lod_bias = 2.0f;
  float max_anisotropy = 1.0f;
};
TextureSizeLimits texture_size_limits(const backend::Device& device);

// INVALID_VALUE text when a level's size is outside the target's limits (§8.5: "width, height or depth greater
// than the maximum"), empty when it is fine.
std::string check_level_size(GLenum target, const TextureSizeLimits& limits, GLint level, GLsizei width, GLsizei height,
                             GLsizei depth);

// ---- completeness and effective state (pure, used by dispatch) ----

// GL 4.6 §8.17: whether the texture is complete for the sampler state `sampler` (the effective one: the unit's
// sampler object's, else the texture's own). `why` gets the reason when not.
bool texture_complete(const TextureObject& texture, const SamplerState& sampler, std::string* why = nullptr);

// The sampler state a texture unit samples `texture` with: the bound sampler object's when one is bound (§8.2
// "If a sampler object is bound to a texture unit, its state overrides the sampler state of the texture"), else
// the texture's own, with the texture-only state alongside.
struct EffectiveSampler {
  // Levels of a compressed internal format (compressed_formats.hpp; texture_compressed.cpp): the application's
  // blocks of each (face, level), index face * kMaxTextureLevels + level, layer after layer, each layer's blocks row
  // by row. glGetCompressedTexImage returns them; the image holds them natively (a Vulkan block format) or their
  // decoded texels (texture_compressed.cpp, compressed_storage_format).
  std::vector<std::vector<uint8_t>> compressed_blocks;
  SamplerState sampler;
  GLint base_level = 0, max_level = 1000;  // §8.14.3 levels actually used: base..q
  std::array<GLenum, 4> swizzle{GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
  GLenum depth_stencil_mode = GL_DEPTH_COMPONENT;
};
EffectiveSampler effective_sampler(const TextureObject& texture, const SamplerObject* sampler);

// The effective levels [base, q] of a complete texture (§8.14.3): q = min(p, MAX_LEVEL), p = base + the
// base level's mip chain length - 1 (immutable: clamped to IMMUTABLE_LEVELS - 1).
uint32_t effective_top_level(const TextureObject& texture);

// GL 4.6 §8.26.1 "Image Unit Access": whether an image unit gives shaders access (false: loads return zero and
// stores are ignored), with `why` when not. The format checks use GL_IMAGE_FORMAT_COMPATIBILITY_TYPE: the unit's
// format and the texture's internal format must be of one class (table 8.27) for BY_CLASS, of one texel size for
// BY_SIZE; this shim reports BY_SIZE for every image format, as Vulkan's view-format compatibility is by size.
bool image_unit_valid(const ImageUnit& unit, std::string* why = nullptr);

// The internal format of a texture's base level (or of its storage), nullptr when none.
const TextureLevel* base_level_of(const TextureObject& texture);

}  // namespace bismuth::gl
