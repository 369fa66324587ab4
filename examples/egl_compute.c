/* egl_compute: a headless GL compute program written against EGL/egl.h and GL/glcorearb.h only.
 *
 * It runs a local_size_variable shader with glDispatchComputeGroupSizeARB (ARB_compute_variable_group_size), a
 * ballot (ARB_shader_ballot), checks a GL error rule and times the dispatch with a GL_TIME_ELAPSED query. Built
 * twice: against libbismuth-gl and against the system libEGL + libOpenGL; on the same GPU both print the same
 * results on stdout (device names and timings go to stderr).
 *
 * Every GL function is fetched with eglGetProcAddress, as portable EGL programs do (extension functions such as
 * glDispatchComputeGroupSizeARB are not exported by libOpenGL). Exit code: 0 all checks passed, 1 a check failed,
 * 2 no usable EGL/GL. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS 8
#define GROUP_SIZE 96

static const char* kShader =
    "#version 450\n"
    "#extension GL_ARB_compute_variable_group_size : require\n"
    "#extension GL_ARB_shader_ballot : enable\n"
    "#extension GL_ARB_gpu_shader_int64 : enable\n"
    "layout(local_size_variable) in;\n"
    "layout(std430, binding = 0) buffer Out { uint ballot_ok; uint values[]; };\n"
    "uniform uint scale;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  values[i] = i * scale + gl_LocalGroupSizeARB.x;\n"
    "#ifdef GL_ARB_shader_ballot\n"
    "  /* Every active lane votes: the ballot counts the subgroup. */\n"
    "  uvec2 bits = unpackUint2x32(ballotARB(true));\n"
    "  if (uint(bitCount(bits.x) + bitCount(bits.y)) != gl_SubGroupSizeARB && gl_LocalGroupSizeARB.x % gl_SubGroupSizeARB == 0u)\n"
    "    atomicAdd(ballot_ok, 1u);\n"
    "#endif\n"
    "}\n";

#define GL_FUNCTIONS(X)                                                               \
  X(PFNGLGETSTRINGPROC, glGetString)                                                  \
  X(PFNGLGETSTRINGIPROC, glGetStringi)                                                \
  X(PFNGLGETINTEGERVPROC, glGetIntegerv)                                              \
  X(PFNGLGETERRORPROC, glGetError)                                                    \
  X(PFNGLCREATESHADERPROC, glCreateShader)                                            \
  X(PFNGLSHADERSOURCEPROC, glShaderSource)                                            \
  X(PFNGLCOMPILESHADERPROC, glCompileShader)                                          \
  X(PFNGLGETSHADERIVPROC, glGetShaderiv)                                              \
  X(PFNGLGETSHADERINFOLOGPROC, glGetShaderInfoLog)                                    \
  X(PFNGLCREATEPROGRAMPROC, glCreateProgram)                                          \
  X(PFNGLATTACHSHADERPROC, glAttachShader)                                            \
  X(PFNGLLINKPROGRAMPROC, glLinkProgram)                                              \
  X(PFNGLGETPROGRAMIVPROC, glGetProgramiv)                                            \
  X(PFNGLGETPROGRAMINFOLOGPROC, glGetProgramInfoLog)                                  \
  X(PFNGLUSEPROGRAMPROC, glUseProgram)                                                \
  X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation)                                \
  X(PFNGLUNIFORM1UIPROC, glUniform1ui)                                                \
  X(PFNGLGENBUFFERSPROC, glGenBuffers)                                                \
  X(PFNGLBINDBUFFERPROC, glBindBuffer)                                                \
  X(PFNGLBUFFERDATAPROC, glBufferData)                                                \
  X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                        \
  X(PFNGLMAPBUFFERRANGEPROC, glMapBufferRange)                                        \
  X(PFNGLUNMAPBUFFERPROC, glUnmapBuffer)                                              \
  X(PFNGLDISPATCHCOMPUTEPROC, glDispatchCompute)                                      \
  X(PFNGLDISPATCHCOMPUTEGROUPSIZEARBPROC, glDispatchComputeGroupSizeARB)              \
  X(PFNGLMEMORYBARRIERPROC, glMemoryBarrier)                                          \
  X(PFNGLGENQUERIESPROC, glGenQueries)                                                \
  X(PFNGLBEGINQUERYPROC, glBeginQuery)                                                \
  X(PFNGLENDQUERYPROC, glEndQuery)                                                    \
  X(PFNGLGETQUERYOBJECTUI64VPROC, glGetQueryObjectui64v)

#define DECLARE(type, name) static type p_##name;
GL_FUNCTIONS(DECLARE)

static int load_gl(void) {
  int ok = 1;
#define LOAD(type, name)                                            \
  p_##name = (type)eglGetProcAddress(#name);                        \
  if (p_##name == NULL) {                                           \
    fprintf(stderr, "egl_compute: eglGetProcAddress(%s) is NULL\n", #name); \
    ok = 0;                                                         \
  }
  GL_FUNCTIONS(LOAD)
  return ok;
}

static int has_extension(const char* name) {
  GLint count = 0;
  p_glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    if (strcmp((const char*)p_glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0) return 1;
  }
  return 0;
}

static EGLDisplay open_display(void) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  EGLDisplay display = EGL_NO_DISPLAY;
  /* Surfaceless first (Mesa, Bismuth: honours BISMUTH_DEVICE), then the first EGL device (NVIDIA). */
  if (get_platform_display != NULL) {
    display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (display != EGL_NO_DISPLAY && eglInitialize(display, NULL, NULL)) return display;
    if (query_devices != NULL) {
      EGLDeviceEXT devices[16];
      EGLint count = 0;
      if (query_devices(16, devices, &count) && count > 0) {
        display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
        if (display != EGL_NO_DISPLAY && eglInitialize(display, NULL, NULL)) return display;
      }
    }
  }
  display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display != EGL_NO_DISPLAY && eglInitialize(display, NULL, NULL)) return display;
  return EGL_NO_DISPLAY;
}

