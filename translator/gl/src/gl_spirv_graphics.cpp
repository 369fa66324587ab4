#include "gl_spirv_graphics.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "bismuth/spirv_patch/module.hpp"
#include "gl_spirv.hpp"
#include "graphics_program.hpp"

namespace bismuth::gl {

using spirv_patch::InstructionHandle;
using spirv_patch::Module;

namespace {

std::string link_error(const std::string& text) {
  return "error: " + text + "\n";
}

// The GL type and array size of an input or output of numeric scalar, vector or matrix type, or an array of one;
// nullopt for anything else (structures, blocks, arrays of arrays).
std::optional<std::pair<GLenum, uint32_t>> io_type(const Module& m, uint32_t type_id) {
  auto def = m.definition(type_id);
  if (!def) return std::nullopt;
  auto w = m.words(*def);
  uint32_t array_size = 1;
  if (m.opcode(*def) == spv::Op::OpTypeArray) {
    auto length = m.definition(w[3]);
    if (!length || m.opcode(*length) != spv::Op::OpConstant) return std::nullopt;
    array_size = m.words(*length)[3];
    def = m.definition(w[2]);
    if (!def) return std::nullopt;
    w = m.words(*def);
  }
  spirv_patch::DefaultUniform shape;
  if (m.opcode(*def) == spv::Op::OpTypeMatrix) {
    shape.columns = w[3];
    def = m.definition(w[2]);
    if (!def) return std::nullopt;
    w = m.words(*def);
  }
  if (m.opcode(*def) == spv::Op::OpTypeVector) {
    shape.components = w[3];
    def = m.definition(w[2]);
    if (!def) return std::nullopt;
    w = m.words(*def);
  }
  using spirv_patch::UniformScalar;
  switch (m.opcode(*def)) {
    case spv::Op::OpTypeFloat: shape.scalar = w[2] == 64 ? UniformScalar::Double : UniformScalar::Float; break;
    case spv::Op::OpTypeInt:
      if (w[2] != 32) return std::nullopt;
      shape.scalar = w[3] != 0 ? UniformScalar::Int : UniformScalar::Uint;
      break;
    default: return std::nullopt;
  }
  const GLenum type = spirv_uniform_gl_type(shape);
  if (type == 0) return std::nullopt;
  return std::make_pair(type, array_size);
}

// One stage's module and its user-defined inputs and outputs (built-ins and blocks left out), without names:
// SPIR-V programs are queried by location.
struct StageModule {
  translator::ShaderStage stage;
  const ShaderObject* shader = nullptr;
  std::vector<translator::GlStageVariable> inputs, outputs;
};

// Whether `id` has an OpDecorate of `decoration` (one without literals, as Patch: decoration_literal cannot tell).
bool has_decoration(const Module& m, uint32_t id, spv::Decoration decoration) {
  for (InstructionHandle h : m.instructions(spirv_patch::Section::Annotation)) {
    auto w = m.words(h);
    if (m.opcode(h) == spv::Op::OpDecorate && w.size() >= 3 && w[1] == id && spv::Decoration(w[2]) == decoration) {
      return true;
    }
  }
  return false;
}

// GL 4.6 §7.4.1: "Tessellation control shader per-vertex output variables and blocks and tessellation control,
// tessellation evaluation, and geometry shader per-vertex input variables and blocks are required to be declared as
// arrays, with each element representing input or output values for a single vertex of a multi-vertex primitive.
// For the purposes of interface matching, such variables and blocks are treated as though they were not declared
// as arrays." Per-patch variables (Patch decoration) are not per-vertex.
bool per_vertex_array(translator::ShaderStage stage, bool input) {
  using translator::ShaderStage;
  if (stage == ShaderStage::TessControl) return true;
  if (stage == ShaderStage::TessEvaluation || stage == ShaderStage::Geometry) return input;
  return false;
}

Status read_interface(const Module& m, const ShaderObject& shader, StageModule& out) {
  const Module::EntryPoint* entry = nullptr;
  const std::vector<Module::EntryPoint> entries = m.entry_points();
  for (const auto& e : entries) {
    if (e.name == shader.spirv_entry) entry = &e;
  }
  if (entry == nullptr)
    return fail(link_error("the specialized module has no entry point \"" + shader.spirv_entry + "\""));
  // OpEntryPoint <model> <function> <name> <interface ids...>: the name takes its length / 4 + 1 words.
  auto w = m.words(entry->handle);
  for (size_t i = 3 + entry->name.size() / 4 + 1; i < w.size(); ++i) {
    auto variable = m.definition(w[i]);
    if (!variable || m.opcode(*variable) != spv::Op::OpVariable) continue;
    auto vw = m.words(*variable);
    const auto storage = spv::StorageClass(vw[3]);
    if (storage != spv::StorageClass::Input && storage != spv::StorageClass::Output) continue;
    if (m.decoration_literal(w[i], spv::Decoration::BuiltIn)) continue;
    auto pointer = m.definition(vw[1]);
    if (!pointer || m.opcode(*pointer) != spv::Op::OpTypePointer) continue;
    const bool input = storage == spv::StorageClass::Input;
    const bool patch = has_decoration(m, w[i], spv::Decoration::Patch);
    uint32_t pointee = m.words(*pointer)[3];
    auto pointee_def = m.definition(pointee);
    if (!patch && per_vertex_array(out.stage, input)) {
      // The per-vertex dimension is not part of the matched type.
      if (!pointee_def || m.opcode(*pointee_def) != spv::Op::OpTypeArray) {
        return fail(link_error(std::string("a per-vertex ") + (input ? "input" : "output") + " of the " +
                               translator::stage_name(out.stage) +
                               " shader is not an array (GL 4.6 §7.4.1: such variables are declared as arrays with "
                               "one element per vertex)"));
      }
      pointee = m.words(*pointee_def)[2];
      pointee_def = m.definition(pointee);
    }
    if (pointee_def && m.opcode(*pointee_def) == spv::Op::OpTypeStruct) continue;  // gl_PerVertex, blocks
    auto type = io_type(m, pointee);
    if (!type) {
      return fail(link_error(std::string("an ") + (input ? "input" : "output") + " of the " +
                             translator::stage_name(out.stage) +
                             " shader has a type Bismuth does not introspect (structures, blocks, arrays of arrays)"));
    }
    translator::GlStageVariable v;
    v.gl_type = type->first;
    v.array_size = type->second;
    const auto location = m.decoration_literal(w[i], spv::Decoration::Location);
    v.location = location ? static_cast<int32_t>(*location) : -1;
    v.patch = patch;
    (input ? out.inputs : out.outputs).push_back(v);
  }
  return {};
}

// What the execution modes of a stage's entry point declare (SPIR-V's form of the layouts GL 4.6 §7.13 reports).
struct StageModes {
  std::optional<uint32_t> output_vertices;  // OutputVertices: a geometry shader's max_vertices, or the patch size
  std::optional<GLenum> input_primitive;    // geometry: InputPoints ... InputTrianglesAdjacency
  std::optional<GLenum> output_primitive;   // geometry: OutputPoints, OutputLineStrip, OutputTriangleStrip
  uint32_t invocations = 1;                 // geometry: Invocations
  std::optional<GLenum> tess_mode;          // Triangles, Quads, Isolines
  std::optional<GLenum> spacing;            // SpacingEqual, SpacingFractionalEven, SpacingFractionalOdd
  std::optional<GLenum> vertex_order;       // VertexOrderCw, VertexOrderCcw
  bool point_mode = false;                  // PointMode
};

StageModes read_modes(const Module& m, const ShaderObject& shader, translator::ShaderStage stage) {
  StageModes modes;
  uint32_t function = 0;
  for (const auto& e : m.entry_points()) {
    if (e.name == shader.spirv_entry) function = e.function_id;
  }
  const bool geometry = stage == translator::ShaderStage::Geometry;
  for (InstructionHandle h : m.instructions(spirv_patch::Section::ExecutionMode)) {
    auto w = m.words(h);
    if (m.opcode(h) != spv::Op::OpExecutionMode || w.size() < 3 || w[1] != function) continue;
    switch (spv::ExecutionMode(w[2])) {
      case spv::ExecutionMode::OutputVertices:
        if (w.size() > 3) modes.output_vertices = w[3];
        break;
      case spv::ExecutionMode::Invocations:
        if (w.size() > 3) modes.invocations = w[3];
        break;
      case spv::ExecutionMode::InputPoints: modes.input_primitive = GL_POINTS; break;
      case spv::ExecutionMode::InputLines: modes.input_primitive = GL_LINES; break;
      case spv::ExecutionMode::InputLinesAdjacency: modes.input_primitive = GL_LINES_ADJACENCY; break;
      case spv::ExecutionMode::InputTrianglesAdjacency: modes.input_primitive = GL_TRIANGLES_ADJACENCY; break;
      // Triangles is a geometry shader's input primitive and a tessellator's primitive mode.
      case spv::ExecutionMode::Triangles: (geometry ? modes.input_primitive : modes.tess_mode) = GL_TRIANGLES; break;
      case spv::ExecutionMode::Quads: modes.tess_mode = GL_QUADS; break;
      case spv::ExecutionMode::Isolines: modes.tess_mode = GL_ISOLINES; break;
      case spv::ExecutionMode::OutputPoints: modes.output_primitive = GL_POINTS; break;
      case spv::ExecutionMode::OutputLineStrip: modes.output_primitive = GL_LINE_STRIP; break;
      case spv::ExecutionMode::OutputTriangleStrip: modes.output_primitive = GL_TRIANGLE_STRIP; break;
      case spv::ExecutionMode::SpacingEqual: modes.spacing = GL_EQUAL; break;
      case spv::ExecutionMode::SpacingFractionalEven: modes.spacing = GL_FRACTIONAL_EVEN; break;
      case spv::ExecutionMode::SpacingFractionalOdd: modes.spacing = GL_FRACTIONAL_ODD; break;
      case spv::ExecutionMode::VertexOrderCw: modes.vertex_order = GL_CW; break;
      case spv::ExecutionMode::VertexOrderCcw: modes.vertex_order = GL_CCW; break;
      case spv::ExecutionMode::PointMode: modes.point_mode = true; break;
      default: break;
    }
  }
  return modes;
}

// GL 4.6 §7.3 (LinkProgram) for the stages a program of SPIR-V modules has, and the layouts it then reports. A
// SPIR-V tessellation control or evaluation module may carry the tessellation execution modes of either stage (SPIR-V
// 1.6 §3.6: OutputVertices, Triangles/Quads/Isolines, the spacing and vertex order "can be used with" either
// tessellation model), so each is looked for in both.
Status check_stage_layouts(const std::vector<StageModule>& stages, const std::vector<StageModes>& modes, bool separable,
                           translator::GlStageLayouts& layouts) {
  using translator::ShaderStage;
  auto find = [&](ShaderStage stage) -> const StageModes* {
    for (size_t i = 0; i < stages.size(); ++i) {
      if (stages[i].stage == stage) return &modes[i];
    }
    return nullptr;
  };
  const StageModes* vertex = find(ShaderStage::Vertex);
  const StageModes* control = find(ShaderStage::TessControl);
  const StageModes* evaluation = find(ShaderStage::TessEvaluation);
  const StageModes* geometry = find(ShaderStage::Geometry);
  // "The program contains objects to form a tessellation control shader ..., tessellation evaluation shader ...,
  // geometry shader ..., and the program is not separable and contains no objects to form a vertex shader".
  if (!separable && vertex == nullptr) {
    for (ShaderStage s : {ShaderStage::TessControl, ShaderStage::TessEvaluation, ShaderStage::Geometry}) {
      if (find(s) != nullptr) {
        return fail(link_error(std::string("the program has a ") + translator::stage_name(s) +
                               " shader but no vertex shader (and is not separable)"));
      }
    }
  }
  auto either = [&](auto member) {
    if (control != nullptr && (control->*member).has_value()) return control->*member;
    return evaluation != nullptr ? evaluation->*member : std::nullopt;
  };
  if (control != nullptr) {
    // "... a tessellation control shader, and ... the output patch vertex count is not specified".
    const std::optional<uint32_t> vertices = either(&StageModes::output_vertices);
    if (!vertices) {
      return fail(
          link_error("the tessellation control shader does not specify the output patch vertex count "
                     "(execution mode OutputVertices)"));
    }
    layouts.tess_control_output_vertices = *vertices;
  }
  if (evaluation != nullptr) {
    // "... a tessellation evaluation shader, and ... the tessellation primitive mode is not specified".
    const std::optional<GLenum> mode = either(&StageModes::tess_mode);
    if (!mode) {
      return fail(
          link_error("the tessellation evaluation shader does not specify the tessellation primitive mode "
                     "(execution mode Triangles, Quads or Isolines)"));
    }
    layouts.tess_gen_mode = *mode;
    // GLSL 4.60 §4.4.1.2: equal_spacing and ccw when not declared.
    layouts.tess_gen_spacing = either(&StageModes::spacing).value_or(GL_EQUAL);
    layouts.tess_gen_vertex_order = either(&StageModes::vertex_order).value_or(GL_CCW);
    layouts.tess_gen_point_mode = (control != nullptr && control->point_mode) || evaluation->point_mode;
  }
  if (geometry != nullptr) {
    // "... a geometry shader, and ... the input primitive type, output primitive type, or maximum output vertex
    // count is not specified in the geometry shader object".
    if (!geometry->input_primitive || !geometry->output_primitive || !geometry->output_vertices) {
      return fail(link_error(std::string("the geometry shader does not specify its ") +
                             (!geometry->input_primitive    ? "input primitive type"
                              : !geometry->output_primitive ? "output primitive type"
                                                            : "maximum output vertex count (OutputVertices)")));
    }
    layouts.geometry_input_type = *geometry->input_primitive;
    layouts.geometry_output_type = *geometry->output_primitive;
    layouts.geometry_vertices_out = *geometry->output_vertices;
    layouts.geometry_invocations = geometry->invocations;
  }
  return {};
}

// GL 4.6 §7.4.1: with SPIR-V, "variables are matched only by location"; a matched output and input "must have the
// same type" ("it is a link-time error if ... the matching input and output ... do not have the same type").
Status match_by_location(const StageModule& producer, const StageModule& consumer) {
  for (const auto& in : consumer.inputs) {
    if (in.location < 0) continue;
    for (const auto& out : producer.outputs) {
      if (out.location != in.location || out.patch != in.patch) continue;
      if (out.gl_type != in.gl_type || out.array_size != in.array_size) {
        return fail(link_error(std::string("the ") + translator::stage_name(consumer.stage) +
                               " shader input at location " + std::to_string(in.location) + " does not match the " +
                               translator::stage_name(producer.stage) + " shader output at that location in type"));
      }
    }
  }
  return {};
}

}  // namespace

Expected<translator::GlGraphicsProgram> link_spirv_graphics(std::span<const ShaderObject* const> shaders,
                                                            bool separable) {
  constexpr uint32_t kMaxUniformLocations = 1024;  // GL_MAX_UNIFORM_LOCATIONS (state_queries.cpp)
  std::vector<StageModule> stages;
  std::vector<StageModes> modes;
  std::vector<Module> modules;
  modules.reserve(shaders.size());
  for (const ShaderObject* s : shaders) {
    // ARB_gl_spirv: linking fails if "one or more of the shader objects attached to <program> are not compiled or
    // specialized successfully".
    if (!s->specialized) {
      return fail(link_error("the SPIR-V shader " + std::to_string(s->name) + " has not been specialized"));
    }
    const translator::ShaderStage stage = *graphics_stage(s->type);
    for (const StageModule& other : stages) {
      // GL 4.6 §7.3: a SPIR-V module is a whole stage; two shader objects of one stage cannot form it.
      if (other.stage == stage) {
        return fail(link_error(std::string("two SPIR-V shader objects of the ") + translator::stage_name(stage) +
                               " stage are attached; a SPIR-V stage is one shader object"));
      }
    }
    auto parsed = Module::parse(s->spirv);
    if (!parsed) return fail(link_error("the SPIR-V module is malformed: " + parsed.error().message));
    modules.push_back(std::move(*parsed));
    StageModule sm{stage, s, {}, {}};
    if (Status read = read_interface(modules.back(), *s, sm); !read) return read.error();
    modes.push_back(read_modes(modules.back(), *s, stage));
    stages.push_back(std::move(sm));
  }
  std::vector<size_t> order(stages.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return stages[a].stage < stages[b].stage; });

