/* NV_compute_program5 assembly reading a texture unit and writing an image unit (NV_gpu_program4's TXF,
 * EXT_shader_image_load_store's assembly STOREIM), bound through the same GL texture and image units as GLSL
 * (NV_gpu_program5: "texture[n]" is texture image unit n; "image[n]" is image unit n). The entry points come from
 * eglGetProcAddress, as assembly-program users get them. */
#include "conformance.h"

typedef void(APIENTRYP GenProgramsProc)(GLsizei, GLuint*);
typedef void(APIENTRYP BindProgramProc)(GLenum, GLuint);
typedef void(APIENTRYP ProgramStringProc)(GLenum, GLenum, GLsizei, const void*);
typedef void(APIENTRYP DeleteProgramsProc)(GLsizei, const GLuint*);
#define COMPUTE_PROGRAM_NV 0x90FB
#define PROGRAM_FORMAT_ASCII_ARB 0x8875

static const char kProgram[] =
    "!!NVcp5.0\n"
    "GROUP_SIZE 4 4;\n"
    "TEMP R0, R1;\n"
    "MOV.S R1, {0, 0, 0, 0};\n"
    "MOV.S R1.xy, invocation.globalid;\n"
    "TXF.F R0, R1, texture[2], 2D;\n"
    "ADD.F R0, R0, {1, 2, 3, 4};\n"
    "STOREIM.F32X4.RGBA32F image[1], R0, R1, 2D;\n"
    "END\n";

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  if (!conformance_has_extension("GL_NV_compute_program5")) conformance_skip("no GL_NV_compute_program5");
  GenProgramsProc gen = (GenProgramsProc)eglGetProcAddress("glGenProgramsARB");
  BindProgramProc bind = (BindProgramProc)eglGetProcAddress("glBindProgramARB");
  ProgramStringProc load = (ProgramStringProc)eglGetProcAddress("glProgramStringARB");
  DeleteProgramsProc del = (DeleteProgramsProc)eglGetProcAddress("glDeleteProgramsARB");
  if (!gen || !bind || !load || !del) conformance_skip("the assembly program entry points are missing");

  GLuint textures[2];
  glGenTextures(2, textures);
  float source[4 * 4 * 4];
  for (int i = 0; i < 64; ++i) source[i] = (float)(i * 10);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, textures[0]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 4, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_FLOAT, source);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, textures[1]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 4, 4);
  glBindImageTexture(1, textures[1], 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);

  GLuint program = 0;
  gen(1, &program);
  bind(COMPUTE_PROGRAM_NV, program);
  load(COMPUTE_PROGRAM_NV, PROGRAM_FORMAT_ASCII_ARB, (GLsizei)(sizeof kProgram - 1), kProgram);
  CHECK_GL_ERROR(GL_NO_ERROR, "glProgramStringARB of a program with texture[2] and image[1]");
  glEnable(COMPUTE_PROGRAM_NV);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  glDisable(COMPUTE_PROGRAM_NV);
  float result[4 * 4 * 4];
  memset(result, 0, sizeof result);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, result);
  CHECK_GL_ERROR(GL_NO_ERROR, "dispatch and read back");
  int wrong = 0;
  for (int i = 0; i < 64; ++i) wrong += result[i] != source[i] + (float)(1 + i % 4);
  CHECK(wrong == 0, "each texel is the fetched texel of unit 2 plus (1,2,3,4) (%d wrong)", wrong);
  del(1, &program);
  glDeleteTextures(2, textures);
  return conformance_result();
}
