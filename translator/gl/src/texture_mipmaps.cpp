// glGenerateMipmap and glGenerateTextureMipmap (GL 4.6 §8.14.4, OpenGL ES 3.2 §8.14.4): the checks, the levels a
// mutable texture gets, and three ways to fill levels levelbase + 1 .. q from the level above:
//
//  blit     the backend's generate_mipmaps (vkCmdBlitImage, linear filter): needs a queue with graphics (Vulkan
//           allows blits nowhere else), the format's BLIT_SRC/DST and linear filtering, and every level in the
//           texture's one image;
//  compute  a built-in box-filter compute shader per level (GLSL compiled with glslang on first use, one per
//           shape: 1D arrays, 2D arrays — 2D, cube and cube-array textures too —, 3D), reading the level above with
//           texelFetch and writing the level through a storage view without a format qualifier: needs the format's
//           STORAGE_IMAGE feature and shaderStorageImageWriteWithoutFormat;
//  host     the level above read back, converted to RGBA floats (pack_pixels), box-filtered on the CPU and converted
//           back (unpack_pixels): any colour format (sRGB and RGB9_E5, which no device stores to, included).
//
// BISMUTH_MIPMAPS=blit|compute|host picks the first to try; unset: blit where the queue has graphics, compute on a
// compute-only queue (NVIDIA's). A path that cannot do the texture hands it to the next (blit → compute → host).
// The box filter averages, per axis, the source texels [i·s/d, ((i+1)·s − 1)/d] of destination texel i (s, d the
// source and destination sizes): the 2×2(×2) mean for even sizes, three texels for the odd ones. "No particular
// filter algorithm is required, though a box filter is recommended" (§8.14.4).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bismuth/backend/sampler.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "framebuffers.hpp"
#include "pixel_transfer.hpp"
#include "texture_access.hpp"

namespace bismuth::gl {
namespace {

enum class Path { Blit, Compute, Host };

// The first path to try: BISMUTH_MIPMAPS, else blit on a queue with graphics and compute without.
Path first_path(const backend::Device& device) {
  static const std::string setting = [] {
    const char* v = std::getenv("BISMUTH_MIPMAPS");
    return std::string(v != nullptr ? v : "");
  }();
  if (setting == "blit") return Path::Blit;
  if (setting == "compute") return Path::Compute;
  if (setting == "host") return Path::Host;
  return device.graphics_queue() ? Path::Blit : Path::Compute;
}

// GL 4.6 §8.14.4: target "must be one of TEXTURE_1D, TEXTURE_2D, TEXTURE_3D, TEXTURE_1D_ARRAY, TEXTURE_2D_ARRAY,
// TEXTURE_CUBE_MAP, or TEXTURE_CUBE_MAP_ARRAY" (OpenGL ES 3.2: 2D, 3D, 2D_ARRAY, CUBE_MAP, CUBE_MAP_ARRAY).
bool mipmap_target(GLenum target, const ContextVersion& version) {
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_2D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_CUBE_MAP_ARRAY: return target_index(target, version.es, version.minor) >= 0;
    default: return false;
  }
}

// Why the base level's format cannot be mipmapped, empty when it can. OpenGL ES 3.2 §8.14.4: "An INVALID_OPERATION
// error is generated if the levelbase array was not specified with an unsized internal format from table 8.3 or a
// sized internal format that is both color-renderable and texture-filterable according to table 8.10." Desktop GL
// 4.6 states no such rule, but its filtering is undefined for integer texels (§8.17 makes integer textures with a
// LINEAR filter incomplete) and depth/stencil values are not colours to average: those are INVALID_OPERATION here
// too, as in Mesa.
std::string format_refusal(const SizedFormat& f, const ContextVersion& version) {
  if (is_stencil_index(f)) return std::string(f.name) + " is a stencil format (not color-renderable)";
  if (is_integer(f)) return std::string(f.name) + " is an integer format (not texture-filterable)";
  if (is_depth(f)) return std::string(f.name) + " is a depth/stencil format (not color-renderable)";
  if (version.es) {
    const bool filterable = !(f.numeric == Numeric::Float && f.bits[0] == 32);  // without OES_texture_float_linear
    if (!color_renderable(f, true, version.minor) || !filterable) {
      return std::string(f.name) + " is not both color-renderable and texture-filterable (OpenGL ES 3.2 table 8.10)";
    }
  }
  return {};
}

// The faces (cube maps) and layers one level store holds.
uint32_t store_layers(GLenum target, const TextureLevel& level) {
  return std::max(1u, level_layers(target, level));
}

// ---- blit ----

// The backend's linear blits, when levels base .. q of every face are in the texture's one image.
bool try_blit(Context* ctx, TextureObject& t, uint32_t base, uint32_t q, const char* func) {
  if (!ctx->device_state.device->graphics_queue() || !t.image) return false;
  for (uint32_t level = base; level <= q; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      if (level_store(t, face, level).image != t.image.get()) return false;
    }
  }
  const TextureLevel& b = t.levels[0][base];
  const uint32_t layers = t.target == GL_TEXTURE_CUBE_MAP ? 6 : store_layers(t.target, b);
  const Status ok =
      ctx->stream->generate_mipmaps(*t.image, t.view_min_level + base, t.view_min_layer, layers, t.view_min_level + q);
  if (!ok) {
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_PERFORMANCE, 3, GL_DEBUG_SEVERITY_LOW,
               std::string(func) + ": no blit for this texture (" + ok.error().message + "): using another path");
    return false;
  }
  return true;
}

