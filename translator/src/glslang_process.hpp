// glslang's process-wide state, shared by every front end in this library.
#pragma once

#include <glslang/Public/ShaderLang.h>

#include "bismuth/spirv_patch/target_env.hpp"

namespace bismuth::translator {

// glslang needs one process-wide initialisation before the first shader; it is never finalised because other
// threads may still be compiling when static destructors run. Thread-safe.
void ensure_glslang_initialized();

// glslang's client/target enums for a Vulkan environment.
struct GlslangTarget {
  glslang::EShTargetClientVersion client;
  glslang::EShTargetLanguageVersion spirv;
};
GlslangTarget glslang_target(spirv_patch::TargetEnv env);

}  // namespace bismuth::translator
