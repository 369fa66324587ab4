/* es31_compute.c: OpenGL ES 3.1 and 3.2 compute contexts made the way Android and embedded GL-on-Vulkan ports make
 * them: eglBindAPI(EGL_OPENGL_ES_API), eglCreateContext with EGL_CONTEXT_MAJOR_VERSION 3 / MINOR 1 or 2, GLSL ES
 * compute shaders with precision qualifiers, a dispatch read back with glMapBufferRange (ES has no
 * glGetBufferSubData), and the rules in which an ES context differs from a desktop GL one.
 *
 * Specs: EGL 1.5 (§3.7 client APIs and contexts), OpenGL ES 3.1 / 3.2 (§7 programs, §17 compute, §20 state
 * queries, table 20.x / 21.x implementation-dependent limits), GLSL ES 3.10 / 3.20, GL 4.6 for the desktop
 * context. The limits of the buffer, atomic-counter and image tables are es_limits.c. */
#include "conformance.h"

/* ---- EGL ---- */

static void check_egl_api(EGLDisplay display) {
  /* EGL 1.5 §3.7: "The initial value of the current rendering API is EGL_OPENGL_ES_API, unless OpenGL ES is not
   * supported by an implementation". conformance_make_context bound ES already; eglQueryAPI returns it. */
  CHECK(eglQueryAPI() == EGL_OPENGL_ES_API, "eglQueryAPI after eglBindAPI(EGL_OPENGL_ES_API)");
  /* EGL 1.5 §3.3: EGL_CLIENT_APIS lists the supported client APIs, "OpenGL_ES" among them. */
  const char* apis = eglQueryString(display, EGL_CLIENT_APIS);
  CHECK(apis != NULL && strstr(apis, "OpenGL_ES") != NULL, "EGL_CLIENT_APIS \"%s\" names OpenGL_ES",
        apis ? apis : "(null)");
  /* EGL 1.5 §3.4: EGL_RENDERABLE_TYPE / EGL_CONFORMANT carry EGL_OPENGL_ES3_BIT for configs that support ES 3.x
   * contexts. */
  const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
  EGLConfig config = NULL;
  EGLint count = 0;
  CHECK(eglChooseConfig(display, wanted, &config, 1, &count) && count >= 1,
        "eglChooseConfig(EGL_RENDERABLE_TYPE = EGL_OPENGL_ES3_BIT) finds a config");
  if (count >= 1) {
    EGLint renderable = 0, conformant = 0;
    eglGetConfigAttrib(display, config, EGL_RENDERABLE_TYPE, &renderable);
    eglGetConfigAttrib(display, config, EGL_CONFORMANT, &conformant);
    CHECK(renderable & EGL_OPENGL_ES3_BIT, "EGL_RENDERABLE_TYPE 0x%x has EGL_OPENGL_ES3_BIT", (unsigned)renderable);
    CHECK(conformant & EGL_OPENGL_ES3_BIT, "EGL_CONFORMANT 0x%x has EGL_OPENGL_ES3_BIT", (unsigned)conformant);
  }
  EGLContext current = eglGetCurrentContext();
  EGLint value = 0;
  /* EGL 1.5 §3.7.4: EGL_CONTEXT_CLIENT_TYPE is the context's API, EGL_CONTEXT_CLIENT_VERSION its major version. */
  CHECK(eglQueryContext(display, current, EGL_CONTEXT_CLIENT_TYPE, &value) && value == EGL_OPENGL_ES_API,
        "EGL_CONTEXT_CLIENT_TYPE of the ES context is EGL_OPENGL_ES_API (0x%x)", (unsigned)value);
  CHECK(eglQueryContext(display, current, EGL_CONTEXT_CLIENT_VERSION, &value) && value == 3,
        "EGL_CONTEXT_CLIENT_VERSION of an ES 3.x context is 3 (got %d)", value);
}

/* The context eglCreateContext returns for an ES request, or EGL_NO_CONTEXT with the EGL error in *error. */
static EGLContext create_es(EGLDisplay display, const EGLint* attribs, EGLint* error) {
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  *error = eglGetError();
  return context;
}