// ---- compute ----

// Shape 0: 1D arrays (y is the layer), 1: 2D arrays (z is the layer), 2: 3D.
constexpr const char* kShaderHead = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
// Destination texel i covers source texels [i*s/d, ((i+1)*s-1)/d] on each axis (s, d: source and destination size).
ivec3 first_texel(ivec3 i, ivec3 s, ivec3 d) { return i * s / d; }
ivec3 last_texel(ivec3 i, ivec3 s, ivec3 d) { return ((i + 1) * s - 1) / d; }
)";

constexpr const char* kShaderBodies[3] = {
    R"(layout(set = 0, binding = 0) uniform sampler1DArray source;
layout(set = 0, binding = 1) writeonly uniform image1DArray destination;
void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  ivec2 d = imageSize(destination);
  if (p.x >= d.x || p.y >= d.y) return;
  ivec2 s = textureSize(source, 0);
  ivec3 lo = first_texel(p, ivec3(s.x, 1, 1), ivec3(d.x, 1, 1)), hi = last_texel(p, ivec3(s.x, 1, 1), ivec3(d.x, 1, 1));
  vec4 sum = vec4(0.0);
  for (int x = lo.x; x <= hi.x; ++x) sum += texelFetch(source, ivec2(x, p.y), 0);
  imageStore(destination, p.xy, sum / float(hi.x - lo.x + 1));
}
)",
    R"(layout(set = 0, binding = 0) uniform sampler2DArray source;
layout(set = 0, binding = 1) writeonly uniform image2DArray destination;
void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  ivec3 d = imageSize(destination);
  if (any(greaterThanEqual(p, d))) return;
  ivec3 s = textureSize(source, 0);
  ivec3 lo = first_texel(p, ivec3(s.xy, 1), ivec3(d.xy, 1)), hi = last_texel(p, ivec3(s.xy, 1), ivec3(d.xy, 1));
  vec4 sum = vec4(0.0);
  for (int y = lo.y; y <= hi.y; ++y)
    for (int x = lo.x; x <= hi.x; ++x) sum += texelFetch(source, ivec3(x, y, p.z), 0);
  imageStore(destination, p, sum / float((hi.x - lo.x + 1) * (hi.y - lo.y + 1)));
}
)",
    R"(layout(set = 0, binding = 0) uniform sampler3D source;
