/* Per-stage limits of programs with graphics stages: the values glGet* reports (GL 4.6 Tables 23.57-23.62 give
 * the minimum of each) and the link of a program that uses more than one of them.
 *
 * GL 4.6 §7.6: "The implementation-dependent amount of storage available for uniform variables, except for atomic
 * counters, in the default uniform block accessed by a vertex shader is specified by the value of the
 * implementation-dependent constant MAX_VERTEX_UNIFORM_COMPONENTS" (likewise per stage); "A scalar or vector
 * uniform with single-precision components will consume no more than n components"; "The total amount of combined
 * storage available for uniform variables in all uniform blocks accessed by a vertex shader (including the default
 * uniform block) is specified by the value of the implementation-dependent constant
 * MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS"; "The implementation-dependent constants MAX_VERTEX_UNIFORM_VECTORS and
 * MAX_FRAGMENT_UNIFORM_VECTORS have values respectively equal to the values of MAX_VERTEX_UNIFORM_COMPONENTS and
 * MAX_FRAGMENT_UNIFORM_COMPONENTS divided by four."
 * GL 4.6 §11.1.2.1: "A program whose vertex shader writes more than the value of MAX_VERTEX_OUTPUT_COMPONENTS
 * components worth of outputs may fail to link"; "there is a limit on the total number of components used as
 * vertex shader outputs or fragment shader inputs. This limit is given by the value of the
 * implementation-dependent constant MAX_VARYING_COMPONENTS. The implementation-dependent constant
 * MAX_VARYING_VECTORS has a value equal to the value of MAX_VARYING_COMPONENTS divided by four."
 * GL 4.6 §11.1.1: a program fails to link when its active vertex attributes need more generic attributes than
 * MAX_VERTEX_ATTRIBS; GLSL 4.60 §4.4.1: an input location at or past the last one is a compile- or link-time
 * error. Tessellation and geometry stages: GL 4.6 §11.2.1.2 (MAX_TESS_PATCH_COMPONENTS), §11.2.3.2, §11.3.4.4
 * (MAX_GEOMETRY_OUTPUT_COMPONENTS, MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: "the product of the total number of
 * vertices and the number of components of all active output variables ... must be less than or equal to" it).
 * Bismuth reports the limit it checks in the failed link's info log. The sources are generated from the values the
 * context reports; a stage exactly at a limit links. */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

static char g_log[8192];

/* Compiles and links shaders of the given types and sources (count pairs); 1 when the program links. g_log holds
 * the log of the shader that failed to compile (a limit may be checked when compiling), else the program's. */
static int build(int count, const GLenum* types, const char* const* sources) {
  GLuint program = glCreateProgram();
  g_log[0] = 0;
  for (int i = 0; i < count; ++i) {
    GLuint s = glCreateShader(types[i]);
    glShaderSource(s, 1, &sources[i], NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) glGetShaderInfoLog(s, sizeof g_log, NULL, g_log);
    glAttachShader(program, s);
    glDeleteShader(s);
  }
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked && g_log[0] == 0) glGetProgramInfoLog(program, sizeof g_log, NULL, g_log);
  glDeleteProgram(program);
  return linked;
}

static int build1(GLenum type, const char* source) {
  return build(1, &type, &source);
}

/* A program that must fail to link, with a log naming `limit`. */
static void expect_limit(int linked, const char* limit, const char* what) {
  CHECK(!linked, "%s fails to link", what);
  if (!linked) CHECK(strstr(g_log, limit) != NULL, "%s: the log names %s, got: %s", what, limit, g_log);
}

