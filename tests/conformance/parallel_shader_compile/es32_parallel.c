/* es32_parallel.c: KHR_parallel_shader_compile in an OpenGL ES 3.2 context (parallel_compile.h). */
#include "parallel_compile.h"

int main(void) {
  conformance_make_context(EGL_OPENGL_ES_API, 3, 2);
  return pc_run("#version 310 es\n", 0);
}
