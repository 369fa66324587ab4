// The GLSL front for vertex, tessellation, geometry and fragment shaders (translator/graphics_program.hpp): GL's
// compile and link rules, quoted from GL 4.6 and GLSL 4.60. Nothing here runs: these stages are only compiled and
// linked so that programs get a GL driver's results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "bismuth/translator/graphics_program.hpp"

using namespace bismuth::translator;

namespace {

std::shared_ptr<const GlGraphicsShader> compile(ShaderStage stage, const std::string& source) {
  auto shader = GlGraphicsShader::compile(stage, source);
  INFO(shader->info_log());
  return shader;
}

bismuth::Expected<GlGraphicsProgram> link(std::initializer_list<std::shared_ptr<const GlGraphicsShader>> shaders,
                                          bool separable = false) {
  std::vector<std::shared_ptr<const GlGraphicsShader>> list(shaders);
  return link_gl_graphics_program(list, {.separable = separable});
}

const char* kVertex = R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 3) in vec2 uv[2];
out vec4 color;
void main() {
  gl_Position = position;
  color = vec4(uv[0], uv[1]);
}
)";

const char* kFragment = R"(#version 450
in vec4 color;
layout(location = 0) out vec4 frag;
void main() { frag = color; }
)";

const char* kGeometry = R"(#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 color[];
out vec4 gcolor;
void main() {
  for (int i = 0; i < 3; ++i) {
    gcolor = color[i];
    gl_Position = gl_in[i].gl_Position;
    EmitVertex();
  }
}
)";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("graphics: a vertex and a fragment shader compile and link, and the program lists its inputs and outputs") {
  auto vs = compile(ShaderStage::Vertex, kVertex);
  auto fs = compile(ShaderStage::Fragment, kFragment);
  REQUIRE(vs->ok());
  REQUIRE(fs->ok());
  CHECK(vs->stage() == ShaderStage::Vertex);
  auto program = link({vs, fs});
  REQUIRE(program);
  CHECK(program->stages == std::vector<ShaderStage>{ShaderStage::Vertex, ShaderStage::Fragment});
  // GL 4.6 §7.3.1: PROGRAM_INPUT holds the first stage's active inputs, PROGRAM_OUTPUT the last stage's outputs;
  // an array is named by its first element ("uv[0]", §7.3.1.1).
  auto find = [](const std::vector<GlStageVariable>& list, const std::string& name) -> const GlStageVariable* {
    for (const auto& v : list) {
      if (v.name == name) return &v;
    }
    return nullptr;
  };
  const GlStageVariable* position = find(program->inputs, "position");
  REQUIRE(position != nullptr);
  CHECK(position->gl_type == 0x8B52);  // GL_FLOAT_VEC4
  CHECK(position->location == 0);
  CHECK(position->array_size == 1);
  const GlStageVariable* uv = find(program->inputs, "uv[0]");
  REQUIRE(uv != nullptr);
  CHECK(uv->gl_type == 0x8B50);  // GL_FLOAT_VEC2
  CHECK(uv->location == 3);
  CHECK(uv->array_size == 2);
  const GlStageVariable* frag = find(program->outputs, "frag");
  REQUIRE(frag != nullptr);
  CHECK(frag->location == 0);
  CHECK(find(program->outputs, "color") == nullptr);  // an output of the vertex stage is not a program output
}

TEST_CASE("graphics: a compile error is a failed compile with the user's line in a GL info log") {
  auto fs = compile(ShaderStage::Fragment, "#version 450\nout vec4 f;\nvoid main() {\n  f = undeclared;\n}\n");
  CHECK_FALSE(fs->ok());
  CHECK(contains(fs->info_log(), "0:4("));
  CHECK(contains(fs->info_log(), "error"));
}