/* The ES version of a context (current in between), as GL_MAJOR_VERSION * 10 + GL_MINOR_VERSION. */
static int es_version_of(EGLDisplay display, EGLContext context) {
  EGLContext previous = eglGetCurrentContext();
  int version = 0;
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    const char* v = (const char*)glGetString(GL_VERSION);
    version = (v != NULL && strncmp(v, "OpenGL ES ", 10) == 0) ? major * 10 + minor : -1;
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, previous);
  return version;
}

static void check_egl_versions(EGLDisplay display) {
  EGLint error = EGL_SUCCESS;
  /* EGL 1.5 §3.7.1.1: "The context returned must be the specified version, or a later version which is backwards
   * compatible with that version." ES 3.0 has no compute shaders; whatever comes back is an ES 3.x context. */
  const EGLint es30[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
  EGLContext c = create_es(display, es30, &error);
  if (c != EGL_NO_CONTEXT) {
    const int v = es_version_of(display, c);
    CHECK(v >= 30 && v < 40, "an ES 3.0 request gets an OpenGL ES 3.x context (got %d)", v);
    eglDestroyContext(display, c);
  } else {
    CHECK(error == EGL_BAD_MATCH, "an ES 3.0 request that fails fails with EGL_BAD_MATCH (got 0x%x)", (unsigned)error);
  }
  const EGLint es32[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  c = create_es(display, es32, &error);
  CHECK(c != EGL_NO_CONTEXT, "an OpenGL ES 3.2 context (EGL error 0x%x)", (unsigned)error);
  if (c != EGL_NO_CONTEXT) {
    const int v = es_version_of(display, c);
    CHECK(v >= 32 && v < 40, "an ES 3.2 request gets ES 3.2 or a later 3.x (got %d)", v);
    eglDestroyContext(display, c);
  }
  /* OpenGL ES 1.x is the fixed-function API that ES 2.0 and later are not backwards compatible with: an
   * implementation without it answers EGL_BAD_MATCH (EGL 1.5 §3.7.1: "if the requested version ... is not
   * supported"). The default EGL_CONTEXT_MAJOR_VERSION is 1 (§3.7.1.1). */
  const EGLint es1[] = {EGL_CONTEXT_MAJOR_VERSION, 1, EGL_NONE};
  c = create_es(display, es1, &error);
  if (c != EGL_NO_CONTEXT) {
    CHECK(es_version_of(display, c) / 10 == 1, "an ES 1.x request that succeeds is an ES 1.x context");
    eglDestroyContext(display, c);
  } else {
    CHECK(error == EGL_BAD_MATCH, "no ES 1.x context: EGL_BAD_MATCH (got 0x%x)", (unsigned)error);
  }
  const EGLint es39[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 9, EGL_NONE};
  c = create_es(display, es39, &error);
  CHECK(c == EGL_NO_CONTEXT && error == EGL_BAD_MATCH, "OpenGL ES 3.9 does not exist: EGL_BAD_MATCH (got 0x%x)",
        (unsigned)error);
  /* EGL_KHR_create_context / EGL 1.5 §3.7.1.2: EGL_CONTEXT_OPENGL_PROFILE_MASK "is only meaningful for OpenGL
   * contexts, and specifying it for other types of contexts, including OpenGL ES contexts, will generate an
   * error" (EGL_BAD_ATTRIBUTE, §3.7.1). */
  const EGLint profile[] = {
      EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 1, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  c = create_es(display, profile, &error);
  CHECK(c == EGL_NO_CONTEXT && error == EGL_BAD_ATTRIBUTE,
        "EGL_CONTEXT_OPENGL_PROFILE_MASK on an ES context: EGL_BAD_ATTRIBUTE (got 0x%x)", (unsigned)error);
  /* EGL 1.5 §3.7.1: "If share_context is neither EGL_NO_CONTEXT nor a valid context of the same client API type
   * as the newly created context, then an EGL_BAD_CONTEXT error is generated." */
  eglBindAPI(EGL_OPENGL_API);
  const EGLint gl46[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  EGLContext desktop = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, gl46);
  CHECK(eglQueryAPI() == EGL_OPENGL_API, "eglQueryAPI follows eglBindAPI(EGL_OPENGL_API)");
  if (desktop != EGL_NO_CONTEXT) {
    eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint es31[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
    c = eglCreateContext(display, (EGLConfig)0, desktop, es31);
    error = eglGetError();
    CHECK(c == EGL_NO_CONTEXT && error == EGL_BAD_CONTEXT,
          "an ES context sharing with a desktop GL context: EGL_BAD_CONTEXT (got 0x%x)", (unsigned)error);
    if (c != EGL_NO_CONTEXT) eglDestroyContext(display, c);
    eglDestroyContext(display, desktop);
  }
  eglBindAPI(EGL_OPENGL_ES_API);
}

/* ---- strings and limits ---- */

/* "<prefix><major>.<minor><rest>" with <rest> empty or starting with a space or a '.' release number; the number
 * read is major * 10 + minor (minor: its first digit), -1 when the layout is not that. */
static int version_after(const char* s, const char* prefix) {
  if (s == NULL || strncmp(s, prefix, strlen(prefix)) != 0) return -1;
  s += strlen(prefix);
  if (s[0] < '0' || s[0] > '9' || s[1] != '.' || s[2] < '0' || s[2] > '9') return -1;
  int minor_digits = 1;
  while (s[2 + minor_digits] >= '0' && s[2 + minor_digits] <= '9') ++minor_digits;
  const char end = s[2 + minor_digits];
  if (end != '\0' && end != ' ' && end != '.') return -1;
  return (s[0] - '0') * 10 + (s[2] - '0');
}

static void check_strings(void) {
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  CHECK(major == 3 && minor >= 1, "an ES 3.1 request gets GL_MAJOR/MINOR_VERSION 3.1 or later (got %d.%d)", major,
        minor);
  /* OpenGL ES 3.2 §20.2 (GetString): "The VERSION string is laid out as follows: OpenGL ES <version number><space>
   * <vendor-specific information>" with a "major_number.minor_number" version number that matches
   * MAJOR_VERSION / MINOR_VERSION. */
  const char* version = (const char*)glGetString(GL_VERSION);
  CHECK(version_after(version, "OpenGL ES ") == major * 10 + minor, "GL_VERSION \"%s\" is \"OpenGL ES %d.%d ...\"",
        version ? version : "(null)", major, minor);
  /* ... "The SHADING_LANGUAGE_VERSION string is laid out as follows: OpenGL ES GLSL ES <version number><space>
   * <vendor-specific information>"; an ES 3.x context supports GLSL ES 3.x0 of its own version. */
  const char* glsl = (const char*)glGetString(GL_SHADING_LANGUAGE_VERSION);
  CHECK(version_after(glsl, "OpenGL ES GLSL ES ") == major * 10 + minor,
        "GL_SHADING_LANGUAGE_VERSION \"%s\" is \"OpenGL ES GLSL ES %d.%d0 ...\"", glsl ? glsl : "(null)", major, minor);
  CHECK(glGetString(GL_VENDOR) != NULL && glGetString(GL_RENDERER) != NULL, "GL_VENDOR and GL_RENDERER");
  /* ES 3.2 §20.2: GetString(EXTENSIONS) is still valid in ES (GL 4.6 core removed it); GetStringi takes only
   * EXTENSIONS ("An INVALID_ENUM error is generated if name is not EXTENSIONS"). */
  CHECK(glGetString(GL_EXTENSIONS) != NULL, "glGetString(GL_EXTENSIONS) in an ES context");
  CHECK_GL_ERROR(GL_NO_ERROR, "glGetString(GL_EXTENSIONS) in an ES context");
  CHECK(glGetStringi(GL_SHADING_LANGUAGE_VERSION, 0) == NULL, "glGetStringi(GL_SHADING_LANGUAGE_VERSION) in ES");
  CHECK_GL_ERROR(GL_INVALID_ENUM, "glGetStringi(GL_SHADING_LANGUAGE_VERSION, 0) in an ES context");
  /* GL_CONTEXT_PROFILE_MASK is desktop GL state (GL 4.6 table 23.63); ES 3.2's state tables do not have it:
   * INVALID_ENUM (ES 3.2 §20.1: "pname is not one of the values listed in the tables"). */
  GLint profile = -1;
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "glGetIntegerv(GL_CONTEXT_PROFILE_MASK) in an ES context");
}

static void check_compute_limits(void) {
  /* OpenGL ES 3.1 table 20.45 / ES 3.2 table 21.53 (implementation-dependent compute shader limits): minimums. */
  static const GLint min_count = 65535, min_size[3] = {128, 128, 64};
  for (GLuint i = 0; i < 3; ++i) {
    GLint count = 0, size = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &count);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &size);
    CHECK(count >= min_count, "MAX_COMPUTE_WORK_GROUP_COUNT[%u] %d >= 65535", i, count);
    CHECK(size >= min_size[i], "MAX_COMPUTE_WORK_GROUP_SIZE[%u] %d >= %d", i, size, min_size[i]);
  }
  GLint invocations = 0, shared = 0, uniform_blocks = 0, storage_blocks = 0, components = 0;
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
  glGetIntegerv(GL_MAX_COMPUTE_UNIFORM_BLOCKS, &uniform_blocks);
  glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &storage_blocks);
  glGetIntegerv(GL_MAX_COMPUTE_UNIFORM_COMPONENTS, &components);
  CHECK(invocations >= 128, "MAX_COMPUTE_WORK_GROUP_INVOCATIONS %d >= 128", invocations);
  CHECK(shared >= 16384, "MAX_COMPUTE_SHARED_MEMORY_SIZE %d >= 16384", shared);
  CHECK(uniform_blocks >= 12, "MAX_COMPUTE_UNIFORM_BLOCKS %d >= 12", uniform_blocks);
  CHECK(storage_blocks >= 4, "MAX_COMPUTE_SHADER_STORAGE_BLOCKS %d >= 4", storage_blocks);
  CHECK(components >= 1024, "MAX_COMPUTE_UNIFORM_COMPONENTS %d >= 1024", components);
  CHECK_GL_ERROR(GL_NO_ERROR, "the compute limits are ES state");
}