layout(set = 0, binding = 1) writeonly uniform image3D destination;
void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  ivec3 d = imageSize(destination);
  if (any(greaterThanEqual(p, d))) return;
  ivec3 s = textureSize(source, 0);
  ivec3 lo = first_texel(p, s, d), hi = last_texel(p, s, d);
  vec4 sum = vec4(0.0);
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) sum += texelFetch(source, ivec3(x, y, z), 0);
  ivec3 n = hi - lo + 1;
  imageStore(destination, p, sum / float(n.x * n.y * n.z));
}
)"};

int shape_of(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY: return 0;
    case GL_TEXTURE_3D: return 2;
    default: return 1;
  }
}

VkImageViewType view_type_of(int shape) {
  return shape == 0 ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : shape == 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_3D;
}

// The shader of a shape, compiled and created on first use (DeviceState::mipmap_shaders). Every SPIR-V module
// goes through spirv-val in the GL tests' BISMUTH_VALIDATION runs: the validation layer checks it at pipeline
// creation.
backend::Shader* mipmap_shader(Context* ctx, int shape, const char* func) {
  DeviceState& state = ctx->device_state;
  std::lock_guard lock(state.indirect_mutex);
  auto& slot = state.mipmap_shaders[static_cast<size_t>(shape)];
  if (!slot) {
    translator::GlslCompileOptions options;
    options.source_name = "bismuth-mipmap.comp";
    auto spirv = translator::compile_glsl_compute(std::string(kShaderHead) + kShaderBodies[shape], options);
    if (!spirv) {
      ctx->set_error(GL_OUT_OF_MEMORY, std::string(func) + ": internal: " + spirv.error().message);
      return nullptr;
    }
    backend::ShaderDesc desc;
    desc.spirv = *spirv;
    desc.layout.bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
    desc.name = "glGenerateMipmap box filter";
    auto created = backend::Shader::create(*state.device, desc);
    if (!created) {
      ctx->backend_error(func, created.error());
      return nullptr;
    }
    slot = std::move(*created);
  }
  return slot.get();
}

// Whether the compute path can write `image` in `format`.
bool compute_possible(Context* ctx, const backend::Image& image, VkFormat format) {
  const backend::Device& device = *ctx->device_state.device;
  if (!device.features().storage_image_write_without_format || !(image.desc().usage & backend::kImageStorage)) {
    return false;
  }
  VkFormatProperties properties{};
  device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), format, &properties);
  constexpr VkFormatFeatureFlags kNeeded = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  return (properties.optimalTilingFeatures & kNeeded) == kNeeded;
}

