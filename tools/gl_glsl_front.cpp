#include "gl_glsl_front.hpp"

#include <regex>

#include "bismuth/translator/gl_program.hpp"

namespace bismuth::tools {

namespace {

// GL info logs say "0:LINE(COLUMN): error: text"; the tool's diagnostics are "file:line:column: error: text".
std::string rewrite_log(const std::string& log, const std::string& file) {
  static const std::regex kPosition(R"((^|\n)0:(\d+)\((\d+)\): )");
  const std::string positioned = std::regex_replace(log, kPosition, "$1" + file + ":$2:$3: ");
  // Lines without a position (link errors) still name the file.
  std::string out;
  size_t start = 0;
  while (start < positioned.size()) {
    size_t end = positioned.find('\n', start);
    if (end == std::string::npos) end = positioned.size();
    const std::string line = positioned.substr(start, end - start);
    if (!line.empty()) out += (line.rfind(file + ":", 0) == 0 ? line : file + ": " + line) + "\n";
    start = end + 1;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string kind_text(translator::GlResourceKind kind) {
  switch (kind) {
    case translator::GlResourceKind::ShaderStorageBuffer: return "shader storage buffer";
    case translator::GlResourceKind::UniformBuffer: return "uniform buffer";
    case translator::GlResourceKind::AtomicCounterBuffer: return "atomic counter buffer";
    case translator::GlResourceKind::DefaultUniformBlock: return "default uniform block";
    case translator::GlResourceKind::Texture: return "sampler";
    case translator::GlResourceKind::TextureBuffer: return "buffer sampler";
    case translator::GlResourceKind::Image: return "image";
    case translator::GlResourceKind::ImageBuffer: return "buffer image";
  }
  return "?";
}

}  // namespace

Expected<GlGlslResult> compile_gl_glsl(std::span<const GlslFile> files, spirv_patch::TargetEnv target,
                                       const ShaderExtensionSupport& extensions) {
  if (files.empty()) return fail("no compute shader given");
  std::vector<std::shared_ptr<const translator::GlShader>> shaders;
  std::string warnings;
  auto add_warnings = [&warnings](const std::string& log) {
    if (!warnings.empty() && !log.empty()) warnings += '\n';
    warnings += log;
  };
  for (const GlslFile& f : files) {
    auto shader = translator::GlShader::compile(f.source, {.target = target, .extensions = extensions});
    if (!shader->ok()) return fail(rewrite_log(shader->info_log(), f.path));
    add_warnings(rewrite_log(shader->info_log(), f.path));
    shaders.push_back(std::move(shader));
  }
  const std::string& file = files.front().path;
  auto linked = translator::link_gl_program(shaders);
  if (!linked) return fail(rewrite_log(linked.error().message, file));
  GlGlslResult result;
  // One line per descriptor: "binding J" or, for an array of blocks, "binding J[E]".
  size_t binding = 0, element = 0;
  for (const auto& r : linked->resources) {
    const uint32_t count = binding < linked->descriptor_counts.size() ? linked->descriptor_counts[binding] : 1;
    std::string text = "binding " + std::to_string(binding) + (count > 1 ? "[" + std::to_string(element) + "]" : "") +
                       ": " + kind_text(r.kind);
    if (translator::is_opaque(r.kind)) {
      // A sampler or image: the uniform (its unit is set with glUniform1i, not known here).
      const std::string& name = linked->uniforms[r.uniform].name;
      text += " " + (linked->uniforms[r.uniform].array_size > 1
                         ? name.substr(0, name.find('[')) + "[" + std::to_string(r.gl_binding) + "]"
                         : name);
    } else if (r.kind != translator::GlResourceKind::DefaultUniformBlock) {
      text += " " + std::to_string(r.gl_binding);
    }
    result.bindings.push_back(text);
    if (++element == count) {
      ++binding;
      element = 0;
    }
  }
  add_warnings(rewrite_log(linked->info_log, file));
  result.warnings = std::move(warnings);
  result.program = std::move(*linked);
  return result;
}

}  // namespace bismuth::tools