/* ---- shaders ---- */

static int compiles(const char* source) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0, log_length = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &log_length);
  /* A failed compile explains itself (ES 3.2 §7.1: "the info log ... contains information about the
   * compilation"); Bismuth's promise is a message in the log, checked here so that a silent failure shows. */
  if (!ok) CHECK(log_length > 1, "a failed compile leaves an info log");
  glDeleteShader(shader);
  return ok != 0;
}

static const char* const kEs310 =
    "#version 310 es\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer B { uint v[]; };\n"
    "void main() { v[gl_GlobalInvocationID.x] = 1u; }\n";
static const char* const kEs320 =
    "#version 320 es\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer B { uint v[]; };\n"
    "void main() { v[gl_GlobalInvocationID.x] = 1u; }\n";
static const char* const kDesktop430 =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer B { uint v[]; };\n"
    "void main() { v[gl_GlobalInvocationID.x] = 1u; }\n";

static void check_version_rules(GLint minor) {
  CHECK(compiles(kEs310), "#version 310 es compute shader in an ES 3.%d context", minor);
  /* GLSL ES 3.20 §3.4: "Any number representing a version of the language a compiler does not support will cause
   * a compile-time error to be generated"; an ES 3.1 context supports GLSL ES up to 3.10 (ES 3.1 §7.1), an ES 3.2
   * context up to 3.20 (ES 3.2 §7.1). */
  CHECK(compiles(kEs320) == (minor >= 2), "#version 320 es compiles exactly when the context is ES 3.2+ (3.%d)", minor);
  /* Desktop GLSL is not a version of the OpenGL ES Shading Language: a compile error in an ES context. */
  CHECK(!compiles(kDesktop430), "#version 430 (desktop GLSL) in an ES context is a compile error");
  /* GLSL ES 3.10 §3.4: "shaders that do not include a #version directive will be treated as targeting version
   * 1.00", which has no compute shaders. */
  CHECK(!compiles("layout(local_size_x = 1) in;\nvoid main() {}\n"),
        "a compute shader without #version (GLSL ES 1.00) is a compile error");
  /* GLSL ES 3.10 §4.1.10 (Implicit Conversions): "There are no implicit conversions between types" — desktop
   * GLSL converts int to float here, GLSL ES does not. */
  CHECK(!compiles("#version 310 es\n"
                  "layout(local_size_x = 1) in;\n"
                  "layout(std430, binding = 0) buffer B { float f[]; };\n"
                  "void main() { float x = 1; f[0] = x; }\n"),
        "an implicit int-to-float conversion is a compile error in GLSL ES 3.10");
  /* ES 3.2 §7.2 (Shader Binaries): binaryformat must be one of SHADER_BINARY_FORMATS; SPIR-V is desktop GL 4.6's
   * ARB_gl_spirv. Whatever formats the context lists, each must be accepted as a format. */
  GLint formats = -1;
  glGetIntegerv(GL_NUM_SHADER_BINARY_FORMATS, &formats);
  CHECK(formats >= 0, "GL_NUM_SHADER_BINARY_FORMATS");
  int spirv_listed = 0;
  if (formats > 0 && formats < 64) {
    GLint list[64];
    glGetIntegerv(GL_SHADER_BINARY_FORMATS, list);
    for (GLint i = 0; i < formats; ++i) spirv_listed |= list[i] == GL_SHADER_BINARY_FORMAT_SPIR_V;
  }
  if (!spirv_listed) {
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    const GLuint magic[5] = {0x07230203u, 0x00010000u, 0u, 1u, 0u};
    glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, magic, sizeof magic);
    CHECK_GL_ERROR(GL_INVALID_ENUM, "glShaderBinary with a format SHADER_BINARY_FORMATS does not list");
    glDeleteShader(shader);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "the version rules");
}

