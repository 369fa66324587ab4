// glTextureView (GL 4.6 §8.18): a texture that shares another immutable texture's image, with a subset of its
// levels and layers, another target of table 8.21 and a format of the same view class (table 8.22). The view's
// levels and layers are those of the shared backend::Image from TEXTURE_VIEW_MIN_LEVEL / MIN_LAYER on
// (level_store); transfers through a view move raw texels, so a view of another format reads and writes the same
// bytes. Sampling or image access through a view of another format needs Vulkan image views of that format on an
// image created with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT: not there yet (dispatch binding). A view of a compressed
// texture shows its original's blocks (TextureObject::blocks_owner), decoded as the view's format.
#include <algorithm>

#include "compressed_formats.hpp"
#include "texture_access.hpp"
#include "texture_formats.hpp"

namespace bismuth::gl {
namespace {

// GL 4.6 table 8.21: the targets a view of a texture of `original` may have.
bool view_target_ok(GLenum original, GLenum target) {
  switch (original) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY: return target == GL_TEXTURE_1D || target == GL_TEXTURE_1D_ARRAY;
    case GL_TEXTURE_2D:
    case GL_TEXTURE_2D_ARRAY: return target == GL_TEXTURE_2D || target == GL_TEXTURE_2D_ARRAY;
    case GL_TEXTURE_3D: return target == GL_TEXTURE_3D;
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
      return target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_2D || target == GL_TEXTURE_2D_ARRAY ||
             target == GL_TEXTURE_CUBE_MAP_ARRAY;
    case GL_TEXTURE_RECTANGLE: return target == GL_TEXTURE_RECTANGLE;
    case GL_TEXTURE_2D_MULTISAMPLE:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
      return target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    default: return false;
  }
}

bool layered_target(GLenum target) {
  return is_array(target) || target == GL_TEXTURE_CUBE_MAP;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glTextureView(GLuint texture, GLenum target, GLuint origtexture, GLenum internalformat,
                                  GLuint minlevel, GLuint numlevels, GLuint minlayer, GLuint numlayers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glTextureView";
  // GL 4.6 §8.18: "An INVALID_VALUE error is generated if origtexture is not the name of a texture"; "... if
  // texture is zero"; "An INVALID_OPERATION error is generated if texture is not a valid name returned by
  // GenTextures, or if texture has already been bound and given a target" (it must have no object yet).
  std::shared_ptr<TextureObject> original;
  {
    std::lock_guard lock(ctx->share->mutex);
    auto it = ctx->share->textures.find(origtexture);
    if (origtexture == 0 || it == ctx->share->textures.end()) {
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(origtexture) + " is not a texture");
      return;
    }
    original = it->second;
    if (texture == 0) {
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": texture is zero");
      return;
    }
    if (!ctx->share->texture_names.count(texture) || ctx->share->textures.count(texture)) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(texture) +
                                               " is not a name from glGenTextures without an object");
      return;
    }
  }
  // "An INVALID_OPERATION error is generated if the value of TEXTURE_IMMUTABLE_FORMAT for origtexture is not
  // TRUE"; "... if target is not compatible with the target of origtexture, as defined by table 8.21".
  if (!original->immutable || !original->image) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the original texture is not immutable");
    return;
  }
  if (target_index(target, ctx->version.es, ctx->version.minor) < 0 || !view_target_ok(original->target, target)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": a " + target_name(original->target) +
                                             " texture has no " + target_name(target) + " views (table 8.21)");
    return;
  }
  // "An INVALID_OPERATION error is generated if the internal format of origtexture and internalformat are not
  // compatible" (one view class of table 8.22).
  const TextureLevel& base = original->levels[0][0];
  // Compressed textures (table 8.22's compressed classes, compressed_view_class): the view's format must be a
  // compressed format of the original's class; its texels are the original's blocks decoded as that format
  // (share_compressed_blocks below).
  const CompressedFormat* compressed = find_compressed_format(base.internalformat);
  const SizedFormat* format = nullptr;
  if (compressed != nullptr) {
    const CompressedFormat* wanted = find_compressed_format(internalformat, ctx->version.es);
    if (wanted == nullptr || compressed_view_class(*wanted) != compressed_view_class(*compressed)) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + hex(internalformat) +
                                               " is not in the view class of " + compressed->name);
      return;
    }
    // Native storage (compressed_native holds for the whole view class): the view's own Vulkan block format.
    format = compressed_storage_format(ctx, wanted->internalformat, target, func);
  } else {
    format = find_sized_format(internalformat);
    // A depth format's view class is the format itself (copy_compatible): the view keeps the row the original's
    // image is stored in (a 24-bit depth format may be stored in a wider Vulkan format, storage_choices).
    if (format != nullptr && is_depth(*format) && format->internalformat == base.format->internalformat) {
      format = base.format;
    }
    if (format == nullptr || find_compressed_format(internalformat) != nullptr ||
        !copy_compatible(*format, *base.format)) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + hex(internalformat) +
                                               " is not in the view class of " + base.format->name);
      return;
    }
  }
  // "An INVALID_VALUE error is generated if minlevel or minlayer are larger than the greatest level or layer,
  // respectively, of origtexture"; the counts are clamped to what origtexture has from there on.
  const uint32_t original_layers = original->view_num_layers;
  if (minlevel >= original->view_num_levels || minlayer >= original_layers) {
    ctx->set_error(GL_INVALID_VALUE,
                   std::string(func) + ": minlevel or minlayer is past the original's levels or layers");
    return;
  }
  // "An INVALID_VALUE error is generated if target is TEXTURE_1D, TEXTURE_2D, TEXTURE_3D or TEXTURE_RECTANGLE and
  // numlayers does not equal 1"; "... TEXTURE_CUBE_MAP and numlayers is not 6, or if target is
  // TEXTURE_CUBE_MAP_ARRAY and numlayers is not a multiple of 6" (after clamping the counts).
  if (!layered_target(target) && numlayers != 1) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": a view of a target without layers takes numlayers 1");
    return;
  }
  numlevels = std::min(numlevels, original->view_num_levels - minlevel);
  numlayers = std::min(numlayers, original_layers - minlayer);
  if ((target == GL_TEXTURE_CUBE_MAP && numlayers != 6) ||
      (target == GL_TEXTURE_CUBE_MAP_ARRAY && (numlayers == 0 || numlayers % 6 != 0))) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": cube map views need 6 (a multiple of 6) layers");
    return;
  }
  if ((target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_CUBE_MAP_ARRAY) && base.width != base.height) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": cube map views need square levels");
    return;
  }
  if (numlevels == 0 || numlayers == 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the view has no levels or no layers");
    return;
  }
  auto view = std::make_shared<TextureObject>();
  view->name = texture;
  view->target = target;
  view->immutable = true;
  view->immutable_levels = numlevels;
  view->image = original->image;
  if (compressed != nullptr && !share_compressed_blocks(ctx, original, *view, internalformat, func)) return;
  // The view's levels are relative to the original's image (TEXTURE_VIEW_MIN_LEVEL of a view of a view adds up).
  view->view_min_level = original->view_min_level + minlevel;
  view->view_num_levels = numlevels;
  view->view_min_layer = original->view_min_layer + minlayer;
  view->view_num_layers = numlayers;
  view->sampler = original->sampler;
  // Multisample views share the original's samples (texture_multisample.hpp).
  view->samples = original->samples;
  view->fixed_sample_locations = original->fixed_sample_locations;
  view->levels.assign(face_count(target), std::vector<TextureLevel>(kMaxTextureLevels));
  for (uint32_t i = 0; i < numlevels; ++i) {
    TextureLevel l = original->levels[0][minlevel + i];
    l.format = format;
    l.internalformat = internalformat;
    if (target == GL_TEXTURE_1D_ARRAY) l.height = numlayers;
    if (target == GL_TEXTURE_1D) l.height = 1;
    if (target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
        target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) {
      l.depth = numlayers;
    }
    if (target == GL_TEXTURE_2D || target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_2D_MULTISAMPLE) l.depth = 1;
    for (auto& face : view->levels) face[i] = l;
  }
  // A depth-stencil view's stencil indices are the original's: a view of the original's stencil plane image.
  if (!make_immutable_stencil_plane(ctx, *view, original->stencil_plane ? original->stencil_plane->image : nullptr,
                                    func)) {
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  ctx->share->textures[texture] = std::move(view);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
