/* egl_gl_context: see egl_gl_context.h. */
#include "egl_gl_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EGL_GL_DEFINE(type, name) type p_##name;
EGL_GL_FUNCTIONS(EGL_GL_DEFINE)
#undef EGL_GL_DEFINE

static EGLDisplay g_display = EGL_NO_DISPLAY;
static EGLContext g_context = EGL_NO_CONTEXT;
static const char* g_platform_name = "none";
static char g_implementation[512];

int egl_gl_parse_platform(const char* text, EglGlPlatform* platform) {
  if (strcmp(text, "auto") == 0) {
    *platform = EGL_GL_PLATFORM_AUTO;
  } else if (strcmp(text, "device") == 0) {
    *platform = EGL_GL_PLATFORM_DEVICE;
  } else if (strcmp(text, "surfaceless") == 0) {
    *platform = EGL_GL_PLATFORM_SURFACELESS;
  } else {
    return 0;
  }
  return 1;
}

static int initialize(EGLDisplay display, const char* name) {
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) return 0;
  g_display = display;
  g_platform_name = name;
  return 1;
}

/* Mesa lists a software device (llvmpipe) among its EGL devices; under Zink the GL to measure is on the surfaceless
 * platform instead, so `auto` passes over it. */
static int is_software_device(EGLDeviceEXT device) {
  PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
      (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
  if (query_string == NULL) return 0;
  const char* extensions = query_string(device, EGL_EXTENSIONS);
  return extensions != NULL && strstr(extensions, "EGL_MESA_device_software") != NULL;
}

static int open_device_display(PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display, int skip_software) {
  PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  if (get_platform_display == NULL || query_devices == NULL) return 0;
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!query_devices(16, devices, &count)) return 0;
  for (EGLint i = 0; i < count; ++i) {
    if (skip_software && is_software_device(devices[i])) continue;
    if (initialize(get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL), "device")) return 1;
  }
  return 0;
}

static int open_display(EglGlPlatform platform) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (platform != EGL_GL_PLATFORM_SURFACELESS &&
      open_device_display(get_platform_display, platform == EGL_GL_PLATFORM_AUTO)) {
    return 1;
  }
  if (platform != EGL_GL_PLATFORM_DEVICE && get_platform_display != NULL &&
      initialize(get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL), "surfaceless")) {
    return 1;
  }
  return platform == EGL_GL_PLATFORM_AUTO && initialize(eglGetDisplay(EGL_DEFAULT_DISPLAY), "default");
}

static EGLContext create_context(EGLConfig config, EGLint major, EGLint minor) {
  const EGLint attribs[] = {
      EGL_CONTEXT_MAJOR_VERSION,           major,   EGL_CONTEXT_MINOR_VERSION, minor, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  return eglCreateContext(g_display, config, EGL_NO_CONTEXT, attribs);
}

static void describe_implementation(void) {
  snprintf(g_implementation, sizeof g_implementation, "%s | %s | EGL %s", (const char*)p_glGetString(GL_RENDERER),
           (const char*)p_glGetString(GL_VERSION), g_platform_name);
  for (char* c = g_implementation; *c != '\0'; ++c) {
    if (*c == '"') *c = '\'';
  }
}

int egl_gl_open(const char* program, EglGlPlatform platform) {
  if (!open_display(platform)) {
    fprintf(stderr, "%s: no EGL display on the requested platform (error 0x%x)\n", program, (unsigned)eglGetError());
    return 2;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    fprintf(stderr, "%s: eglBindAPI(EGL_OPENGL_API) failed\n", program);
    return 2;
  }
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = NULL;
  EGLint configs = 0;
  if (!eglChooseConfig(g_display, config_attribs, &config, 1, &configs) || configs < 1) {
    config = (EGLConfig)0; /* EGL_KHR_no_config_context: no surfaces are used anyway */
  }
  g_context = create_context(config, 4, 6);
  if (g_context == EGL_NO_CONTEXT) g_context = create_context(config, 4, 3);
  if (g_context == EGL_NO_CONTEXT || !eglMakeCurrent(g_display, EGL_NO_SURFACE, EGL_NO_SURFACE, g_context)) {
    fprintf(stderr, "%s: no GL 4.3 core context without surfaces (error 0x%x)\n", program, (unsigned)eglGetError());
    return 2;
  }
#define EGL_GL_LOAD(type, name) p_##name = (type)eglGetProcAddress(#name);
  EGL_GL_FUNCTIONS(EGL_GL_LOAD)
#undef EGL_GL_LOAD
  if (p_glGetString == NULL || p_glGetIntegerv == NULL || p_glGetStringi == NULL) {
    fprintf(stderr, "%s: eglGetProcAddress returns no core GL functions\n", program);
    return 2;
  }
  describe_implementation();
  fprintf(stderr, "%s: %s\n", program, g_implementation);
  return 0;
}

void egl_gl_close(void) {
  if (g_display == EGL_NO_DISPLAY) return;
  eglMakeCurrent(g_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (g_context != EGL_NO_CONTEXT) eglDestroyContext(g_display, g_context);
  eglTerminate(g_display);
  g_display = EGL_NO_DISPLAY;
  g_context = EGL_NO_CONTEXT;
}

int egl_gl_has_extension(const char* name) {
  GLint count = 0;
  p_glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    if (strcmp((const char*)p_glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0) return 1;
  }
  return 0;
}

int egl_gl_version(void) {
  GLint major = 0, minor = 0;
  p_glGetIntegerv(GL_MAJOR_VERSION, &major);
  p_glGetIntegerv(GL_MINOR_VERSION, &minor);
  return major * 10 + minor;
}

const char* egl_gl_implementation(void) {
  return g_implementation;
}

double egl_gl_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

GLuint egl_gl_compile_compute(const char* who, const char* source) {
  char log[4096];
  GLint status = 0;
  GLuint shader = p_glCreateShader(GL_COMPUTE_SHADER);
  p_glShaderSource(shader, 1, &source, NULL);
  p_glCompileShader(shader);
  p_glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  if (!status) {
    p_glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "%s: compile failed:\n%s\n%s\n", who, source, log);
    exit(1);
  }
  return shader;
}

GLuint egl_gl_link(const char* who, GLuint shader) {
  char log[4096];
  GLint status = 0;
  GLuint program = p_glCreateProgram();
  p_glAttachShader(program, shader);
  p_glLinkProgram(program);
  p_glGetProgramiv(program, GL_LINK_STATUS, &status);
  if (!status) {
    p_glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "%s: link failed:\n%s\n", who, log);
    exit(1);
  }
  return program;
}