int main(void) {
  EGLDisplay display = open_display();
  if (display == EGL_NO_DISPLAY) {
    fprintf(stderr, "egl_compute: no EGL display (error 0x%x)\n", (unsigned)eglGetError());
    return 2;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    fprintf(stderr, "egl_compute: eglBindAPI(EGL_OPENGL_API) failed\n");
    return 2;
  }
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = NULL;
  EGLint configs = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &configs) || configs < 1) {
    config = (EGLConfig)0; /* EGL_KHR_no_config_context: a context without a config (no surfaces anyway) */
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    fprintf(stderr, "egl_compute: no GL 4.3 core context without surfaces (error 0x%x)\n", (unsigned)eglGetError());
    return 2;
  }
  if (!load_gl()) return 2;
  fprintf(stderr, "egl_compute: %s / %s\n", (const char*)p_glGetString(GL_RENDERER),
          (const char*)p_glGetString(GL_VERSION));
  if (!has_extension("GL_ARB_compute_variable_group_size")) {
    fprintf(stderr, "egl_compute: GL_ARB_compute_variable_group_size is not supported\n");
    return 2;
  }
  const int ballot = has_extension("GL_ARB_shader_ballot");

  GLuint shader = p_glCreateShader(GL_COMPUTE_SHADER);
  p_glShaderSource(shader, 1, &kShader, NULL);
  p_glCompileShader(shader);
  GLint status = 0;
  char log[2048];
  p_glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  if (!status) {
    p_glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "egl_compute: compile failed:\n%s\n", log);
    return 1;
  }
  GLuint program = p_glCreateProgram();
  p_glAttachShader(program, shader);
  p_glLinkProgram(program);
  p_glGetProgramiv(program, GL_LINK_STATUS, &status);
  if (!status) {
    p_glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "egl_compute: link failed:\n%s\n", log);
    return 1;
  }
  p_glUseProgram(program);
  p_glUniform1ui(p_glGetUniformLocation(program, "scale"), 3u);

  const GLsizeiptr words = GROUPS * GROUP_SIZE + 1;
  GLuint buffer = 0;
  p_glGenBuffers(1, &buffer);
  p_glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  unsigned* zeros = calloc((size_t)words, sizeof(unsigned));
  p_glBufferData(GL_SHADER_STORAGE_BUFFER, words * 4, zeros, GL_DYNAMIC_READ);
  free(zeros);
  p_glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);

  int failures = 0;
  /* Error rule: "An INVALID_OPERATION error is generated by DispatchCompute [...] if the active program for the
   * compute shader stage has a variable work group size." */
  while (p_glGetError() != GL_NO_ERROR) {
  }
  p_glDispatchCompute(GROUPS, 1, 1);
  const GLenum error = p_glGetError();
  printf("error check: glDispatchCompute on a variable-size program -> %s\n",
         error == GL_INVALID_OPERATION ? "GL_INVALID_OPERATION (as the spec says)" : "WRONG");
  failures += error != GL_INVALID_OPERATION;

  GLuint query = 0;
  p_glGenQueries(1, &query);
  p_glBeginQuery(GL_TIME_ELAPSED, query);
  p_glDispatchComputeGroupSizeARB(GROUPS, 1, 1, GROUP_SIZE, 1, 1);
  p_glEndQuery(GL_TIME_ELAPSED);
  p_glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GLuint64 elapsed = 0;
  p_glGetQueryObjectui64v(query, GL_QUERY_RESULT, &elapsed);
  printf("timer query: %s\n", elapsed > 0 ? "GL_TIME_ELAPSED > 0" : "ZERO");
  fprintf(stderr, "egl_compute: dispatch took %llu ns on the GPU\n", (unsigned long long)elapsed);
  failures += elapsed == 0;

  const unsigned* out = p_glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, words * 4, GL_MAP_READ_BIT);
  if (out == NULL) {
    fprintf(stderr, "egl_compute: glMapBufferRange failed (0x%x)\n", (unsigned)p_glGetError());
    return 1;
  }
  unsigned long long sum = 0;
  int wrong = 0;
  for (unsigned i = 0; i < GROUPS * GROUP_SIZE; ++i) {
    wrong += out[1 + i] != i * 3u + GROUP_SIZE;
    sum += out[1 + i];
  }
  printf("variable group size: %d groups of %d, %d wrong words, sum %llu\n", GROUPS, GROUP_SIZE, wrong, sum);
  failures += wrong != 0;
  if (ballot) {
    printf("ballot: %s\n", out[0] == 0 ? "ballotARB(true) counts every lane of the subgroup" : "WRONG");
    failures += out[0] != 0;
  } else {
    printf("ballot: GL_ARB_shader_ballot not supported\n");
  }
  p_glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  const GLenum final_error = p_glGetError();
  failures += final_error != GL_NO_ERROR;

  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglTerminate(display);
  printf("%s\n", failures == 0 ? "egl_compute: OK" : "egl_compute: FAILED");
  return failures == 0 ? 0 : 1;
}
