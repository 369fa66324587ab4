// Texture storage (GL 4.6 §8.5, §8.19; OpenGL ES 3.2 §8.5, §8.18): immutable storage (glTexStorage*,
// glTextureStorage*) and mutable levels (glTexImage*), the backend::Image each lives in, and the storage helpers
// of texture_access.hpp (level_store, sub_region, make_texture_image). See textures.hpp for the storage model.
#include <algorithm>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "compressed_formats.hpp"
#include "pixel_transfer.hpp"
#include "texture_access.hpp"
#include "texture_client_data.hpp"
#include "texture_compress_online.hpp"

namespace bismuth::gl {

backend::ImageUsages image_usage_for(const backend::Device& device, const SizedFormat& format) {
  VkFormatProperties properties{};
  device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), format.vk_format, &properties);
  backend::ImageUsages usage = 0;
  if (properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) usage |= backend::kImageSampled;
  // Storage also for colour formats GL binds to no image unit (RGB8 in RGBA8 ...): glGenerateMipmap's compute path
  // writes their levels (texture_mipmaps.cpp). Image units still take only table 8.27's formats (image_unit_valid).
  if ((properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) && !is_depth(format)) {
    usage |= backend::kImageStorage;
  }
  return usage;
}

bool depth_textures_as_color(const backend::Device& device) {
  // BISMUTH_DEPTH_TEXTURES=color forces the colour storage (so a queue with graphics, lavapipe's, tests it);
  // =depth forces depth formats (their transfers then fail on a compute-only queue with a message).
  static const std::string setting = [] {
    const char* v = std::getenv("BISMUTH_DEPTH_TEXTURES");
    return std::string(v != nullptr ? v : "");
  }();
  if (setting == "color") return true;
  if (setting == "depth") return false;
  return !device.graphics_queue();
}

const SizedFormat& storage_format(const backend::Device& device, const SizedFormat& format) {
  if (is_depth(format) && depth_textures_as_color(device)) {
    if (const SizedFormat* color = depth_color_storage(format)) return *color;
  }
  const std::vector<const SizedFormat*> choices = storage_choices(format);
  if (choices.size() == 1) return format;
  constexpr VkFormatFeatureFlags kNeeded =
      VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  for (const SizedFormat* choice : choices) {
    VkFormatProperties properties{};
    device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), choice->vk_format, &properties);
    if ((properties.optimalTilingFeatures & kNeeded) == kNeeded) return *choice;
  }
  return format;  // none can be sampled: the format's own row (create_image makes what the device allows)
}

uint32_t level_layers(GLenum target, const TextureLevel& level) {
  switch (target) {
    case GL_TEXTURE_1D_ARRAY: return level.height;
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return level.depth;
    default: return 1;
  }
}

LevelStore level_store(const TextureObject& texture, uint32_t face, uint32_t level) {
  const uint32_t cube_face = texture.target == GL_TEXTURE_CUBE_MAP ? face : 0;
  if (texture.image && texture.immutable) {
    // Immutable storage, a texture view's included (glTextureView): its levels and layers start at
    // TEXTURE_VIEW_MIN_LEVEL / MIN_LAYER of the image it shares (0 for the texture that made the image).
    if (level >= texture.immutable_levels) return {};
    return LevelStore{texture.image.get(), texture.view_min_level + level, texture.view_min_layer + cube_face};
  }
  if (texture.image && level < texture.image->desc().mip_levels) {
    return LevelStore{texture.image.get(), level, cube_face};
  }
  const size_t index = face * kMaxTextureLevels + level;
  if (index < texture.level_images.size() && texture.level_images[index]) {
    return LevelStore{texture.level_images[index].get(), 0, 0};
  }
  return {};
}