// One dispatch per level and face store, a texture-fetch barrier between levels (GL's barrier model orders no
// dispatch with another by itself: the next level reads what this one wrote).
bool try_compute(Context* ctx, TextureObject& t, uint32_t base, uint32_t q, const char* func) {
  const VkFormat format = t.levels[0][base].format->vk_format;
  for (uint32_t level = base + 1; level <= q; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      const LevelStore to = level_store(t, face, level);
      if (to.image == nullptr || !compute_possible(ctx, *to.image, format)) return false;
    }
  }
  const int shape = shape_of(t.target);
  backend::Shader* shader = mipmap_shader(ctx, shape, func);
  if (shader == nullptr) return true;  // the error is recorded
  auto sampler = ctx->device_state.device->sampler(backend::SamplerDesc{});
  if (!sampler) {
    ctx->backend_error(func, sampler.error());
    return true;
  }
  // Earlier dispatches' accesses to these levels (reads and writes) come before the first level's.
  (void)ctx->stream->memory_barrier(backend::kBarrierImage | backend::kBarrierTextureFetch);
  for (uint32_t level = base + 1; level <= q; ++level) {
    if (level > base + 1) (void)ctx->stream->memory_barrier(backend::kBarrierTextureFetch);
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      const LevelStore from = level_store(t, face, level - 1), to = level_store(t, face, level);
      const TextureLevel& l = t.levels[face][level];
      const uint32_t layers = store_layers(t.target, l);
      std::array<backend::ImageBinding, 2> images{};
      images[0].image = from.image;
      images[0].view = {view_type_of(shape), format, from.mip, 1, from.face_layer, shape == 2 ? 1 : layers};
      images[0].sampler = *sampler;
      images[0].access = backend::Access::Read;
      images[1].image = to.image;
      images[1].view = {view_type_of(shape), format, to.mip, 1, to.face_layer, shape == 2 ? 1 : layers};
      images[1].access = backend::Access::Write;
      backend::DispatchInfo info;
      info.shader = shader;
      info.images = images;
      // Groups of 64 invocations: along x for 1D, 8×8 for 2D, 4×4×4 for 3D.
      const uint32_t w = l.width, h = shape == 0 ? layers : l.height,
                     d = shape == 1   ? layers
                         : shape == 2 ? l.depth
                                      : 1;
      info.size = shape == 0   ? backend::GroupSize{64, 1, 1}
                  : shape == 1 ? backend::GroupSize{8, 8, 1}
                               : backend::GroupSize{4, 4, 4};
      info.groups = {(w + info.size.x - 1) / info.size.x, (h + info.size.y - 1) / info.size.y,
                     (d + info.size.z - 1) / info.size.z};
      if (Status ok = ctx->stream->dispatch(info); !ok) {
        ctx->backend_error(func, ok.error());
        return true;
      }
    }
  }
  // Later dispatches sample or load the new levels without a glMemoryBarrier: GenerateMipmap is no shader write.
  (void)ctx->stream->memory_barrier(backend::kBarrierImage | backend::kBarrierTextureFetch);
  return true;
}

// ---- host ----

// The texels of one level store as RGBA floats, [layer][z][y][x].
struct HostLevel {
  uint32_t w = 1, h = 1, d = 1, layers = 1;
  std::vector<float> rgba;
  float* texel(uint32_t layer, uint32_t x, uint32_t y, uint32_t z) {
    return &rgba[((((size_t(layer) * d + z) * h + y) * w + x)) * 4];
  }
};

// The region of a level store: the whole level (all its layers).
backend::ImageRegion whole_region(GLenum target, const LevelStore& store, const TextureLevel& l) {
  const GLenum region_target = target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target;
  return sub_region(region_target, store, 0, 0, 0, static_cast<GLsizei>(l.width), static_cast<GLsizei>(l.height),
                    static_cast<GLsizei>(l.depth));
}

// Level sizes without the layers (which sub_region's extent and layer count hold).
void level_box(GLenum target, const TextureLevel& l, HostLevel& out) {
  out.w = l.width;
  out.h = target == GL_TEXTURE_1D_ARRAY ? 1 : l.height;
  out.d = target == GL_TEXTURE_3D ? l.depth : 1;
  out.layers = store_layers(target, l);
}

