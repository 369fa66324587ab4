// The program cache (docs/gl_shim.md, "Program cache") through libbismuth-gl's public API: a compute program
// compiled and linked again is answered by its compile and link records (KHR_debug says so in a debug context)
// with the same dispatch results and introspection as the link that made them; what changes a program's meaning
// changes its record; the record files survive corruption, truncation, renames, FIFOs, directories and symlinks in
// their place and an unwritable folder (every link still succeeds, from source); the folder stays within its bound.
// Each test uses a folder of its own (BISMUTH_CACHE_DIR) and BISMUTH_PROGRAM_CACHE_MEMORY_KB=0 where it wants the
// folder read on every lookup. Under the validation layer.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;
namespace fs = std::filesystem;

namespace {

constexpr const char* kLinkRecordUsed = "linked from a link record";
constexpr const char* kCompileRecordUsed = "compiled from a compile record";
constexpr const char* kRecordIgnored = "program cache: ignoring";

// Sets the cache's environment for one test (a fresh folder) and restores it after.
class CacheFolder {
 public:
  explicit CacheFolder(const char* memory_kb = nullptr) {
    char pattern[] = "/tmp/bismuth-program-cache-XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    dir = pattern;
    setenv("BISMUTH_CACHE_DIR", dir.c_str(), 1);
    unsetenv("BISMUTH_PROGRAM_CACHE");
    unsetenv("BISMUTH_PROGRAM_CACHE_DISK_KB");
    if (memory_kb != nullptr) {
      setenv("BISMUTH_PROGRAM_CACHE_MEMORY_KB", memory_kb, 1);
    } else {
      unsetenv("BISMUTH_PROGRAM_CACHE_MEMORY_KB");
    }
  }
  ~CacheFolder() {
    // The display's device saves its pipeline cache into the folder when it goes: terminate it first (the test's
    // contexts are gone by now).
    eglTerminate(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr));
    unsetenv("BISMUTH_CACHE_DIR");
    unsetenv("BISMUTH_PROGRAM_CACHE_MEMORY_KB");
    unsetenv("BISMUTH_PROGRAM_CACHE_DISK_KB");
    unsetenv("BISMUTH_PROGRAM_CACHE");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::vector<fs::path> records() const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir + "/programs", ec)) {
      if (e.path().extension() == ".bin") out.push_back(e.path());
    }
    return out;
  }
  uint64_t record_bytes() const {
    uint64_t total = 0;
    for (const auto& p : records()) {
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) total += fs::file_size(p, ec);
    }
    return total;
  }
  std::string dir;
};

// Default-block uniforms, a uniform block, a storage block and an atomic counter: every kind of reflection a link
// record carries.
const char* kBlocks = R"(#version 450
layout(local_size_x = 32) in;
uniform uint scale;
uniform vec2 offsets[3];
layout(std140, binding = 1) uniform Params { uint add; } params;
layout(std430, binding = 2) buffer Out { uint values[]; } result;
layout(binding = 0, offset = 4) uniform atomic_uint counter;
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicCounterIncrement(counter);
  result.values[i] = i * scale + params.add + uint(offsets[2].y) + LITERAL;
}
)";

const char* kVariable = R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(std430, binding = 0) buffer Out { uint values[]; };
void main() {
  values[gl_GlobalInvocationID.x] = gl_LocalGroupSizeARB.x * 1000u + gl_LocalInvocationID.x + LITERAL;
}
)";

std::string with_literal(const char* source, uint32_t literal) {
  std::string s = source;
  const size_t at = s.find("LITERAL");
  s.replace(at, 7, std::to_string(literal) + "u");
  return s;
}

GLuint compile(const std::string& source, GLint* status = nullptr) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  if (status != nullptr) glGetShaderiv(shader, GL_COMPILE_STATUS, status);
  return shader;
}

std::string shader_log(GLuint shader) {
  char log[4096] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  return log;
}

