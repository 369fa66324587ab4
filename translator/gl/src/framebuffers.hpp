// Framebuffer objects of the GL shim (GL 4.6 chapter 9, §17.4 clears, §18.2 reading pixels; OpenGL ES 3.2
// chapters 9, 15.2, 16.1; issue 18): how a GL program reads and clears texture images without rasterization.
// Framebuffer objects are per context (GL 4.6 §5.1.3: container objects are not shared). The entry points are
// framebuffer_objects.cpp (names, binding, attachments, completeness, draw/read buffers, queries), read_pixels.cpp
// and framebuffer_clears.cpp.
//
// The default framebuffer (name 0): Bismuth's contexts are surfaceless (EGL_KHR_surfaceless_context), so there is
// no default framebuffer. GL 4.6 §9.4.2 then says CheckFramebufferStatus returns FRAMEBUFFER_UNDEFINED ("target is
// the default framebuffer, but the default framebuffer does not exist"), its draw and read buffers are NONE
// (§17.4.1, §18.2.1: "NONE if no default framebuffer is associated with the context"), and reads and clears of it
// are INVALID_FRAMEBUFFER_OPERATION (§18.2.6 / §17.4.3: the framebuffer is not complete).
//
// Depth and stencil attachments: the depth buffer is the attached depth or depth-stencil level (its depth texels), the
// stencil buffer a STENCIL_INDEX8 level or the stencil plane of a depth-stencil level (textures.hpp): both are read
// (glReadPixels DEPTH_COMPONENT, STENCIL_INDEX, DEPTH_STENCIL) and cleared (glClear, glClearBuffer*).
#pragma once

#include <array>
#include <memory>
#include <string>

#include "texture_access.hpp"