TEST_CASE("graphics: each stage's own rules apply at compile time") {
  // GLSL 4.60 §7.1.4: EmitVertex is available only in the geometry language.
  CHECK_FALSE(compile(ShaderStage::Vertex, "#version 450\nvoid main() { EmitVertex(); }\n")->ok());
  CHECK(compile(ShaderStage::Geometry, kGeometry)->ok());
  // GLSL 4.60 §4.3.4: "It is a compile-time error to declare a vertex shader input with, or that contains, any of
  // the following types: A boolean type".
  CHECK_FALSE(compile(ShaderStage::Vertex, "#version 450\nin bool b;\nvoid main() {}\n")->ok());
  // GLSL 4.60 §7.1.5: gl_FragCoord is a fragment-language built-in.
  CHECK_FALSE(compile(ShaderStage::Vertex, "#version 450\nvoid main() { gl_Position = gl_FragCoord; }\n")->ok());
}

TEST_CASE("graphics: a stage without main fails to link") {
  // GLSL 4.60 §6.1: "A shader need not contain a function named main, but one shader in a set of shaders linked
  // together to form a single shader executable must, or a link-time error results."
  auto vs = compile(ShaderStage::Vertex, "#version 450\nvec4 f() { return vec4(1.0); }\n");
  REQUIRE(vs->ok());
  auto fs = compile(ShaderStage::Fragment, "#version 450\nout vec4 frag;\nvoid main() { frag = vec4(1.0); }\n");
  auto program = link({vs, fs});
  REQUIRE_FALSE(program);
  CHECK(contains(program.error().message, "error"));
  // ... and one with main in another shader object of the same stage links (the same shader object, linked before
  // on its own, links again: GL 4.6 §7.3 lets a shader object be attached to and linked into any program).
  auto vs_main = compile(ShaderStage::Vertex, "#version 450\nvec4 f();\nvoid main() { gl_Position = f(); }\n");
  auto two_vertex_shaders = link({vs, vs_main, fs});
  INFO((two_vertex_shaders ? std::string() : two_vertex_shaders.error().message));
  REQUIRE(two_vertex_shaders);
}

TEST_CASE("graphics: no shaders, or a shader that did not compile, fail to link") {
  // GL 4.6 §7.3: linking fails if "No shader objects are attached to program" or "One or more of the shader
  // objects attached to program are not compiled successfully".
  CHECK_FALSE(link({}));
  auto bad = compile(ShaderStage::Vertex, "#version 450\nvoid main() { x; }\n");
  REQUIRE_FALSE(bad->ok());
  CHECK_FALSE(link({bad}));
}

TEST_CASE("graphics: a program of one fragment shader links") {
  // GL 4.6 §7.3 requires a vertex shader only for programs with tessellation or geometry shaders; a program
  // without one runs the fragment stage on undefined vertex results (§11.1).
  REQUIRE(link({compile(ShaderStage::Fragment, kFragment)}));
  REQUIRE(link({compile(ShaderStage::Vertex, kVertex)}));
}

TEST_CASE("graphics: outputs and inputs that match in name must match in type") {
  // GL 4.6 §7.4.1: "it is a link-time error if ... the matching input and output ... do not have the same type"
  // (GLSL 4.60 §4.3.4: "output variables and ... input variables of the same name must match in type").
  auto vs = compile(ShaderStage::Vertex, "#version 450\nout vec3 color;\nvoid main() { color = vec3(1.0); }\n");
  auto fs = compile(ShaderStage::Fragment, kFragment);
  auto program = link({vs, fs});
  REQUIRE_FALSE(program);
  CHECK(contains(program.error().message, "color"));
  CHECK(contains(program.error().message, "error:"));
}

TEST_CASE("graphics: outputs and inputs with a location match by location, whatever their names") {
  // GL 4.6 §7.4.1: variables declared with a location match by location.
  auto vs =
      compile(ShaderStage::Vertex, "#version 450\nlayout(location = 1) out vec4 a;\nvoid main() { a = vec4(1.0); }\n");
  auto fs_ok = compile(ShaderStage::Fragment,
                       "#version 450\nlayout(location = 1) in vec4 b;\nout vec4 f;\nvoid main() { f = b; }\n");
  auto fs_bad = compile(ShaderStage::Fragment,
                        "#version 450\nlayout(location = 1) in vec2 b;\nout vec4 f;\nvoid main() { f = b.xyxy; }\n");
  CHECK(link({vs, fs_ok}));
  CHECK_FALSE(link({vs, fs_bad}));
}