GLint link_status(GLuint program) {
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  return ok;
}

// What a program's introspection and dispatch give: the values compared between a link from source and a link
// from its record.
struct Observed {
  std::vector<GLint> numbers;
  std::vector<uint32_t> results;
  uint32_t counter = 0;
  friend bool operator==(const Observed&, const Observed&) = default;
};

Observed run_blocks_program(GLuint program) {
  Observed o;
  for (GLenum interface :
       {GL_UNIFORM, GL_UNIFORM_BLOCK, GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, GL_ATOMIC_COUNTER_BUFFER}) {
    GLint n = -1;
    glGetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &n);
    o.numbers.push_back(n);
  }
  for (const char* name : {"scale", "offsets", "offsets[2]"}) o.numbers.push_back(glGetUniformLocation(program, name));
  o.numbers.push_back(static_cast<GLint>(glGetProgramResourceIndex(program, GL_SHADER_STORAGE_BLOCK, "Out")));
  GLint size[3] = {};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  o.numbers.insert(o.numbers.end(), size, size + 3);

  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "scale"), 3);
  const GLfloat offsets[6] = {0, 0, 0, 0, 0, 40};
  glUniform2fv(glGetUniformLocation(program, "offsets"), 3, offsets);
  const uint32_t add = 7;
  GLuint params = make_buffer(16, nullptr);
  glBindBuffer(GL_UNIFORM_BUFFER, params);
  glBufferData(GL_UNIFORM_BUFFER, 16, nullptr, GL_STATIC_DRAW);
  glBufferSubData(GL_UNIFORM_BUFFER, 0, 4, &add);
  glBindBufferBase(GL_UNIFORM_BUFFER, 1, params);
  const GLuint out = make_buffer(64 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, out);
  const uint32_t zero[2] = {0, 0};
  GLuint counter = 0;
  glGenBuffers(1, &counter);
  glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, counter);
  glBufferData(GL_ATOMIC_COUNTER_BUFFER, 8, zero, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, counter);
  glDispatchCompute(2, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  o.results = read_words(out, 64);
  uint32_t words[2] = {};
  glBindBuffer(GL_COPY_READ_BUFFER, counter);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 8, words);
  o.counter = words[1];
  glDeleteBuffers(1, &params);
  glDeleteBuffers(1, &out);
  glDeleteBuffers(1, &counter);
  return o;
}

