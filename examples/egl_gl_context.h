/* egl_gl_context: the EGL + GL setup of the measuring examples (program_loop, dispatch_stream: issue 17;
 * image_filter: issue 18).
 *
 * They run unchanged on three GL implementations in one run on the GPU machine: NVIDIA's GL (EGL device platform),
 * Mesa's Zink (surfaceless platform) and Bismuth (either). So every GL function is fetched with eglGetProcAddress,
 * as portable EGL programs do (libOpenGL exports no extension functions such as glDispatchComputeGroupSizeARB), and
 * the EGL platform is chosen at run time: `auto` takes the first EGL device that is not Mesa's software device, then
 * the surfaceless platform, then the default display. */
#ifndef BISMUTH_EXAMPLES_EGL_GL_CONTEXT_H
#define BISMUTH_EXAMPLES_EGL_GL_CONTEXT_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#define EGL_GL_FUNCTIONS(X)                                              \
  X(PFNGLGETSTRINGPROC, glGetString)                                     \
  X(PFNGLGETSTRINGIPROC, glGetStringi)                                   \
  X(PFNGLGETINTEGERVPROC, glGetIntegerv)                                 \
  X(PFNGLGETINTEGERI_VPROC, glGetIntegeri_v)                             \
  X(PFNGLGETERRORPROC, glGetError)                                       \
  X(PFNGLCREATESHADERPROC, glCreateShader)                               \
  X(PFNGLSHADERSOURCEPROC, glShaderSource)                               \
  X(PFNGLCOMPILESHADERPROC, glCompileShader)                             \
  X(PFNGLGETSHADERIVPROC, glGetShaderiv)                                 \
  X(PFNGLGETSHADERINFOLOGPROC, glGetShaderInfoLog)                       \
  X(PFNGLDELETESHADERPROC, glDeleteShader)                               \
  X(PFNGLCREATEPROGRAMPROC, glCreateProgram)                             \
  X(PFNGLATTACHSHADERPROC, glAttachShader)                               \
  X(PFNGLLINKPROGRAMPROC, glLinkProgram)                                 \
  X(PFNGLGETPROGRAMIVPROC, glGetProgramiv)                               \
  X(PFNGLGETPROGRAMINFOLOGPROC, glGetProgramInfoLog)                     \
  X(PFNGLDELETEPROGRAMPROC, glDeleteProgram)                             \
  X(PFNGLUSEPROGRAMPROC, glUseProgram)                                   \
  X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation)                   \
  X(PFNGLUNIFORM1UIPROC, glUniform1ui)                                   \
  X(PFNGLGENBUFFERSPROC, glGenBuffers)                                   \
  X(PFNGLDELETEBUFFERSPROC, glDeleteBuffers)                             \
  X(PFNGLBINDBUFFERPROC, glBindBuffer)                                   \
  X(PFNGLBUFFERDATAPROC, glBufferData)                                   \
  X(PFNGLBUFFERSUBDATAPROC, glBufferSubData)                             \
  X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                           \
  X(PFNGLCLEARBUFFERDATAPROC, glClearBufferData)                         \
  X(PFNGLMAPBUFFERRANGEPROC, glMapBufferRange)                           \
  X(PFNGLUNMAPBUFFERPROC, glUnmapBuffer)                                 \
  X(PFNGLDISPATCHCOMPUTEPROC, glDispatchCompute)                         \
  X(PFNGLDISPATCHCOMPUTEGROUPSIZEARBPROC, glDispatchComputeGroupSizeARB) \
  X(PFNGLMEMORYBARRIERPROC, glMemoryBarrier)                             \
  X(PFNGLFINISHPROC, glFinish)                                           \
  X(PFNGLGENQUERIESPROC, glGenQueries)                                   \
  X(PFNGLDELETEQUERIESPROC, glDeleteQueries)                             \
  X(PFNGLBEGINQUERYPROC, glBeginQuery)                                   \
  X(PFNGLENDQUERYPROC, glEndQuery)                                       \
  X(PFNGLGETQUERYOBJECTUI64VPROC, glGetQueryObjectui64v) \
  X(PFNGLUNIFORM1IPROC, glUniform1i)                                     \
  X(PFNGLUNIFORM2IPROC, glUniform2i)                                     \
  X(PFNGLGENTEXTURESPROC, glGenTextures)                                 \
  X(PFNGLDELETETEXTURESPROC, glDeleteTextures)                           \
  X(PFNGLBINDTEXTUREPROC, glBindTexture)                                 \
  X(PFNGLACTIVETEXTUREPROC, glActiveTexture)                             \
  X(PFNGLTEXSTORAGE2DPROC, glTexStorage2D)                               \
  X(PFNGLTEXSUBIMAGE2DPROC, glTexSubImage2D)                             \
  X(PFNGLGETTEXIMAGEPROC, glGetTexImage)                                 \
  X(PFNGLTEXPARAMETERIPROC, glTexParameteri)                             \
  X(PFNGLPIXELSTOREIPROC, glPixelStorei)                                 \
  X(PFNGLBINDIMAGETEXTUREPROC, glBindImageTexture)

#define EGL_GL_DECLARE(type, name) extern type p_##name;
EGL_GL_FUNCTIONS(EGL_GL_DECLARE)
#undef EGL_GL_DECLARE

typedef enum { EGL_GL_PLATFORM_AUTO, EGL_GL_PLATFORM_DEVICE, EGL_GL_PLATFORM_SURFACELESS } EglGlPlatform;

/* "auto", "device" or "surfaceless"; returns 0 for anything else. */
int egl_gl_parse_platform(const char* text, EglGlPlatform* platform);

/* Opens a display on `platform`, makes a GL 4.6 core context (else 4.3 core) current without surfaces and loads
 * the functions above. Returns 0, or 2 with a message on stderr prefixed by `program` when there is no usable EGL
 * or GL (the examples' "cannot run here" exit code). Functions the implementation lacks stay NULL (the callers
 * check what they need: glDispatchComputeGroupSizeARB only exists with ARB_compute_variable_group_size). */
int egl_gl_open(const char* program, EglGlPlatform platform);
void egl_gl_close(void);

int egl_gl_has_extension(const char* name);
/* The context's major * 10 + minor version (46 for 4.6). */
int egl_gl_version(void);
/* "GL_RENDERER | GL_VERSION | EGL platform" with double quotes replaced, for a key="..." field. */
const char* egl_gl_implementation(void);

/* A compiled compute shader of `source`, and a program linked from one shader; on a failure the log goes to stderr
 * (prefixed by `who`) and the process exits with status 1. */
GLuint egl_gl_compile_compute(const char* who, const char* source);
GLuint egl_gl_link(const char* who, GLuint shader);

/* CLOCK_MONOTONIC in seconds. */
double egl_gl_now(void);

#endif
