// The GLSL front for the stages other than compute: vertex, tessellation control, tessellation evaluation,
// geometry and fragment shaders, compiled and linked with GL's rules so that programs built from them get a GL
// driver's compile and link results (status, info log, errors). Bismuth does not rasterize: nothing here emits
// code, and a linked graphics program is only ever queried, made current, and refused by the draw and dispatch
// calls (docs/gl_shim.md, "Programs without a compute shader").
//
// glslang is the GL front end (EShClientNone: OpenGL semantics, no Vulkan rules). Compile runs glslang's parser
// with the stage's GL rules; link runs glslang's TProgram link (missing main, conflicting layouts within a stage,
// a tessellation or geometry stage without its required layouts) and adds what glslang 12 leaves out: a
// non-separable program with tessellation or geometry shaders needs a vertex shader (GL 4.6 §7.3), and the outputs
// of one stage must match the inputs of the next in type (GL 4.6 §7.4.1, GLSL 4.60 §4.3.4).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/translator/gl_program.hpp"

namespace bismuth::translator {

// The programmable stages in pipeline order.
enum class ShaderStage { Vertex, TessControl, TessEvaluation, Geometry, Fragment };

// "vertex", "tessellation control", ...: as info logs name the stage.
const char* stage_name(ShaderStage stage);

// One compiled shader object of a graphics stage (glCompileShader's result). Never null from compile(); check ok().
class GlGraphicsShader {
 public:
  static std::shared_ptr<const GlGraphicsShader> compile(ShaderStage stage, std::string_view source);
  ~GlGraphicsShader();
  GlGraphicsShader(const GlGraphicsShader&) = delete;
  GlGraphicsShader& operator=(const GlGraphicsShader&) = delete;

  ShaderStage stage() const { return stage_; }
  bool ok() const { return ok_; }
  // GL info log: one "0:line(column): error|warning: text" line per diagnostic; empty when clean.
  const std::string& info_log() const { return info_log_; }

  struct Impl;  // glslang state kept for linking
  const Impl& impl() const { return *impl_; }

