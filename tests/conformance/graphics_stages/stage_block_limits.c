/* Per-stage block limits at link (GL 4.6 §7.6.2, §7.8, Tables 23.57-23.62): a program fails to link when one of
 * its stages uses more active uniform blocks than MAX_<STAGE>_UNIFORM_BLOCKS, or more active shader storage blocks
 * than MAX_<STAGE>_SHADER_STORAGE_BLOCKS ("If the number of active ... blocks referenced by the shaders in a
 * program exceeds the value of MAX_<stage>_... the program will fail to link"; the failed link is no GL error and
 * leaves an info log). The source is generated from the limits the context reports, so the test holds for any
 * values; a stage exactly at its limit links. */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* A vertex shader using `count` uniform blocks (or storage blocks), each read. */
static char* vertex_source(GLint count, int storage) {
  size_t size = 256 + (size_t)count * 96;
  char* s = malloc(size);
  size_t n = (size_t)snprintf(s, size, "#version 430\n");
  for (GLint i = 0; i < count; ++i) {
    n += (size_t)snprintf(
        s + n, size - n,
        storage ? "layout(std430) buffer S%d { float s%d; };\n" : "layout(std140) uniform U%d { float u%d; };\n", i, i);
  }
  n += (size_t)snprintf(s + n, size - n, "void main() {\n  float sum = 0.0;\n");
  for (GLint i = 0; i < count; ++i)
    n += (size_t)snprintf(s + n, size - n, storage ? "  sum += s%d;\n" : "  sum += u%d;\n", i);
  snprintf(s + n, size - n, "  gl_Position = vec4(sum);\n}\n");
  return s;
}

static GLint links(GLint count, int storage) {
  char* source = vertex_source(count, storage);
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  const char* text = source;
  glShaderSource(shader, 1, &text, NULL);
  glCompileShader(shader);
  free(source);
  GLint compiled = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  CHECK(compiled, "a vertex shader with %d %s blocks compiles (the limit applies at link)", count,
        storage ? "storage" : "uniform");
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = 0, log = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &log);
  if (!linked) CHECK(log > 1, "the failed link has an info log");
  return linked;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  GLint uniform_blocks = 0, storage_blocks = 0;
  glGetIntegerv(GL_MAX_VERTEX_UNIFORM_BLOCKS, &uniform_blocks);
  glGetIntegerv(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, &storage_blocks);
  CHECK_GL_ERROR(GL_NO_ERROR, "MAX_VERTEX_UNIFORM_BLOCKS and MAX_VERTEX_SHADER_STORAGE_BLOCKS are state");
  CHECK(uniform_blocks >= 14, "MAX_VERTEX_UNIFORM_BLOCKS >= 14 (GL 4.6's minimum), got %d", uniform_blocks);
  if (uniform_blocks < 200) {
    CHECK(links(uniform_blocks, 0), "a vertex shader at MAX_VERTEX_UNIFORM_BLOCKS (%d) links", uniform_blocks);
    CHECK(!links(uniform_blocks + 1, 0), "one uniform block more than MAX_VERTEX_UNIFORM_BLOCKS fails to link");
  }
  if (storage_blocks > 0 && storage_blocks < 200) {
    CHECK(links(storage_blocks, 1), "a vertex shader at MAX_VERTEX_SHADER_STORAGE_BLOCKS (%d) links", storage_blocks);
    CHECK(!links(storage_blocks + 1, 1), "one storage block more than MAX_VERTEX_SHADER_STORAGE_BLOCKS fails to link");
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "failed links are no GL errors");
  return conformance_result();
}