backend::ImageRegion sub_region(GLenum target, const LevelStore& store, GLint x, GLint y, GLint z, GLsizei width,
                                GLsizei height, GLsizei depth) {
  backend::ImageRegion r;
  r.mip_level = store.mip;
  r.x = static_cast<uint32_t>(x);
  const auto w = static_cast<uint32_t>(width), h = static_cast<uint32_t>(height), d = static_cast<uint32_t>(depth);
  switch (target) {
    case GL_TEXTURE_1D: r.extent = {w, 1, 1}; break;
    case GL_TEXTURE_1D_ARRAY:
      r.extent = {w, 1, 1};
      r.base_layer = store.face_layer + static_cast<uint32_t>(y);
      r.layer_count = h;
      break;
    case GL_TEXTURE_3D:
      r.y = static_cast<uint32_t>(y);
      r.z = static_cast<uint32_t>(z);
      r.extent = {w, h, d};
      break;
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
      r.y = static_cast<uint32_t>(y);
      r.extent = {w, h, 1};
      r.base_layer = store.face_layer + static_cast<uint32_t>(z);
      r.layer_count = d;
      break;
    default:  // 2D, RECTANGLE, one cube map face
      r.y = static_cast<uint32_t>(y);
      r.extent = {w, h, 1};
      r.base_layer = store.face_layer;
      break;
  }
  return r;
}

namespace {

// GL 4.6 §8.5 (ES 3.2 §8.5 likewise): "Textures with a base internal format of DEPTH_COMPONENT, DEPTH_STENCIL,
// or STENCIL_INDEX are supported by texture image specification commands only if target is TEXTURE_1D, TEXTURE_2D,
// TEXTURE_2D_MULTISAMPLE, TEXTURE_1D_ARRAY, TEXTURE_2D_ARRAY, TEXTURE_2D_MULTISAMPLE_ARRAY, TEXTURE_RECTANGLE,
// TEXTURE_CUBE_MAP, TEXTURE_CUBE_MAP_ARRAY ... Using these formats in conjunction with any other target will result
// in an INVALID_OPERATION error."
// Depth textures in depth formats move their texels with depth-aspect copies and clears, which Vulkan allows only
// on a queue with graphics (backend::Device::graphics_queue): on a device whose Bismuth queue is compute-only
// (NVIDIA's) they are stored in colour formats instead (depth_textures_as_color); only BISMUTH_DEPTH_TEXTURES=depth
// there leaves them unsupported, GL_INVALID_OPERATION with a message instead of commands the driver refuses.
bool depth_textures_supported(Context* ctx, const char* func) {
  const backend::Device& device = *ctx->device_state.device;
  if (device.graphics_queue() || depth_textures_as_color(device)) return true;
  ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": depth textures are not supported on " +
                                           device.info().name +
                                           " yet: their copies and clears need a Vulkan queue with graphics, and "
                                           "Bismuth runs on its compute-only queue");
  return false;
}

bool depth_target(GLenum target) {
  return target != GL_TEXTURE_3D && target != GL_TEXTURE_BUFFER;
}

bool is_cube(GLenum target) {
  return target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_CUBE_MAP_ARRAY;
}

// The backend description of an image holding `mips` levels from `base` (level 0's size). `one_face`: a cube map
// level image (one face, one layer).
backend::ImageDesc image_desc(GLenum target, const TextureLevel& base, uint32_t mips, bool one_face) {
  backend::ImageDesc desc;
  desc.format = base.format->vk_format;
  desc.mip_levels = mips;
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY:
      desc.type = backend::ImageType::Image1D;
      desc.extent = {base.width, 1, 1};
      break;
    case GL_TEXTURE_3D:
      desc.type = backend::ImageType::Image3D;
      desc.extent = {base.width, base.height, base.depth};
      break;
    default:
      desc.type = backend::ImageType::Image2D;
      desc.extent = {base.width, base.height, 1};
      break;
  }
  desc.array_layers = level_layers(target, base);
  if (target == GL_TEXTURE_CUBE_MAP && !one_face) desc.array_layers = 6;
  desc.cube_compatible = is_cube(target) && !one_face;
  return desc;
}

// Creates the image with the usage the device allows for the format (GL requires every sized format of tables
// 8.12/8.13 as a texture format: a format the device can neither sample nor store still gets an image that
// transfers work on, so that its texels round-trip). Reports the backend's refusal.
std::shared_ptr<backend::Image> create_image(Context* ctx, backend::ImageDesc desc, const SizedFormat& format,
                                             const char* func) {
  backend::Device& device = *ctx->device_state.device;
  const backend::ImageUsages wanted = image_usage_for(device, format);
  // The usage combinations to try, most first: the device may refuse one for this type, size or flags.
  const backend::ImageUsages tries[] = {wanted, wanted & backend::kImageSampled, 0};
  Error last{};
  for (backend::ImageUsages usage : tries) {
    desc.usage = usage;
    auto created = backend::Image::create(device, desc);
    if (created) return std::move(*created);
    last = created.error();
  }
  ctx->set_error(GL_OUT_OF_MEMORY, std::string(func) + ": the device cannot hold a " + format.name +
                                       " texture of this size: " + last.message);
  return nullptr;
}

