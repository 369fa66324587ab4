/* nv_reference_probe: asks NVIDIA's own GL how it assembles and runs a compute program, to learn behaviour the
 * NV_gpu_program5 family of specs leaves open (issue 19: what the counter operand of ATOMCTR indexes).
 *
 * Built by hand against the system libEGL/libOpenGL, bundled with ../shared/gpu/bundle.sh and run on the GPU
 * machine (NVIDIA's EGL vendor):
 *   cc -O1 -o build/nv_reference_probe tests/gpu/nv_reference_probe.c -lEGL -lOpenGL
 *   nv_reference_probe dump FILE.comp       prints the !!NVcp5.0 text in NVIDIA's program binary of a GLSL shader
 *   nv_reference_probe run FILE.comp|.nvcp5 runs it once (1x1x1 groups) on the fixed buffers below and prints them
 *   nv_reference_probe limits -             prints the assembly program limits glGetProgramivARB reports
 *   nv_reference_probe residency -          NV_shader_buffer_load's residency calls on edge cases, with the GL errors
 * The fixed buffers: atomic counter buffers at bindings 0 and 1, 16 words each, word i = 1000 * binding + 10 * i;
 * shader storage binding 0 (program.storage[0]), 16 words of 0xDEADBEEF. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPUTE_PROGRAM_NV 0x90FB
#define PROGRAM_FORMAT_ASCII_ARB 0x8875
#define PROGRAM_ERROR_POSITION_ARB 0x864B
#define PROGRAM_ERROR_STRING_ARB 0x8874

typedef void(APIENTRYP GenProgramsProc)(GLsizei, GLuint*);
typedef void(APIENTRYP BindProgramProc)(GLenum, GLuint);
typedef void(APIENTRYP ProgramStringProc)(GLenum, GLenum, GLsizei, const void*);
typedef void(APIENTRYP GetProgramivProc)(GLenum, GLenum, GLint*);

#define GL_FUNCTIONS(X)                                             \
  X(PFNGLCREATESHADERPROC, glCreateShader)                          \
  X(PFNGLSHADERSOURCEPROC, glShaderSource)                          \
  X(PFNGLCOMPILESHADERPROC, glCompileShader)                        \
  X(PFNGLGETSHADERIVPROC, glGetShaderiv)                            \
  X(PFNGLGETSHADERINFOLOGPROC, glGetShaderInfoLog)                  \
  X(PFNGLCREATEPROGRAMPROC, glCreateProgram)                        \
  X(PFNGLATTACHSHADERPROC, glAttachShader)                          \
  X(PFNGLLINKPROGRAMPROC, glLinkProgram)                            \
  X(PFNGLGETPROGRAMIVPROC, glGetProgramiv)                          \
  X(PFNGLGETPROGRAMINFOLOGPROC, glGetProgramInfoLog)                \
  X(PFNGLGETPROGRAMBINARYPROC, glGetProgramBinary)                  \
  X(PFNGLPROGRAMPARAMETERIPROC, glProgramParameteri)                \
  X(PFNGLUSEPROGRAMPROC, glUseProgram)                              \
  X(PFNGLGENBUFFERSPROC, glGenBuffers)                              \
  X(PFNGLBINDBUFFERPROC, glBindBuffer)                              \
  X(PFNGLBUFFERDATAPROC, glBufferData)                              \
  X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                      \
  X(PFNGLGETBUFFERSUBDATAPROC, glGetBufferSubData)                  \
  X(PFNGLDISPATCHCOMPUTEPROC, glDispatchCompute)                    \
  X(PFNGLMEMORYBARRIERPROC, glMemoryBarrier)                        \
  X(PFNGLENABLEPROC, glEnable)                                      \
  X(PFNGLDISABLEPROC, glDisable)                                    \
  X(PFNGLGETERRORPROC, glGetError)                                  \
  X(PFNGLGETINTEGERVPROC, glGetIntegerv)                            \
  X(PFNGLGETSTRINGPROC, glGetString)                                \
  X(PFNGLFINISHPROC, glFinish)

#define DECLARE(type, name) static type p_##name;
GL_FUNCTIONS(DECLARE)
#undef DECLARE

static char* read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = calloc(1, (size_t)n + 1);
  if (fread(text, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f);
  return text;
}

static void open_context(void) {
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) {
    fprintf(stderr, "no EGL display\n");
    exit(2);
  }
  eglBindAPI(EGL_OPENGL_API);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6,
                            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    fprintf(stderr, "no GL 4.6 context\n");
    exit(2);
  }
#define LOAD(type, name) p_##name = (type)eglGetProcAddress(#name);
  GL_FUNCTIONS(LOAD)
#undef LOAD
  printf("# %s | %s\n", (const char*)p_glGetString(GL_RENDERER), (const char*)p_glGetString(GL_VERSION));
}

static GLuint glsl_program(const char* source) {
  GLuint shader = p_glCreateShader(GL_COMPUTE_SHADER);
  p_glShaderSource(shader, 1, &source, NULL);
  p_glCompileShader(shader);
  GLint ok = 0;
  char log[8192];
  p_glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    p_glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "compile failed:\n%s\n", log);
    exit(1);
  }
  GLuint program = p_glCreateProgram();
  p_glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  p_glAttachShader(program, shader);
  p_glLinkProgram(program);
  p_glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    p_glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "link failed:\n%s\n", log);
    exit(1);
  }
  return program;
}

/* NVIDIA's program binary holds the assembly as text between "!!NVcp5.0" and "END". */
static void dump(GLuint program) {
  GLint length = 0;
  p_glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  char* binary = calloc(1, (size_t)length + 1);
  GLenum format = 0;
  p_glGetProgramBinary(program, length, NULL, &format, binary);
  for (GLint i = 0; i + 9 <= length; ++i) {
    if (memcmp(binary + i, "!!NVcp5.0", 9) != 0) continue;
    GLint end = i;
    while (end + 3 <= length && memcmp(binary + end, "END", 3) != 0) ++end;
    fwrite(binary + i, 1, (size_t)(end - i + 3), stdout);
    printf("\n");
    return;
  }
  fprintf(stderr, "no !!NVcp5.0 text in the %d-byte binary\n", length);
  exit(1);
}

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void run(const char* path, const char* text) {
  GLuint buffers[3];
  p_glGenBuffers(3, buffers);
  for (GLuint b = 0; b < 2; ++b) {
    GLuint words[16];
    for (GLuint i = 0; i < 16; ++i) words[i] = 1000 * b + 10 * i;
    p_glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, buffers[b]);
    p_glBufferData(GL_ATOMIC_COUNTER_BUFFER, sizeof words, words, GL_DYNAMIC_COPY);
    p_glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, b, buffers[b]);
  }
  GLuint poison[16];
  for (int i = 0; i < 16; ++i) poison[i] = 0xDEADBEEFu;
  p_glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[2]);
  p_glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof poison, poison, GL_DYNAMIC_COPY);
  p_glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers[2]);

  if (ends_with(path, ".nvcp5")) {
    GenProgramsProc gen = (GenProgramsProc)eglGetProcAddress("glGenProgramsARB");
    BindProgramProc bind = (BindProgramProc)eglGetProcAddress("glBindProgramARB");
    ProgramStringProc load = (ProgramStringProc)eglGetProcAddress("glProgramStringARB");
    GLuint program = 0;
    gen(1, &program);
    bind(COMPUTE_PROGRAM_NV, program);
    load(COMPUTE_PROGRAM_NV, PROGRAM_FORMAT_ASCII_ARB, (GLsizei)strlen(text), text);
    GLint position = -1;
    p_glGetIntegerv(PROGRAM_ERROR_POSITION_ARB, &position);
    if (position != -1) {
      fprintf(stderr, "load error at %d: %s\n", position, (const char*)p_glGetString(PROGRAM_ERROR_STRING_ARB));
      exit(1);
    }
    p_glEnable(COMPUTE_PROGRAM_NV);
  } else {
    p_glUseProgram(glsl_program(text));
  }
  p_glDispatchCompute(1, 1, 1);
  p_glMemoryBarrier(GL_ALL_BARRIER_BITS);
  p_glFinish();
  printf("# GL error after dispatch: 0x%04x\n", p_glGetError());
  const char* names[3] = {"counters binding 0", "counters binding 1", "storage 0"};
  for (int b = 0; b < 3; ++b) {
    GLuint words[16];
    p_glBindBuffer(GL_COPY_READ_BUFFER, buffers[b]);
    p_glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof words, words);
    printf("%s:", names[b]);
    for (int i = 0; i < 16; ++i) printf(" %u", words[i]);
    printf("\n");
  }
}

