// The stencil planes of depth-stencil textures (DEPTH24_STENCIL8, DEPTH32F_STENCIL8; textures.hpp,
// TextureObject::stencil_plane). The depth values stay where the depth formats keep them (a depth format, or the
// colour format of depth_textures_as_color); the stencil indices live in a texture object of STENCIL_INDEX8 levels
// (R8_UINT images) shaped like the depth texture. Why not the stencil aspect of D24_UNORM_S8_UINT /
// D32_SFLOAT_S8_UINT: a compute-only queue (NVIDIA's) can neither copy nor clear a stencil aspect, the colour
// storage has none, and sampling it needs stencil-aspect views the backend does not make; an R8_UINT plane is
// copied, cleared and sampled (usampler, GL 4.6 table 15.1's (S, 0, 0, 1)) the way STENCIL_INDEX8 textures are, on
// every queue and in both depth storages.
#include "texture_access.hpp"

namespace bismuth::gl {

const SizedFormat& stencil_plane_format() {
  static const SizedFormat* const row = find_sized_format(GL_STENCIL_INDEX8);
  return *row;
}

namespace {

// The plane's level for a level of the depth texture: STENCIL_INDEX8 of the same size where the level is a
// depth-stencil one, else undefined.
TextureLevel plane_level(const TextureLevel& l) {
  if (!l.defined() || !is_depth_stencil(*l.format)) return {};
  return TextureLevel{&stencil_plane_format(), GL_STENCIL_INDEX8, l.width, l.height, l.depth};
}

std::shared_ptr<TextureObject> empty_plane(const TextureObject& t) {
  auto plane = std::make_shared<TextureObject>();
  plane->target = t.target;
  plane->levels.assign(t.levels.size(), std::vector<TextureLevel>(t.levels.empty() ? 0 : t.levels[0].size()));
  return plane;
}

}  // namespace

bool make_immutable_stencil_plane(Context* ctx, TextureObject& t, std::shared_ptr<backend::Image> shared,
                                  const char* func) {
  t.stencil_plane.reset();
  if (!t.image || t.levels.empty() || t.levels[0].empty()) return true;
  const TextureLevel& base = t.levels[0][0];
  if (!base.defined() || !is_depth_stencil(*base.format)) return true;
  auto plane = empty_plane(t);
  for (size_t face = 0; face < t.levels.size(); ++face) {
    for (size_t level = 0; level < t.levels[face].size(); ++level)
      plane->levels[face][level] = plane_level(t.levels[face][level]);
  }
  plane->immutable = t.immutable;
  plane->immutable_levels = t.immutable_levels;
  plane->samples = t.samples;
  plane->fixed_sample_locations = t.fixed_sample_locations;
  plane->view_min_level = t.view_min_level;
  plane->view_num_levels = t.view_num_levels;
  plane->view_min_layer = t.view_min_layer;
  plane->view_num_layers = t.view_num_layers;
  if (!shared) {
    // The depth image's shape (type, size, levels, layers, samples, cube compatibility) in R8_UINT.
    backend::ImageDesc desc = t.image->desc();
    desc.format = stencil_plane_format().vk_format;
    shared = create_texture_image(ctx, desc, stencil_plane_format(), func);
    if (!shared) return false;
  }
  plane->image = std::move(shared);
  t.stencil_plane = std::move(plane);
  return true;
}

bool define_stencil_plane_level(Context* ctx, TextureObject& t, uint32_t face, uint32_t level, const char* func) {
  const TextureLevel spec = plane_level(t.levels[face][level]);
  if (!spec.defined() && !t.stencil_plane) return true;
  if (!t.stencil_plane) t.stencil_plane = empty_plane(t);
  return define_mutable_level(ctx, *t.stencil_plane, face, level, spec, func);
}

}  // namespace bismuth::gl