// Copies every level of `from` (levels [0, mips)) face by face into `to` at the same levels.
bool copy_levels(Context* ctx, const TextureObject& t, uint32_t mips, backend::Image& to, bool to_per_level,
                 const char* func) {
  for (uint32_t level = 0; level < mips; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      const TextureLevel& l = t.levels[face][level];
      const LevelStore from = level_store(t, face, level);
      if (from.image == nullptr || l.width == 0) continue;
      backend::ImageRegion source = sub_region(t.target, from, 0, 0, 0, static_cast<GLsizei>(l.width),
                                               static_cast<GLsizei>(l.height), static_cast<GLsizei>(l.depth));
      if (t.target == GL_TEXTURE_1D_ARRAY) source.layer_count = l.height;
      backend::ImageRegion destination = source;
      destination.mip_level = to_per_level ? 0 : level;
      destination.base_layer = to_per_level ? 0 : (t.target == GL_TEXTURE_CUBE_MAP ? face : 0);
      if (Status ok = ctx->stream->copy_image(*from.image, source, to, destination); !ok) {
        ctx->backend_error(func, ok.error());
        return false;
      }
    }
  }
  return true;
}

// Moves the levels of a mutable texture's one image into level images of their own (before a glTexImage* that
// changes one of them), keeping their texels.
bool dissolve_image(Context* ctx, TextureObject& t, const char* func) {
  if (!t.image) return true;
  const uint32_t mips = t.image->desc().mip_levels;
  std::vector<std::shared_ptr<backend::Image>> made(t.level_images.size());
  for (uint32_t level = 0; level < mips; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      const TextureLevel& l = t.levels[face][level];
      if (!l.defined() || l.width == 0) continue;
      auto image = create_image(ctx, image_desc(t.target, l, 1, true), *l.format, func);
      if (!image) return false;
      made[face * kMaxTextureLevels + level] = image;
    }
  }
  for (uint32_t level = 0; level < mips; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      auto& image = made[face * kMaxTextureLevels + level];
      if (!image) continue;
      const TextureLevel& l = t.levels[face][level];
      backend::ImageRegion source =
          sub_region(t.target, level_store(t, face, level), 0, 0, 0, static_cast<GLsizei>(l.width),
                     static_cast<GLsizei>(l.height), static_cast<GLsizei>(l.depth));
      backend::ImageRegion destination = source;
      destination.mip_level = 0;
      destination.base_layer = 0;
      if (Status ok = ctx->stream->copy_image(*t.image, source, *image, destination); !ok) {
        ctx->backend_error(func, ok.error());
        return false;
      }
    }
  }
  for (size_t i = 0; i < made.size(); ++i) {
    if (made[i]) t.level_images[i] = std::move(made[i]);
  }
  t.image.reset();
  return true;
}

// Whether `spec` for (face, level) is what the one image of a mutable texture holds there.
bool fits_image(const TextureObject& t, uint32_t level, const TextureLevel& spec) {
  if (!t.image || level >= t.image->desc().mip_levels) return false;
  const TextureLevel& base = t.levels[0][0];
  const TextureLevel expected = level_of(t.target, base, level);
  return spec.format == base.format && spec.width == expected.width && spec.height == expected.height &&
         spec.depth == expected.depth;
}

}  // namespace

std::shared_ptr<backend::Image> create_texture_image(Context* ctx, backend::ImageDesc desc, const SizedFormat& format,
                                                     const char* func) {
  return create_image(ctx, desc, format, func);
}

bool define_mutable_level(Context* ctx, TextureObject& t, uint32_t face, uint32_t level, const TextureLevel& spec,
                          const char* func) {
  if (t.level_images.empty()) t.level_images.resize(t.levels.size() * kMaxTextureLevels);
  if (!fits_image(t, level, spec)) {
    if (t.image && level < t.image->desc().mip_levels && !dissolve_image(ctx, t, func)) return false;
    auto& own = t.level_images[face * kMaxTextureLevels + level];
    own.reset();
    if (spec.width > 0 && spec.height > 0 && spec.depth > 0) {
      own = create_image(ctx, image_desc(t.target, spec, 1, true), *spec.format, func);
      if (!own) return false;
    }
  }
  t.levels[face][level] = spec;
  return true;
}