TEST_CASE("graphics: interface blocks match by block name") {
  auto vs =
      compile(ShaderStage::Vertex, "#version 450\nout Data { vec4 c; } vout;\nvoid main() { vout.c = vec4(1.0); }\n");
  auto fs = compile(ShaderStage::Fragment,
                    "#version 450\nin Data { vec4 c; } fin;\nout vec4 f;\nvoid main() { f = fin.c; }\n");
  auto fs_bad = compile(ShaderStage::Fragment,
                        "#version 450\nin Data { ivec4 c; } fin;\nout vec4 f;\nvoid main() { f = vec4(fin.c); }\n");
  CHECK(link({vs, fs}));
  CHECK_FALSE(link({vs, fs_bad}));
}

TEST_CASE("graphics: geometry shaders need a vertex shader unless the program is separable") {
  // GL 4.6 §7.3: linking fails if "program contains objects to form a geometry shader ... and the program is not
  // separable and contains no objects to form a vertex shader".
  auto gs = compile(ShaderStage::Geometry, kGeometry);
  REQUIRE(gs->ok());
  auto fs = compile(ShaderStage::Fragment, "#version 450\nin vec4 gcolor;\nout vec4 f;\nvoid main() { f = gcolor; }\n");
  auto program = link({gs, fs});
  REQUIRE_FALSE(program);
  CHECK(contains(program.error().message, "vertex shader"));
  CHECK(link({gs, fs}, true));
  // The per-vertex array input of the geometry shader matches the vertex shader's output element type.
  CHECK(link({compile(ShaderStage::Vertex, kVertex), gs, fs}));
  auto gs_bad = compile(ShaderStage::Geometry, R"(#version 450
layout(triangles) in;
layout(points, max_vertices = 1) out;
in vec3 color[];
void main() { gl_Position = vec4(color[0], 1.0); EmitVertex(); }
)");
  REQUIRE(gs_bad->ok());
  CHECK_FALSE(link({compile(ShaderStage::Vertex, kVertex), gs_bad}));
}

TEST_CASE("graphics: a geometry shader must declare its primitives and maximum vertex count") {
  // GL 4.6 §7.3: linking fails if "the input primitive type, output primitive type, or maximum output vertex count
  // is not specified in any compiled geometry shader object".
  auto gs = compile(ShaderStage::Geometry, R"(#version 450
layout(triangles) in;
layout(triangle_strip) out;
void main() { EmitVertex(); }
)");
  REQUIRE(gs->ok());
  CHECK_FALSE(link({compile(ShaderStage::Vertex, kVertex), gs}));
}

TEST_CASE("graphics: tessellation stages need their layouts and match per-vertex arrays") {
  const char* tcs = R"(#version 450
layout(vertices = 3) out;
in vec4 color[];
out vec4 tcolor[];
void main() {
  tcolor[gl_InvocationID] = color[gl_InvocationID];
  gl_TessLevelOuter[0] = 1.0;
}
)";
  const char* tes = R"(#version 450
layout(triangles) in;
in vec4 tcolor[];
void main() { gl_Position = tcolor[0]; }
)";
  auto vs = compile(ShaderStage::Vertex, kVertex);
  auto control = compile(ShaderStage::TessControl, tcs);
  auto evaluation = compile(ShaderStage::TessEvaluation, tes);
  REQUIRE(control->ok());
  REQUIRE(evaluation->ok());
  CHECK(link({vs, control, evaluation}));
  // GL 4.6 §7.3: "program contains objects to form a tessellation control shader ... and the program is not
  // separable and contains no objects to form a vertex shader".
  CHECK_FALSE(link({control, evaluation}));
  // GL 4.6 §7.3: linking fails if "the output patch vertex count is not specified in any compiled tessellation
  // control shader object".
  auto no_vertices = compile(ShaderStage::TessControl, "#version 450\nvoid main() { gl_TessLevelOuter[0] = 1.0; }\n");
  REQUIRE(no_vertices->ok());
  CHECK_FALSE(link({vs, no_vertices, evaluation}));
  // GL 4.6 §7.3: linking fails if "the tessellation primitive mode is not specified in any compiled tessellation
  // evaluation shader object".
  auto no_mode = compile(ShaderStage::TessEvaluation, "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  REQUIRE(no_mode->ok());
  CHECK_FALSE(link({vs, control, no_mode}));
  auto evaluation_bad = compile(ShaderStage::TessEvaluation,
                                "#version 450\nlayout(triangles) in;\nin vec2 tcolor[];\nvoid main() { gl_Position = "
                                "tcolor[0].xyxy; }\n");
  REQUIRE(evaluation_bad->ok());
  CHECK_FALSE(link({vs, control, evaluation_bad}));
}