 private:
  explicit GlGraphicsShader(ShaderStage stage);
  void compile_source(std::string_view source, size_t stack_bytes);
  ShaderStage stage_;
  bool ok_ = false;
  std::string info_log_;
  std::unique_ptr<Impl> impl_;
};

// An input of the program's first stage or an output of its last (GL_PROGRAM_INPUT / GL_PROGRAM_OUTPUT,
// GL 4.6 §7.3.1), as glslang's reflection lists the active ones (built-ins such as gl_VertexID included, with
// location -1).
struct GlStageVariable {
  std::string name;         // "color", "a[0]" for arrays as GL introspection names them
  uint32_t gl_type = 0;     // GL_FLOAT_VEC4, GL_INT, ...
  int32_t location = -1;    // the layout(location) the shader declared; -1 when none was (the GL linker would
                            // assign one: Bismuth does not, point 8's queries decide what to report)
  uint32_t array_size = 1;  // elements (1 for non-arrays)
  bool patch = false;       // a per-patch variable (`patch out`, gl_TessLevel*): GL_IS_PER_PATCH
};

// The layouts glGetProgramiv reports for the geometry and tessellation stages (GL 4.6 §7.13), as GL enum values;
// meaningful only where the program has the stage.
struct GlStageLayouts {
  uint32_t geometry_vertices_out = 0;         // GEOMETRY_VERTICES_OUT (max_vertices)
  uint32_t geometry_input_type = 0;           // GEOMETRY_INPUT_TYPE: GL_POINTS, GL_LINES, GL_TRIANGLES, ..._ADJACENCY
  uint32_t geometry_output_type = 0;          // GEOMETRY_OUTPUT_TYPE: GL_POINTS, GL_LINE_STRIP, GL_TRIANGLE_STRIP
  uint32_t geometry_invocations = 1;          // GEOMETRY_SHADER_INVOCATIONS
  uint32_t tess_control_output_vertices = 0;  // TESS_CONTROL_OUTPUT_VERTICES
  uint32_t tess_gen_mode = 0;                 // TESS_GEN_MODE: GL_QUADS, GL_TRIANGLES, GL_ISOLINES
  uint32_t tess_gen_spacing = 0;              // TESS_GEN_SPACING: GL_EQUAL, GL_FRACTIONAL_EVEN, GL_FRACTIONAL_ODD
  uint32_t tess_gen_vertex_order = 0;         // TESS_GEN_VERTEX_ORDER: GL_CCW, GL_CW
  bool tess_gen_point_mode = false;           // TESS_GEN_POINT_MODE
};

// A transform feedback varying (GL 4.6 §11.1.2.1) as the link resolved it. Named by glTransformFeedbackVaryings:
// an output of the last vertex processing stage, an element of one ("a[2]"), a structure member ("s.f"), or one
// of the special names gl_NextBuffer and gl_SkipComponents1..4 (type 0 = GL_NONE). Declared by the shader
// (xfb_offset, GLSL 4.60 §4.4.2.1): each captured output of basic type or array of basic type, named as GL 4.6
// §7.3.1.1 names active variables ("v", "a[0]", "s.f", "Block.m").
struct GlTransformFeedbackVarying {
  std::string name;         // as the application gave it, or the resource name of a shader-declared one
  uint32_t gl_type = 0;     // GL_FLOAT_VEC4, ...; 0 for the special names
  uint32_t array_size = 1;  // elements captured (a whole array: its size); gl_NextBuffer 0, gl_SkipComponentsN N
  uint32_t bytes = 0;       // bytes it takes in the buffer (gl_SkipComponentsN: 4 N)
  uint32_t components = 0;  // components it takes (a double counts two), for the MAX_TRANSFORM_FEEDBACK_* limits
  uint32_t buffer = 0;      // TRANSFORM_FEEDBACK_BUFFER_INDEX: the binding point it is written to
  uint32_t offset = 0;      // OFFSET: its byte offset in that buffer
};

// A transform feedback buffer binding point the program writes (GL_TRANSFORM_FEEDBACK_BUFFER, GL 4.6 §7.3.1).
struct GlTransformFeedbackBuffer {
  uint32_t binding = 0;            // BUFFER_BINDING
  uint32_t stride = 0;             // TRANSFORM_FEEDBACK_BUFFER_STRIDE: bytes per captured vertex
  std::vector<uint32_t> varyings;  // ACTIVE_VARIABLES: indices into GlGraphicsProgram::transform_feedback
};

struct GlGraphicsProgram {
  bool has(ShaderStage stage) const;
  std::vector<ShaderStage> stages;  // the stages present, in pipeline order
  GlStageLayouts layouts;
  std::vector<GlStageVariable> inputs;   // of the first stage
  std::vector<GlStageVariable> outputs;  // of the last stage
  // What GL introspection reports of the program's uniforms and blocks, as for compute programs: default-block
  // uniforms (laid out for the shim's CPU copy: a 16-byte slot per vector, std140 matrices), uniform blocks with
  // their members, storage blocks with their buffer variables. Only these lists are filled (no SPIR-V).
  GlLinkedProgram interface;
  // In the order glTransformFeedbackVaryings gave them; declared by xfb_offset qualifiers: ordered by buffer, then
  // offset.
  std::vector<GlTransformFeedbackVarying> transform_feedback;
  std::vector<GlTransformFeedbackBuffer> transform_feedback_buffers;  // ordered by binding
  bool transform_feedback_interleaved = true;  // the buffer mode they were linked with (shader-declared: true)
  bool transform_feedback_declared = false;    // the shader's xfb_* qualifiers gave them (GL 4.6 §11.1.2.1)
  std::string info_log;                        // warnings of a successful link
};

struct GlGraphicsLinkOptions {
  bool separable = false;  // GL_PROGRAM_SEPARABLE: tessellation and geometry stages need no vertex shader
  bool es = false;         // an OpenGL ES context: a program that is not separable needs a vertex and a fragment shader
  // glTransformFeedbackVaryings' names and buffer mode (GL_INTERLEAVED_ATTRIBS: true), checked at link.
  std::vector<std::string> transform_feedback_varyings;
  bool interleaved = true;
};

// glLinkProgram for a program whose shaders are all of graphics stages. On failure the message is the GL info log
// ("error: ..." lines). Fails when no shader is given or one did not compile.
Expected<GlGraphicsProgram> link_gl_graphics_program(std::span<const std::shared_ptr<const GlGraphicsShader>> shaders,
                                                     const GlGraphicsLinkOptions& options = {});

}  // namespace bismuth::translator
