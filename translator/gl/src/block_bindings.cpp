// The bindings of a linked program's blocks (GL 4.6 §7.6.2 and §7.8): glUniformBlockBinding and
// glShaderStorageBlockBinding. A block's GL binding point is looked up at each dispatch (dispatch.cpp), so a
// rebinding changes which buffer the next dispatch reads and recompiles nothing; a relink starts again from the
// declared bindings.
#include "gl_objects.hpp"
#include "program_interface.hpp"

namespace bismuth::gl {
namespace {

void rebind_block(Context* ctx, GLuint program, GLuint index, GLuint binding, bool storage, const char* func) {
  auto p = program_object(ctx, program, func);
  if (!p) return;
  translator::GlLinkedProgram* linked = p->link_status && p->executable ? &p->executable->program : nullptr;
  auto* blocks = linked ? (storage ? &linked->storage_blocks : &linked->uniform_blocks) : nullptr;
  if (blocks == nullptr || index >= blocks->size()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(index) +
                                         " is not the index of an active block of the program");
    return;
  }
  const uint32_t max =
      storage ? GlBindingMap::kMaxShaderStorageBufferBindings : GlBindingMap::kMaxUniformBufferBindings;
  if (binding >= max) {
    ctx->set_error(GL_INVALID_VALUE,
                   std::string(func) + ": binding " + std::to_string(binding) + " is not below " +
                       (storage ? "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS" : "GL_MAX_UNIFORM_BUFFER_BINDINGS") + " (" +
                       std::to_string(max) + ")");
    return;
  }
  (*blocks)[index].gl_binding = binding;
  linked->resources[(*blocks)[index].vk_binding].gl_binding = binding;
  // The program now reads another indexed binding: a dispatch must gather its buffers again (dispatch.cpp reuses
  // a buffer-only program's gathered bindings while this counter is unchanged).
  note_buffer_bindings_changed();
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glShaderStorageBlockBinding(GLuint program, GLuint storageBlockIndex, GLuint storageBlockBinding) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  rebind_block(ctx, program, storageBlockIndex, storageBlockBinding, true, "glShaderStorageBlockBinding");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glUniformBlockBinding(GLuint program, GLuint uniformBlockIndex, GLuint uniformBlockBinding) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  rebind_block(ctx, program, uniformBlockIndex, uniformBlockBinding, false, "glUniformBlockBinding");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