bool host_level(Context* ctx, TextureObject& t, uint32_t face, uint32_t level, const char* func) {
  const SizedFormat& format = *t.levels[face][level].format;
  const TextureLevel& sl = t.levels[face][level - 1];
  const TextureLevel& dl = t.levels[face][level];
  const LevelStore from = level_store(t, face, level - 1), to = level_store(t, face, level);
  if (from.image == nullptr || to.image == nullptr) return true;
  HostLevel s, d;
  level_box(t.target, sl, s);
  level_box(t.target, dl, d);
  const PixelStore tight{};  // RGBA floats: 16-byte groups, no row padding at alignment 4
  // Source texels → RGBA floats.
  const backend::ImageRegion sr = whole_region(t.target, from, sl);
  std::vector<std::byte> texels(region_bytes(*from.image, sr));
  if (Status ok = ctx->stream->readback_image(*from.image, sr, texels); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  s.rgba.resize(size_t(s.w) * s.h * s.d * s.layers * 4);
  const Extent se{s.w, s.h, s.d * s.layers, true};
  if (TransferResult r = pack_pixels(format, GL_RGBA, GL_FLOAT, tight, se, texels, s.rgba.data()); !r.ok()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + r.message);
    return false;
  }
  // The box filter.
  d.rgba.assign(size_t(d.w) * d.h * d.d * d.layers * 4, 0.0f);
  auto first = [](uint32_t i, uint32_t sn, uint32_t dn) { return i * sn / dn; };
  auto last = [](uint32_t i, uint32_t sn, uint32_t dn) { return ((i + 1) * sn - 1) / dn; };
  for (uint32_t layer = 0; layer < d.layers; ++layer) {
    for (uint32_t z = 0; z < d.d; ++z) {
      for (uint32_t y = 0; y < d.h; ++y) {
        for (uint32_t x = 0; x < d.w; ++x) {
          double sum[4] = {};
          uint32_t n = 0;
          for (uint32_t sz = first(z, s.d, d.d); sz <= last(z, s.d, d.d); ++sz) {
            for (uint32_t sy = first(y, s.h, d.h); sy <= last(y, s.h, d.h); ++sy) {
              for (uint32_t sx = first(x, s.w, d.w); sx <= last(x, s.w, d.w); ++sx) {
                const float* c = s.texel(layer, sx, sy, sz);
                for (int i = 0; i < 4; ++i) sum[i] += c[i];
                ++n;
              }
            }
          }
          float* out = d.texel(layer, x, y, z);
          for (int i = 0; i < 4; ++i) out[i] = static_cast<float>(sum[i] / n);
        }
      }
    }
  }
  // RGBA floats → destination texels.
  const backend::ImageRegion dr = whole_region(t.target, to, dl);
  texels.assign(region_bytes(*to.image, dr), std::byte{});
  const Extent de{d.w, d.h, d.d * d.layers, true};
  if (TransferResult r = unpack_pixels(format, GL_RGBA, GL_FLOAT, tight, de, d.rgba.data(), texels); !r.ok()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + r.message);
    return false;
  }
  if (Status ok = ctx->stream->upload_image(*to.image, dr, texels); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  return true;
}

void run_host(Context* ctx, TextureObject& t, uint32_t base, uint32_t q, const char* func) {
  // Earlier dispatches' accesses to these levels come before the read-backs and uploads (transfers are ordered with
  // dispatches by the stream; the request makes sure of it in every barrier model).
  (void)ctx->stream->memory_barrier(backend::kBarrierTextureUpdate | backend::kBarrierFramebuffer);
  for (uint32_t level = base + 1; level <= q; ++level) {
    for (uint32_t face = 0; face < t.levels.size(); ++face) {
      if (!host_level(ctx, t, face, level, func)) return;
    }
  }
}

// ---- the command ----

