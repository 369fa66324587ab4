// The program cache: GLSL and HLSL compute programs that were compiled and linked before — in this process or, through
// the cache folder, in an earlier one — are compiled and linked again without the front (glslang) and without the
// SPIR-V pipeline.
//
// Two kinds of record (program_cache_store.hpp keeps them in memory and on disk):
//  * compile records: a shader's COMPILE_STATUS, info log and group-size kind, under the hash of its source,
//    language and entry point and of the device/build fingerprint. glCompileShader with a record sets the shader's
//    state from it and keeps the source for later; the front runs only if a link needs the compiled shader after
//    all (a link record is missing).
//  * link records: the linked program as a program binary (program_binary_format.hpp: the final SPIR-V, the
//    runtime-group-size variant, the committed wave size, all reflection), under the hash of the fingerprint, the
//    compile keys of the attached shaders in attachment order, and the program state a link reads
//    (PROGRAM_SEPARABLE, GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH). glLinkProgram with a record loads it as
//    glProgramBinary does; without one it links and writes the record.
//
// The fingerprint (binary_fingerprint) covers the device and driver (UUIDs, version, pipelineCacheUUID), this
// build of Bismuth (build_identity.hpp) and every device fact and setting the SPIR-V depends on, so a record is
// never used where it was not made. A record that fails to load (a corrupted file behind a good checksum, a
// driver that rejects it) is dropped and the program is linked from source: a cache can only ever make a link
// faster, never change its result.
//
// BISMUTH_PROGRAM_CACHE=0 turns the cache off (memory and disk); BISMUTH_CACHE_DIR=off keeps it in memory only;
// BISMUTH_PROGRAM_CACHE_MEMORY_KB / _DISK_KB bound the memory (64 MiB) and the folder (256 MiB); BISMUTH_STATS=1
// prints its counters at exit. docs/gl_shim.md, "Program cache".
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gl_internal.hpp"
#include "program_binary_format.hpp"
#include "program_cache_store.hpp"
#include "program_link.hpp"

namespace bismuth::gl {

// The process's program cache for the environment's current settings; null when BISMUTH_PROGRAM_CACHE=0.
std::shared_ptr<ProgramCacheStore> program_cache();

// A KHR_debug message of work that may run on a compiler thread (the cache's messages, GL_DEBUG_SOURCE_SHADER_COMPILER;
// Vulkan messages reported during a background link): returned as data and emitted on the application's thread
// (emit_deferred_messages) when the compile or link result is applied.
struct DeferredMessage {
  GLuint id = 0;
  GLenum severity = GL_DEBUG_SEVERITY_LOW;
  std::string text;
  bool debug_context_only = false;  // emitted in debug contexts only
  GLenum source = GL_DEBUG_SOURCE_SHADER_COMPILER;
  GLenum type = GL_DEBUG_TYPE_OTHER;
};
void emit_deferred_messages(Context* ctx, const std::vector<DeferredMessage>& messages);

// What glCompileShader of a compute shader's GLSL or HLSL sets on the shader object.
struct CompileOutcome {
  bool ok = false;
  std::string info_log;
  std::shared_ptr<const translator::GlShader> compiled;  // null when a compile record answered
  std::shared_ptr<const ShaderObject::CompiledSource> compiled_source;
  std::vector<DeferredMessage> messages;
};

// glCompileShader's record lookup (cheap; on the application's thread): `hit` when a compile record answers, else
// what compile_from_source needs.
struct CompileLookup {
  std::optional<CompileOutcome> hit;
  std::shared_ptr<ProgramCacheStore> store;  // null when the cache is off
  backend::Hash128 key{};
  std::vector<DeferredMessage> messages;  // records ignored on the way
};
CompileLookup find_compile(const LinkTarget& target, GLuint shader_name, const std::string& source,
                           const translator::GlCompileOptions& options);

// The front's compile of `source` (recorded in lookup.store): safe on any thread, touches no GL object.
CompileOutcome compile_from_source(const CompileLookup& lookup, const std::string& source,
                                   const translator::GlCompileOptions& options);

// The front's result for a successfully compiled compute shader: what glCompileShader made, or — when a compile
// record answered it — the compile of the recorded source run now. An error (the info log) if that compile fails.
Expected<std::shared_ptr<const translator::GlShader>> front_shader(ShaderObject& shader);

// glLinkProgram's record lookup (on the application's thread, with the program's state at the call): `hit` when a
// link record answers (its executable is instantiated here), else what link_from_source needs.
struct LinkLookup {
  std::optional<std::shared_ptr<Executable>> hit;
  std::shared_ptr<ProgramCacheStore> store;  // null when the cache is off
  std::optional<backend::Hash128> key;       // null when the cache does not take the program
  BinaryFingerprint fingerprint{};
  std::vector<DeferredMessage> messages;
};
LinkLookup find_link(const LinkTarget& target, const ProgramObject& program);

// program_link.hpp's link() of `program` (a snapshot of the program object on a compiler thread, or the object
// itself), and the link record it makes. Touches no Context.
Expected<std::shared_ptr<Executable>> link_from_source(const LinkTarget& target, ProgramObject& program,
                                                       const LinkLookup& lookup);

}  // namespace bismuth::gl
