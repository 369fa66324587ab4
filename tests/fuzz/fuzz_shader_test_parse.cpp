// shader_test_parse: `bismuth run`'s parser of piglit shader_test files over arbitrary bytes. It returns a test
// or a "path:line: message" error; it never crashes, and every line number it reports lies inside the input.
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "shader_test.hpp"

BISMUTH_FUZZ_TARGET(shader_test_parse) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  auto parsed = bismuth::tools::runner::parse_shader_test(text, "f.shader_test");
  if (!parsed) {
    const std::string& m = parsed.error().message;
    if (m.rfind("f.shader_test:", 0) != 0) std::abort();  // every error names the file and line
    const long line = std::strtol(m.c_str() + 14, nullptr, 10);
    if (line < 1 || static_cast<size_t>(line) > lines) std::abort();
    return 0;
  }
  for (const auto& c : parsed->commands) {
    if (c.line < 1 || static_cast<size_t>(c.line) > lines) std::abort();
    using Kind = bismuth::tools::runner::Command::Kind;
    if (c.kind == Kind::Uniform && (c.components == 0 || c.values.size() % c.components)) std::abort();
    // The executor addresses the last value's std430 offset: probes and subdata hold whole elements, at least one.
    if ((c.kind == Kind::ProbeSsbo || c.kind == Kind::SsboSubdata) &&
        (c.values.empty() || c.layout.components() == 0 || c.values.size() % c.layout.components())) {
      std::abort();
    }
  }
  for (const auto& s : parsed->glsl_shaders) {
    if (s.first_line < 1 || static_cast<size_t>(s.first_line) > lines + 1) std::abort();
  }
  return 0;
}
