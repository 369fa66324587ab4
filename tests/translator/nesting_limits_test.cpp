// Deeply nested GLSL: glslang walks its syntax tree recursively, so a deep enough source overflowed
// the stack — glCompileShader killed the host program, `bismuth compile` died with SIGSEGV. The GLSL front now
// rejects sources beyond its documented limits (docs/gl_shim.md, "Limits") with an error at line and column, and
// compiles everything within them on a stack large enough for it.
#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "support/run_process.hpp"

using namespace bismuth::translator;

namespace {

constexpr const char* kHeader =
    "#version 450\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer B { uint o[]; };\n";

// main() storing `expression` (on line 6, column 10) in o[0], with `uint i` in scope.
std::string shader_storing(const std::string& expression, const std::string& before_main = "") {
  return std::string(kHeader) + before_main + "void main() {\n  uint i = o[1];\n  o[0] = " + expression + ";\n}\n";
}

std::string sum_of(int terms) {
  std::string sum = "i";
  for (int k = 1; k < terms; ++k) sum += " + i";
  return sum;
}

bool compiles_and_links(const std::string& source, std::string* log = nullptr) {
  auto shader = GlShader::compile(source);
  if (log) *log = shader->info_log();
  if (!shader->ok()) return false;
  const std::shared_ptr<const GlShader> shaders[] = {shader};
  auto program = link_gl_program(shaders);
  if (!program && log) *log = program.error().message;
  return bool(program);
}

// compiles_and_links() on a new thread with a stack of `stack_bytes`.
bool compiles_and_links_on_thread(size_t stack_bytes, const std::string& source) {
  struct Job {
    const std::string* source;
    bool ok = false;
  } job{&source};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  const bool started = pthread_create(
                           &thread, &attr,
                           [](void* arg) -> void* {
                             auto* j = static_cast<Job*>(arg);
                             j->ok = compiles_and_links(*j->source);
                             return nullptr;
                           },
                           &job) == 0;
  pthread_attr_destroy(&attr);
  if (started) pthread_join(thread, nullptr);
  return started && job.ok;
}

}  // namespace

TEST_CASE("A sum of 15000 terms compiles and links (it overflowed glslang's stack)") {
  // The 30 KB source: ~75,000 frames of glslang's tree traversers, more than an 8 MiB stack holds.
  std::string log;
  CHECK(compiles_and_links(shader_storing(sum_of(15000)), &log));
  INFO(log);
  CHECK(compile_glsl_compute(shader_storing(sum_of(15000))));
}

TEST_CASE("A sum of 100000 terms is a compile error at its line and column and not a crash") {
  auto shader = GlShader::compile(shader_storing(sum_of(100000)));
  REQUIRE_FALSE(shader->ok());
  // main's block, the index of o[0] and the assignment are a level each: the 65,534th '+' ("i" at column 10,
  // then " + i" every 4 columns) is the first beyond the limit.
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:6(262144): error: the expression is deeper than 65536 levels"));
  auto vulkan = compile_glsl_compute(shader_storing(sum_of(100000)), {.source_name = "deep.comp"});
  REQUIRE_FALSE(vulkan);
  CHECK_THAT(vulkan.error().message, Catch::StartsWith("deep.comp:6:262144: error: the expression is deeper"));
}