bool make_texture_image(Context* ctx, TextureObject& t, const char* func) {
  if (t.immutable || t.target == GL_TEXTURE_BUFFER || t.levels.empty()) return true;
  // The stencil plane of depth-stencil levels gets one image by the same rule (its levels mirror these).
  if (t.stencil_plane && !make_texture_image(ctx, *t.stencil_plane, func)) return false;
  const TextureLevel& base = t.levels[0][0];
  if (!base.defined() || base.width == 0 || base.height == 0 || base.depth == 0) return true;
  // The levels from 0 on that are consistent with level 0 on every face.
  const uint32_t chain = std::min(full_level_count(t.target, base.width, base.height, base.depth), kMaxTextureLevels);
  uint32_t mips = 0;
  for (; mips < chain; ++mips) {
    const TextureLevel expected = level_of(t.target, base, mips);
    bool consistent = true;
    for (const auto& face : t.levels) {
      const TextureLevel& l = face[mips];
      consistent = consistent && l.format == base.format && l.width == expected.width && l.height == expected.height &&
                   l.depth == expected.depth;
    }
    if (!consistent) break;
  }
  if (t.target == GL_TEXTURE_CUBE_MAP && mips == 0) return true;  // faces of the base level differ: no one image
  if (t.image && t.image->desc().mip_levels == mips) return true;
  auto image = create_image(ctx, image_desc(t.target, base, mips, false), *base.format, func);
  if (!image) return false;
  if (!copy_levels(ctx, t, mips, *image, false, func)) return false;
  for (uint32_t level = 0; level < mips; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) t.level_images[face * kMaxTextureLevels + level].reset();
  }
  t.image = std::move(image);
  return true;
}

