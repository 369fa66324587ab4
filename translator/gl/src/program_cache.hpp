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

#include "gl_internal.hpp"
#include "program_cache_store.hpp"

namespace bismuth::gl {

// The process's program cache for the environment's current settings; null when BISMUTH_PROGRAM_CACHE=0.
std::shared_ptr<ProgramCacheStore> program_cache();

// glCompileShader of a compute shader's GLSL or HLSL source: the compile record's state when there is one, else
// the front's compile (recorded).
void compile_compute_shader(Context* ctx, ShaderObject& shader, const translator::GlCompileOptions& options);

// The front's result for a successfully compiled compute shader: what glCompileShader made, or — when a compile
// record answered it — the compile of the recorded source run now. An error (the info log) if that compile fails.
Expected<std::shared_ptr<const translator::GlShader>> front_shader(ShaderObject& shader);

// glLinkProgram's work through the cache: a link record's executable, else program_link.hpp's link(), recorded.
Expected<std::shared_ptr<Executable>> link_through_cache(Context* ctx, ProgramObject& program);

}  // namespace bismuth::gl