TEST_CASE("graphics: sources nested beyond the front's limits are compile errors, not crashes") {
  std::string deep = "#version 450\nvoid main() { float x = ";
  for (int i = 0; i < 100000; ++i) deep += "(";
  deep += "1.0";
  for (int i = 0; i < 100000; ++i) deep += ")";
  deep += "; }\n";
  auto shader = compile(ShaderStage::Fragment, deep);
  CHECK_FALSE(shader->ok());
  CHECK(contains(shader->info_log(), "error"));
}

TEST_CASE("graphics: a statically read input needs an output of the previous stage, an unread one does not") {
  // GLSL 4.60 §4.3.4: "Only the input variables that are statically read need to be written by the previous stage;
  // it is allowed to have superfluous declarations of input variables."
  auto vs = compile(ShaderStage::Vertex, "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  auto reads = compile(ShaderStage::Fragment, kFragment);
  auto ignores =
      compile(ShaderStage::Fragment, "#version 450\nin vec4 color;\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n");
  auto program = link({vs, reads});
  REQUIRE_FALSE(program);
  CHECK(contains(program.error().message, "color"));
  CHECK(link({vs, ignores}));
  // The first stage's inputs come from vertex attributes, not from a previous stage.
  CHECK(link({reads}));
}

TEST_CASE("graphics: desktop versions mix, ES shaders link only with ES shaders of their version") {
  // GLSL 4.60 §3.3: shaders of different desktop versions can be linked together; ES shaders cannot be linked with
  // desktop shaders or with ES shaders of another version (Mesa's linker, piglit shaders/version-mixing).
  auto vs_450 = compile(ShaderStage::Vertex, "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  auto fs_330 = compile(ShaderStage::Fragment, "#version 330\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n");
  auto vs_es = compile(ShaderStage::Vertex, "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n");
  auto fs_es = compile(ShaderStage::Fragment,
                       "#version 300 es\nprecision mediump float;\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n");
  auto fs_es310 = compile(ShaderStage::Fragment,
                          "#version 310 es\nprecision mediump float;\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n");
  REQUIRE(vs_es->ok());
  REQUIRE(fs_es->ok());
  REQUIRE(fs_es310->ok());
  CHECK(link({vs_450, fs_330}));
  CHECK(link({vs_es, fs_es}));
  CHECK_FALSE(link({vs_450, fs_es}));
  CHECK_FALSE(link({vs_es, fs_330}));
  CHECK_FALSE(link({vs_es, fs_es310}));
}

TEST_CASE("graphics: atomic counters and structure members are reflected by GL's naming rules, with their stages") {
  // GL 4.6 §7.3.1.1: a structure is one entry per member ("s.f"), an array of structures one per element
  // ("a[1].f"), an array of basic types one entry "a[0]"; GL_ATOMIC_COUNTER_BUFFER lists the binding points of the
  // active counters. GLSL 4.60 §4.4.6.2: a counter without offset follows the previous one of its binding.
  auto vs = compile(ShaderStage::Vertex, R"(#version 450
struct S { float f; vec2 g[2]; };
uniform S s;
layout(binding = 2, offset = 8) uniform atomic_uint a;
layout(binding = 2) uniform atomic_uint b[3];
void main() { atomicCounterIncrement(a); atomicCounterIncrement(b[2]); gl_Position = vec4(s.f, s.g[1], 0.0); }
)");
  auto fs = compile(ShaderStage::Fragment, R"(#version 450
struct T { int k; };
uniform T t[2];
layout(binding = 0) uniform atomic_uint c;
layout(location = 0) out vec4 frag;
void main() { atomicCounterIncrement(c); frag = vec4(float(t[1].k)); }
)");
  REQUIRE(vs->ok());
  REQUIRE(fs->ok());
  auto program = link({vs, fs});
  REQUIRE(program);
  const GlLinkedProgram& p = program->interface;
  auto uniform = [&](const std::string& name) -> const GlUniform* {
    for (const auto& u : p.uniforms) {
      if (u.name == name) return &u;
    }
    return nullptr;
  };
  const GlUniform* f = uniform("s.f");
  REQUIRE(f != nullptr);
  CHECK(f->gl_type == 0x1406);  // GL_FLOAT
  CHECK(f->stages == 1u << static_cast<int>(ShaderStage::Vertex));
  const GlUniform* g = uniform("s.g[0]");
  REQUIRE(g != nullptr);
  CHECK(g->array_size == 2);
  const GlUniform* k = uniform("t[1].k");
  REQUIRE(k != nullptr);
  CHECK(k->stages == 1u << static_cast<int>(ShaderStage::Fragment));
  CHECK(uniform("s") == nullptr);
  REQUIRE(p.atomic_counters.size() == 3);
  auto counter = [&](const std::string& name) -> const GlAtomicCounter* {
    for (const auto& c : p.atomic_counters) {
      if (c.name == name) return &c;
    }
    return nullptr;
  };
  REQUIRE(counter("a") != nullptr);
  CHECK(counter("a")->gl_binding == 2);
  CHECK(counter("a")->offset == 8);
  REQUIRE(counter("b") != nullptr);
  CHECK(counter("b")->offset == 12);
  CHECK(counter("b")->array_size == 3);
  REQUIRE(counter("c") != nullptr);
  CHECK(counter("c")->gl_binding == 0);
  // One buffer per binding point, ordered by binding; binding 2 holds offsets 8 .. 23.
  REQUIRE(p.atomic_counter_buffers.size() == 2);
  CHECK(p.atomic_counter_buffers[0].gl_binding == 0);
  CHECK(p.atomic_counter_buffers[0].stages == 1u << static_cast<int>(ShaderStage::Fragment));
  CHECK(p.atomic_counter_buffers[1].gl_binding == 2);
  CHECK(p.atomic_counter_buffers[1].min_size == 24);
  CHECK(p.atomic_counter_buffers[1].stages == 1u << static_cast<int>(ShaderStage::Vertex));
}

TEST_CASE("graphics: a last vertex, tessellation or geometry stage lists the built-in outputs it writes") {
  // GL 4.6 §7.3.1: PROGRAM_OUTPUT holds the active outputs of the last stage, "including any active built-in
  // variables"; a gl_PerVertex member the shader never writes is not active.
  auto vs = compile(ShaderStage::Vertex, R"(#version 450
out vec3 n;
out Block { float used; float unused; } blk;
void main() { gl_Position = vec4(0.0); n = vec3(1.0); blk.used = 1.0; }
)");
  REQUIRE(vs->ok());
  auto program = link({vs});
  REQUIRE(program);
  std::vector<std::string> names;
  for (const auto& v : program->outputs) names.push_back(v.name);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"Block.used", "gl_Position", "n"});
  auto tcs = compile(ShaderStage::TessControl, R"(#version 450
layout(vertices = 3) out;
out vec4 per_vertex[];
void main() {
  gl_out[gl_InvocationID].gl_Position = vec4(1.0);
  per_vertex[gl_InvocationID] = vec4(0.0);
  gl_TessLevelOuter[0] = 1.0;
}
)");
  REQUIRE(tcs->ok());
  auto tess = link({tcs}, true);
  REQUIRE(tess);
  names.clear();
  for (const auto& v : tess->outputs) names.push_back(v.name);
  std::sort(names.begin(), names.end());
  // A tessellation control output is an array over the output vertices; GL names it by the variable.
  CHECK(names == std::vector<std::string>{"gl_Position", "gl_TessLevelOuter[0]", "per_vertex"});
}

