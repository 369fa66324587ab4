/* es32_cache.c: the program-binary cache of program_binary_cache.h in an OpenGL ES 3.2 context (ES 3.2 §7.5). */
#include "program_binary_cache.h"

int main(void) {
  conformance_make_context(EGL_OPENGL_ES_API, 3, 2);
  return cache_run("#version 320 es\n");
}