static GLint get(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

static char g_source[16384];

/* A vertex shader reading `vectors` vec4s of default-block uniforms. */
static const char* vertex_uniforms(GLint vectors) {
  snprintf(g_source, sizeof g_source,
           "#version 430\nuniform vec4 u[%d];\nvoid main() {\n  vec4 s = vec4(0.0);\n"
           "  for (int k = 0; k < %d; ++k) s += u[k];\n  gl_Position = s;\n}\n",
           vectors, vectors);
  return g_source;
}

/* A fragment shader reading `vectors` vec4s of default-block uniforms. */
static const char* fragment_uniforms(GLint vectors) {
  snprintf(g_source, sizeof g_source,
           "#version 430\nuniform vec4 u[%d];\nout vec4 color;\nvoid main() {\n  vec4 s = vec4(0.0);\n"
           "  for (int k = 0; k < %d; ++k) s += u[k];\n  color = s;\n}\n",
           vectors, vectors);
  return g_source;
}

/* A vertex shader writing `components` floats of outputs. */
static const char* vertex_outputs(GLint components) {
  snprintf(g_source, sizeof g_source,
           "#version 430\nout float v[%d];\nvoid main() {\n  for (int k = 0; k < %d; ++k) v[k] = 1.0;\n"
           "  gl_Position = vec4(0.0);\n}\n",
           components, components);
  return g_source;
}

/* A fragment shader reading `components` floats of inputs. */
static const char* fragment_inputs(GLint components) {
  snprintf(g_source, sizeof g_source,
           "#version 430\nin float v[%d];\nout vec4 color;\nvoid main() {\n  float s = 0.0;\n"
           "  for (int k = 0; k < %d; ++k) s += v[k];\n  color = vec4(s);\n}\n",
           components, components);
  return g_source;
}

/* A vertex shader reading `slots` vec4 attributes (an array), or one at location `location` when >= 0. */
static const char* vertex_attributes(GLint slots, GLint location) {
  if (location >= 0) {
    snprintf(g_source, sizeof g_source,
             "#version 430\nlayout(location = %d) in vec4 a;\nvoid main() { gl_Position = a; }\n", location);
  } else {
    snprintf(g_source, sizeof g_source,
             "#version 430\nin vec4 a[%d];\nvoid main() {\n  vec4 s = vec4(0.0);\n"
             "  for (int k = 0; k < %d; ++k) s += a[k];\n  gl_Position = s;\n}\n",
             slots, slots);
  }
  return g_source;
}

/* A geometry shader emitting `vertices` vertices of `vectors` vec4 outputs each (with a vertex shader). */
static int geometry_outputs(GLint vectors, GLint vertices) {
  static char geometry[4096];
  snprintf(geometry, sizeof geometry,
           "#version 430\nlayout(points) in;\nlayout(points, max_vertices = %d) out;\nout vec4 o[%d];\n"
           "void main() {\n  for (int k = 0; k < %d; ++k) o[k] = vec4(1.0);\n  EmitVertex();\n}\n",
           vertices, vectors, vectors);
  const GLenum types[] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER};
  const char* sources[] = {"#version 430\nvoid main() { gl_Position = vec4(0.0); }\n", geometry};
  return build(2, types, sources);
}

/* A tessellation control shader writing `vectors` vec4s of patch outputs (with a vertex shader). */
static int patch_outputs(GLint vectors) {
  static char control[4096];
  snprintf(control, sizeof control,
           "#version 430\nlayout(vertices = 1) out;\npatch out vec4 p[%d];\n"
           "void main() {\n  for (int k = 0; k < %d; ++k) p[k] = vec4(1.0);\n}\n",
           vectors, vectors);
  const GLenum types[] = {GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER};
  const char* sources[] = {"#version 430\nvoid main() { gl_Position = vec4(0.0); }\n", control};
  return build(2, types, sources);
}

/* A tessellation evaluation shader reading a block of `vectors` vec4s per vertex. The vertex shader declares the
 * block without writing it (an unwritten output counts against no limit of its own stage). */
