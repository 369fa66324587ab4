#include "texture_commands.hpp"

#include <algorithm>
#include <sstream>

#include "bismuth/gl/bismuth_gl.h"
#include "piglit_textures.hpp"
#include "pixel_probe.hpp"

namespace bismuth::tools::runner {

namespace {

template <class Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(bismuthGetProcAddress(name));
}

// The entry points of `names` this libbismuth-gl does not have, comma-separated ("" when it has them all).
std::string missing(const std::vector<const char*>& names) {
  std::string out;
  for (const char* name : names) {
    if (bismuthGetProcAddress(name) == nullptr) out += (out.empty() ? "" : ", ") + std::string(name);
  }
  return out;
}

TextureCommandResult skip_missing(const std::string& names) {
  return {TextureCommandResult::Kind::Skip, "needs " + names + ", which this libbismuth-gl lacks"};
}

TextureCommandResult failed(std::string message) {
  return {TextureCommandResult::Kind::Fail, std::move(message)};
}

std::string number_text(double v) {
  std::ostringstream s;
  s.precision(15);
  s << v;
  return s.str();
}

std::string hex(uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

}  // namespace

TextureCommands::~TextureCommands() {
  if (const auto del = gl<PFNGLDELETEFRAMEBUFFERSPROC>("glDeleteFramebuffers"); del && !framebuffers_.empty()) {
    del(static_cast<GLsizei>(framebuffers_.size()), framebuffers_.data());
  }
  if (const auto del = gl<PFNGLDELETETEXTURESPROC>("glDeleteTextures")) {
    for (const auto& b : bindings_) {
      if (b.name != 0) del(1, &b.name);
    }
  }
}

TextureCommandResult TextureCommands::run(const Command& c, const std::array<double, 4>& tolerance,
                                          const std::array<bool, 4>& relative) {
  switch (c.kind) {
    case Command::Kind::Texture: return create_texture(c.texture);
    case Command::Kind::TexParameter: return set_parameter(c.texparameter);
    case Command::Kind::ImageTexture: return bind_image(c);
    case Command::Kind::FramebufferTexture: return bind_framebuffer(c.framebuffer);
    case Command::Kind::ClearColor: {
      // shader_runner: glClearColor now, GL_COLOR_BUFFER_BIT for the next `clear`.
      if (auto names = missing({"glClearColor"}); !names.empty()) return skip_missing(names);
      const auto& rgba = c.pixel_probe.expected;
      gl<PFNGLCLEARCOLORPROC>("glClearColor")(rgba[0], rgba[1], rgba[2], rgba[3]);
      clear_color_ = rgba;
      clear_bits_ |= GL_COLOR_BUFFER_BIT;
      return {};
    }
    case Command::Kind::Clear: return clear();
    case Command::Kind::ProbePixels: return probe(c.pixel_probe, tolerance, relative);
    default: return failed("not a texture command");
  }
}

// piglit's texture generators (piglit-util-gl.c) on the unit the command names: glActiveTexture, a new texture
// bound to its target, the generator's parameters and images. The texture replaces the unit's earlier one.
TextureCommandResult TextureCommands::create_texture(const TextureSpec& s) {
  using C = TextureSpec::Content;
  std::vector<const char*> needed = {"glActiveTexture", "glGenTextures", "glBindTexture", "glDeleteTextures"};
  const bool array_2d = s.target == GL_TEXTURE_2D_ARRAY, array_1d = s.target == GL_TEXTURE_1D_ARRAY;
  switch (s.content) {
    case C::Storage:
      needed.push_back(s.dimensions == 1 ? "glTexStorage1D" : s.dimensions == 2 ? "glTexStorage2D" : "glTexStorage3D");
      break;
    case C::Junk: needed.push_back("glTexImage3D"); break;
    default:
      needed.push_back("glTexParameteri");
      if (s.content == C::Quads && !es_) needed.push_back("glTexParameterfv");
      if (s.target == GL_TEXTURE_1D) needed.push_back("glTexImage1D");
      if (s.target == GL_TEXTURE_3D || array_2d) needed.push_back("glTexImage3D");
      if (array_2d) needed.push_back("glTexSubImage3D");
      if (s.target == GL_TEXTURE_2D || s.target == GL_TEXTURE_RECTANGLE || array_1d) needed.push_back("glTexImage2D");
      if (array_1d && s.content == C::Rgbw) needed.push_back("glTexSubImage2D");
      break;
  }
  // Generated images are built in memory before GL sees their size: a size past what any test needs would exhaust
  // memory before GL could refuse it (GL_MAX_TEXTURE_SIZE). The product is taken in double: three int32 sizes
  // overflow int64.
  constexpr double kMaxGeneratedTexels = 1 << 25;
  const double texels = static_cast<double>(s.width) * s.height * s.depth;
  if (s.content != C::Storage && s.content != C::Junk && texels > kMaxGeneratedTexels) {
    return failed(number_text(texels) + " texels: more than the " + number_text(kMaxGeneratedTexels) +
                  " the runner generates for one texture");
  }
  if (const std::string names = missing(needed); !names.empty()) return skip_missing(names);

  const auto parameter = gl<PFNGLTEXPARAMETERIPROC>("glTexParameteri");
  const auto image_1d = gl<PFNGLTEXIMAGE1DPROC>("glTexImage1D");
  const auto image_2d = gl<PFNGLTEXIMAGE2DPROC>("glTexImage2D");
  const auto image_3d = gl<PFNGLTEXIMAGE3DPROC>("glTexImage3D");
  const auto sub_image_2d = gl<PFNGLTEXSUBIMAGE2DPROC>("glTexSubImage2D");
  const auto sub_image_3d = gl<PFNGLTEXSUBIMAGE3DPROC>("glTexSubImage3D");
  const GLenum target = s.target;
  const GLint internal = static_cast<GLint>(s.internal_format);

  gl<PFNGLACTIVETEXTUREPROC>("glActiveTexture")(GL_TEXTURE0 + s.unit);
  GLuint name = 0;
  gl<PFNGLGENTEXTURESPROC>("glGenTextures")(1, &name);
  gl<PFNGLBINDTEXTUREPROC>("glBindTexture")(target, name);
  auto clamp_and_nearest = [&](bool wrap_r, GLenum min_filter) {
    parameter(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    parameter(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    if (wrap_r) parameter(target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    parameter(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    parameter(target, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(min_filter));
  };
  Binding b{name, target, s.width, s.height, 1};
  switch (s.content) {
    case C::Rgbw:
      clamp_and_nearest(target == GL_TEXTURE_3D, GL_NEAREST);
      if (target == GL_TEXTURE_1D) {
        image_1d(target, 0, GL_RGBA, 4, 0, GL_RGBA, GL_FLOAT, rgbw_1d_image().data());
      } else if (target == GL_TEXTURE_3D) {
        image_3d(target, 0, GL_RGBA, 2, 2, 2, 0, GL_RGBA, GL_FLOAT, rgbw_3d_image().data());
        b.layers = 2;
      } else if (array_2d || array_1d) {
        // piglit_array_texture: layer i a solid color_wheel[i % 4].
        if (array_2d) {
          image_3d(target, 0, GL_RGBA, s.width, s.height, s.depth, 0, GL_RGBA, GL_FLOAT, nullptr);
        } else {
          image_2d(target, 0, GL_RGBA, s.width, s.depth, 0, GL_RGBA, GL_FLOAT, nullptr);
        }
        for (int32_t layer = 0; layer < s.depth; ++layer) {
          const auto data = solid_image(int64_t{s.width} * s.height, color_wheel(layer));
          if (array_2d) {
            sub_image_3d(target, 0, 0, 0, layer, s.width, s.height, 1, GL_RGBA, GL_FLOAT, data.data());
          } else {
            sub_image_2d(target, 0, 0, layer, s.width, 1, GL_RGBA, GL_FLOAT, data.data());
          }
        }
        b.layers = s.depth;
      } else if (es_) {
        // OpenGL ES: shader_runner uploads GL_UNSIGNED_BYTE (piglit_rgbw_image_ubyte).
        image_2d(target, 0, internal, s.width, s.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 to_unorm8(rgbw_image(s.width, s.height)).data());
      } else {
        image_2d(target, 0, internal, s.width, s.height, 0, GL_RGBA, GL_FLOAT, rgbw_image(s.width, s.height).data());
      }
      break;
    case C::Quads: {
      parameter(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      parameter(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      const auto data = quads_image(s);
      if (es_) {
        parameter(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        parameter(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        image_2d(target, s.level, GL_RGBA, s.width, s.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, to_unorm8(data).data());
      } else {
        static constexpr GLfloat kBorder[4] = {1, 0, 0, 1};
        parameter(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
        parameter(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
        gl<PFNGLTEXPARAMETERFVPROC>("glTexParameterfv")(target, GL_TEXTURE_BORDER_COLOR, kBorder);
        image_2d(target, s.level, GL_RGBA, s.width, s.height, 0, GL_RGBA, GL_FLOAT, data.data());
      }
      break;
    }
    case C::Integer:
      clamp_and_nearest(false, GL_NEAREST);
      image_2d(target, 0, internal, s.width, s.height, 0, GL_RGBA_INTEGER, GL_INT,
               integer_image(s.width, s.height, s.blue, s.alpha).data());
      break;
    case C::Miptree:
      clamp_and_nearest(false, GL_NEAREST_MIPMAP_NEAREST);
      for (int level = 0; level < 4; ++level) {
        const int32_t size = 8 >> level;
        image_2d(target, level, GL_RGBA, size, size, 0, GL_RGBA, GL_FLOAT,
                 solid_image(int64_t{size} * size, color_wheel(level)).data());
      }
      break;
    case C::Junk:
      image_3d(target, 0, GL_RGBA, s.width, s.height, s.depth, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
      b.layers = s.depth;
      break;
    case C::Depth: {
      clamp_and_nearest(false, GL_NEAREST);
      // 1D arrays keep their layers as rows of one 2D image (piglit passes the layers as the height).
      const int32_t rows = array_1d ? s.depth : s.height;
      const auto data = depth_gradient(s.width, rows);
      if (target == GL_TEXTURE_1D) {
        image_1d(target, 0, GL_DEPTH_COMPONENT, s.width, 0, GL_DEPTH_COMPONENT, GL_FLOAT, data.data());
      } else if (array_2d) {
        image_3d(target, 0, GL_DEPTH_COMPONENT, s.width, s.height, s.depth, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
        for (int32_t layer = 0; layer < s.depth; ++layer) {
          sub_image_3d(target, 0, 0, 0, layer, s.width, s.height, 1, GL_DEPTH_COMPONENT, GL_FLOAT, data.data());
        }
      } else {
        image_2d(target, 0, GL_DEPTH_COMPONENT, s.width, rows, 0, GL_DEPTH_COMPONENT, GL_FLOAT, data.data());
      }
      parameter(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
      parameter(target, GL_TEXTURE_COMPARE_FUNC, GL_GREATER);
      if (array_1d || array_2d) b.layers = s.depth;
      if (array_1d) b.height = 1;
      break;
    }
    case C::Storage:
      if (s.dimensions == 1) {
        gl<PFNGLTEXSTORAGE1DPROC>("glTexStorage1D")(target, s.levels, s.internal_format, s.width);
      } else if (s.dimensions == 2) {
        gl<PFNGLTEXSTORAGE2DPROC>("glTexStorage2D")(target, s.levels, s.internal_format, s.width, s.height);
      } else {
        gl<PFNGLTEXSTORAGE3DPROC>("glTexStorage3D")(target, s.levels, s.internal_format, s.width, s.height, s.depth);
      }
      // shader_runner's set_texture_binding: a 1D array's layers are its second size.
      if (array_1d)
        b = {name, target, s.width, 1, s.height};
      else
        b.layers = s.depth;
      break;
  }
  Binding& slot = bindings_[s.unit];
  if (slot.name != 0) gl<PFNGLDELETETEXTURESPROC>("glDeleteTextures")(1, &slot.name);
  slot = b;
  return {};
}

// handle_texparameter: glTexParameter* of the texture bound to TARGET on the active unit.
TextureCommandResult TextureCommands::set_parameter(const TexParameterSpec& p) {
  using V = TexParameterSpec::Value;
  if (p.compat_only) {
    return {TextureCommandResult::Kind::Skip,
            "sets GL_DEPTH_TEXTURE_MODE, a compatibility-profile parameter (the runner's contexts are core and ES)"};
  }
  const char* entry = p.value_kind == V::Float         ? "glTexParameterf"
                      : p.value_kind == V::FloatVector ? "glTexParameterfv"
                                                       : "glTexParameteri";
  if (auto names = missing({entry}); !names.empty()) return skip_missing(names);
  switch (p.value_kind) {
    case V::Enum:
    case V::Int: gl<PFNGLTEXPARAMETERIPROC>(entry)(p.target, p.pname, p.int_value); break;
    case V::Float: gl<PFNGLTEXPARAMETERFPROC>(entry)(p.target, p.pname, p.floats[0]); break;
    case V::FloatVector: gl<PFNGLTEXPARAMETERFVPROC>(entry)(p.target, p.pname, p.floats.data()); break;
  }
  return {};
}

// image texture UNIT FORMAT: glBindImageTexture(UNIT, the unit's texture, level 0, not layered, layer 0,
// GL_READ_WRITE, FORMAT), shader_runner's call.
TextureCommandResult TextureCommands::bind_image(const Command& c) {
  const auto unit = static_cast<uint32_t>(c.a[0]);
  if (bindings_[unit].name == 0) return failed("no texture at unit " + std::to_string(unit) + " (create one first)");
  if (auto names = missing({"glBindImageTexture"}); !names.empty()) return skip_missing(names);
  gl<PFNGLBINDIMAGETEXTUREPROC>("glBindImageTexture")(unit, bindings_[unit].name, 0, GL_FALSE, 0, GL_READ_WRITE,
                                                      static_cast<GLenum>(c.a[1]));
  return {};
}

// fb tex 2d / fb tex layered: a new framebuffer object with the units' textures as colour attachments
// (glFramebufferTexture2D level 0, or glFramebufferTexture for every layer), bound to the command's target and
// checked complete; it sets the draw and/or read size. Without framebuffer entry points the attachment is
// remembered, so that probes read the texture and `clear` clears it.
TextureCommandResult TextureCommands::bind_framebuffer(const FramebufferSpec& f) {
  Attachment first;
  for (size_t i = 0; i < f.units.size(); ++i) {
    if (f.units[i] == -1) continue;
    const Binding& b = bindings_[static_cast<size_t>(f.units[i])];
    if (b.name == 0) return failed("no texture at unit " + std::to_string(f.units[i]) + " (create one first)");
    // As shader_runner, the framebuffer's size is the last attached texture's; attachment 0 is the one read.
    if (first.texture == 0) first = {b.name, b.target, static_cast<uint32_t>(f.units[i]), 0, 0, false};
    first.width = b.width;
    first.height = b.height;
  }
  const char* attach = f.layered ? "glFramebufferTexture" : "glFramebufferTexture2D";
  std::string names = missing({"glGenFramebuffers", "glBindFramebuffer", attach, "glCheckFramebufferStatus"});
  if (f.units.size() > 1 && f.target != GL_READ_FRAMEBUFFER && names.empty()) names = missing({"glDrawBuffers"});
  if (!names.empty()) {
    if (f.units.size() != 1 || first.texture == 0) return skip_missing(names);
    first.emulated = true;
  } else {
    GLuint fbo = 0;
    gl<PFNGLGENFRAMEBUFFERSPROC>("glGenFramebuffers")(1, &fbo);
    framebuffers_.push_back(fbo);
    gl<PFNGLBINDFRAMEBUFFERPROC>("glBindFramebuffer")(f.target, fbo);
    std::vector<GLenum> attachments;
    for (size_t i = 0; i < f.units.size(); ++i) {
      const GLenum attachment = GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i);
      const GLuint texture = f.units[i] == -1 ? 0 : bindings_[static_cast<size_t>(f.units[i])].name;
      if (f.layered) {
        gl<PFNGLFRAMEBUFFERTEXTUREPROC>(attach)(f.target, attachment, texture, 0);
      } else {
        gl<PFNGLFRAMEBUFFERTEXTURE2DPROC>(attach)(f.target, attachment, GL_TEXTURE_2D, texture, 0);
      }
      attachments.push_back(attachment);
    }
    if (attachments.size() > 1 && f.target != GL_READ_FRAMEBUFFER) {
      gl<PFNGLDRAWBUFFERSPROC>("glDrawBuffers")(static_cast<GLsizei>(attachments.size()), attachments.data());
    }
    const GLenum status = gl<PFNGLCHECKFRAMEBUFFERSTATUSPROC>("glCheckFramebufferStatus")(f.target);
    if (status != GL_FRAMEBUFFER_COMPLETE) return failed("incomplete framebuffer (status " + hex(status) + ")");
  }
  if (f.target != GL_READ_FRAMEBUFFER) draw_ = first;
  if (f.target != GL_DRAW_FRAMEBUFFER) read_ = first;
  return {};
}

// clear: glClear of the bits `clear color` set, on the draw framebuffer; an emulated attachment is cleared with
// glClearTexImage.
TextureCommandResult TextureCommands::clear() {
  if (!draw_) {
    return {TextureCommandResult::Kind::Skip,
            "clears the window system framebuffer, which the runner's surfaceless contexts do not have (bind a "
            "texture with fb tex 2d first)"};
  }
  if (!draw_->emulated) {
    if (auto names = missing({"glClear"}); !names.empty()) return skip_missing(names);
    gl<PFNGLCLEARPROC>("glClear")(clear_bits_);
    return {};
  }
  if (clear_bits_ & GL_COLOR_BUFFER_BIT) {
    // glClearTexImage is GL 4.4 (OpenGL ES has it only as EXT_clear_texture).
    if (auto names = missing({"glClearTexImage"}); !names.empty() || es_) {
      return skip_missing("glBindFramebuffer and glClear, or glClearTexImage");
    }
    gl<PFNGLCLEARTEXIMAGEPROC>("glClearTexImage")(draw_->texture, 0, GL_RGBA, GL_FLOAT, clear_color_.data());
  }
  return {};
}

std::optional<std::vector<float>> TextureCommands::read_pixels(int32_t x, int32_t y, int32_t width, int32_t height,
                                                               std::string* how, std::string* why) {
  std::vector<float> pixels(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  if (!read_->emulated) {
    if (auto names = missing({"glReadPixels"}); names.empty()) {
      const auto read = gl<PFNGLREADPIXELSPROC>("glReadPixels");
      if (!es_) {
        *how = "glReadPixels";
        read(x, y, width, height, GL_RGBA, GL_FLOAT, pixels.data());
        return pixels;
      }
      // OpenGL ES 3.2 §16.1.2: GL_RGBA / GL_UNSIGNED_BYTE is the combination every normalized colour buffer
      // accepts (GL_FLOAT is not); piglit's read_pixels_float reads bytes on ES and divides by 255.
      *how = "glReadPixels(GL_UNSIGNED_BYTE)";
      std::vector<uint8_t> bytes(pixels.size());
      read(x, y, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
      for (size_t i = 0; i < bytes.size(); ++i) pixels[i] = static_cast<float>(bytes[i]) / 255.0f;
      return pixels;
    }
  }
  if (es_) {
    // OpenGL ES has neither glGetTextureImage nor glGetTexImage (whatever address the library hands out).
    *why =
        "needs glReadPixels and framebuffer objects, which this libbismuth-gl lacks (OpenGL ES reads textures "
        "back no other way)";
    return std::nullopt;
  }
  // The attached texture itself, level 0 (layer 0 of a layered attachment, which is what a read framebuffer
  // reads), cropped to the probe's rectangle.
  const Attachment& a = *read_;
  std::vector<float> image(static_cast<size_t>(a.width) * static_cast<size_t>(a.height) * 4 *
                           static_cast<size_t>(std::max(bindings_[a.unit].layers, 1)));
  if (const auto dsa = gl<PFNGLGETTEXTUREIMAGEPROC>("glGetTextureImage")) {
    *how = "glGetTextureImage";
    dsa(a.texture, 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(image.size() * sizeof(float)), image.data());
  } else if (missing({"glGetTexImage", "glActiveTexture", "glBindTexture"}).empty()) {
    *how = "glGetTexImage";
    gl<PFNGLACTIVETEXTUREPROC>("glActiveTexture")(GL_TEXTURE0 + a.unit);
    gl<PFNGLBINDTEXTUREPROC>("glBindTexture")(a.target, a.texture);
    gl<PFNGLGETTEXIMAGEPROC>("glGetTexImage")(a.target, 0, GL_RGBA, GL_FLOAT, image.data());
  } else {
    *why =
        "needs glReadPixels and framebuffer objects, or glGetTextureImage / glGetTexImage, which this "
        "libbismuth-gl lacks";
    return std::nullopt;
  }
  for (int32_t j = 0; j < height; ++j) {
    for (int32_t i = 0; i < width; ++i) {
      const size_t from = (static_cast<size_t>(y + j) * static_cast<size_t>(a.width) + static_cast<size_t>(x + i)) * 4;
      const size_t to = (static_cast<size_t>(j) * static_cast<size_t>(width) + static_cast<size_t>(i)) * 4;
      std::copy_n(image.begin() + static_cast<std::ptrdiff_t>(from), 4,
                  pixels.begin() + static_cast<std::ptrdiff_t>(to));
    }
  }
  return pixels;
}

TextureCommandResult TextureCommands::probe(const PixelProbeSpec& spec, const std::array<double, 4>& tolerance,
                                            const std::array<bool, 4>& relative) {
  if (!read_) {
    return {TextureCommandResult::Kind::Skip,
            "reads the window system framebuffer, which the runner's surfaceless contexts do not have (bind a "
            "texture with fb tex 2d first)"};
  }
  const auto rect = probe_region(spec, read_->width, read_->height);
  if (!rect) return failed(rect.error().message);
  std::string how, why;
  const auto pixels = read_pixels(rect->x, rect->y, rect->width, rect->height, &how, &why);
  if (!pixels) return {TextureCommandResult::Kind::Skip, why};
  if (auto mismatch = compare_probe(spec, *rect, pixels->data(), tolerance, relative)) {
    return {TextureCommandResult::Kind::ProbeFailed, *mismatch + " (read with " + how + ")"};
  }
  return {};
}

}  // namespace bismuth::tools::runner
