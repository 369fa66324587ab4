// glGetProgramBinary and glProgramBinary (GL 4.6 §7.5, OpenGL ES 3.2 §7.5): a linked compute program's executable
// as GL_PROGRAM_BINARY_FORMAT_BISMUTH bytes, and back. A load that fails (another device, driver or Bismuth
// version, a corrupted or truncated binary) leaves LINK_STATUS FALSE with the reason in the info log, never an error
// (§7.5: "LoadProgramBinary ... failed ... LINK_STATUS FALSE").
//
// Programs of graphics stages (never run: graphics_program.cpp) have no binary: PROGRAM_BINARY_LENGTH is 0 and
// glGetProgramBinary returns 0 bytes, which glProgramBinary refuses like any other failed load, so the application
// falls back to compiling its sources, as it must for any binary that fails. Assembly programs
// (glProgramStringARB) are not program objects and have no binaries in GL.
#include "program_binary.hpp"

#include <cstring>

#include "gl_objects.hpp"
#include "program_binary_format.hpp"
#include "program_link.hpp"

namespace bismuth::gl {

namespace {

// The binary of a linked compute program; empty for a program without one.
std::vector<std::byte> program_binary(Context* ctx, const ProgramObject& program) {
  const Executable* exe = program.link_status ? program.executable.get() : nullptr;
  if (exe == nullptr || exe->graphics || !exe->shader) return {};
  return serialize_program_binary(*exe, program.linked_separable, binary_fingerprint(*ctx));
}

}  // namespace

GLint program_binary_length(Context* ctx, const ProgramObject& program) {
  return static_cast<GLint>(program_binary(ctx, program).size());
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGetProgramBinary(GLuint program, GLsizei bufSize, GLsizei* length, GLenum* binaryFormat,
                                       void* binary) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glGetProgramBinary";
  auto p = program_object(ctx, program, func);
  if (!p) return;
  // GL 4.6 §7.5: "An INVALID_OPERATION error is generated if LINK_STATUS of program is FALSE."
  if (!p->link_status) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": program " + std::to_string(program) + " is not linked");
    return;
  }
  const std::vector<std::byte> bytes = program_binary(ctx, *p);
  // "An INVALID_OPERATION error is generated if bufSize is less than the value of PROGRAM_BINARY_LENGTH for
  // program."
  if (bufSize < 0 || static_cast<size_t>(bufSize) < bytes.size()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": bufSize " + std::to_string(bufSize) +
                                             " is less than the binary's length " + std::to_string(bytes.size()));
    return;
  }
  if (bytes.empty()) {
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, 0, GL_DEBUG_SEVERITY_LOW,
               std::string(func) + ": program " + std::to_string(program) +
                   " has graphics stages, which Bismuth makes no program binaries of: 0 bytes returned");
  }
  if (!bytes.empty() && binary != nullptr) std::memcpy(binary, bytes.data(), bytes.size());
  if (length != nullptr) *length = static_cast<GLsizei>(bytes.size());
  if (binaryFormat != nullptr) *binaryFormat = GL_PROGRAM_BINARY_FORMAT_BISMUTH;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glProgramBinary(GLuint program, GLenum binaryFormat, const void* binary, GLsizei length) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glProgramBinary";
  auto p = program_object(ctx, program, func);
  if (!p) return;
  // GL 4.6 §7.5: "An INVALID_ENUM error is generated if the format indicated by binaryFormat is not one of those
  // in PROGRAM_BINARY_FORMATS" — Bismuth's one format.
  if (binaryFormat != GL_PROGRAM_BINARY_FORMAT_BISMUTH) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": binaryFormat " + hex(binaryFormat) +
                                        " is not GL_PROGRAM_BINARY_FORMAT_BISMUTH");
    return;
  }
  // "If ProgramBinary failed, any information about a previous link or load of that program object is lost":
  // LINK_STATUS FALSE and the reason in the info log. As for a failed relink (§7.3), an executable in use stays in
  // use until the program is replaced.
  auto failed = [&](const std::string& why) {
    p->link_status = false;
    p->validate_status = false;
    p->info_log = "error: the program binary fails to link: " + why + "\n";
  };
  if (length < 0 || (binary == nullptr && length > 0)) {
    failed(length < 0 ? "its length is negative" : "binary is NULL");
    return;
  }
  if (length == 0) {
    failed("it is empty (programs of graphics stages have no binaries)");
    return;
  }
  const std::span<const std::byte> bytes(static_cast<const std::byte*>(binary), static_cast<size_t>(length));
  auto loaded = parse_program_binary(bytes, binary_fingerprint(*ctx), ctx->caps, ctx->device_state.device->info());
  if (!loaded) {
    failed(loaded.error().message);
    return;
  }
  if (bismuth::Status made = instantiate(link_target(ctx), p->name, *loaded->exe); !made) {
    failed(made.error().message);
    return;
  }
  p->link_status = true;
  p->validate_status = false;
  p->linked_separable = loaded->linked_separable;
  p->separable = loaded->linked_separable;
  p->info_log = loaded->exe->program.info_log;
  p->executable = std::move(loaded->exe);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