std::vector<uint32_t> run_variable_program(GLuint program, GLuint group_size) {
  glUseProgram(program);
  const GLuint out = make_buffer(256 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchComputeGroupSizeARB(256 / group_size, 1, 1, group_size, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  auto words = read_words(out, 256);
  glDeleteBuffers(1, &out);
  return words;
}

size_t count_messages(const GlContext& ctx, const char* text) {
  size_t n = 0;
  for (const auto& m : ctx.messages()) n += m.text.find(text) != std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("A program compiled and linked again comes from its records, with the same results and introspection",
          "[program_cache]") {
  CacheFolder folder;
  GlContext ctx(4, 6, true);
  const std::string source = with_literal(kBlocks, 5);
  const GLuint first = make_program(source);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  CHECK(count_messages(ctx, kCompileRecordUsed) == 0);
  const Observed from_source = run_blocks_program(first);
  CHECK(from_source.counter == 64);
  CHECK(from_source.results[10] == 10 * 3 + 7 + 40 + 5);
  CHECK(folder.records().size() == 2);  // the compile record and the link record

  ctx.clear_messages();
  const GLuint second = make_program(source);
  CHECK(count_messages(ctx, kCompileRecordUsed) == 1);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 1);
  CHECK(run_blocks_program(second) == from_source);

  // GL 4.6 §7.3: "each program object has its own uniform state": the record's program starts from zeros, like
  // every newly linked program, whatever the first program's uniforms were set to.
  GLuint value = 99;
  glGetUniformuiv(second, glGetUniformLocation(second, "scale"), &value);
  CHECK(value == 3);  // set by run_blocks_program on this program
  const GLuint third = make_program(source);
  glGetUniformuiv(third, glGetUniformLocation(third, "scale"), &value);
  CHECK(value == 0);
  glDeleteProgram(first);
  glDeleteProgram(second);
  glDeleteProgram(third);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Records are read back from the cache folder by a store that has none in memory", "[program_cache]") {
  CacheFolder folder("0");  // no memory: every lookup reads the folder
  GlContext ctx(4, 6, true);
  const std::string source = with_literal(kVariable, 11);
  const GLuint first = make_program(source);
  const auto from_source = run_variable_program(first, 64);
  CHECK(from_source[70] == 64 * 1000 + 6 + 11);
  ctx.clear_messages();
  const GLuint second = make_program(source);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 1);
  CHECK(run_variable_program(second, 64) == from_source);
  // A size the record's program never ran: the same as a program linked from source gives.
  const auto other_size = run_variable_program(second, 32);
  CHECK(other_size[70] == 32 * 1000 + 6 + 11);
  // COMPUTE_WORK_GROUP_SIZE of a variable-size program: the same answer (values and error) as from source.
  GLint size_from_source[3] = {1, 2, 3}, size_from_record[3] = {1, 2, 3};
  glGetProgramiv(first, GL_COMPUTE_WORK_GROUP_SIZE, size_from_source);
  const GLenum error_from_source = glGetError();
  glGetProgramiv(second, GL_COMPUTE_WORK_GROUP_SIZE, size_from_record);
  CHECK(glGetError() == error_from_source);
  CHECK(std::equal(size_from_source, size_from_source + 3, size_from_record));
  glDeleteProgram(first);
  glDeleteProgram(second);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("What changes a program's meaning changes its record", "[program_cache]") {
  CacheFolder folder;
  GlContext ctx(4, 6, true);
  const GLuint a = make_program(with_literal(kVariable, 1));
  ctx.clear_messages();
  // Another literal: another source, another compile and link.
  const GLuint b = make_program(with_literal(kVariable, 2));
  CHECK(count_messages(ctx, kCompileRecordUsed) == 0);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  CHECK(run_variable_program(b, 64)[0] == 64 * 1000 + 2);

  // The same shader in a separable program: the compile record serves, the link does not (PROGRAM_SEPARABLE is
  // part of the link).
  ctx.clear_messages();
  const GLuint shader = compile(with_literal(kVariable, 1));
  const GLuint separable = glCreateProgram();
  glProgramParameteri(separable, GL_PROGRAM_SEPARABLE, GL_TRUE);
  glAttachShader(separable, shader);
  glLinkProgram(separable);
  CHECK(link_status(separable) == GL_TRUE);
  CHECK(count_messages(ctx, kCompileRecordUsed) == 1);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  GLint value = 0;
  glGetProgramiv(separable, GL_PROGRAM_SEPARABLE, &value);
  CHECK(value == GL_TRUE);
  CHECK(run_variable_program(separable, 64)[0] == 64 * 1000 + 1);
  glDeleteShader(shader);
  for (GLuint p : {a, b, separable}) glDeleteProgram(p);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A link uses the source that was compiled, also when a compile record answered the compile",
          "[program_cache]") {
  CacheFolder folder;
  GlContext ctx(4, 6, true);
  glDeleteProgram(make_program(with_literal(kVariable, 21)));  // records for literal 21
  ctx.clear_messages();
  const GLuint shader = compile(with_literal(kVariable, 21));
  CHECK(count_messages(ctx, kCompileRecordUsed) == 1);
  // GL 4.6 §7.1: ShaderSource replaces the source, but the compiled shader stays what the last CompileShader made
  // until the next one; a link attaches what was compiled.
  const std::string replaced = with_literal(kVariable, 22);
  const char* text = replaced.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  // A separable program has no link record yet, so the front compiles the recorded source now.
  const GLuint program = glCreateProgram();
  glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);
  glAttachShader(program, shader);
  glLinkProgram(program);
  REQUIRE(link_status(program) == GL_TRUE);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  CHECK(run_variable_program(program, 64)[0] == 64 * 1000 + 21);
  glDeleteShader(shader);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A failed compile is recorded with its log", "[program_cache]") {
  CacheFolder folder;
  GlContext ctx(4, 6, true);
  const std::string bad = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undeclared = 1; }\n";
  GLint status = 1;
  const GLuint first = compile(bad, &status);
  CHECK(status == GL_FALSE);
  const std::string log = shader_log(first);
  CHECK(log.find("undeclared") != std::string::npos);
  ctx.clear_messages();
  const GLuint second = compile(bad, &status);
  CHECK(count_messages(ctx, kCompileRecordUsed) == 1);
  CHECK(status == GL_FALSE);
  CHECK(shader_log(second) == log);
  // GL 4.6 §7.3: linking fails if an attached shader is not compiled successfully.
  const GLuint program = glCreateProgram();
  glAttachShader(program, second);
  glLinkProgram(program);
  CHECK(link_status(program) == GL_FALSE);
  glDeleteShader(first);
  glDeleteShader(second);
  glDeleteProgram(program);
}

