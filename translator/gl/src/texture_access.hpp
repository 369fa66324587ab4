// Helpers of the texture, sampler and image-unit entry points that need a context (textures.hpp has the state and
// the pure helpers). Each sets the GL error its callers' rules name and returns null / false on failure.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gl_internal.hpp"
#include "textures.hpp"

namespace bismuth::gl {

struct CompressedFormat;  // compressed_formats.hpp

// ---- helpers shared by the entry points (set a GL error and return null / false on failure) ----

// The texture bound to `target` on the active unit (INVALID_ENUM for a target not in `allowed`' meaning: the
// callers pass whether cube faces are accepted).
std::shared_ptr<TextureObject> bound_texture(Context* ctx, GLenum target, bool faces, const char* func);
// The DSA form: INVALID_OPERATION when `name` is not an existing texture object (GL 4.6 §8.1).
std::shared_ptr<TextureObject> named_texture(Context* ctx, GLuint name, const char* func);

// Where one level of one face lives: the image, its mip level and the first array layer of the level or face (a
// texture view's TEXTURE_VIEW_MIN_LAYER, plus the face index of a cube map in one image; else 0). image null: the
// level has no texels (undefined or empty).
struct LevelStore {
  backend::Image* image = nullptr;
  uint32_t mip = 0;
  uint32_t face_layer = 0;
};
LevelStore level_store(const TextureObject& texture, uint32_t face, uint32_t level);

// The backend region of a sub-image of one level: x, y, z and width, height, depth as the GL call names them for
// the texture's target (1D arrays: y/height are layers; 2D arrays and cube map arrays: z/depth; a cube map face:
// one layer at `face_layer`).
backend::ImageRegion sub_region(GLenum target, const LevelStore& store, GLint x, GLint y, GLint z, GLsizei width,
                                GLsizei height, GLsizei depth);

// The array layers of a level (1D arrays: height; 2D and cube map arrays: depth; others 1).
uint32_t level_layers(GLenum target, const TextureLevel& level);

// Mutable textures: defines (face, level) as `spec` (glTexImage*, glGenerateMipmap) and gives it storage: the
// texture's one image where `spec` is what that image holds there, else an image of its own (the one image's levels
// are first copied out when the level is inside it, so none loses its texels). False after an error (recorded).
bool define_mutable_level(Context* ctx, TextureObject& texture, uint32_t face, uint32_t level, const TextureLevel& spec,
                          const char* func);

// Mutable textures: puts every level consistent with level 0 into one backend::Image (copying the level images'
// texels in). Dispatch calls it before binding a texture; no-op for immutable textures or when already one image.
bool make_texture_image(Context* ctx, TextureObject& texture, const char* func);

// The row of storage_choices(format) a texture of `format` is stored in on this device: the first whose Vulkan
// format has SAMPLED_IMAGE and the transfer features with optimal tiling (24-bit depth formats fall back to D24S8 /
// D32 / D32S8 as Zink does), else `format` itself. Every other format: `format`.
// Depth formats are stored in a colour format (depth_color_storage: R16_UNORM / R32_SFLOAT) where
// depth_textures_as_color says so.
const SizedFormat& storage_format(const backend::Device& device, const SizedFormat& format);

// Whether depth textures are stored in colour formats on this device: BISMUTH_DEPTH_TEXTURES=color or =depth when
// set, else when the device's queue has no graphics (Vulkan allows depth-aspect copies and clears only there).
bool depth_textures_as_color(const backend::Device& device);

// Creates a texture's backend image of `desc` with the usage the device allows for `format` (image_usage_for, then
// fewer usages where the device refuses that combination, down to transfers only); null after GL_OUT_OF_MEMORY
// with the backend's reason (texture_storage.cpp).
std::shared_ptr<backend::Image> create_texture_image(Context* ctx, backend::ImageDesc desc, const SizedFormat& format,
                                                     const char* func);

// The image usage the device allows for a format (storage where it has an image class and the device can store,
// sampled where it can sample).
backend::ImageUsages image_usage_for(const backend::Device& device, const SizedFormat& format);

// ---- stencil planes of depth-stencil textures (texture_stencil_plane.cpp; TextureObject::stencil_plane) ----

// The STENCIL_INDEX8 row the planes' levels have.
const SizedFormat& stencil_plane_format();
// Immutable storage (glTexStorage*, multisample storage, renderbuffers, views): gives `t` the plane its level 0
// asks for, after t.image is made: a new R8_UINT image shaped like t.image, or `shared` (a view's: the original's
// plane image). Clears the plane of a texture whose format has no stencil. False after GL_OUT_OF_MEMORY.
bool make_immutable_stencil_plane(Context* ctx, TextureObject& t, std::shared_ptr<backend::Image> shared,
                                  const char* func);
// Mutable textures: after (face, level) was defined (define_mutable_level), defines the plane's (face, level) as a
// STENCIL_INDEX8 level of its size when the level is a depth-stencil one, else undefines it there.
bool define_stencil_plane_level(Context* ctx, TextureObject& t, uint32_t face, uint32_t level, const char* func);

// ---- compressed levels (texture_compressed.cpp) ----

// Whether a level is defined with a compressed internal format (compressed_formats.hpp).
bool is_compressed_level(const TextureLevel& level);
// The uncompressed sized format a compressed internal format's texels are decoded into; nullptr for any other enum.
const SizedFormat* compressed_storage_format(GLenum internalformat);
// BISMUTH_COMPRESSED_TEXTURES=decode: every compressed texture decoded on upload, whatever the device has.
bool compressed_decode_forced();
// Whether textures of `f` are stored natively in its Vulkan block format on this device: the device has
// textureCompressionBC (ETC2 / EAC: textureCompressionETC2) and optimal-tiling SAMPLED_IMAGE,
// SAMPLED_IMAGE_FILTER_LINEAR, TRANSFER_SRC and TRANSFER_DST for every format of f's view class (views share the
// image), and decoding is not forced; for a TEXTURE_3D texture (`target`), the device's 3D images of them too.
bool compressed_native(const backend::Device& device, const CompressedFormat& f, GLenum target);
// The row a level of a compressed internal format is stored in on the context's device (a texture of `target`): a
// native row (the decoded storage row's texel description with the Vulkan block format as vk_format) where
// compressed_native, else the decoded storage row. A debug context gets a low-severity message for `func` naming the
// Vulkan format chosen. nullptr for any other enum.
const SizedFormat* compressed_storage_format(Context* ctx, GLenum internalformat, GLenum target, const char* func);
// glGetTex(ture)Image / glGetTextureSubImage of a compressed level: the texels of the box decoded on the CPU from
// the kept blocks (a view's: its owner's, decoded as the view's format), in the level's storage texel layout
// (rows, then slices / layers / faces; `whole_cube`: z selects cube map faces).
bool read_compressed_texels(const TextureObject& texture, uint32_t face, uint32_t level, bool whole_cube, uint32_t x,
                            uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint32_t d, std::vector<std::byte>& out);
// Why a texture of `object_target` cannot have the compressed `internalformat` (GL 4.6 §8.7 / table 8.14: no 1D
// textures, TEXTURE_3D only for the formats of the "3D Tex." column); empty when it can.
std::string compressed_storage_error(GLenum internalformat, GLenum object_target);
// Sizes the CPU copies of the blocks of every compressed level of `texture` (zeroed), after glTexStorage*.
void reset_compressed_blocks(TextureObject& texture);
// Sizes the CPU copy of the blocks of one compressed level (face, level) for its size, zeroed (glTexImage*).
void clear_compressed_level(TextureObject& texture, uint32_t face, uint32_t level);
// glCopyImageSubData with compressed levels (texture_copy.cpp): the blocks of the texel box (x, y: multiples of the
// 4x4 block; w x h texels, partial blocks at the level's edge; d slices, layers or cube map faces from z) of a
// compressed level, tightly packed (rows of blocks, slice after slice). Reads take the kept blocks (a view's: its
// original's); writes replace them and decode them into every image that shows them.
void read_compressed_box(TextureObject& texture, uint32_t level, uint32_t x, uint32_t y, uint32_t z, uint32_t w,
                         uint32_t h, uint32_t d, std::vector<uint8_t>& out);
// The write addresses (face, level) like CompressedTexSubImage: `whole_cube` (a cube map as a whole) makes z select
// faces from `face` 0 on.
bool write_compressed_box(Context* ctx, TextureObject& texture, uint32_t face, uint32_t level, bool whole_cube,
                          uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint32_t d,
                          const uint8_t* blocks, const char* func);
// glTextureView of a compressed texture: `view` shows the blocks of `original` (its owner's) as `view_format` (one
// view class): it shares the owner's image where the two formats decode alike, else an image of the owner's layout
// with the blocks decoded as `view_format` (made once per decoding, kept up to date by every write). False after a
// GL error (recorded).
bool share_compressed_blocks(Context* ctx, const std::shared_ptr<TextureObject>& original, TextureObject& view,
                             GLenum view_format, const char* func);

// glGet* of texture, sampler, image-unit and pixel-store state and of the texture limits (texture_queries.cpp),
// asked by state_queries.cpp for a pname it does not know. False: not such state (INVALID_ENUM there).
struct TextureStateValues {
  int count = 0;
  int64_t v[4] = {};
  bool is_boolean = false;
};
bool get_texture_state(Context* ctx, GLenum pname, TextureStateValues& out);
// The indexed form (glGetIntegeri_v & co): image unit bindings (IMAGE_BINDING_*), and TEXTURE_BINDING_* /
// SAMPLER_BINDING per texture unit.
enum class TextureIndexed { Ok, BadEnum, BadIndex };
TextureIndexed get_texture_indexed_state(Context* ctx, GLenum pname, GLuint index, TextureStateValues& out);

}  // namespace bismuth::gl
