// Multisample textures (texture_multisample.hpp): glTex(ture)Storage{2D,3D}Multisample, glTexImage{2D,3D}Multisample,
// glGetMultisamplefv, and the device's sample counts. A multisample texture is one backend::Image with
// ImageDesc::samples (2D, one level; 2D_MULTISAMPLE_ARRAY: its layers), sampled and stored per sample by shaders
// (texelFetch / imageLoad / imageStore with a sample number), cleared and copied, never uploaded or read back (GL
// has no such commands for it: TexSubImage takes no multisample target, GetTexImage is INVALID_OPERATION).
#include "texture_multisample.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "framebuffers.hpp"
#include "pixel_transfer.hpp"
#include "texture_access.hpp"

namespace bismuth::gl {

namespace {

uint32_t largest_count(VkSampleCountFlags counts) {
  for (uint32_t n = 64; n > 1; n >>= 1) {
    if (counts & n) return n;
  }
  return 1;
}

VkPhysicalDeviceProperties device_properties(const backend::Device& device) {
  VkPhysicalDeviceProperties properties{};
  device.vki().vkGetPhysicalDeviceProperties(device.physical_device(), &properties);
  return properties;
}

}  // namespace

std::vector<uint32_t> texture_sample_counts(const backend::Device& device, const SizedFormat& format, bool es,
                                            int es_minor) {
  if (!is_depth_or_stencil(format) && !color_renderable(format, es, es_minor)) return {};
  const SizedFormat& stored = storage_format(device, format);
  VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (image_usage_for(device, stored) & backend::kImageSampled) usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
  // The flags Image::create uses for this format (mutable_format on colour formats).
  const VkImageCreateFlags flags = backend::is_depth_format(stored.vk_format) ? 0 : VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  VkImageFormatProperties properties{};
  if (device.vki().vkGetPhysicalDeviceImageFormatProperties(device.physical_device(), stored.vk_format,
                                                            VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, flags,
                                                            &properties) != VK_SUCCESS) {
    return {};
  }
  VkSampleCountFlags sample_counts = properties.sampleCounts;
  // A depth-stencil format keeps its stencil indices in an R8_UINT image of the same samples (its stencil plane,
  // textures.hpp): only the counts both images can have.
  if (is_depth_stencil(format)) {
    std::vector<uint32_t> plane = texture_sample_counts(device, stencil_plane_format(), es, es_minor);
    VkSampleCountFlags mask = 0;
    for (uint32_t n : plane) mask |= n;
    sample_counts &= mask;
  }
  std::vector<uint32_t> counts;
  for (uint32_t n = 64; n > 1; n >>= 1) {
    if (sample_counts & n) counts.push_back(n);
  }
  return counts;
}

MultisampleLimits multisample_limits(const backend::Device& device) {
  const VkPhysicalDeviceLimits limits = device_properties(device).limits;
  MultisampleLimits out;
  // Depth-stencil textures keep their stencil in an R8_UINT plane of the same samples (textures.hpp): the counts of
  // "a depth or depth-stencil texture" (MAX_DEPTH_TEXTURE_SAMPLES, and MAX_SAMPLES, which covers them) are also
  // integer counts.
  const VkSampleCountFlags depth_counts =
      (depth_textures_as_color(device) ? limits.sampledImageColorSampleCounts : limits.sampledImageDepthSampleCounts) &
      limits.sampledImageIntegerSampleCounts;
  out.color = largest_count(limits.sampledImageColorSampleCounts);
  out.depth = largest_count(depth_counts);
  out.integer = largest_count(limits.sampledImageIntegerSampleCounts);
  out.samples = largest_count(limits.sampledImageColorSampleCounts & depth_counts);
  const uint32_t image = largest_count(limits.storageImageSampleCounts);
  out.image = device.features().storage_image_multisample && image > 1 ? image : 0;
  return out;
}

bool clear_multisample(Context* ctx, TextureObject& t, const std::vector<std::byte>& texel,
                       const backend::ImageRegion& region, const char* func) {
  const TextureLevel& l = t.levels[0][0];
  const SizedFormat& f = *l.format;
  if (!t.image) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the level has no image");
    return false;
  }
  // The texel as the clear colour Vulkan converts back to it: integer formats as their integers, the rest as
  // floats (normalized values in [0, 1] / [-1, 1], which Vulkan's clear converts as an upload would).
  VkClearColorValue color{};
  PixelStore one;
  one.alignment = 1;
  const bool integer = is_integer(f);
  const bool is_signed = f.numeric == Numeric::Sint;
  const GLenum format = integer ? GL_RGBA_INTEGER : GL_RGBA;
  const GLenum type = integer ? (is_signed ? GL_INT : GL_UNSIGNED_INT) : GL_FLOAT;
  std::array<uint32_t, 4> words{};
  if (is_stencil_index(f)) {
    // STENCIL_INDEX8 is R8_UINT: its index is the red integer.
    const TransferResult r =
        pack_pixels(f, GL_STENCIL_INDEX, GL_UNSIGNED_INT, one, Extent{1, 1, 1, false}, texel, &color.uint32[0]);
    if (!r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
  } else if (is_depth(f)) {
    float depth = 0;
    const TransferResult r = pack_pixels(f, GL_DEPTH_COMPONENT, GL_FLOAT, one, Extent{1, 1, 1, false}, texel, &depth);
    if (!r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
    color.float32[0] = depth;
  } else {
    const TransferResult r = pack_pixels(f, format, type, one, Extent{1, 1, 1, false}, texel, words.data());
    if (!r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
    std::memcpy(color.uint32, words.data(), sizeof color.uint32);
    if (f.srgb) {
      // Vulkan encodes a clear colour of an sRGB image (Vulkan 1.3 §19.1: "converted to the image's format as
      // described in Conversion to ...": sRGB encoding); the texel holds encoded values, so decode them first.
      for (int i = 0; i < 3; ++i) {
        const float c = color.float32[i];
        color.float32[i] = c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
      }
    }
  }
  const backend::ImageExtent whole = t.image->extent(region.mip_level);
  if (region.x == 0 && region.y == 0 && region.extent.width == whole.width && region.extent.height == whole.height) {
    const backend::ImageSubresources layers{region.mip_level, 1, region.base_layer, region.layer_count};
    if (Status ok = ctx->stream->clear_image(*t.image, layers, color); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    return true;
  }
  // A smaller box: a scratch image like the texture's (format, samples, usage: a description the device took) of
  // the box's size, cleared whole and copied in. The stream keeps it alive until the copy ran.
  backend::ImageDesc desc = t.image->desc();
  desc.extent = region.extent;
  desc.array_layers = region.layer_count;
  auto scratch = backend::Image::create(*ctx->device_state.device, desc);
  if (!scratch) {
    ctx->backend_error(func, scratch.error());
    return false;
  }
  backend::Image& box = **scratch;
  backend::ImageRegion from = backend::whole_level(box);
  if (Status ok = ctx->stream->clear_image(box, {0, 1, 0, region.layer_count}, color); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  if (Status ok = ctx->stream->copy_image(box, from, *t.image, region); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  return true;
}

namespace {

struct MultisampleSpec {
  uint32_t dims = 2;  // 2: 2D_MULTISAMPLE, 3: 2D_MULTISAMPLE_ARRAY
  GLsizei samples = 0;
  GLenum internalformat = GL_NONE;
  GLsizei width = 0, height = 0, depth = 1;
  GLboolean fixed = GL_TRUE;
  bool immutable = false;  // TexStorage*Multisample / TextureStorage*Multisample
};

void multisample_storage(Context* ctx, TextureObject& t, const MultisampleSpec& s, const char* func) {
  // GL 4.6 §8.19: "An INVALID_OPERATION error is generated if ... zero is bound to target" (TexStorage* only).
  if (s.immutable && t.name == 0) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default texture (zero) is bound to the target");
    return;
  }
  // §8.8: "An INVALID_VALUE error is generated if samples is zero" (negative too: a GLsizei below 1).
  if (s.samples < 1) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": samples must be at least 1");
    return;
  }
  // §8.19: "An INVALID_VALUE error is generated if width, height, depth ... are less than 1" (storage); §8.8:
  // negative sizes for TexImage*Multisample ("... if width, height or depth is negative or greater than the
  // maximum").
  const GLsizei least = s.immutable ? 1 : 0;
  if (s.width < least || s.height < least || s.depth < least) {
    ctx->set_error(GL_INVALID_VALUE,
                   std::string(func) + ": width, height and depth must be at least " + std::to_string(least));
    return;
  }
  // §8.8: "An INVALID_ENUM error is generated if internalformat is not color-renderable, depth-renderable, or
  // stencil-renderable (as defined in section 9.4)"; TexStorage* also refuses unsized formats (§8.19).
  const SizedFormat* format = find_sized_format(s.internalformat);
  if (format == nullptr && !s.immutable && !ctx->version.es) {
    format = resolve_internal_format(s.internalformat, GL_UNSIGNED_BYTE);
  }
  if (format == nullptr ||
      (!is_depth_or_stencil(*format) && !color_renderable(*format, ctx->version.es, ctx->version.minor))) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": " + hex(s.internalformat) +
                                        " is not a color-, depth- or stencil-renderable internal format");
    return;
  }
  const std::string size_error = check_level_size(t.target, texture_size_limits(*ctx->device_state.device), 0, s.width,
                                                  s.height, s.dims == 3 ? s.depth : 1);
  if (!size_error.empty()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + size_error);
    return;
  }
  // §8.8: "An INVALID_OPERATION error is generated if samples is greater than the maximum number of samples
  // supported for this target and internalformat. The maximum number of samples supported can be determined by
  // calling GetInternalformativ with a pname of SAMPLES".
  const backend::Device& device = *ctx->device_state.device;
  const std::vector<uint32_t> counts = texture_sample_counts(device, *format, ctx->version.es, ctx->version.minor);
  const uint32_t most = counts.empty() ? 0 : counts.front();
  if (static_cast<uint32_t>(s.samples) > most) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(s.samples) + " samples are more than " + format->name +
                       " supports here (GetInternalformativ SAMPLES: " + std::to_string(most) + ")");
    return;
  }
  // §8.19: "If the value of TEXTURE_IMMUTABLE_FORMAT for the texture is already TRUE, an INVALID_OPERATION error
  // is generated" (TexImage*Multisample likewise, §8.8).
  if (t.immutable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the texture has immutable storage");
    return;
  }
  // §8.8: TEXTURE_SAMPLES is "the actual number of samples allocated": the smallest count the device has that is at
  // least `samples`.
  uint32_t actual = most;
  for (uint32_t n : counts) {
    if (n >= static_cast<uint32_t>(s.samples)) actual = n;
  }
  const SizedFormat& stored = storage_format(device, *format);
  const auto w = static_cast<uint32_t>(s.width), h = static_cast<uint32_t>(s.height);
  const uint32_t d = s.dims == 3 ? static_cast<uint32_t>(s.depth) : 1;
  std::shared_ptr<backend::Image> image;
  if (w > 0 && h > 0 && d > 0) {
    backend::ImageDesc desc;
    desc.type = backend::ImageType::Image2D;
    desc.format = stored.vk_format;
    desc.extent = {w, h, 1};
    desc.array_layers = d;
    desc.samples = actual;
    image = create_texture_image(ctx, desc, stored, func);
    if (!image) return;
  }
  for (auto& face : t.levels) std::fill(face.begin(), face.end(), TextureLevel{});
  t.levels[0][0] = TextureLevel{&stored, s.internalformat, w, h, d};
  t.level_images.clear();
  t.image = std::move(image);
  t.samples = actual;
  t.fixed_sample_locations = s.fixed != GL_FALSE;
  t.immutable = s.immutable;
  t.immutable_levels = s.immutable ? 1 : 0;
  t.view_min_level = 0;
  t.view_min_layer = 0;
  t.view_num_levels = s.immutable ? 1 : 0;
  t.view_num_layers = s.immutable ? d : 0;
  make_immutable_stencil_plane(ctx, t, nullptr, func);  // DEPTH*_STENCIL8: the stencil plane, with these samples
}