namespace bismuth::gl {

inline constexpr uint32_t kMaxColorAttachments = 8;  // MAX_COLOR_ATTACHMENTS and MAX_DRAW_BUFFERS (minimum 8)
inline constexpr uint32_t kMaxFramebufferSize = 16384;
inline constexpr uint32_t kMaxFramebufferLayers = 2048;
inline constexpr uint32_t kMaxFramebufferSamples = 4;

// A renderbuffer (GL 4.6 §9.2.4; shared between contexts like textures). Its storage is a one-level 2D texture
// object of its own (never named, never bound) so that reads and clears take the texture paths.
struct RenderbufferObject {
  GLuint name = 0;
  GLenum internalformat = GL_RGBA;  // RENDERBUFFER_INTERNAL_FORMAT, initial RGBA (table 23.27)
  GLsizei width = 0, height = 0, samples = 0;
  std::shared_ptr<TextureObject> storage;  // null until storage of a non-zero size is specified
  std::string label;
};

// One attachment point's state (GL 4.6 table 23.26): a texture level or a renderbuffer.
struct FramebufferAttachment {
  std::shared_ptr<RenderbufferObject> renderbuffer;  // FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE RENDERBUFFER
  std::shared_ptr<TextureObject> texture;            // with renderbuffer null: TEXTURE, or NONE when null too
  GLint level = 0;
  uint32_t face = 0;     // cube map face (FramebufferTexture2D with a face target), else 0
  GLint layer = 0;       // FramebufferTextureLayer / FramebufferTexture3D
  bool layered = false;  // FramebufferTexture of a 3D, array or cube map texture
  bool attached() const { return texture != nullptr || renderbuffer != nullptr; }
  // The texture holding the attached image: the texture, or the renderbuffer's storage (null: none yet).
  const TextureObject* image_texture() const { return renderbuffer ? renderbuffer->storage.get() : texture.get(); }
};

struct FramebufferObject {
  GLuint name = 0;
  bool created = false;  // bound once or made by glCreateFramebuffers (GL 4.6 §9.2.1)
  std::array<FramebufferAttachment, kMaxColorAttachments> color;
  FramebufferAttachment depth, stencil;
  std::array<GLenum, kMaxColorAttachments> draw_buffers{GL_COLOR_ATTACHMENT0};  // the rest GL_NONE
  GLenum read_buffer = GL_COLOR_ATTACHMENT0;
  GLint default_width = 0, default_height = 0, default_layers = 0, default_samples = 0;
  GLboolean default_fixed_sample_locations = GL_FALSE;
  std::string label;
};

// The framebuffer bound to `target` (GL_FRAMEBUFFER means DRAW); null: the default framebuffer. `ok` false with
// INVALID_ENUM set for a target that is not one.
FramebufferObject* bound_framebuffer(Context* ctx, GLenum target, const char* func, bool& ok);

// GL 4.6 §9.4.2 / OpenGL ES 3.2 §9.4.2: FRAMEBUFFER_COMPLETE or the status that says why not; `why` gets a
// sentence for a KHR_debug message. fb null: the default framebuffer (FRAMEBUFFER_UNDEFINED).
GLenum framebuffer_status(const Context& ctx, const FramebufferObject* fb, std::string* why = nullptr);

// GL 4.6 §9.2.3 SAMPLES of a framebuffer object: the sample count of its attached images when it is complete
// (multisample textures: TEXTURE_SAMPLES; renderbuffers and other textures 0), FRAMEBUFFER_DEFAULT_SAMPLES when
// nothing is attached; 0 when it is not complete and for the default framebuffer (null).
uint32_t framebuffer_samples(const Context& ctx, const FramebufferObject* fb);

// Where an attachment's texels are: the level, and the image part of the rectangle (x, y, w, h) of its layer
// (layered attachments: layer 0). False when the level has no image.
struct AttachedImage {
  const TextureLevel* level = nullptr;
  uint32_t width = 0, height = 0;  // the attachment's size (1D and 1D arrays: height 1)
  uint32_t layers = 1;             // layered attachments: the layer count (cube maps 6)
  LevelStore store;
  GLenum target = GL_NONE;   // the texture's target
  uint32_t first_layer = 0;  // the attached layer (or face, cube map arrays layer-face)
};
// `stencil_plane`: the stencil buffer's texels — for a depth-stencil level its stencil plane's level (STENCIL_INDEX8),
// else the level itself.
bool attached_image(const FramebufferAttachment& a, AttachedImage& out, bool stencil_plane = false);
// The backend region of a rectangle of one layer of the attachment (layer relative to the attached one).
backend::ImageRegion attached_region(const AttachedImage& image, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                                     uint32_t layer_offset = 0, uint32_t layer_count = 1);

// The color attachment a draw or read buffer names (COLOR_ATTACHMENTi), null for NONE or another value.
const FramebufferAttachment* color_buffer(const FramebufferObject& fb, GLenum buffer);

// Whether a sized format is color-renderable (GL 4.6 table 8.12 "CR"; OpenGL ES 3.2 table 8.10; ES 3.1 gets the
// float formats through EXT_color_buffer_float, which Bismuth's ES contexts expose).
bool color_renderable(const SizedFormat& format, bool es, int es_minor);

// GL 4.6 §9.2.8 "... if a texture object is deleted while its image is attached to one or more attachment points
// in a currently bound framebuffer object, then it is as if FramebufferTexture had been called, with a texture of
// zero, for each attachment point to which this image was attached in that framebuffer object" — the bound draw
// and read framebuffers of the current context; other framebuffers keep the reference.
void detach_deleted_texture(Context* ctx, const TextureObject* texture);
// GL 4.6 §9.2.7: the same for a deleted renderbuffer ("as if FramebufferRenderbuffer had been called, with a
// renderbuffer of zero").
void detach_deleted_renderbuffer(Context* ctx, const RenderbufferObject* renderbuffer);

// glGet* state of framebuffers (bindings, READ_BUFFER, DRAW_BUFFERi, COLOR_CLEAR_VALUE, limits,
// IMPLEMENTATION_COLOR_READ_FORMAT/TYPE); false: not such state.
bool get_framebuffer_state(Context* ctx, GLenum pname, TextureStateValues& out);

}  // namespace bismuth::gl
