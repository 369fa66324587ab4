// GL_KHR_parallel_shader_compile / GL_ARB_parallel_shader_compile (parallel_compile.cpp): glCompileShader of compute
// GLSL/HLSL and glLinkProgram run their expensive part — the front's compile, the link from source — on the
// DeviceState's compiler threads (compiler_threads.hpp) while the context's MAX_SHADER_COMPILER_THREADS_KHR is not
// 0. The program cache's lookups (a hit is cheap) stay on the application's thread. The object then holds a pending
// result; "settling" waits for it and applies it (COMPILE_STATUS, LINK_STATUS, info logs, the executable and the
// cache's KHR_debug messages, emitted on the settling thread). Every access to a shader or program object settles
// it first — shader_object() / program_object() do, and so do the dispatch and glUniform* paths through the current
// program — so that everything but COMPLETION_STATUS_KHR behaves as if the work had been synchronous (the
// extension's "Issues"). docs/gl_shim.md, "Parallel shader compile".
#pragma once

#include <functional>
#include <future>
#include <memory>

#include "gl_internal.hpp"
#include "program_cache.hpp"

namespace bismuth::gl {

// What a background compile makes, and what a background link makes (the program's PROGRAM_SEPARABLE at the call
// with it: it becomes the linked one).
//
// `run_here` runs the job on the calling thread if no compiler thread has taken it yet (and otherwise does nothing):
// a thread that settles an object waits for its result anyway, so it does the work itself rather than wait for a
// compiler thread to wake up, run it and wake it in turn (two thread hand-offs per compile and per link where an
// application compiles, links and queries at once; docs/performance.md, "A cheap front end").
struct PendingCompile {
  std::shared_future<CompileOutcome> result;
  std::function<void()> run_here;
};
struct LinkOutcome {
  Expected<std::shared_ptr<Executable>> exe = fail("error: not linked");
  bool separable = false;
  std::vector<DeferredMessage> messages;
};
struct PendingLink {
  std::shared_future<LinkOutcome> result;
  std::function<void()> run_here;
};

// glCompileShader of a compute shader's GLSL or HLSL source with `options` (its #version already checked). With
// `rewritten`, that text is compiled instead of shader.source (an OpenGL ES context's rewrite of desktop-only
// #extension directives, context_version.hpp), and `log_prefix` (its warnings) starts the info log.
void compile_compute(Context* ctx, ShaderObject& shader, const translator::GlCompileOptions& options,
                     const std::string* rewritten = nullptr, const std::string& log_prefix = {});

// glLinkProgram's work: settles the attached shaders, then links (in the background where allowed) the program's
// state at the call (GL 4.6 §7.3): a background link works on a copy of the program's link inputs and shaders.
void link_program(Context* ctx, ProgramObject& program);

// Waits for the object's pending compile or link, if any, and applies it. Any thread that may use the object.
void settle(Context* ctx, ShaderObject& shader);
void settle(Context* ctx, ProgramObject& program);
// The programs dispatch and glUniform* reach without a name: the current program and the bound pipeline's.
void settle_current_programs(Context* ctx);

// On a compiler thread running a job: keeps `message` (a Vulkan message, which has no current context to go to there)
// for the job's result, emitted to the context that settles it. False on any other thread.
bool defer_message_of_job(DeferredMessage message);

// COMPLETION_STATUS_KHR: false while a compile or link of the object is still running or queued. Never blocks.
bool completion_status(Context* ctx, const ShaderObject& shader);
bool completion_status(Context* ctx, const ProgramObject& program);

}  // namespace bismuth::gl