  translator::GlGraphicsProgram linked;
  if (Status layouts = check_stage_layouts(stages, modes, separable, linked.layouts); !layouts) {
    return layouts.error();
  }
  for (size_t i : order) linked.stages.push_back(stages[i].stage);
  for (size_t k = 1; k < order.size(); ++k) {
    if (Status matched = match_by_location(stages[order[k - 1]], stages[order[k]]); !matched) return matched.error();
  }
  linked.inputs = stages[order.front()].inputs;
  linked.outputs = stages[order.back()].outputs;

  // Default-block uniforms by location (ARB_gl_spirv: "uniforms ... are identified by location"); one location in
  // two stages is one uniform, which must have one type. Laid out anew for the shim's CPU copy.
  std::map<uint32_t, size_t> by_location;
  uint32_t offset = 0;
  for (size_t i : order) {
    auto layout = spirv_patch::default_uniform_layout(modules[i]);
    if (!layout) return fail(link_error(layout.error().message));
    for (const auto& u : layout->uniforms) {
      translator::GlUniform g;
      g.gl_type = spirv_uniform_gl_type(u);
      if (g.gl_type == 0) return fail(link_error("a default-block uniform has a type GL does not name"));
      g.array_size = std::max<uint32_t>(1, u.array_size);
      g.location = static_cast<int32_t>(u.location);
      g.stages = 1u << static_cast<uint32_t>(stages[i].stage);
      if (u.location + g.array_size > kMaxUniformLocations) {
        return fail(link_error("uniform location " + std::to_string(u.location) +
                               " is not below GL_MAX_UNIFORM_LOCATIONS (" + std::to_string(kMaxUniformLocations) +
                               ")"));
      }
      if (auto seen = by_location.find(u.location); seen != by_location.end()) {
        translator::GlUniform& first = linked.interface.uniforms[seen->second];
        if (first.gl_type != g.gl_type || first.array_size != g.array_size) {
          return fail(link_error("the uniform at location " + std::to_string(u.location) +
                                 " has different types in two stages"));
        }
        first.stages |= g.stages;
        continue;
      }
      const uint32_t element = u.array_size > 0 ? u.array_stride : u.columns > 0 ? u.columns * u.matrix_stride : 16;
      g.array_stride = u.array_size > 0 ? u.array_stride : 0;
      g.matrix_stride = u.matrix_stride;
      g.offset = offset;
      offset += element * g.array_size;
      by_location.emplace(u.location, linked.interface.uniforms.size());
      linked.interface.uniforms.push_back(g);
    }
  }
  linked.interface.default_uniform_block_size = offset;
  return linked;
}

}  // namespace bismuth::gl