TEST_CASE("Parentheses and calls and blocks and else-if chains nest at most 1024 levels") {
  struct Case {
    const char* what;
    std::string source;
  };
  const int n = 1100;
  std::string calls, ifs, blocks;
  for (int k = 0; k < n; ++k) calls += "max(i, ";
  calls += "i" + std::string(n, ')');
  for (int k = 0; k < n; ++k)
    ifs += k == 0 ? "if (i == 0u) o[0] = 0u;" : " else if (i == " + std::to_string(k) + "u) o[0] = 1u;";
  blocks = std::string(n, '{') + " o[0] = i; " + std::string(n, '}');
  const Case cases[] = {
      {"parentheses", shader_storing(std::string(n, '(') + "i" + std::string(n, ')'))},
      {"calls", shader_storing(calls)},
      {"else-if chain", std::string(kHeader) + "void main() {\n  uint i = o[1];\n  " + ifs + "\n}\n"},
      {"blocks", std::string(kHeader) + "void main() {\n  uint i = o[1];\n  " + blocks + "\n}\n"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto shader = GlShader::compile(c.source);
    REQUIRE_FALSE(shader->ok());
    CHECK_THAT(shader->info_log(), Catch::Contains("nests deeper than 1024 levels") && Catch::StartsWith("0:6("));
  }
  // Within the limit they compile (glslang's own parser stops near 1,400 else-ifs with "memory exhausted").
  std::string within;
  for (int k = 0; k < 1000; ++k) within += "max(i, ";
  within += "i" + std::string(1000, ')');
  CHECK(compiles_and_links(shader_storing(within)));
}

TEST_CASE("Depth hidden in macros is counted where the macros are used") {
  // Object-like macros: counted from the source; 100-term T used 700 times is a 70,000-term sum.
  std::string uses = "T";
  for (int k = 1; k < 700; ++k) uses += " + T";
  auto shader = GlShader::compile(shader_storing(uses, "#define T (" + sum_of(100) + ")\n"));
  REQUIRE_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:7(") && Catch::Contains("is deeper than 65536 levels"));
  // A function-like macro that uses its argument 8 times: 6 nested calls are a 262,144-term sum, found after
  // preprocessing.
  std::string nested;
  for (int k = 0; k < 6; ++k) nested += "X8(";
  nested += "i" + std::string(6, ')');
  shader = GlShader::compile(shader_storing(nested, "#define X8(x) x + x + x + x + x + x + x + x\n"));
  REQUIRE_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:7(") && Catch::Contains("counted after macro expansion"));
  // Five nested calls (32,768 terms) are within the limit.
  nested = "X8(X8(X8(X8(X8(i)))))";
  CHECK(compiles_and_links(shader_storing(nested, "#define X8(x) x + x + x + x + x + x + x + x\n")));
}

TEST_CASE("Code closed in a branch that is not compiled still counts as open") {
  // The source's parentheses balance, but the compiled code's do not close before the 60,000-term sum: it is
  // nested 100 calls deep in the compiled code.
  std::string calls;
  for (int k = 0; k < 100; ++k) calls += "max(i, ";
  const std::string source = std::string(kHeader) + "void main() {\n  uint i = o[1];\n  o[0] = " + calls + "\n#if 0\n" +
                             std::string(100, ')') + "\n#endif\n" + sum_of(65500) + std::string(100, ')') + ";\n}\n";
  auto shader = GlShader::compile(source);
  REQUIRE_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::Contains("counted after macro expansion"));
}

TEST_CASE("An #if expression nests at most 1024 levels") {
  const std::string source = std::string(kHeader) + "#if " + std::string(2000, '(') + "1" + std::string(2000, ')') +
                             "\n#endif\nvoid main() { o[0] = 1u; }\n";
  auto shader = GlShader::compile(source);
  REQUIRE_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:4(1): error: #if nests deeper than 1024 levels"));
}

TEST_CASE("A deep shader compiles on a thread whose own stack is small") {
  // glCompileShader may be called from any thread: one with a 256 KiB stack gets the compiler thread's stack.
  CHECK(compiles_and_links_on_thread(256 << 10, shader_storing(sum_of(3000))));
}

TEST_CASE("An index chain is one level per bracket") {
  // `a[0][0]...[0]` is a chain of index operations as deep as it has brackets, as `a + a + ...` is: 3,000 of them
  // need about 2.4 MiB of glslang's stack, more than a thread with 1 MiB has.
  auto indexed = [](int dimensions) {
    std::string sizes, indices;
    for (int k = 0; k < dimensions; ++k) sizes += "[1]", indices += "[0]";
    return std::string(kHeader) + "shared uint a" + sizes + ";\nvoid main() {\n  o[0] = a" + indices + ";\n}\n";
  };
  CHECK(compiles_and_links_on_thread(1 << 20, indexed(3000)));
  auto shader = GlShader::compile(indexed(70000));
  REQUIRE_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:4(") && Catch::Contains("is deeper than 65536 levels"));
}

TEST_CASE("bismuth compile exits non-zero with the message for a source beyond the limits", "[cli]") {
  const std::string input = "nesting_limits_deep.comp";
  {
    std::ofstream f(input);
    f << shader_storing(sum_of(100000));
  }
  auto result = bismuth::test::run_process(
      {bismuth::test::tool_path(BISMUTH_CLI_PATH), "compile", input, "-o", "nesting_limits_deep.spv"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith(input + ":6:262144: error: the expression is deeper than 65536 levels"));
  std::remove(input.c_str());
}