TEST_CASE("graphics: in OpenGL ES a program that is not separable needs a vertex and a fragment shader") {
  // OpenGL ES 3.2 §7.3: linking fails if the "program is not separable and does not contain objects to form both
  // a vertex shader and a fragment shader".
  auto vs = compile(ShaderStage::Vertex, "#version 310 es\nvoid main() { gl_Position = vec4(0.0); }\n");
  auto fs = compile(ShaderStage::Fragment,
                    "#version 310 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n");
  REQUIRE(vs->ok());
  REQUIRE(fs->ok());
  std::vector<std::shared_ptr<const GlGraphicsShader>> vertex_only{vs}, both{vs, fs}, fragment_only{fs};
  auto failed = link_gl_graphics_program(vertex_only, {.es = true});
  REQUIRE_FALSE(failed);
  CHECK(contains(failed.error().message, "fragment shader"));
  CHECK_FALSE(link_gl_graphics_program(fragment_only, {.es = true}));
  CHECK(link_gl_graphics_program(both, {.es = true}));
  CHECK(link_gl_graphics_program(vertex_only, {.separable = true, .es = true}));
  CHECK(link_gl_graphics_program(vertex_only, {}));  // desktop GL: a vertex-only program links
}

TEST_CASE("graphics: transform feedback varyings name outputs of the last vertex processing stage") {
  // GL 4.6 §11.1.2.1: the link fails if "any variable name specified in the varyings array is not declared as an
  // output in the last vertex processing stage"; gl_SkipComponentsN has "a TYPE of NONE and an ARRAY_SIZE of N".
  auto vs = compile(ShaderStage::Vertex,
                    "#version 450\nout vec2 v;\nout int k[2];\nvoid main() { v = vec2(1.0); "
                    "k[0] = 1; k[1] = 2; gl_Position = vec4(0.0); }\n");
  auto gs = compile(ShaderStage::Geometry, kGeometry);
  REQUIRE(vs->ok());
  REQUIRE(gs->ok());
  std::vector<std::shared_ptr<const GlGraphicsShader>> vertex{vs};
  auto linked = link_gl_graphics_program(
      vertex, {.transform_feedback_varyings = {"v", "gl_SkipComponents3", "k", "k[1]", "gl_Position"}});
  REQUIRE(linked);
  REQUIRE(linked->transform_feedback.size() == 5);
  CHECK(linked->transform_feedback[0].gl_type == 0x8B50);  // GL_FLOAT_VEC2
  CHECK(linked->transform_feedback[0].bytes == 8);
  CHECK(linked->transform_feedback[1].gl_type == 0);
  CHECK(linked->transform_feedback[1].array_size == 3);
  CHECK(linked->transform_feedback[2].gl_type == 0x1404);  // GL_INT
  CHECK(linked->transform_feedback[2].array_size == 2);
  CHECK(linked->transform_feedback[3].array_size == 1);
  CHECK(linked->transform_feedback[4].gl_type == 0x8B52);  // GL_FLOAT_VEC4
  // With a geometry shader, the geometry stage is the last vertex processing stage: the vertex outputs are not.
  auto vs_color = compile(ShaderStage::Vertex,
                          "#version 450\nout vec4 color;\nout vec2 v;\nvoid main() { color = "
                          "vec4(1.0); v = vec2(0.0); gl_Position = vec4(0.0); }\n");
  REQUIRE(vs_color->ok());
  std::vector<std::shared_ptr<const GlGraphicsShader>> with_geometry{vs_color, gs};
  auto from_vertex = link_gl_graphics_program(with_geometry, {.transform_feedback_varyings = {"v"}});
  REQUIRE_FALSE(from_vertex);
  CHECK(contains(from_vertex.error().message, "geometry shader"));
  CHECK(link_gl_graphics_program(with_geometry, {.transform_feedback_varyings = {"gcolor"}}));
  auto separate_skip =
      link_gl_graphics_program(vertex, {.transform_feedback_varyings = {"v", "gl_NextBuffer"}, .interleaved = false});
  CHECK_FALSE(separate_skip);
}

