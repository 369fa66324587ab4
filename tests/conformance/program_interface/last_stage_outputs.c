/* GL_PROGRAM_OUTPUT of a program whose last stage is not the fragment stage (issue 15, point 8).
 *
 * GL 4.6 §7.3.1: "PROGRAM_OUTPUT corresponds to the set of active output variables used by the last shader stage
 * of program. If program includes multiple shader stages, output variables from any shader stage other than the
 * last will not be enumerated." "For the UNIFORM, PROGRAM_INPUT, PROGRAM_OUTPUT, and TRANSFORM_FEEDBACK_VARYING
 * interfaces, the active resource list will include all active variables for the interface, including any active
 * built-in variables."
 * §7.3.1.1: an array of basic type is one entry named "a[0]"; LOCATION is -1 "for ... built-in" variables.
 * A gl_PerVertex member is a built-in variable named by itself ("gl_Position"); one the shader never uses is not
 * active (GLSL 4.60 §7.1: the built-in outputs are variables like any other; GL 4.6 §7.3.1 calls a variable
 * active when the compiler "determines that the variable ... may be accessed when the program is executed").
 * Interface block members are named "Block.member" (§7.3.1.1: "the block name ... followed by "." and the
 * member name"). */
#include <string.h>

#include "conformance.h"

static GLuint program_of(GLenum type1, const char* source1, GLenum type2, const char* source2) {
  GLuint program = glCreateProgram();
  GLenum types[2] = {type1, type2};
  const char* sources[2] = {source1, source2};
  for (int i = 0; i < 2 && sources[i]; ++i) {
    GLuint s = glCreateShader(types[i]);
    glShaderSource(s, 1, &sources[i], NULL);
    glCompileShader(s);
    glAttachShader(program, s);
  }
  glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE); /* a geometry shader alone needs it (§7.3) */
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    char log[2048];
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "link failed:\n%s\n", log);
  }
  CHECK(linked, "the program links");
  return program;
}

static GLint outputs(GLuint program) {
  GLint n = -1;
  glGetProgramInterfaceiv(program, GL_PROGRAM_OUTPUT, GL_ACTIVE_RESOURCES, &n);
  return n;
}

static GLint prop(GLuint program, const char* name, GLenum property) {
  GLuint index = glGetProgramResourceIndex(program, GL_PROGRAM_OUTPUT, name);
  if (index == GL_INVALID_INDEX) return -12345;
  GLint value = -12345;
  glGetProgramResourceiv(program, GL_PROGRAM_OUTPUT, index, 1, &property, 1, NULL, &value);
  return value;
}

