// Program pipeline objects (GL 4.6 §7.4, OpenGL ES 3.1 §7.4: separate shader objects, core in ES 3.1) and
// glProgramParameteri. Programs here have a compute stage only, so a pipeline holds at most one program — its
// compute stage — which dispatch uses when no program is current (dispatch.cpp), and an active program, which
// glUniform* writes when no program is current (uniforms.cpp).
#include "gl_internal.hpp"
#include "gl_objects.hpp"
#include "num_waves.hpp"
#include "parallel_compile.hpp"

namespace bismuth::gl {
namespace {

constexpr GLbitfield kStageBits = GL_VERTEX_SHADER_BIT | GL_FRAGMENT_SHADER_BIT | GL_GEOMETRY_SHADER_BIT |
                                  GL_TESS_CONTROL_SHADER_BIT | GL_TESS_EVALUATION_SHADER_BIT | GL_COMPUTE_SHADER_BIT;

// A name glGenProgramPipelines returned (the object exists or not yet); INVALID_OPERATION otherwise, as
// BindProgramPipeline, UseProgramStages and ActiveShaderProgram give for a name that is not one (GL 4.6 §7.4).
std::shared_ptr<ProgramPipelineObject> generated_pipeline(Context* ctx, GLuint name, const char* func) {
  auto it = ctx->pipelines.find(name);
  if (it == ctx->pipelines.end()) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(name) + " is not a program pipeline name");
    return nullptr;
  }
  return it->second;
}

// An existing pipeline object, as the queries need: INVALID_OPERATION for a name that is none (GL 4.6 §7.13:
// "An INVALID_OPERATION error is generated if pipeline is not a name returned from a previous call to
// GenProgramPipelines or if such a name has since been deleted").
std::shared_ptr<ProgramPipelineObject> existing_pipeline(Context* ctx, GLuint name, const char* func) {
  auto p = generated_pipeline(ctx, name, func);
  if (p) p->created = true;  // the queries and UseProgramStages create the object of a generated name
  return p;
}

// A linked program for a pipeline stage, or null (program 0). False with the error recorded: the program must
// exist, be linked, and for UseProgramStages have been linked separable (GL 4.6 §7.4).
bool stage_program(Context* ctx, GLuint program, bool need_separable, std::shared_ptr<ProgramObject>& out,
                   const char* func) {
  out.reset();
  if (program == 0) return true;
  out = program_object(ctx, program, func);
  if (!out) return false;
  if (!out->link_status) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": program " + std::to_string(program) + " is not linked");
    return false;
  }
  if (need_separable && !out->linked_separable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": program " + std::to_string(program) +
                                             " was not linked with GL_PROGRAM_SEPARABLE");
    return false;
  }
  return true;
}

void make_pipelines(Context* ctx, GLsizei n, GLuint* pipelines, bool created, const char* func) {
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": n is negative");
    return;
  }
  for (GLsizei i = 0; i < n; ++i) {
    auto p = std::make_shared<ProgramPipelineObject>();
    p->name = ctx->next_pipeline++;
    p->created = created;
    ctx->pipelines[p->name] = p;
    if (pipelines) pipelines[i] = p->name;
  }
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