TEST_CASE("Damaged record files are ignored, removed and written again, and every link still succeeds",
          "[program_cache]") {
  CacheFolder folder("0");
  GlContext ctx(4, 6, true);
  const std::string source = with_literal(kBlocks, 9);
  const GLuint reference = make_program(source);
  const Observed expected = run_blocks_program(reference);
  glDeleteProgram(reference);
  REQUIRE(folder.records().size() == 2);

  auto relink_and_check = [&](const char* what) {
    INFO(what);
    ctx.clear_messages();
    const GLuint program = make_program(source);
    CHECK(run_blocks_program(program) == expected);
    glDeleteProgram(program);
  };
  auto damage_each = [&](auto damage) {
    for (const fs::path& record : folder.records()) damage(record);
  };
  auto bytes_of = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
  };
  auto write_bytes = [](const fs::path& p, const std::vector<char>& b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(b.data(), static_cast<std::streamsize>(b.size()));
  };

  // One flipped byte anywhere: in the header or the payload.
  for (size_t at : {size_t{0}, size_t{13}, size_t{40}, size_t{60}, size_t{200}}) {
    damage_each([&](const fs::path& p) {
      auto b = bytes_of(p);
      if (at < b.size()) b[at] = static_cast<char>(b[at] ^ 0x5A);
      write_bytes(p, b);
    });
    relink_and_check("a flipped byte");
    CHECK(count_messages(ctx, kRecordIgnored) >= 1);
    CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  }
  // The records were written again: the next link uses them.
  relink_and_check("rewritten records");
  CHECK(count_messages(ctx, kLinkRecordUsed) == 1);

  // Truncated at several lengths, empty, and extended.
  for (size_t keep : {size_t{0}, size_t{7}, size_t{60}, size_t{61}, size_t{300}}) {
    damage_each([&](const fs::path& p) {
      auto b = bytes_of(p);
      if (keep < b.size()) b.resize(keep);
      write_bytes(p, b);
    });
    relink_and_check("a truncated record");
    CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  }
  damage_each([&](const fs::path& p) {
    auto b = bytes_of(p);
    b.push_back('x');
    write_bytes(p, b);
  });
  relink_and_check("an extended record");
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);

  // Each record under the other's name (a renamed file: its key does not match its name).
  {
    auto records = folder.records();
    REQUIRE(records.size() == 2);
    const auto a = bytes_of(records[0]), b = bytes_of(records[1]);
    write_bytes(records[0], b);
    write_bytes(records[1], a);
  }
  relink_and_check("swapped records");
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);

  // Not regular files in the records' places: a FIFO (opening it must not block), a directory, a symlink to a good
  // record.
  {
    const auto records = folder.records();
    REQUIRE(records.size() == 2);
    const fs::path good = folder.dir + "/good.bin";
    fs::copy_file(records[0], good);
    for (const auto& p : records) fs::remove(p);
    REQUIRE(mkfifo(records[0].c_str(), 0600) == 0);
    fs::create_symlink(good, records[1]);
    relink_and_check("a FIFO and a symlink");
    CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
    for (const auto& p : folder.records()) fs::remove(p);
    fs::create_directory(records[0]);
    fs::create_directory(records[1]);
    relink_and_check("directories");
    CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
    fs::remove(records[0]);
    fs::remove(records[1]);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A cache folder that cannot be written loses nothing but the records", "[program_cache]") {
  CacheFolder folder("0");
  // The folder's path names a regular file: no records can be made under it.
  const std::string file = folder.dir + "/not-a-folder";
  std::ofstream(file) << "x";
  setenv("BISMUTH_CACHE_DIR", file.c_str(), 1);
  GlContext ctx(4, 6, true);
  for (int i = 0; i < 2; ++i) {
    const GLuint program = make_program(with_literal(kVariable, 31));
    CHECK(run_variable_program(program, 64)[1] == 64 * 1000 + 1 + 31);
    glDeleteProgram(program);
  }
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("The cache folder stays within BISMUTH_PROGRAM_CACHE_DISK_KB, keeping the most recent records",
          "[program_cache]") {
  CacheFolder folder("0");
  setenv("BISMUTH_PROGRAM_CACHE_DISK_KB", "48", 1);
  GlContext ctx(4, 6, true);
  for (uint32_t i = 0; i < 24; ++i) glDeleteProgram(make_program(with_literal(kVariable, 100 + i)));
  CHECK(folder.record_bytes() <= 48 * 1024);
  CHECK(folder.records().size() < 48);  // some were evicted
  ctx.clear_messages();
  const GLuint newest = make_program(with_literal(kVariable, 123));
  CHECK(count_messages(ctx, kLinkRecordUsed) == 1);
  CHECK(run_variable_program(newest, 64)[0] == 64 * 1000 + 123);
  glDeleteProgram(newest);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("BISMUTH_PROGRAM_CACHE=0 turns the cache off", "[program_cache]") {
  CacheFolder folder;
  setenv("BISMUTH_PROGRAM_CACHE", "0", 1);
  GlContext ctx(4, 6, true);
  for (int i = 0; i < 2; ++i) glDeleteProgram(make_program(with_literal(kVariable, 41)));
  CHECK(count_messages(ctx, kCompileRecordUsed) == 0);
  CHECK(count_messages(ctx, kLinkRecordUsed) == 0);
  CHECK(folder.records().empty());
}

TEST_CASE("A disk hit makes a record the most recently used only when its mtime is ten minutes old",
          "[program_cache]") {
  // Eviction goes by mtime; refreshing it on every hit would cost each warm program two metadata writes.
  CacheFolder folder("0");  // no memory records: every lookup reads its file
  GlContext ctx(4, 6, true);
  glDeleteProgram(make_program(with_literal(kVariable, 77)));
  const std::vector<fs::path> records = folder.records();
  REQUIRE(records.size() == 2);  // the compile record and the link record
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(records[0], now - std::chrono::hours(1));
  const auto recent = now - std::chrono::minutes(2);
  fs::last_write_time(records[1], recent);
  ctx.clear_messages();
  glDeleteProgram(make_program(with_literal(kVariable, 77)));
  CHECK(count_messages(ctx, kLinkRecordUsed) == 1);
  CHECK(fs::last_write_time(records[0]) > now - std::chrono::minutes(1));  // an hour old: refreshed
  CHECK(fs::last_write_time(records[1]) == recent);                         // two minutes old: kept
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}