namespace {

// glTexStorage*: which targets each dimension count takes (GL 4.6 §8.19).
bool storage_target_ok(uint32_t dims, GLenum target) {
  switch (dims) {
    case 1: return target == GL_TEXTURE_1D;
    case 2:
      return target == GL_TEXTURE_2D || target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_RECTANGLE ||
             target == GL_TEXTURE_CUBE_MAP;
    default: return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY;
  }
}

void texture_storage(Context* ctx, const std::shared_ptr<TextureObject>& t, uint32_t dims, GLsizei levels,
                     GLenum internalformat, GLsizei width, GLsizei height, GLsizei depth, const char* func) {
  // GL 4.6 §8.19: "An INVALID_OPERATION error is generated if ... zero is bound to target" (the default texture).
  if (t->name == 0) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default texture (zero) is bound to the target");
    return;
  }
  // "An INVALID_VALUE error is generated if width, height, depth or levels are less than 1".
  if (levels < 1 || width < 1 || height < 1 || depth < 1) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": levels, width, height and depth must be at least 1");
    return;
  }
  // "An INVALID_ENUM error is generated if internalformat is one of the unsized base internal formats" (and for
  // any enum that is not a sized internal format).
  // The specific compressed formats of table 8.14 are sized formats too (§8.19 "internalformat must be a sized
  // internal format"): their texels are decoded into an uncompressed format (texture_compressed.cpp).
  const SizedFormat* format = find_sized_format(internalformat);
  const SizedFormat* compressed = find_compressed_format(internalformat, ctx->version.es) != nullptr
                                      ? compressed_storage_format(ctx, internalformat, t->target, func)
                                      : nullptr;
  if (format == nullptr && compressed == nullptr) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": " + hex(internalformat) +
                                        " is not a sized internal format (GL 4.6 tables 8.12, 8.13, 8.14)");
    return;
  }
  if (compressed != nullptr) {
    // §8.19: "An INVALID_OPERATION error is generated if internalformat is a compressed format and ... target is
    // not a target the format supports" (table 8.14: two-dimensional blocks, no TEXTURE_3D for these formats).
    if (const std::string why = compressed_storage_error(internalformat, t->target); !why.empty()) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + why);
      return;
    }
    format = compressed;
  }
  if (is_depth_or_stencil(*format) && !depth_target(t->target)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + format->name + " textures cannot have target " +
                                             target_name(t->target) + " (GL 4.6 §8.5)");
    return;
  }
  if (is_depth(*format) && !depth_textures_supported(ctx, func)) return;
  // Depth formats: the Vulkan format this device samples (storage_choices); sampled only, never storage images
  // (GL 4.6 table 8.27 has no depth formats).
  format = &storage_format(*ctx->device_state.device, *format);
  const std::string size_error =
      check_level_size(t->target, texture_size_limits(*ctx->device_state.device), 0, width, height, depth);
  if (!size_error.empty()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + size_error);
    return;
  }
  // "An INVALID_OPERATION error is generated if levels is greater than floor(log2(max(width, height)))+1"
  // (of the dimensions the target has: layers do not count).
  const uint32_t w = static_cast<uint32_t>(width), h = static_cast<uint32_t>(height), d = static_cast<uint32_t>(depth);
  const uint32_t most = full_level_count(t->target, w, h, d);
  if (static_cast<uint32_t>(levels) > most) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(levels) +
                                             " levels are more than the size allows (" + std::to_string(most) + ")");
    return;
  }
  // "If the value of TEXTURE_IMMUTABLE_FORMAT for the texture is already TRUE, an INVALID_OPERATION error is
  // generated."
  if (t->immutable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the texture already has immutable storage");
    return;
  }
  (void)dims;
  TextureLevel base{format, internalformat, w, dims >= 2 ? h : 1, dims == 3 ? d : 1};
  auto image = create_image(ctx, image_desc(t->target, base, static_cast<uint32_t>(levels), false), *format, func);
  if (!image) return;
  if (compressed != nullptr) {
    // What the storage costs (docs/performance.md measures native against decoded storage with it).
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, 0, GL_DEBUG_SEVERITY_LOW,
               std::string(func) + ": " + backend::format_name(image->desc().format) + " image of " +
                   std::to_string(levels) + " level(s): " + std::to_string(image->memory_bytes()) +
                   " bytes of device memory");
  }
  for (auto& face : t->levels) {
    std::fill(face.begin(), face.end(), TextureLevel{});
    for (uint32_t level = 0; level < static_cast<uint32_t>(levels); ++level)
      face[level] = level_of(t->target, base, level);
  }
  t->level_images.clear();
  t->image = std::move(image);
  reset_compressed_blocks(*t);
  t->immutable = true;
  t->immutable_levels = static_cast<GLuint>(levels);
  // GL 4.6 §8.19: storage sets TEXTURE_VIEW_MIN_LEVEL and MIN_LAYER to 0, NUM_LEVELS to levels and NUM_LAYERS to
  // the layers of the texture (1, 6 for cube maps, the array size for arrays).
  t->view_min_level = 0;
  t->view_min_layer = 0;
  t->view_num_levels = static_cast<GLuint>(levels);
  t->view_num_layers = t->target == GL_TEXTURE_CUBE_MAP ? 6 : level_layers(t->target, base);
  make_immutable_stencil_plane(ctx, *t, nullptr, func);
}