// GL 4.6 §7.3 / ES 3.1 §7.3: PROGRAM_SEPARABLE (takes effect at the next link) and PROGRAM_BINARY_RETRIEVABLE_HINT;
// GL_BISMUTH_num_waves's COMPUTE_WAVE_SIZE_HINT_BISMUTH (also at the next link).
GLAPI void APIENTRY glProgramParameteri(GLuint program, GLenum pname, GLint value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glProgramParameteri");
  if (!p) return;
  if (pname == GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH) {
    // GL_BISMUTH_num_waves: the hint takes effect at the next glLinkProgram, as PROGRAM_SEPARABLE does.
    if (!valid_wave_size_hint(value)) {
      ctx->set_error(GL_INVALID_VALUE, "glProgramParameteri: GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH takes GL_DONT_CARE, "
                                       "GL_COMPUTE_WAVE_SIZE_SMALL_BISMUTH or GL_COMPUTE_WAVE_SIZE_LARGE_BISMUTH");
      return;
    }
    p->wave_size_hint = static_cast<GLenum>(value);
    return;
  }
  if (pname != GL_PROGRAM_SEPARABLE && pname != GL_PROGRAM_BINARY_RETRIEVABLE_HINT) {
    ctx->set_error(GL_INVALID_ENUM, "glProgramParameteri: pname " + hex(pname) + " is not a program parameter");
    return;
  }
  if (value != GL_TRUE && value != GL_FALSE) {
    ctx->set_error(GL_INVALID_VALUE, "glProgramParameteri: value must be GL_TRUE or GL_FALSE");
    return;
  }
  (pname == GL_PROGRAM_SEPARABLE ? p->separable : p->binary_retrievable_hint) = value == GL_TRUE;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGenProgramPipelines(GLsizei n, GLuint* pipelines) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  make_pipelines(ctx, n, pipelines, false, "glGenProgramPipelines");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateProgramPipelines(GLsizei n, GLuint* pipelines) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  make_pipelines(ctx, n, pipelines, true, "glCreateProgramPipelines");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §7.4: unused names are ignored; a bound pipeline that is deleted reverts the binding to zero.
GLAPI void APIENTRY glDeleteProgramPipelines(GLsizei n, const GLuint* pipelines) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteProgramPipelines: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && pipelines != nullptr; ++i) {
    auto it = ctx->pipelines.find(pipelines[i]);
    if (it == ctx->pipelines.end()) continue;
    if (ctx->pipeline == it->second) ctx->pipeline.reset();
    ctx->pipelines.erase(it);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// "If pipeline is a name returned by GenProgramPipelines but that has not yet been bound ... the name is not a
// program pipeline object and IsProgramPipeline returns FALSE."
GLAPI GLboolean APIENTRY glIsProgramPipeline(GLuint pipeline) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  auto it = ctx->pipelines.find(pipeline);
  return it != ctx->pipelines.end() && it->second->created ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glBindProgramPipeline(GLuint pipeline) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (pipeline == 0) {
    ctx->pipeline.reset();
    return;
  }
  auto p = generated_pipeline(ctx, pipeline, "glBindProgramPipeline");
  if (!p) return;
  p->created = true;
  ctx->pipeline = std::move(p);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §7.4: the stages named in `stages` take `program`'s executables for them, or none (program 0, or a
// program without that stage: every program here has only a compute stage).
GLAPI void APIENTRY glUseProgramStages(GLuint pipeline, GLbitfield stages, GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = existing_pipeline(ctx, pipeline, "glUseProgramStages");
  if (!p) return;
  if (stages != GL_ALL_SHADER_BITS && (stages & ~kStageBits) != 0) {
    ctx->set_error(GL_INVALID_VALUE, "glUseProgramStages: stages has bits that are not shader stage bits");
    return;
  }
  std::shared_ptr<ProgramObject> prog;
  if (!stage_program(ctx, program, true, prog, "glUseProgramStages")) return;
  if (stages & GL_COMPUTE_SHADER_BIT) p->compute = std::move(prog);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glActiveShaderProgram(GLuint pipeline, GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = existing_pipeline(ctx, pipeline, "glActiveShaderProgram");
  if (!p) return;
  std::shared_ptr<ProgramObject> prog;
  if (!stage_program(ctx, program, false, prog, "glActiveShaderProgram")) return;
  p->active = std::move(prog);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// ValidateProgramPipeline (GL 4.6 §7.4, §11.1.3.11): a pipeline is valid when it has a program for some stage (and
// the stages' interfaces match: a compute-only pipeline has none); VALIDATE_STATUS, and the info log says why not.
GLAPI void APIENTRY glValidateProgramPipeline(GLuint pipeline) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = existing_pipeline(ctx, pipeline, "glValidateProgramPipeline");
  if (!p) return;
  if (p->compute) settle(ctx, *p->compute);  // a relink may still run (parallel_compile.hpp)
  p->validate_status = p->compute && p->compute->link_status;
  p->info_log = p->validate_status ? "" : "error: the pipeline has no program for any stage\n";
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetProgramPipelineiv(GLuint pipeline, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = existing_pipeline(ctx, pipeline, "glGetProgramPipelineiv");
  if (!p) return;
  GLint v = 0;
  switch (pname) {
    case GL_ACTIVE_PROGRAM: v = p->active ? static_cast<GLint>(p->active->name) : 0; break;
    case GL_COMPUTE_SHADER: v = p->compute ? static_cast<GLint>(p->compute->name) : 0; break;
    case GL_VERTEX_SHADER:
    case GL_FRAGMENT_SHADER:
    case GL_GEOMETRY_SHADER:
    case GL_TESS_CONTROL_SHADER:
    case GL_TESS_EVALUATION_SHADER: v = 0; break;
    case GL_VALIDATE_STATUS: v = p->validate_status; break;
    case GL_INFO_LOG_LENGTH: v = p->info_log.empty() ? 0 : static_cast<GLint>(p->info_log.size() + 1); break;
    default:
      ctx->set_error(GL_INVALID_ENUM, "glGetProgramPipelineiv: pname " + hex(pname) + " is not pipeline state");
      return;
  }
  if (params) *params = v;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetProgramPipelineInfoLog(GLuint pipeline, GLsizei bufSize, GLsizei* length, GLchar* infoLog) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = existing_pipeline(ctx, pipeline, "glGetProgramPipelineInfoLog");
  if (!p) return;
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetProgramPipelineInfoLog: bufSize is negative");
    return;
  }
  copy_string(p->info_log, bufSize, length, infoLog);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