TEST_CASE("graphics: blocks beyond a stage's or the program's limit fail the link") {
  // GL 4.6 §7.8: MAX_<STAGE>_SHADER_STORAGE_BLOCKS per stage and MAX_COMBINED_SHADER_STORAGE_BLOCKS for the
  // stages together (a block used by two stages counts twice).
  auto blocks = [](int count, const char* prefix) {
    std::string decl, sum;
    for (int i = 0; i < count; ++i) {
      decl += "layout(std430) buffer " + std::string(prefix) + std::to_string(i) + " { float " + prefix + "v" +
              std::to_string(i) + "; };\n";
      sum += " + " + std::string(prefix) + "v" + std::to_string(i);
    }
    return std::make_pair(decl, sum);
  };
  const uint32_t half = GlStageBlockLimits::kCombinedShaderStorageBlocks / 2 + 1;
  const auto [vs_decl, vs_sum] = blocks(static_cast<int>(half), "V");
  const auto [fs_decl, fs_sum] = blocks(static_cast<int>(half), "F");
  auto vs = compile(ShaderStage::Vertex,
                    "#version 450\n" + vs_decl + "void main() { gl_Position = vec4(0.0" + vs_sum + "); }\n");
  auto fs = compile(ShaderStage::Fragment, "#version 450\n" + fs_decl + "layout(location = 0) out vec4 o;\n" +
                                               "void main() { o = vec4(0.0" + fs_sum + "); }\n");
  REQUIRE(vs->ok());
  REQUIRE(fs->ok());
  CHECK(link({vs}));  // within the vertex stage's limit
  auto both = link({vs, fs});
  REQUIRE_FALSE(both);
  CHECK(contains(both.error().message, "shader storage blocks together"));
  const auto [many_decl, many_sum] = blocks(static_cast<int>(GlStageBlockLimits::kShaderStorageBlocks) + 1, "M");
  auto too_many = compile(ShaderStage::Vertex,
                          "#version 450\n" + many_decl + "void main() { gl_Position = vec4(0.0" + many_sum + "); }\n");
  REQUIRE(too_many->ok());
  auto failed = link({too_many});
  REQUIRE_FALSE(failed);
  CHECK(contains(failed.error().message, "vertex shader uses"));
}

