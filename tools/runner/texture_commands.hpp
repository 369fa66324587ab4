// Runs shader_runner's texture, texparameter, image texture, fb, clear and pixel probe commands through the GL
// API of libbismuth-gl, as piglit's shader_runner does (texture_bindings[32] of generated textures, one
// framebuffer object at a time, probes of the read framebuffer). Every texture and framebuffer entry point is
// fetched with bismuthGetProcAddress: a libbismuth-gl without one makes the test Skip naming it, never a link
// error. When the framebuffer entry points or glReadPixels are missing, `fb tex` remembers the attachment and
// probes read the attached texture with glGetTextureImage / glGetTexImage instead (the message says which).
#pragma once

#include <GL/glcorearb.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "shader_test.hpp"

namespace bismuth::tools::runner {

struct TextureCommandResult {
  enum class Kind { Done, Skip, Fail, ProbeFailed } kind = Kind::Done;
  std::string message;  // Skip / Fail / ProbeFailed: why, without the file:line (the caller adds it)
};

class TextureCommands {
 public:
  explicit TextureCommands(bool es_context) : es_(es_context) {}
  ~TextureCommands();
  TextureCommands(const TextureCommands&) = delete;
  TextureCommands& operator=(const TextureCommands&) = delete;

  // `tolerance` / `relative` are the `tolerance` command's values (0.01 absolute by default).
  TextureCommandResult run(const Command& c, const std::array<double, 4>& tolerance,
                           const std::array<bool, 4>& relative);

 private:
  struct Binding {  // shader_runner's texture_binding
    GLuint name = 0;
    GLenum target = 0;
    int32_t width = 0, height = 0, layers = 0;
  };
  struct Attachment {  // what `fb tex` attached as colour attachment 0 of the draw or read framebuffer
    GLuint texture = 0;
    GLenum target = 0;
    uint32_t unit = 0;
    int32_t width = 0, height = 0;
    bool emulated = false;  // no framebuffer object: the texture is read and cleared directly
  };

  TextureCommandResult create_texture(const TextureSpec& spec);
  TextureCommandResult set_parameter(const TexParameterSpec& spec);
  TextureCommandResult bind_image(const Command& c);
  TextureCommandResult bind_framebuffer(const FramebufferSpec& spec);
  TextureCommandResult clear();
  TextureCommandResult probe(const PixelProbeSpec& spec, const std::array<double, 4>& tolerance,
                             const std::array<bool, 4>& relative);
  // Reads `width` x `height` RGBA floats of the read framebuffer at (x, y); nullopt with *why set otherwise.
  std::optional<std::vector<float>> read_pixels(int32_t x, int32_t y, int32_t width, int32_t height, std::string* how,
                                                std::string* why);

  bool es_;
  std::array<Binding, 32> bindings_{};
  std::vector<GLuint> framebuffers_;
  std::optional<Attachment> draw_, read_;
  std::array<float, 4> clear_color_{0, 0, 0, 0};
  GLbitfield clear_bits_ = 0;
};

}  // namespace bismuth::tools::runner