/* The dispatch an ES 3.1 port runs: precision qualifiers (GLSL ES 3.10 §4.7), a default-block uniform, shared
 * memory with a barrier and storage buffers (atomic counters: es31_atomic_counters.c); the result is read with
 * glMapBufferRange after glMemoryBarrier(BUFFER_UPDATE_BARRIER_BIT) (ES 3.1 §7.11.2: shader writes are visible to
 * MapBufferRange after that barrier). */
static const char* const kDispatchShader =
    "#version 310 es\n"
    "precision mediump float;\n" /* compute shaders default to highp float and int (GLSL ES 3.10 §4.7.4) */
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) buffer Result { highp uint sums[]; };\n"
    "layout(std430, binding = 1) buffer Halves { highp float halves[]; };\n"
    "uniform highp uint base;\n"
    "shared highp uint partial[64];\n"
    "void main() {\n"
    "  highp uint id = gl_GlobalInvocationID.x;\n"
    "  partial[gl_LocalInvocationID.x] = id;\n"
    "  barrier();\n"
    "  highp uint other = partial[63u - gl_LocalInvocationID.x];\n"
    "  sums[id] = base + id + other;\n"
    "  mediump float half_id = float(gl_LocalInvocationID.x) * 0.5;\n"
    "  halves[id] = half_id;\n"
    "}\n";

