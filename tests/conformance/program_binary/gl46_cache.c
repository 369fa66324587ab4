/* gl46_cache.c: the program-binary cache of program_binary_cache.h in a GL 4.6 core context (GL 4.6 §7.5). */
#include "program_binary_cache.h"

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  return cache_run("#version 460\n");
}