void generate(Context* ctx, TextureObject& t, const char* func) {
  const TextureLevel* base_level = base_level_of(t);
  // Nothing to generate from: an undefined or empty base level (GL names no error for it).
  if (base_level == nullptr || base_level->width == 0 || base_level->height == 0 || base_level->depth == 0) return;
  const TextureLevel b = *base_level;
  const uint32_t base = static_cast<uint32_t>(base_level - t.levels[0].data());
  // "An INVALID_OPERATION error is generated if target is TEXTURE_CUBE_MAP or TEXTURE_CUBE_MAP_ARRAY, and the
  // specified texture object is not cube complete or cube array complete, respectively." (§8.17: the base level of
  // the six faces defined, square, of one internal format and size; a cube map array's faces are its layers.)
  if (t.target == GL_TEXTURE_CUBE_MAP) {
    for (const auto& face : t.levels) {
      const TextureLevel& f = face[base];
      if (!f.defined() || f.internalformat != b.internalformat || f.width != b.width || f.height != b.width) {
        ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the cube map texture is not cube complete");
        return;
      }
    }
  }
  if (t.target == GL_TEXTURE_CUBE_MAP_ARRAY && (b.width != b.height || b.depth % 6 != 0)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the cube map array texture is not cube array complete");
    return;
  }
  // §8.14.4: "An INVALID_OPERATION error is generated if the levelbase array was not specified with an unsized
  // internal format or a sized internal format that is both color-renderable and texture-filterable": compressed
  // formats are not color-renderable.
  if (is_compressed_level(b)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the base level's internal format " +
                                             hex(b.internalformat) + " is compressed (not color-renderable)");
    return;
  }
  if (const std::string why = format_refusal(*b.format, ctx->version); !why.empty()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + why);
    return;
  }
  // "Mipmap generation replaces texel array levels levelbase + 1 through q with arrays derived from the levelbase
  // array" (q: §8.14.3, MAX_LEVEL and immutable levels included).
  const uint32_t q = std::min(effective_top_level(t), kMaxTextureLevels - 1);
  if (q <= base) return;
  if (!t.immutable) {
    // A mutable texture gets each level with the base level's internal format and the halved sizes (§8.14.4:
    // "The internal formats of the derived mipmap arrays all match those of the levelbase array, and the
    // dimensions of the derived arrays follow the requirements described in section 8.14.3").
    for (uint32_t level = base + 1; level <= q; ++level) {
      for (uint32_t face = 0; face < t.levels.size(); ++face) {
        TextureLevel spec = level_of(t.target, t.levels[face][base], level - base);
        spec.format = b.format;
        spec.internalformat = t.levels[face][base].internalformat;
        const TextureLevel& now = t.levels[face][level];
        if (now.format == spec.format && now.width == spec.width && now.height == spec.height &&
            now.depth == spec.depth && level_store(t, face, level).image != nullptr) {
          t.levels[face][level].internalformat = spec.internalformat;
          continue;
        }
        if (!define_mutable_level(ctx, t, face, level, spec, func)) return;
      }
    }
    if (!make_texture_image(ctx, t, func)) return;
  }
  // Which path ran, as a notification (debug contexts see it; tests check that BISMUTH_MIPMAPS took effect).
  auto ran = [&](const char* how) {
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, 4, GL_DEBUG_SEVERITY_NOTIFICATION,
               std::string(func) + ": levels " + std::to_string(base + 1) + ".." + std::to_string(q) + " of texture " +
                   std::to_string(t.name) + " " + how);
  };
  Path path = first_path(*ctx->device_state.device);
  if (path == Path::Blit) {
    if (try_blit(ctx, t, base, q, func)) return ran("by blits");
    path = Path::Compute;
  }
  if (path == Path::Compute) {
    if (try_compute(ctx, t, base, q, func)) return ran("by the compute shader");
  }
  run_host(ctx, t, base, q, func);
  ran("on the host");
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGenerateMipmap(GLenum target) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // §8.14.4: "An INVALID_ENUM error is generated by GenerateMipmap if target is not one of the valid targets
  // listed above."
  if (!mipmap_target(target, ctx->version)) {
    ctx->set_error(GL_INVALID_ENUM, std::string("glGenerateMipmap: invalid target ") + hex(target));
    return;
  }
  auto t = bound_texture(ctx, target, false, "glGenerateMipmap");
  if (t) generate(ctx, *t, "glGenerateMipmap");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGenerateTextureMipmap(GLuint texture) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // §8.14.4: "An INVALID_OPERATION error is generated by GenerateTextureMipmap if texture is not the name of an
  // existing texture object" (named_texture), "... if the effective target is not one of the valid targets listed
  // above."
  auto t = named_texture(ctx, texture, "glGenerateTextureMipmap");
  if (!t) return;
  if (!mipmap_target(t->target, ctx->version)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string("glGenerateTextureMipmap: textures of target ") +
                                             target_name(t->target) + " have no mipmaps to generate");
    return;
  }
  generate(ctx, *t, "glGenerateTextureMipmap");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
