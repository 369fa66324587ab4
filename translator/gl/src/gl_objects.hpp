// Name lookups shared by the entry-point files: each sets the GL error its callers' rules name on failure. And the
// copy-out of a string into an application's buffer, as every glGet*InfoLog / glGet*Name call does it.
#pragma once

#include <string>

#include "gl_internal.hpp"

namespace bismuth::gl {

// INVALID_VALUE for an unknown name, INVALID_OPERATION for a name of the other kind (GL 4.6 §7.1). A pending
// compile or link of the object is settled first (parallel_compile.hpp).
std::shared_ptr<ShaderObject> shader_object(Context* ctx, GLuint name, const char* func);
std::shared_ptr<ProgramObject> program_object(Context* ctx, GLuint name, const char* func);
// The same lookups without settling a pending compile or link (parallel_compile.hpp): for COMPLETION_STATUS_KHR,
// and for calls that touch no compile or link result (attach, detach, delete).
std::shared_ptr<ShaderObject> shader_object_unsettled(Context* ctx, GLuint name, const char* func);
std::shared_ptr<ProgramObject> program_object_unsettled(Context* ctx, GLuint name, const char* func);

// Copies at most buf_size - 1 characters of `s` and a terminating NUL into `out` (nothing when buf_size is 0 or
// `out` null); *length (when not null) gets the characters copied, the NUL not counted.
void copy_string(const std::string& s, GLsizei buf_size, GLsizei* length, GLchar* out);

// glShaderSource's strings as one source (GL 4.6 §7.1: a null or negative length means a null-terminated string;
// null strings are skipped). `count` is not negative.
std::string join_shader_strings(GLsizei count, const GLchar* const* string, const GLint* length);

}  // namespace bismuth::gl
