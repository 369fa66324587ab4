// Name lookups and the string copy-out shared by the entry-point files.
#include <algorithm>
#include <cstring>

#include "gl_objects.hpp"
#include "parallel_compile.hpp"

namespace bismuth::gl {

std::shared_ptr<ShaderObject> shader_object_unsettled(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->shaders.find(name);
  if (it != ctx->share->shaders.end()) return it->second;
  if (ctx->share->programs.count(name)) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(name) + " is a program, not a shader");
  } else {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(name) + " is not a shader name");
  }
  return nullptr;
}

std::shared_ptr<ProgramObject> program_object_unsettled(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->programs.find(name);
  if (it != ctx->share->programs.end()) return it->second;
  if (ctx->share->shaders.count(name)) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(name) + " is a shader, not a program");
  } else {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(name) + " is not a program name");
  }
  return nullptr;
}

std::shared_ptr<ShaderObject> shader_object(Context* ctx, GLuint name, const char* func) {
  auto s = shader_object_unsettled(ctx, name, func);
  if (s) settle(ctx, *s);
  return s;
}

std::shared_ptr<ProgramObject> program_object(Context* ctx, GLuint name, const char* func) {
  auto p = program_object_unsettled(ctx, name, func);
  if (p) settle(ctx, *p);
  return p;
}

void copy_string(const std::string& s, GLsizei buf_size, GLsizei* length, GLchar* out) {
  GLsizei n = 0;
  if (buf_size > 0 && out != nullptr) {
    n = std::min<GLsizei>(buf_size - 1, static_cast<GLsizei>(s.size()));
    std::memcpy(out, s.data(), static_cast<size_t>(n));
    out[n] = '\0';
  }
  if (length) *length = n;
}

std::string join_shader_strings(GLsizei count, const GLchar* const* string, const GLint* length) {
  std::string source;
  for (GLsizei i = 0; i < count; ++i) {
    if (string == nullptr || string[i] == nullptr) continue;
    if (length != nullptr && length[i] >= 0) {
      source.append(string[i], static_cast<size_t>(length[i]));
    } else {
      source.append(string[i]);
    }
  }
  return source;
}

}  // namespace bismuth::gl