// TexStorage*Multisample / TexImage*Multisample: the target must be the dimension's multisample target (§8.8,
// §8.19: "An INVALID_ENUM error is generated if target is not ..."; ES 3.1 has no 2D_MULTISAMPLE_ARRAY).
void bound_multisample(GLenum target, const MultisampleSpec& s, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  const GLenum wanted = s.dims == 2 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
  if (target != wanted || target_index(target, ctx->version.es, ctx->version.minor) < 0) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return;
  }
  auto t = bound_texture(ctx, target, false, func);
  if (t) multisample_storage(ctx, *t, s, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

void named_multisample(GLuint texture, const MultisampleSpec& s, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto t = named_texture(ctx, texture, func);
  if (!t) return;
  // §8.19: "An INVALID_OPERATION error is generated by TextureStorage* if the effective target is not one of those
  // listed above."
  const GLenum wanted = s.dims == 2 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
  if (t->target != wanted) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the texture's target " + target_name(t->target) +
                                             " does not take this storage command");
    return;
  }
  multisample_storage(ctx, *t, s, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// Vulkan 1.3 §28.4 "Multisampling", table "Standard sample locations" (standardSampleLocations), in pixel
// coordinates of [0, 1]: the sample positions of a texture's or framebuffer's samples. A texel row y of a Bismuth
// image is GL's row y (GL's y grows up from the first row as Vulkan's grows from it), so the offsets within a pixel
// are GL's as they are.
const float* standard_locations(uint32_t samples) {
  static constexpr float k1[] = {0.5f, 0.5f};
  static constexpr float k2[] = {0.75f, 0.75f, 0.25f, 0.25f};
  static constexpr float k4[] = {0.375f, 0.125f, 0.875f, 0.375f, 0.125f, 0.625f, 0.625f, 0.875f};
  static constexpr float k8[] = {0.5625f, 0.3125f, 0.4375f, 0.6875f, 0.8125f, 0.5625f, 0.3125f, 0.1875f,
                                 0.1875f, 0.8125f, 0.0625f, 0.4375f, 0.6875f, 0.9375f, 0.9375f, 0.0625f};
  static constexpr float k16[] = {0.5625f, 0.5625f, 0.4375f, 0.3125f, 0.3125f, 0.625f,  0.75f,   0.4375f,
                                  0.1875f, 0.375f,  0.625f,  0.8125f, 0.8125f, 0.6875f, 0.6875f, 0.1875f,
                                  0.375f,  0.875f,  0.5f,    0.0625f, 0.25f,   0.125f,  0.125f,  0.75f,
                                  0.0f,    0.5f,    0.9375f, 0.25f,   0.875f,  0.9375f, 0.0625f, 0.0f};
  switch (samples) {
    case 2: return k2;
    case 4: return k4;
    case 8: return k8;
    case 16: return k16;
    default: return k1;
  }
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glTexStorage2DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                              GLsizei height, GLboolean fixedsamplelocations) {
  bound_multisample(target, {2, samples, internalformat, width, height, 1, fixedsamplelocations, true},
                    "glTexStorage2DMultisample");
}
GLAPI void APIENTRY glTexStorage3DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                              GLsizei height, GLsizei depth, GLboolean fixedsamplelocations) {
  bound_multisample(target, {3, samples, internalformat, width, height, depth, fixedsamplelocations, true},
                    "glTexStorage3DMultisample");
}
GLAPI void APIENTRY glTextureStorage2DMultisample(GLuint texture, GLsizei samples, GLenum internalformat, GLsizei width,
                                                  GLsizei height, GLboolean fixedsamplelocations) {
  named_multisample(texture, {2, samples, internalformat, width, height, 1, fixedsamplelocations, true},
                    "glTextureStorage2DMultisample");
}
GLAPI void APIENTRY glTextureStorage3DMultisample(GLuint texture, GLsizei samples, GLenum internalformat, GLsizei width,
                                                  GLsizei height, GLsizei depth, GLboolean fixedsamplelocations) {
  named_multisample(texture, {3, samples, internalformat, width, height, depth, fixedsamplelocations, true},
                    "glTextureStorage3DMultisample");
}
GLAPI void APIENTRY glTexImage2DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                            GLsizei height, GLboolean fixedsamplelocations) {
  bound_multisample(target, {2, samples, internalformat, width, height, 1, fixedsamplelocations, false},
                    "glTexImage2DMultisample");
}
GLAPI void APIENTRY glTexImage3DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                                            GLsizei height, GLsizei depth, GLboolean fixedsamplelocations) {
  bound_multisample(target, {3, samples, internalformat, width, height, depth, fixedsamplelocations, false},
                    "glTexImage3DMultisample");
}

