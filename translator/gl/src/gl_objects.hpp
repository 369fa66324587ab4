// Name lookups shared by the entry-point files: each sets the GL error its callers' rules name on failure.
#pragma once

#include "gl_internal.hpp"

namespace bismuth::gl {

// INVALID_VALUE for an unknown name, INVALID_OPERATION for a name of the other kind (GL 4.6 §7.1).
std::shared_ptr<ShaderObject> shader_object(Context* ctx, GLuint name, const char* func);
std::shared_ptr<ProgramObject> program_object(Context* ctx, GLuint name, const char* func);

}  // namespace bismuth::gl
