// Graphics-stage shader and program objects: compile and link with GL's rules, nothing to run (graphics_program.hpp).
#include "graphics_program.hpp"

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

Expected<std::shared_ptr<Executable>> link_graphics(const ProgramObject& program) {
  std::vector<std::shared_ptr<const translator::GlGraphicsShader>> shaders;
  for (const auto& s : program.attached) {
    // GL 4.6 §7.3: linking fails if "program contains objects to form a compute shader (see section 19) and
    // program also contains objects to form any other type of shader".
    if (s->type == GL_COMPUTE_SHADER) {
      return fail("error: a compute shader (shader " + std::to_string(s->name) +
                  ") cannot be linked with shaders of other stages in one program\n");
    }
    if (s->spirv_binary) {
      return fail("error: SPIR-V shaders of the " + std::string(translator::stage_name(*graphics_stage(s->type))) +
                  " stage are not supported by Bismuth (shader " + std::to_string(s->name) + ")\n");
    }
    // GL 4.6 §7.3: linking fails if "one or more of the shader objects attached to program are not compiled
    // successfully".
    if (!s->graphics) return fail("error: shader " + std::to_string(s->name) + " has not been compiled successfully\n");
    shaders.push_back(s->graphics);
  }
  auto linked = translator::link_gl_graphics_program(shaders, {.separable = program.separable});
  if (!linked) return linked.error();
  auto exe = std::make_shared<Executable>();
  exe->program.info_log = linked->info_log;
  exe->graphics = std::make_shared<const translator::GlGraphicsProgram>(std::move(*linked));
  return exe;
}

}  // namespace bismuth::gl
