// Graphics-stage shader and program objects: compile and link with GL's rules, nothing to run (graphics_program.hpp).
#include "graphics_program.hpp"

#include "gl_objects.hpp"
#include "gl_spirv_graphics.hpp"
#include "program_link.hpp"

namespace bismuth::gl {

bool is_shader_type(GLenum type) {
  return type == GL_COMPUTE_SHADER || graphics_stage(type).has_value();
}

std::optional<translator::ShaderStage> graphics_stage(GLenum type) {
  switch (type) {
    case GL_VERTEX_SHADER: return translator::ShaderStage::Vertex;
    case GL_TESS_CONTROL_SHADER: return translator::ShaderStage::TessControl;
    case GL_TESS_EVALUATION_SHADER: return translator::ShaderStage::TessEvaluation;
    case GL_GEOMETRY_SHADER: return translator::ShaderStage::Geometry;
    case GL_FRAGMENT_SHADER: return translator::ShaderStage::Fragment;
    default: return std::nullopt;
  }
}

void compile_graphics_shader(ShaderObject& shader) {
  auto compiled = translator::GlGraphicsShader::compile(*graphics_stage(shader.type), shader.source);
  shader.compile_status = compiled->ok();
  shader.info_log = compiled->info_log();
  shader.graphics = compiled->ok() ? compiled : nullptr;
}

bool has_graphics_stage(const ProgramObject& program) {
  for (const auto& s : program.attached) {
    if (graphics_stage(s->type)) return true;
  }
  return false;
}

namespace {

// The executable of a linked graphics program: uniforms and blocks answer the same queries as a compute
// program's; glUniform* writes the CPU copy (nothing reads it on a GPU: the program never runs) and glGetUniform*
// reads it back.
std::shared_ptr<Executable> graphics_executable(translator::GlGraphicsProgram linked) {
  auto exe = std::make_shared<Executable>();
  exe->program = linked.interface;
  exe->program.info_log = linked.info_log;
  assign_uniform_locations(*exe);
  reset_opaque_units(*exe);
  exe->uniform_data.assign(exe->program.default_uniform_block_size, std::byte{0});
  exe->graphics = std::make_shared<const translator::GlGraphicsProgram>(std::move(linked));
  return exe;
}

}  // namespace

Expected<std::shared_ptr<Executable>> link_graphics(const ProgramObject& program, bool es) {
  std::vector<std::shared_ptr<const translator::GlGraphicsShader>> shaders;
  std::vector<const ShaderObject*> spirv;
  for (const auto& s : program.attached) {
    // GL 4.6 §7.3: linking fails if "program contains objects to form a compute shader (see section 19) and
    // program also contains objects to form any other type of shader".
    if (s->type == GL_COMPUTE_SHADER) {
      return fail("error: a compute shader (shader " + std::to_string(s->name) +
                  ") cannot be linked with shaders of other stages in one program\n");
    }
    if (s->spirv_binary) spirv.push_back(s.get());
  }
  if (!spirv.empty()) {
    // ARB_gl_spirv (GL 4.6 §7.3): a program is linked from SPIR-V modules or from GLSL shaders, not from both; its
    // stages are then matched by location only.
    if (spirv.size() != program.attached.size()) {
      return fail(std::string("error: the program mixes SPIR-V shader objects with GLSL shader objects\n"));
    }
    auto linked = link_spirv_graphics(spirv, program.separable);
    if (!linked) return linked.error();
    return graphics_executable(std::move(*linked));
  }
  for (const auto& s : program.attached) {
    // GL 4.6 §7.3: linking fails if "one or more of the shader objects attached to program are not compiled
    // successfully".
    if (!s->graphics) return fail("error: shader " + std::to_string(s->name) + " has not been compiled successfully\n");
    shaders.push_back(s->graphics);
  }
  auto linked =
      translator::link_gl_graphics_program(shaders, {.separable = program.separable,
                                                     .es = es,
                                                     .transform_feedback_varyings = program.transform_feedback_varyings,
                                                     .interleaved = program.transform_feedback_interleaved});
  if (!linked) return linked.error();
  return graphics_executable(std::move(*linked));
}

Expected<GLint> stage_layout_value(const Executable* exe, GLenum pname) {
  // GL 4.6 §7.13: "An INVALID_OPERATION error is generated if GEOMETRY_VERTICES_OUT, GEOMETRY_INPUT_TYPE,
  // GEOMETRY_OUTPUT_TYPE, or GEOMETRY_SHADER_INVOCATIONS are queried for a program which has not been linked
  // successfully, or which does not contain objects to form a geometry shader"; likewise TESS_CONTROL_OUTPUT_VERTICES
  // without a tessellation control shader and the TESS_GEN_* values without a tessellation evaluation shader.
  using translator::ShaderStage;
  if (exe == nullptr) return fail("the program is not linked");
  const translator::GlGraphicsProgram* g = exe->graphics.get();
  auto missing = [](ShaderStage stage) {
    return fail(std::string("the program has no ") + translator::stage_name(stage) + " shader");
  };
  switch (pname) {
    case GL_GEOMETRY_VERTICES_OUT:
    case GL_GEOMETRY_INPUT_TYPE:
    case GL_GEOMETRY_OUTPUT_TYPE:
    case GL_GEOMETRY_SHADER_INVOCATIONS:
      if (g == nullptr || !g->has(ShaderStage::Geometry)) return missing(ShaderStage::Geometry);
      if (pname == GL_GEOMETRY_VERTICES_OUT) return static_cast<GLint>(g->layouts.geometry_vertices_out);
      if (pname == GL_GEOMETRY_INPUT_TYPE) return static_cast<GLint>(g->layouts.geometry_input_type);
      if (pname == GL_GEOMETRY_OUTPUT_TYPE) return static_cast<GLint>(g->layouts.geometry_output_type);
      return static_cast<GLint>(g->layouts.geometry_invocations);
    case GL_TESS_CONTROL_OUTPUT_VERTICES:
      if (g == nullptr || !g->has(ShaderStage::TessControl)) return missing(ShaderStage::TessControl);
      return static_cast<GLint>(g->layouts.tess_control_output_vertices);
    default:
      if (g == nullptr || !g->has(ShaderStage::TessEvaluation)) return missing(ShaderStage::TessEvaluation);
      if (pname == GL_TESS_GEN_MODE) return static_cast<GLint>(g->layouts.tess_gen_mode);
      if (pname == GL_TESS_GEN_SPACING) return static_cast<GLint>(g->layouts.tess_gen_spacing);
      if (pname == GL_TESS_GEN_VERTEX_ORDER) return static_cast<GLint>(g->layouts.tess_gen_vertex_order);
      return static_cast<GLint>(g->layouts.tess_gen_point_mode ? GL_TRUE : GL_FALSE);
  }
}

}  // namespace bismuth::gl