static void check_dispatch(void) {
  enum { kGroups = 4, kCount = 64 * kGroups };
  GLuint program = conformance_compute_program(kDispatchShader);
  CHECK(program != 0, "the GLSL ES 3.10 dispatch shader compiles and links");
  if (program == 0) return;
  GLuint buffers[2];
  glGenBuffers(2, buffers);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[0]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kCount * sizeof(GLuint), NULL, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers[0]);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[1]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, kCount * sizeof(GLfloat), NULL, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffers[1]);
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "base"), 1000u);
  glDispatchCompute(kGroups, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  CHECK_GL_ERROR(GL_NO_ERROR, "the ES 3.1 dispatch");

  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[0]);
  const GLuint* sums =
      (const GLuint*)glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, kCount * sizeof(GLuint), GL_MAP_READ_BIT);
  CHECK(sums != NULL, "glMapBufferRange(GL_MAP_READ_BIT) of the result");
  if (sums != NULL) {
    int wrong = 0;
    for (GLuint id = 0; id < kCount; ++id) {
      const GLuint group_base = id / 64 * 64, other = group_base + 63 - id % 64;
      if (sums[id] != 1000u + id + other && wrong++ < 4) {
        CHECK(0, "sums[%u] = %u, expected %u", id, sums[id], 1000u + id + other);
      }
    }
    CHECK(wrong == 0, "%d of %d sums wrong", wrong, kCount);
    CHECK(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE, "glUnmapBuffer");
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[1]);
  const GLfloat* halves =
      (const GLfloat*)glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, kCount * sizeof(GLfloat), GL_MAP_READ_BIT);
  CHECK(halves != NULL, "glMapBufferRange of the mediump results");
  if (halves != NULL) {
    /* mediump: relative precision 2^-10 at least (GLSL ES 3.10 §4.7.1); x * 0.5 for x < 64 is exact in it. */
    int wrong = 0;
    for (GLuint id = 0; id < kCount; ++id) wrong += halves[id] != (GLfloat)(id % 64) * 0.5f;
    CHECK(wrong == 0, "%d of %d mediump halves wrong", wrong, kCount);
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "reading the results back with glMapBufferRange");
  glDeleteBuffers(2, buffers);
  glDeleteProgram(program);
}