static void limits(void) {
  GetProgramivProc get = (GetProgramivProc)eglGetProcAddress("glGetProgramivARB");
  const struct {
    GLenum pname;
    const char* name;
  } queries[] = {{0x88F5, "MAX_PROGRAM_CALL_DEPTH_NV"},
                 {0x8F44, "MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV"},
                 {0x8F45, "MAX_PROGRAM_SUBROUTINE_NUM_NV"}};
  for (size_t i = 0; i < sizeof queries / sizeof queries[0]; ++i) {
    GLint value = -1;
    get(COMPUTE_PROGRAM_NV, queries[i].pname, &value);
    printf("%s = %d (GL error 0x%04x)\n", queries[i].name, value, p_glGetError());
  }
}

static void residency(void) {
  typedef void(APIENTRYP MakeResident)(GLenum, GLenum);
  typedef void(APIENTRYP MakeNonResident)(GLenum);
  typedef GLboolean(APIENTRYP IsResident)(GLenum);
  typedef void(APIENTRYP GetBufferUi64)(GLenum, GLenum, GLuint64*);
  typedef void(APIENTRYP GetIntegerUi64)(GLenum, GLuint64*);
  MakeResident make = (MakeResident)eglGetProcAddress("glMakeBufferResidentNV");
  MakeNonResident unmake = (MakeNonResident)eglGetProcAddress("glMakeBufferNonResidentNV");
  IsResident is = (IsResident)eglGetProcAddress("glIsBufferResidentNV");
  GetBufferUi64 address = (GetBufferUi64)eglGetProcAddress("glGetBufferParameterui64vNV");
  GetIntegerUi64 integer = (GetIntegerUi64)eglGetProcAddress("glGetIntegerui64vNV");
  if (!make || !unmake || !is || !address || !integer) {
    printf("no NV_shader_buffer_load entry points\n");
    return;
  }
  const GLenum target = GL_SHADER_STORAGE_BUFFER, kAddress = 0x8F1D, kMaxAddress = 0x8F35;
  GLuint buffers[2];
  p_glGenBuffers(2, buffers);
  p_glBindBuffer(target, buffers[0]);
  p_glBufferData(target, 64, NULL, GL_DYNAMIC_DRAW);
  GLuint64 value = 0;
  address(target, kAddress, &value);
  printf("address before MakeBufferResident: %s, error 0x%04x\n", value ? "nonzero" : "0", p_glGetError());
  make(target, GL_READ_ONLY);
  printf("MakeBufferResident: error 0x%04x, IsBufferResident %d\n", p_glGetError(), is(target));
  make(target, GL_READ_ONLY);
  printf("MakeBufferResident again: error 0x%04x\n", p_glGetError());
  address(target, kAddress, &value);
  printf("address while resident: %s, error 0x%04x\n", value ? "nonzero" : "0", p_glGetError());
  unmake(target);
  printf("MakeBufferNonResident: error 0x%04x, IsBufferResident %d\n", p_glGetError(), is(target));
  unmake(target);
  printf("MakeBufferNonResident again: error 0x%04x\n", p_glGetError());
  make(target, GL_READ_WRITE);
  printf("MakeBufferResident READ_WRITE: error 0x%04x\n", p_glGetError());
  p_glBufferData(target, 128, NULL, GL_DYNAMIC_DRAW);
  printf("BufferData on a resident buffer: error 0x%04x, IsBufferResident %d\n", p_glGetError(), is(target));
  make(target, GL_WRITE_ONLY);
  printf("MakeBufferResident WRITE_ONLY: error 0x%04x\n", p_glGetError());
  p_glBindBuffer(target, buffers[1]);
  make(target, GL_READ_ONLY);
  printf("MakeBufferResident without a data store: error 0x%04x\n", p_glGetError());
  p_glBindBuffer(target, 0);
  make(target, GL_READ_ONLY);
  printf("MakeBufferResident with no buffer bound: error 0x%04x\n", p_glGetError());
  integer(kMaxAddress, &value);
  printf("MAX_SHADER_BUFFER_ADDRESS_NV: 0x%016llx, error 0x%04x\n", (unsigned long long)value, p_glGetError());
}

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "dump") != 0 && strcmp(argv[1], "run") != 0 && strcmp(argv[1], "limits") != 0 &&
                    strcmp(argv[1], "residency") != 0)) {
    fprintf(stderr, "usage: %s dump FILE.comp | run FILE.comp|FILE.nvcp5 | limits - | residency -\n", argv[0]);
    return 2;
  }
  if (strcmp(argv[1], "residency") == 0) {
    open_context();
    residency();
    return 0;
  }
  if (strcmp(argv[1], "limits") == 0) {
    open_context();
    limits();
    return 0;
  }
  char* text = read_file(argv[2]);
  open_context();
  if (strcmp(argv[1], "dump") == 0)
    dump(glsl_program(text));
  else
    run(argv[2], text);
  return 0;
}
