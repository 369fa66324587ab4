// glsl_front: the GL shim's whole GLSL front (GlShader::compile, then link_gl_program with a 32 KiB shared-memory
// limit) and the plain Vulkan compile_glsl_compute, over arbitrary bytes as GLSL source. glslang runs as built by
// the distribution (not instrumented). Neither crashes nor throws; a failed compile says why in its info log
// (GL-style "0:line(column): ..." lines), a failed link in its message, and a linked program's SPIR-V parses.
#include <cstdlib>
#include <memory>
#include <string>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(glsl_front) {
  using namespace bismuth::translator;
  const std::string source(reinterpret_cast<const char*>(data), size);
  auto shader = GlShader::compile(source);
  if (!shader->ok()) {
    if (shader->info_log().rfind("0:", 0) != 0) std::abort();
  } else {
    const std::shared_ptr<const GlShader> shaders[] = {shader};
    auto program = link_gl_program(shaders, {.max_compute_shared_memory_size = 32768});
    if (!program) {
      if (program.error().message.empty()) std::abort();
    } else if (!bismuth::spirv_patch::Module::parse(program->spirv) || program->shared_memory_bytes > 32768) {
      std::abort();
    }
  }
  auto words = compile_glsl_compute(source, {.source_name = "f.comp"});
  if (!words && words.error().message.rfind("f.comp:", 0) != 0) std::abort();
  return 0;
}