// GL 4.6 §14.3.1: "An INVALID_ENUM error is generated if pname is not SAMPLE_POSITION. An INVALID_VALUE error is
// generated if index is greater than or equal to the value of SAMPLES" (of the draw framebuffer). Without
// standardSampleLocations the device's positions are unknown: every sample answers the pixel centre.
GLAPI void APIENTRY glGetMultisamplefv(GLenum pname, GLuint index, GLfloat* val) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (pname != GL_SAMPLE_POSITION) {
    ctx->set_error(GL_INVALID_ENUM, "glGetMultisamplefv: invalid pname " + hex(pname));
    return;
  }
  const uint32_t samples = framebuffer_samples(*ctx, ctx->draw_framebuffer.get());
  if (index >= samples) {
    ctx->set_error(GL_INVALID_VALUE, "glGetMultisamplefv: index " + std::to_string(index) +
                                         " is not below the draw framebuffer's SAMPLES (" + std::to_string(samples) +
                                         ")");
    return;
  }
  if (val == nullptr) return;
  const VkPhysicalDeviceProperties properties = device_properties(*ctx->device_state.device);
  const float* at =
      properties.limits.standardSampleLocations ? standard_locations(samples) + 2 * index : standard_locations(1);
  val[0] = at[0];
  val[1] = at[1];
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
