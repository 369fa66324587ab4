// What the tests of NV assembly compute programs through the GL API (asm_*_test.cpp: ARB_vertex_program program
// objects, NV_gpu_program4 parameters, NV_compute_program5) share: loading a program and reading its errors, and
// one-invocation store programs with poisoned output buffers.
#pragma once

#include "translator/gl/gl_fixture.hpp"
#include <GL/glext.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace bismuth::gltest::asm_program {

using bismuth::gltest::has_extension;

// Loads `source` into the program bound to GL_COMPUTE_PROGRAM_NV; returns the GL error.
inline GLenum load(const std::string& source) {
  glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ASCII_ARB, static_cast<GLsizei>(source.size()),
                     source.data());
  return glGetError();
}

inline std::string error_string() {
  const GLubyte* s = glGetString(GL_PROGRAM_ERROR_STRING_ARB);
  return s ? reinterpret_cast<const char*>(s) : "<null>";
}

inline GLint error_position() {
  GLint p = -2;
  glGetIntegerv(GL_PROGRAM_ERROR_POSITION_ARB, &p);
  return p;
}

inline GLuint new_program() {
  GLuint name = 0;
  glGenProgramsARB(1, &name);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, name);
  return name;
}

// Writes `value` (a uvec4 of program.local[0]) to out[0..3]: one invocation.
inline std::string store_program(const std::string& value, const std::string& extra = "") {
  return "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\n"
         "TEMP R0;\n" + extra + "MOV.U R0, " + value + ";\nSTB.U32X4 R0, out[0];\nEND\n";
}

inline constexpr uint32_t kPoison = 0xDEADBEEFu;

inline std::vector<uint32_t> dispatch_and_read(GLuint buffer, size_t words) {
  glDispatchCompute(1, 1, 1);
  return read_words(buffer, words);
}

inline GLuint poisoned_buffer(size_t words, GLuint binding = 0) {
  std::vector<uint32_t> init(words, kPoison);
  const GLuint b = make_buffer(static_cast<GLsizeiptr>(words * 4), init.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, b);
  return b;
}

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace bismuth::gltest::asm_program
