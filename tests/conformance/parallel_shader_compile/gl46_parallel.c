/* gl46_parallel.c: KHR_parallel_shader_compile / ARB_parallel_shader_compile in a GL 4.6 core context
 * (parallel_compile.h). */
#include "parallel_compile.h"

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  return pc_run("#version 460\n", 1);
}