TEST_CASE("graphics: named transform feedback varyings are placed in buffers, offsets and strides") {
  // GL 4.6 §11.1.2.1: with INTERLEAVED_ATTRIBS the varyings are written one after another to one buffer,
  // gl_NextBuffer moving on to the next binding point; with SEPARATE_ATTRIBS each to a buffer of its own. A
  // structure member is named "s.member" (§7.3.1.1).
  auto vs = compile(ShaderStage::Vertex,
                    "#version 450\nstruct S { vec3 p; float w; };\nout S s;\nout vec4 c;\n"
                    "void main() { s = S(vec3(1.0), 1.0); c = vec4(0.0); gl_Position = vec4(0.0); }\n");
  REQUIRE(vs->ok());
  std::vector<std::shared_ptr<const GlGraphicsShader>> vertex{vs};
  auto linked = link_gl_graphics_program(
      vertex, {.transform_feedback_varyings = {"s.w", "gl_SkipComponents1", "c", "gl_NextBuffer", "s.p"}});
  REQUIRE(linked);
  REQUIRE(linked->transform_feedback.size() == 5);
  CHECK(linked->transform_feedback[2].offset == 8);  // after s.w (4) and one skipped component (4)
  CHECK(linked->transform_feedback[4].buffer == 1);
  CHECK(linked->transform_feedback[4].offset == 0);
  REQUIRE(linked->transform_feedback_buffers.size() == 2);
  CHECK(linked->transform_feedback_buffers[0].stride == 24);
  CHECK(linked->transform_feedback_buffers[0].varyings == std::vector<uint32_t>{0, 1, 2});
  CHECK(linked->transform_feedback_buffers[1].stride == 12);
  // "the total number of components to capture in any output in varyings is greater than the value of
  // MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS and the buffer mode is SEPARATE_ATTRIBS": a vec4 fits (4), the
  // structure's members are named one by one, and a whole structure names no single output.
  CHECK(link_gl_graphics_program(vertex, {.transform_feedback_varyings = {"c", "s.p"}, .interleaved = false}));
  auto whole = link_gl_graphics_program(vertex, {.transform_feedback_varyings = {"s"}});
  REQUIRE_FALSE(whole);
  CHECK(contains(whole.error().message, "structure"));
}