void tex_storage(GLenum target, uint32_t dims, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height,
                 GLsizei depth, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.19: "An INVALID_ENUM error is generated if target is not one of those listed above."
  if (!storage_target_ok(dims, target) || target_index(target, ctx->version.es, ctx->version.minor) < 0) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return;
  }
  auto t = bound_texture(ctx, target, false, func);
  if (t) texture_storage(ctx, t, dims, levels, internalformat, width, height, depth, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

void named_storage(GLuint texture, uint32_t dims, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height,
                   GLsizei depth, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto t = named_texture(ctx, texture, func);
  if (!t) return;
  // GL 4.6 §8.19: "An INVALID_OPERATION error is generated by TextureStorage* if the effective target is not one
  // of those listed above."
  if (!storage_target_ok(dims, t->target)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the texture's target " + target_name(t->target) +
                                             " does not take this storage command");
    return;
  }
  texture_storage(ctx, t, dims, levels, internalformat, width, height, depth, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// glTexImage*: which targets each dimension count takes (GL 4.6 §8.5; proxy targets are not supported).
bool image_target_ok(uint32_t dims, GLenum target) {
  switch (dims) {
    case 1: return target == GL_TEXTURE_1D;
    case 2:
      return target == GL_TEXTURE_2D || target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_RECTANGLE ||
             is_cube_face(target);
    default: return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY;
  }
}

void tex_image(GLenum target, uint32_t dims, GLint level, GLint internalformat, GLsizei width, GLsizei height,
               GLsizei depth, GLint border, GLenum format, GLenum type, const void* pixels, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!image_target_ok(dims, target)) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return;
  }
  auto t = bound_texture(ctx, target, true, func);
  if (!t) return;
  const GLenum object_target = t->target;
  // GL 4.6 §8.5: "An INVALID_VALUE error is generated if level is negative", "... if border is not zero", and
  // level greater than log2 of the maximum size (§8.5.1 / the level's maximum below).
  if (level < 0 || static_cast<uint32_t>(level) >= kMaxTextureLevels) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid level " + std::to_string(level));
    return;
  }
  if (border != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": border must be zero");
    return;
  }
  GLenum ifmt = static_cast<GLenum>(internalformat);
  // §8.5: for a generic compressed internal format the GL may choose a specific compressed one; "If no specific
  // compressed format is available, internalformat is instead replaced by the corresponding base internal format"
  // (this shim stores those uncompressed: TEXTURE_COMPRESSED is FALSE, TEXTURE_INTERNAL_FORMAT the base format).
  if (!ctx->version.es && is_generic_compressed(ifmt)) ifmt = generic_compressed_base(ifmt);
  // A specific compressed internal format (desktop GL): the GL compresses the client's pixels itself
  // (texture_compress_online.cpp). Its texels are stored decoded in the format's storage row.
  const CompressedFormat* compressed = ctx->version.es ? nullptr : find_compressed_format(ifmt, false);
  if (compressed != nullptr) {
    // The RGTC / BPTC tokens are "Accepted by the <internalformat> parameter of TexImage2D, TexImage3D, ..."
    // (ARB_texture_compression_bptc; RGTC "supports only 2D images"), not TexImage1D's: INVALID_VALUE as for any
    // internal format TexImage1D does not accept.
    if (dims == 1) {
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + compressed->name + " is not a 1D internal format");
      return;
    }
    if (object_target == GL_TEXTURE_RECTANGLE) {
      ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": rectangle textures cannot be compressed");
      return;
    }
    if (const std::string why = compressed_storage_error(ifmt, object_target); !why.empty()) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + why);
      return;
    }
  }
  TransferResult check = ctx->version.es ? check_unpack_es(ifmt, format, type) : TransferResult{};
  const SizedFormat* sized = compressed != nullptr ? compressed_storage_format(ctx, ifmt, object_target, func)
                                                   : resolve_internal_format(ifmt, type);
  if (!check.ok()) {
    ctx->set_error(check.error, std::string(func) + ": " + check.message);
    return;
  }
  if (sized == nullptr) {
    // §8.5: "An INVALID_VALUE error is generated if internalformat is not one of the valid internal formats".
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + hex(ifmt) + " is not a supported internal format");
    return;
  }
  if (!ctx->version.es) check = check_unpack_gl(sized->internalformat, format, type);
  if (!check.ok()) {
    ctx->set_error(check.error, std::string(func) + ": " + check.message);
    return;
  }
  if (is_depth_or_stencil(*sized) && !depth_target(object_target)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + sized->name + " textures cannot have target " +
                                             target_name(object_target) + " (GL 4.6 §8.5)");
    return;
  }
  if (is_depth(*sized) && !depth_textures_supported(ctx, func)) return;
  sized = &storage_format(*ctx->device_state.device, *sized);
  const std::string size_error = check_level_size(object_target, texture_size_limits(*ctx->device_state.device), level,
                                                  width, dims >= 2 ? height : 1, dims == 3 ? depth : 1);
  if (!size_error.empty()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + size_error);
    return;
  }
  if (!has_mipmaps(object_target) && level != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": rectangle textures have level 0 only");
    return;
  }
  // §8.19: "... an INVALID_OPERATION error is generated if TexImage* is called on an immutable-format texture".
  if (t->immutable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the texture has immutable storage");
    return;
  }
  const uint32_t face = is_cube_face(target) ? face_index(target) : 0;
  const auto lvl = static_cast<uint32_t>(level);
  TextureLevel spec{sized, ifmt, static_cast<uint32_t>(width), dims >= 2 ? static_cast<uint32_t>(height) : 1,
                    dims == 3 ? static_cast<uint32_t>(depth) : 1};
  // The client data is checked (PBO range, size) before the level changes: an error leaves the texture as it was.
  UnpackSource source;
  const Extent extent{spec.width, spec.height, spec.depth, dims == 3};
  if (!unpack_source(ctx, format, type, extent, pixels, func, source)) return;
  if (!define_mutable_level(ctx, *t, face, lvl, spec, func)) return;
  if (!define_stencil_plane_level(ctx, *t, face, lvl, func)) return;
  if (compressed != nullptr) {
    clear_compressed_level(*t, face, lvl);
    compress_client_pixels(ctx, *t, face, lvl, false, 0, 0, 0, extent, format, type, source, func);
    return;
  }
  const LevelStore store = level_store(*t, face, lvl);
  if (store.image == nullptr || !source.present) return;
  const GLenum region_target = object_target == GL_TEXTURE_CUBE_MAP ? target : object_target;
  const backend::ImageRegion region =
      sub_region(region_target, store, 0, 0, 0, width, dims >= 2 ? height : 1, dims == 3 ? depth : 1);
  const ImagePart part{store.image, region};
  // DEPTH_STENCIL pixels also carry the stencil indices, for the level's stencil plane (§8.5: with another format
  // "the values of the stencil index texture components are undefined": the plane's new level keeps zeros).
  ImagePart stencil_part;
  if (format == GL_DEPTH_STENCIL && is_depth_stencil(*sized) && t->stencil_plane) {
    const LevelStore plane = level_store(*t->stencil_plane, face, lvl);
    if (plane.image != nullptr) {
      stencil_part = {plane.image,
                      sub_region(region_target, plane, 0, 0, 0, width, dims >= 2 ? height : 1, dims == 3 ? depth : 1)};
    }
  }
  upload_texels(ctx, *sized, format, type, extent, source, std::span(&part, 1), func,
                stencil_part.image != nullptr ? std::span(&stencil_part, 1) : std::span<const ImagePart>{});
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glTexStorage1D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width) {
  tex_storage(target, 1, levels, internalformat, width, 1, 1, "glTexStorage1D");
}
GLAPI void APIENTRY glTexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                                   GLsizei height) {
  tex_storage(target, 2, levels, internalformat, width, height, 1, "glTexStorage2D");
}
GLAPI void APIENTRY glTexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height,
                                   GLsizei depth) {
  tex_storage(target, 3, levels, internalformat, width, height, depth, "glTexStorage3D");
}
GLAPI void APIENTRY glTextureStorage1D(GLuint texture, GLsizei levels, GLenum internalformat, GLsizei width) {
  named_storage(texture, 1, levels, internalformat, width, 1, 1, "glTextureStorage1D");
}
GLAPI void APIENTRY glTextureStorage2D(GLuint texture, GLsizei levels, GLenum internalformat, GLsizei width,
                                       GLsizei height) {
  named_storage(texture, 2, levels, internalformat, width, height, 1, "glTextureStorage2D");
}
GLAPI void APIENTRY glTextureStorage3D(GLuint texture, GLsizei levels, GLenum internalformat, GLsizei width,
                                       GLsizei height, GLsizei depth) {
  named_storage(texture, 3, levels, internalformat, width, height, depth, "glTextureStorage3D");
}

GLAPI void APIENTRY glTexImage1D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border,
                                 GLenum format, GLenum type, const void* pixels) {
  tex_image(target, 1, level, internalformat, width, 1, 1, border, format, type, pixels, "glTexImage1D");
}
GLAPI void APIENTRY glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                                 GLint border, GLenum format, GLenum type, const void* pixels) {
  tex_image(target, 2, level, internalformat, width, height, 1, border, format, type, pixels, "glTexImage2D");
}
GLAPI void APIENTRY glTexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                                 GLsizei depth, GLint border, GLenum format, GLenum type, const void* pixels) {
  tex_image(target, 3, level, internalformat, width, height, depth, border, format, type, pixels, "glTexImage3D");
}

}  // extern "C"