static int has(GLuint program, const char* name) {
  return glGetProgramResourceIndex(program, GL_PROGRAM_OUTPUT, name) != GL_INVALID_INDEX;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);

  /* A vertex-only program: its outputs are the program's. */
  GLuint vs = program_of(GL_VERTEX_SHADER,
                         "#version 430\n"
                         "layout(location = 2) out vec2 uv;\n"
                         "out float weights[3];\n"
                         "out Extra { vec3 normal; float unused_member; } extra;\n"
                         "void main() {\n"
                         "  gl_Position = vec4(1.0);\n"
                         "  uv = vec2(0.5);\n"
                         "  weights[1] = 2.0;\n"
                         "  extra.normal = vec3(0.0, 0.0, 1.0);\n"
                         "}\n",
                         0, NULL);
  CHECK(outputs(vs) == 4, "vertex-only: 4 active outputs (gl_Position, uv, weights[0], Extra.normal), got %d",
        outputs(vs));
  CHECK(prop(vs, "gl_Position", GL_TYPE) == GL_FLOAT_VEC4, "gl_Position: an active built-in, TYPE FLOAT_VEC4");
  CHECK(prop(vs, "gl_Position", GL_LOCATION) == -1, "gl_Position: LOCATION -1 (a built-in)");
  CHECK(prop(vs, "gl_Position", GL_REFERENCED_BY_VERTEX_SHADER) == 1, "gl_Position: referenced by the vertex shader");
  CHECK(!has(vs, "gl_PointSize") && !has(vs, "gl_ClipDistance[0]") && !has(vs, "gl_CullDistance[0]"),
        "gl_PerVertex members the shader never writes are not active");
  CHECK(prop(vs, "uv", GL_LOCATION) == 2, "uv: its declared location 2");
  CHECK(prop(vs, "weights[0]", GL_ARRAY_SIZE) == 3, "weights[0]: ARRAY_SIZE 3");
  CHECK(prop(vs, "weights", GL_TYPE) == GL_FLOAT, "\"weights\" names weights[0]");
  CHECK(prop(vs, "Extra.normal", GL_TYPE) == GL_FLOAT_VEC3, "Extra.normal: a block member named Block.member");
  CHECK(!has(vs, "Extra.unused_member"), "a block member the shader never uses is not active");
  CHECK(!has(vs, "extra.normal"), "block members are named by the block name, not the instance name");

  /* A geometry-only program: the geometry stage's outputs, built-ins outside gl_PerVertex too. */
  GLuint gs = program_of(GL_GEOMETRY_SHADER,
                         "#version 430\n"
                         "layout(points) in;\n"
                         "layout(points, max_vertices = 1) out;\n"
                         "out vec4 color;\n"
                         "void main() {\n"
                         "  gl_Position = gl_in[0].gl_Position;\n"
                         "  gl_PointSize = 4.0;\n"
                         "  gl_Layer = 1;\n"
                         "  color = vec4(1.0);\n"
                         "  EmitVertex();\n"
                         "}\n",
                         0, NULL);
  CHECK(outputs(gs) == 4, "geometry: 4 active outputs (gl_Position, gl_PointSize, gl_Layer, color), got %d",
        outputs(gs));
  CHECK(prop(gs, "gl_PointSize", GL_TYPE) == GL_FLOAT, "gl_PointSize: TYPE FLOAT");
  CHECK(prop(gs, "gl_Layer", GL_TYPE) == GL_INT, "gl_Layer: TYPE INT");
  CHECK(prop(gs, "color", GL_REFERENCED_BY_GEOMETRY_SHADER) == 1 &&
            prop(gs, "color", GL_REFERENCED_BY_VERTEX_SHADER) == 0,
        "color: referenced by the geometry shader only");
  CHECK(!has(gs, "gl_ClipDistance[0]"), "gl_ClipDistance is not written: not active");

  /* Vertex + geometry: only the last stage's outputs are enumerated. */
  GLuint vgs = program_of(GL_VERTEX_SHADER,
                          "#version 430\n"
                          "out vec4 vertex_only;\n"
                          "void main() { gl_Position = vec4(0.0); vertex_only = vec4(1.0); }\n",
                          GL_GEOMETRY_SHADER,
                          "#version 430\n"
                          "layout(points) in;\n"
                          "layout(points, max_vertices = 1) out;\n"
                          "in vec4 vertex_only[];\n"
                          "out vec4 color;\n"
                          "void main() { color = vertex_only[0]; gl_Position = vec4(0.0); EmitVertex(); }\n");
  CHECK(outputs(vgs) == 2, "vertex + geometry: the geometry stage's 2 outputs, got %d", outputs(vgs));
  CHECK(!has(vgs, "vertex_only"), "the vertex stage's outputs are not program outputs");

  /* A tessellation control program (separable): per-vertex outputs are named by the variable; IS_PER_PATCH
   * (Table 7.2: "whether a program input or output is a per-patch attribute") tells patch outputs. */
  GLuint tcs = program_of(GL_TESS_CONTROL_SHADER,
                          "#version 430\n"
                          "layout(vertices = 3) out;\n"
                          "out vec4 per_vertex[];\n"
                          "patch out float per_patch;\n"
                          "void main() {\n"
                          "  per_vertex[gl_InvocationID] = vec4(1.0);\n"
                          "  per_patch = 1.0;\n"
                          "  gl_TessLevelOuter[0] = 1.0;\n"
                          "}\n",
                          0, NULL);
  CHECK(prop(tcs, "per_patch", GL_IS_PER_PATCH) == 1, "per_patch: IS_PER_PATCH 1");
  CHECK(prop(tcs, "per_vertex", GL_IS_PER_PATCH) == 0, "per_vertex: IS_PER_PATCH 0");
  CHECK(prop(tcs, "gl_TessLevelOuter[0]", GL_IS_PER_PATCH) == 1, "gl_TessLevelOuter: a per-patch built-in");
  CHECK(prop(tcs, "per_vertex", GL_TYPE) == GL_FLOAT_VEC4, "per_vertex: TYPE of its element, FLOAT_VEC4");

  /* A vertex shader that writes no built-in: no gl_PerVertex member is active. */
  GLuint plain = program_of(GL_VERTEX_SHADER, "#version 430\nout vec4 v;\nvoid main() { v = vec4(1.0); }\n", 0, NULL);
  CHECK(outputs(plain) == 1, "a vertex shader writing only v: 1 active output, got %d", outputs(plain));
  char name[32] = {0};
  glGetProgramResourceName(plain, GL_PROGRAM_OUTPUT, 0, sizeof name, NULL, name);
  CHECK(strcmp(name, "v") == 0, "its name is \"v\", got \"%s\"", name);
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
