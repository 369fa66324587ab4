/*
 * GL extensions of Bismuth's GL shim (libbismuth-gl), for applications that use them through eglGetProcAddress /
 * bismuthGetProcAddress. Specifications: docs/GL_BISMUTH_num_waves.txt.
 *
 * Token values. Bismuth's extensions are not registered with Khronos, so their tokens come from a private range,
 * 0x7FB10000 .. 0x7FB100FF: far above every value the Khronos GL registry allocates (all below 0x20000), and
 * positive as a 32-bit signed integer, so code that keeps a GLenum in a GLint keeps it intact.
 */
#ifndef BISMUTH_GL_GLEXT_BISMUTH_H_
#define BISMUTH_GL_GLEXT_BISMUTH_H_ 1

#include <GL/glcorearb.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef GL_BISMUTH_num_waves
#define GL_BISMUTH_num_waves 1
/* glGetProgramiv pnames */
#define GL_COMPUTE_WAVE_SIZE_BISMUTH 0x7FB10000      /* the committed wave size; 0 for other programs */
#define GL_COMPUTE_NUM_WAVES_BISMUTH 0x7FB10001      /* layout(num_waves = X) / [numWaves(X)]; 0 for other programs */
/* glProgramParameteri / glGetProgramiv pname, applied at the next glLinkProgram */
#define GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH 0x7FB10002
/* its values (and GL_DONT_CARE, the default) */
#define GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH 0x7FB10003
#define GL_COMPUTE_WAVE_SIZE_LARGE_BISMUTH 0x7FB10004
/* glGetShaderiv pname: GL_TRUE when the shader's source is HLSL (glShaderSourceHLSLBISMUTH) */
#define GL_SHADER_SOURCE_HLSL_BISMUTH 0x7FB10005

/* glShaderSource for HLSL compute shaders (glslang's HLSL front end): the strings are one HLSL source whose entry
 * point is `entryPoint` (NULL: "main"); glCompileShader then compiles it as HLSL. Only GL_COMPUTE_SHADER objects. */
typedef void(APIENTRYP PFNGLSHADERSOURCEHLSLBISMUTHPROC)(GLuint shader, GLsizei count, const GLchar* const* string,
                                                         const GLint* length, const GLchar* entryPoint);
#ifdef GL_GLEXT_PROTOTYPES
/* One line: libbismuth-gl's entry-point generator reads prototypes line by line, as in glcorearb.h. */
/* clang-format off */
GLAPI void APIENTRY glShaderSourceHLSLBISMUTH (GLuint shader, GLsizei count, const GLchar *const*string, const GLint *length, const GLchar *entryPoint);
/* clang-format on */
#endif
#endif /* GL_BISMUTH_num_waves */

/* The program binary format of glGetProgramBinary / glProgramBinary (GL 4.6 / OpenGL ES 3.2 §7.5), the one value of
 * GL_PROGRAM_BINARY_FORMATS: a binary loads only on the device, driver and Bismuth version that made it
 * (docs/gl_shim.md, "Program binaries"). */
#define GL_PROGRAM_BINARY_FORMAT_BISMUTH 0x7FB10010

#ifdef __cplusplus
}
#endif

#endif /* BISMUTH_GL_GLEXT_BISMUTH_H_ */