TEST_CASE("graphics: xfb_* qualifiers replace the varyings given to the link") {
  // GL 4.6 §11.1.2.1: "If the shader used to record output variables for transform feedback varyings uses the
  // xfb_buffer, xfb_offset, or xfb_stride layout qualifiers, the values specified by TransformFeedbackVaryings are
  // ignored, and the set of variables captured for transform feedback is instead derived from the specified layout
  // qualifiers."
  auto vs = compile(
      ShaderStage::Vertex,
      "#version 440\nlayout(xfb_buffer = 1, xfb_stride = 40) out;\n"
      "layout(xfb_buffer = 1, xfb_offset = 8) out vec4 a;\nlayout(xfb_buffer = 0, xfb_offset = 0) out float b[3];\n"
      "out vec4 ignored;\n"
      "void main() { a = vec4(0.0); b[0] = b[1] = b[2] = 1.0; ignored = a; gl_Position = a; }\n");
  REQUIRE(vs->ok());
  std::vector<std::shared_ptr<const GlGraphicsShader>> vertex{vs};
  auto linked = link_gl_graphics_program(vertex, {.transform_feedback_varyings = {"no_such_output"}});
  REQUIRE(linked);
  CHECK(linked->transform_feedback_declared);
  REQUIRE(linked->transform_feedback.size() == 2);
  CHECK(linked->transform_feedback[0].name == "b[0]");  // buffer 0 first
  CHECK(linked->transform_feedback[0].array_size == 3);
  CHECK(linked->transform_feedback[1].name == "a");
  CHECK(linked->transform_feedback[1].buffer == 1);
  CHECK(linked->transform_feedback[1].offset == 8);
  REQUIRE(linked->transform_feedback_buffers.size() == 2);
  CHECK(linked->transform_feedback_buffers[0].stride == 12);
  CHECK(linked->transform_feedback_buffers[1].stride == 40);
}

TEST_CASE("graphics: a stage beyond its input or output components fails the link naming the limit") {
  // GL 4.6 §11.1.2.1: "A program whose vertex shader writes more than the value of MAX_VERTEX_OUTPUT_COMPONENTS
  // components worth of outputs may fail to link"; §11.3.4.4: a geometry shader's outputs per vertex are limited
  // by MAX_GEOMETRY_OUTPUT_COMPONENTS. Only what the stage's code uses counts.
  auto outputs = [](int vectors, bool written) {
    return "#version 450\nout vec4 v[" + std::to_string(vectors) + "];\nvoid main() {\n" +
           (written ? "  for (int i = 0; i < " + std::to_string(vectors) + "; ++i) v[i] = vec4(0.0);\n" : "") +
           "  gl_Position = vec4(0.0);\n}\n";
  };
  auto too_many = compile(ShaderStage::Vertex, outputs(GlStageLimits::kVertexOutputComponents / 4 + 1, true));
  auto unused = compile(ShaderStage::Vertex, outputs(GlStageLimits::kVertexOutputComponents / 4 + 1, false));
  REQUIRE(too_many->ok());
  REQUIRE(unused->ok());
  std::vector<std::shared_ptr<const GlGraphicsShader>> failing{too_many}, passing{unused};
  auto failed = link_gl_graphics_program(failing);
  REQUIRE_FALSE(failed);
  CHECK(contains(failed.error().message, "GL_MAX_VERTEX_OUTPUT_COMPONENTS"));
  CHECK(link_gl_graphics_program(passing));
}