static int evaluation_inputs(GLint vectors) {
  static char vertex[4096], evaluation[4096];
  snprintf(vertex, sizeof vertex, "#version 430\nout B { vec4 v[%d]; } b;\nvoid main() { gl_Position = vec4(0.0); }\n",
           vectors);
  snprintf(evaluation, sizeof evaluation,
           "#version 430\nlayout(triangles) in;\nin B { vec4 v[%d]; } b[];\nvoid main() {\n  vec4 s = vec4(0.0);\n"
           "  for (int k = 0; k < %d; ++k) s += b[0].v[k];\n  gl_Position = s;\n}\n",
           vectors, vectors);
  const GLenum types[] = {GL_VERTEX_SHADER, GL_TESS_EVALUATION_SHADER};
  const char* sources[] = {vertex, evaluation};
  return build(2, types, sources);
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);

  /* The values and their GL 4.6 minimums (Tables 23.57-23.62, 23.65). */
  static const struct {
    GLenum pname;
    const char* name;
    GLint minimum;
  } kLimits[] = {
      {GL_MAX_VERTEX_UNIFORM_COMPONENTS, "MAX_VERTEX_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS, "MAX_TESS_CONTROL_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS, "MAX_TESS_EVALUATION_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_GEOMETRY_UNIFORM_COMPONENTS, "MAX_GEOMETRY_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, "MAX_FRAGMENT_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_COMPUTE_UNIFORM_COMPONENTS, "MAX_COMPUTE_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_VERTEX_UNIFORM_VECTORS, "MAX_VERTEX_UNIFORM_VECTORS", 256},
      {GL_MAX_FRAGMENT_UNIFORM_VECTORS, "MAX_FRAGMENT_UNIFORM_VECTORS", 256},
      {GL_MAX_VERTEX_ATTRIBS, "MAX_VERTEX_ATTRIBS", 16},
      {GL_MAX_VERTEX_OUTPUT_COMPONENTS, "MAX_VERTEX_OUTPUT_COMPONENTS", 64},
      {GL_MAX_TESS_CONTROL_INPUT_COMPONENTS, "MAX_TESS_CONTROL_INPUT_COMPONENTS", 128},
      {GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS, "MAX_TESS_CONTROL_OUTPUT_COMPONENTS", 128},
      {GL_MAX_TESS_PATCH_COMPONENTS, "MAX_TESS_PATCH_COMPONENTS", 120},
      {GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS, "MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS", 4096},
      {GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS, "MAX_TESS_EVALUATION_INPUT_COMPONENTS", 128},
      {GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS, "MAX_TESS_EVALUATION_OUTPUT_COMPONENTS", 128},
      {GL_MAX_GEOMETRY_INPUT_COMPONENTS, "MAX_GEOMETRY_INPUT_COMPONENTS", 64},
      {GL_MAX_GEOMETRY_OUTPUT_COMPONENTS, "MAX_GEOMETRY_OUTPUT_COMPONENTS", 128},
      {GL_MAX_GEOMETRY_OUTPUT_VERTICES, "MAX_GEOMETRY_OUTPUT_VERTICES", 256},
      {GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS, "MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS", 1024},
      {GL_MAX_FRAGMENT_INPUT_COMPONENTS, "MAX_FRAGMENT_INPUT_COMPONENTS", 128},
      {GL_MAX_VARYING_COMPONENTS, "MAX_VARYING_COMPONENTS", 60},
      {GL_MAX_VARYING_VECTORS, "MAX_VARYING_VECTORS", 15},
  };
  for (size_t i = 0; i < sizeof kLimits / sizeof kLimits[0]; ++i) {
    const GLint v = get(kLimits[i].pname);
    CHECK(v >= kLimits[i].minimum, "%s >= %d (GL 4.6's minimum), got %d", kLimits[i].name, kLimits[i].minimum, v);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "every per-stage limit is state");
  CHECK(get(GL_MAX_VERTEX_UNIFORM_VECTORS) * 4 == get(GL_MAX_VERTEX_UNIFORM_COMPONENTS),
        "MAX_VERTEX_UNIFORM_VECTORS is MAX_VERTEX_UNIFORM_COMPONENTS / 4");
  CHECK(get(GL_MAX_FRAGMENT_UNIFORM_VECTORS) * 4 == get(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS),
        "MAX_FRAGMENT_UNIFORM_VECTORS is MAX_FRAGMENT_UNIFORM_COMPONENTS / 4");
  CHECK(get(GL_MAX_VARYING_VECTORS) * 4 == get(GL_MAX_VARYING_COMPONENTS),
        "MAX_VARYING_VECTORS is MAX_VARYING_COMPONENTS / 4");
  /* Table 23.62's footnote: the minimum of MAX_COMBINED_<stage>_UNIFORM_COMPONENTS is MAX_<stage>_UNIFORM_BLOCKS x
   * MAX_UNIFORM_BLOCK_SIZE / 4 + MAX_<stage>_UNIFORM_COMPONENTS. */
  const GLint block_size = get(GL_MAX_UNIFORM_BLOCK_SIZE);
  static const GLenum kCombined[][3] = {
      {GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS, GL_MAX_VERTEX_UNIFORM_BLOCKS, GL_MAX_VERTEX_UNIFORM_COMPONENTS},
      {GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS, GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS,
       GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS},
      {GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS, GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS,
       GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS},
      {GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS, GL_MAX_GEOMETRY_UNIFORM_BLOCKS, GL_MAX_GEOMETRY_UNIFORM_COMPONENTS},
      {GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS, GL_MAX_FRAGMENT_UNIFORM_BLOCKS, GL_MAX_FRAGMENT_UNIFORM_COMPONENTS},
      {GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS, GL_MAX_COMPUTE_UNIFORM_BLOCKS, GL_MAX_COMPUTE_UNIFORM_COMPONENTS},
  };
  for (size_t i = 0; i < sizeof kCombined / sizeof kCombined[0]; ++i) {
    const long long minimum = (long long)get(kCombined[i][1]) * block_size / 4 + get(kCombined[i][2]);
    CHECK(get(kCombined[i][0]) >= minimum, "MAX_COMBINED_*_UNIFORM_COMPONENTS 0x%x >= %lld, got %d",
          (unsigned)kCombined[i][0], minimum, get(kCombined[i][0]));
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "the combined uniform limits are state");

  /* Default-block uniforms: at the limit the stage links, one vec4 more fails. */
  const GLint vertex_uniform = get(GL_MAX_VERTEX_UNIFORM_COMPONENTS) / 4;
  CHECK(build1(GL_VERTEX_SHADER, vertex_uniforms(vertex_uniform)),
        "a vertex shader using MAX_VERTEX_UNIFORM_COMPONENTS components of uniforms links: %s", g_log);
  expect_limit(build1(GL_VERTEX_SHADER, vertex_uniforms(vertex_uniform + 1)), "MAX_VERTEX_UNIFORM_COMPONENTS",
               "a vertex shader using one vec4 more than MAX_VERTEX_UNIFORM_COMPONENTS");
  const GLint fragment_uniform = get(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS) / 4;
  CHECK(build1(GL_FRAGMENT_SHADER, fragment_uniforms(fragment_uniform)),
        "a fragment shader using MAX_FRAGMENT_UNIFORM_COMPONENTS components of uniforms links: %s", g_log);
  expect_limit(build1(GL_FRAGMENT_SHADER, fragment_uniforms(fragment_uniform + 1)), "MAX_FRAGMENT_UNIFORM_COMPONENTS",
               "a fragment shader using one vec4 more than MAX_FRAGMENT_UNIFORM_COMPONENTS");
  /* Uniform blocks and the default block together: a block as large as the combined limit less the default
   * block's uniforms, plus one vec4 more. */
  {
    const GLint combined = get(GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS);
    snprintf(g_source, sizeof g_source,
             "#version 430\nlayout(std140) uniform Big { vec4 b[%d]; };\nuniform vec4 d[%d];\nuniform int i;\n"
             "void main() { gl_Position = b[i] + d[i]; }\n",
             combined / 4 - 15, 16);
    expect_limit(build1(GL_VERTEX_SHADER, g_source), "MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS",
                 "a vertex shader using one vec4 more than MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS");
  }

  /* Vertex attributes. */
  const GLint attribs = get(GL_MAX_VERTEX_ATTRIBS);
  CHECK(build1(GL_VERTEX_SHADER, vertex_attributes(attribs, -1)),
        "a vertex shader reading MAX_VERTEX_ATTRIBS attributes links: %s", g_log);
  expect_limit(build1(GL_VERTEX_SHADER, vertex_attributes(attribs + 1, -1)), "MAX_VERTEX_ATTRIBS",
               "a vertex shader reading MAX_VERTEX_ATTRIBS + 1 attributes");
  CHECK(build1(GL_VERTEX_SHADER, vertex_attributes(0, attribs - 1)),
        "an attribute at location MAX_VERTEX_ATTRIBS - 1 links: %s", g_log);
  expect_limit(build1(GL_VERTEX_SHADER, vertex_attributes(0, attribs)), "MAX_VERTEX_ATTRIBS",
               "an attribute at location MAX_VERTEX_ATTRIBS");

  /* Vertex outputs and fragment inputs. */
  const GLint vertex_out = get(GL_MAX_VERTEX_OUTPUT_COMPONENTS);
  const GLint varyings = get(GL_MAX_VARYING_COMPONENTS);
  const GLint smaller = vertex_out < varyings ? vertex_out : varyings;
  CHECK(build1(GL_VERTEX_SHADER, vertex_outputs(smaller)),
        "a vertex shader writing min(MAX_VERTEX_OUTPUT_COMPONENTS, MAX_VARYING_COMPONENTS) components links: %s",
        g_log);
  expect_limit(build1(GL_VERTEX_SHADER, vertex_outputs(vertex_out + 1)), "MAX_VERTEX_OUTPUT_COMPONENTS",
               "a vertex shader writing MAX_VERTEX_OUTPUT_COMPONENTS + 1 components");
  if (varyings < vertex_out) {
    expect_limit(build1(GL_VERTEX_SHADER, vertex_outputs(varyings + 1)), "MAX_VARYING_COMPONENTS",
                 "a vertex shader writing MAX_VARYING_COMPONENTS + 1 components");
  }
  const GLint fragment_in = get(GL_MAX_FRAGMENT_INPUT_COMPONENTS);
  expect_limit(build1(GL_FRAGMENT_SHADER, fragment_inputs(fragment_in + 1)), "MAX_FRAGMENT_INPUT_COMPONENTS",
               "a fragment shader reading MAX_FRAGMENT_INPUT_COMPONENTS + 1 components");
  if (varyings < fragment_in) {
    expect_limit(build1(GL_FRAGMENT_SHADER, fragment_inputs(varyings + 1)), "MAX_VARYING_COMPONENTS",
                 "a fragment shader reading MAX_VARYING_COMPONENTS + 1 components");
  }
  CHECK(build1(GL_FRAGMENT_SHADER, fragment_inputs(varyings < fragment_in ? varyings : fragment_in)),
        "a fragment shader reading min(MAX_FRAGMENT_INPUT_COMPONENTS, MAX_VARYING_COMPONENTS) components links: %s",
        g_log);

  /* Geometry outputs: per vertex, and for all the vertices an invocation emits. */
  const GLint geometry_out = get(GL_MAX_GEOMETRY_OUTPUT_COMPONENTS);
  const GLint geometry_total = get(GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS);
  CHECK(geometry_outputs(geometry_out / 4, 1), "a geometry shader writing MAX_GEOMETRY_OUTPUT_COMPONENTS links: %s",
        g_log);
  expect_limit(geometry_outputs(geometry_out / 4 + 1, 1), "MAX_GEOMETRY_OUTPUT_COMPONENTS",
               "a geometry shader writing one vec4 more than MAX_GEOMETRY_OUTPUT_COMPONENTS");
  expect_limit(geometry_outputs(2, geometry_total / 8 + 1), "MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS",
               "a geometry shader emitting more than MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS in all");

  /* Tessellation: patch outputs, evaluation inputs. */
  const GLint patch = get(GL_MAX_TESS_PATCH_COMPONENTS);
  CHECK(patch_outputs(patch / 4), "a tessellation control shader writing MAX_TESS_PATCH_COMPONENTS links: %s", g_log);
  expect_limit(patch_outputs(patch / 4 + 1), "MAX_TESS_PATCH_COMPONENTS",
               "patch outputs of one vec4 more than MAX_TESS_PATCH_COMPONENTS");
  const GLint evaluation_in = get(GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS);
  expect_limit(evaluation_inputs(evaluation_in / 4 + 1), "MAX_TESS_EVALUATION_INPUT_COMPONENTS",
               "tessellation evaluation inputs of one vec4 more than MAX_TESS_EVALUATION_INPUT_COMPONENTS");
  CHECK_GL_ERROR(GL_NO_ERROR, "failed links are no GL errors");
  return conformance_result();
}