/* ---- the desktop context's side ---- */

static void check_desktop_rules(EGLDisplay display) {
  eglBindAPI(EGL_OPENGL_API);
  const EGLint attribs[] = {
      EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 6, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext desktop = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  eglBindAPI(EGL_OPENGL_ES_API);
  if (desktop == EGL_NO_CONTEXT) {
    printf("note: no GL 4.6 core context; the desktop side is not checked\n");
    return;
  }
  EGLContext es = eglGetCurrentContext();
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, desktop);
  /* GL 4.6 includes ARB_ES3_1_compatibility (core since GL 4.5): "#version 310 es" shaders compile in a desktop
   * context (ARB_ES3_1_compatibility: "OpenGL ES Shading Language version 3.10 ... shaders" are accepted, compute
   * shaders included). */
  CHECK(compiles(kEs310), "#version 310 es compute shader in a GL 4.6 core context");
  /* GLSL ES 3.20 needs ARB_ES3_2_compatibility in desktop GL. */
  if (!conformance_has_extension("GL_ARB_ES3_2_compatibility")) {
    CHECK(!compiles(kEs320), "#version 320 es in GL 4.6 without GL_ARB_ES3_2_compatibility is a compile error");
  }
  const char* version = (const char*)glGetString(GL_VERSION);
  CHECK(version != NULL && strncmp(version, "OpenGL ES", 9) != 0, "the desktop context's GL_VERSION \"%s\"",
        version ? version : "(null)");
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, es);
  eglDestroyContext(display, desktop);
}

static void run_es_checks(void) {
  GLint minor = 0;
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  check_compute_limits();
  check_version_rules(minor);
  check_dispatch();
}

int main(void) {
  EGLDisplay display = conformance_make_context(EGL_OPENGL_ES_API, 3, 1);
  check_egl_api(display);
  check_strings();
  run_es_checks();
  check_egl_versions(display);
  check_desktop_rules(display);

  /* The same program in an ES 3.2 context. */
  EGLContext es31 = eglGetCurrentContext();
  const EGLint es32[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, es32);
  CHECK(context != EGL_NO_CONTEXT, "an OpenGL ES 3.2 context");
  if (context != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    CHECK(major == 3 && minor >= 2, "an ES 3.2 request gets ES 3.2 or later (got %d.%d)", major, minor);
    const char* version = (const char*)glGetString(GL_VERSION);
    CHECK(version_after(version, "OpenGL ES ") == major * 10 + minor, "GL_VERSION \"%s\"", version ? version : "");
    const char* glsl = (const char*)glGetString(GL_SHADING_LANGUAGE_VERSION);
    CHECK(version_after(glsl, "OpenGL ES GLSL ES ") == major * 10 + minor, "GL_SHADING_LANGUAGE_VERSION \"%s\"",
          glsl ? glsl : "");
    run_es_checks();
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, es31);
    eglDestroyContext(display, context);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, es31);
  eglTerminate(display);
  return conformance_result();
}
