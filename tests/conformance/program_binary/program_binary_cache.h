/* program_binary_cache.h: a program-binary cache as applications write one (GL 4.6 / OpenGL ES 3.2 §7.5 "Program
 * Binaries"): link from source once, save glGetProgramBinary's bytes and format, reload them with glProgramBinary
 * next time, and fall back to the source whenever the load leaves LINK_STATUS FALSE. Shared by gl46_cache.c and
 * es32_cache.c; plain C against the GL headers, nothing implementation-specific (the format is whatever
 * PROGRAM_BINARY_FORMATS lists). */
#ifndef PROGRAM_BINARY_CACHE_H
#define PROGRAM_BINARY_CACHE_H

#include "conformance.h"

#define CACHE_INVOCATIONS 64

static const char* cache_source_body =
    "layout(local_size_x = 64) in;\n"
    "uniform uint scale;\n"
    "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
    "void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * scale + 1u; }\n";

static GLuint cache_compile(const char* version_line) {
  char source[1024];
  snprintf(source, sizeof source, "%s%s", version_line, cache_source_body);
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source;
  glShaderSource(shader, 1, &text, NULL);
  glCompileShader(shader);
  GLuint program = glCreateProgram();
  /* §7.5: "PROGRAM_BINARY_RETRIEVABLE_HINT ... indicates to the implementation the application intends to use
   * GetProgramBinary", set before LinkProgram. */
  glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  return program;
}

static GLint cache_program_int(GLuint program, GLenum pname) {
  GLint v = -1;
  glGetProgramiv(program, pname, &v);
  return v;
}

/* Dispatches `program` with scale 3; 1 when every word is what the shader computes. */
static int cache_dispatch_ok(GLuint program) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, CACHE_INVOCATIONS * 4, NULL, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "scale"), 3);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const GLuint* words =
      (const GLuint*)glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, CACHE_INVOCATIONS * 4, GL_MAP_READ_BIT);
  int ok = words != NULL;
  for (GLuint i = 0; ok && i < CACHE_INVOCATIONS; ++i) ok = words[i] == i * 3 + 1;
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
  return ok;
}

/* The whole cache cycle in the current context. */
static int cache_run(const char* version_line) {
  /* §7.5: "the number of available program binary formats" (NUM_PROGRAM_BINARY_FORMATS) may be zero; then an
   * application has no cache. */
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  if (formats == 0) conformance_skip("NUM_PROGRAM_BINARY_FORMATS is 0");
  GLint* format_list = (GLint*)calloc((size_t)formats, sizeof(GLint));
  glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, format_list);
  CHECK_GL_ERROR(GL_NO_ERROR, "format queries");

  GLuint program = cache_compile(version_line);
  CHECK(cache_program_int(program, GL_LINK_STATUS) == GL_TRUE, "the source links");
  CHECK(cache_program_int(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT) == GL_TRUE, "the hint reads back");
  CHECK(cache_dispatch_ok(program), "the linked program computes values[i] = i * 3 + 1");

  /* Save: PROGRAM_BINARY_LENGTH bytes, and the format GetProgramBinary returns, which is one of the list. */
  GLint length = cache_program_int(program, GL_PROGRAM_BINARY_LENGTH);
  CHECK(length > 0, "PROGRAM_BINARY_LENGTH of a linked program (%d)", length);
  if (length <= 0) return conformance_result();
  unsigned char* saved = (unsigned char*)malloc((size_t)length);
  GLsizei written = 0;
  GLenum format = 0;
  /* "An INVALID_OPERATION error is generated if bufSize is less than the value of PROGRAM_BINARY_LENGTH". */
  glGetProgramBinary(program, length - 1, &written, &format, saved);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "glGetProgramBinary with bufSize one short");
  glGetProgramBinary(program, length, &written, &format, saved);
  CHECK_GL_ERROR(GL_NO_ERROR, "glGetProgramBinary");
  CHECK(written == length, "bytes written (%d) = PROGRAM_BINARY_LENGTH (%d)", written, length);
  int listed = 0;
  for (GLint i = 0; i < formats; ++i) listed |= (GLenum)format_list[i] == format;
  CHECK(listed, "the binary's format 0x%x is one of PROGRAM_BINARY_FORMATS", (unsigned)format);

  /* Through a file, as a cache keeps it. */
  FILE* file = tmpfile();
  CHECK(file != NULL, "tmpfile");
  if (file == NULL) return conformance_result();
  fwrite(saved, 1, (size_t)length, file);
  rewind(file);
  unsigned char* loaded_bytes = (unsigned char*)malloc((size_t)length);
  CHECK(fread(loaded_bytes, 1, (size_t)length, file) == (size_t)length, "reading the cache file back");
  fclose(file);

  /* Load: "ProgramBinary ... loads a program object with a program binary previously returned from
   * GetProgramBinary"; the program behaves as linked. */
  GLuint cached = glCreateProgram();
  glProgramBinary(cached, format, loaded_bytes, length);
  CHECK_GL_ERROR(GL_NO_ERROR, "glProgramBinary");
  CHECK(cache_program_int(cached, GL_LINK_STATUS) == GL_TRUE, "the saved binary loads");
  CHECK(cache_dispatch_ok(cached), "the loaded program computes values[i] = i * 3 + 1");

  /* A binary modified since it was returned fails to load — "LINK_STATUS ... FALSE", no GL error — and the
   * application recompiles. */
  loaded_bytes[length / 2] ^= 0x40;
  GLuint stale = glCreateProgram();
  glProgramBinary(stale, format, loaded_bytes, length);
  CHECK_GL_ERROR(GL_NO_ERROR, "glProgramBinary of a modified binary");
  CHECK(cache_program_int(stale, GL_LINK_STATUS) == GL_FALSE, "a modified binary fails to load");
  CHECK(cache_program_int(stale, GL_INFO_LOG_LENGTH) > 0, "the failed load has an info log");
  glDeleteProgram(stale);
  GLuint fallback = cache_compile(version_line);
  CHECK(cache_dispatch_ok(fallback), "the recompiled fallback computes values[i] = i * 3 + 1");

  /* "An INVALID_ENUM error is generated if the format indicated by binaryFormat is not one of those in
   * PROGRAM_BINARY_FORMATS". */
  GLenum unknown = 1;
  for (int again = 1; again;) {
    again = 0;
    for (GLint i = 0; i < formats; ++i) {
      if ((GLenum)format_list[i] == unknown) ++unknown, again = 1;
    }
  }
  glProgramBinary(fallback, unknown, saved, length);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "glProgramBinary with binaryFormat 0x%x", (unsigned)unknown);
  /* "An INVALID_OPERATION error is generated if LINK_STATUS of program is FALSE" (GetProgramBinary). */
  GLuint unlinked = glCreateProgram();
  glGetProgramBinary(unlinked, length, &written, &format, saved);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "glGetProgramBinary of a program never linked");

  glDeleteProgram(unlinked);
  glDeleteProgram(fallback);
  glDeleteProgram(cached);
  glDeleteProgram(program);
  free(loaded_bytes);
  free(saved);
  free(format_list);
  return conformance_result();
}

#endif
