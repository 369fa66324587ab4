// GL_KHR_parallel_shader_compile / GL_ARB_parallel_shader_compile: background compiles and links, settling, and
// glMaxShaderCompilerThreadsKHR (parallel_compile.hpp says what runs where).
#include "parallel_compile.hpp"

#include <atomic>
#include <chrono>
#include <type_traits>

#include "bismuth/backend/process_exit.hpp"

#include "compiler_threads.hpp"
#include "graphics_program.hpp"

namespace bismuth::gl {

namespace {

// The messages of the job running on this compiler thread (defer_message_of_job).
thread_local std::vector<DeferredMessage>* t_job_messages = nullptr;

// Whether a compile and a link from source ran in this process. The first of each runs on the calling thread, and
// the exit handler is registered again after it (process_exit.hpp): the statics the front initializes on first use
// are destroyed by exit-time handlers registered then, which must run after the exit stop has joined the compiler
// threads that use them.
std::atomic<bool> g_front_compiled{false};
std::atomic<bool> g_front_linked{false};

void front_milestone(std::atomic<bool>& done, backend::DriverMilestone milestone) {
  if (done.load(std::memory_order_acquire)) return;
  backend::ensure_exit_handler_after(milestone);
  done.store(true, std::memory_order_release);
}

constexpr const char* kExiting = "error: the process is exiting; the compile was abandoned";

CompileOutcome failed_compile(std::string log) {
  CompileOutcome out;
  out.info_log = std::move(log) + "\n";
  return out;
}

// KHR_debug id of the note that spirv-val checked a linked program (GL_DEBUG_SOURCE_SHADER_COMPILER; the program
// cache's are 0x7B10..0x7B12).
constexpr GLuint kSpirvValidatedId = 0x7B13;

// A debug context hears which links ran spirv-val (BISMUTH_VALIDATION=1): a release link runs none.
void note_spirv_validation(LinkOutcome& out, GLuint program) {
  if (!out.exe || (*out.exe)->spirv_validations == 0) return;
  out.messages.push_back({kSpirvValidatedId, GL_DEBUG_SEVERITY_LOW,
                          "program " + std::to_string(program) + ": spirv-val checked " +
                              std::to_string((*out.exe)->spirv_validations) + " SPIR-V module(s) of the link",
                          true});
}

LinkOutcome failed_link(std::string log, bool separable) {
  LinkOutcome out;
  out.exe = fail(std::move(log));
  out.separable = separable;
  return out;
}

void apply(ShaderObject& s, const CompileOutcome& o) {
  s.compile_status = o.ok;
  s.info_log = o.info_log;
  s.compiled = o.compiled;
  s.compiled_source = o.compiled_source;
}

void apply(ProgramObject& p, const LinkOutcome& o) {
  if (!o.exe) {
    // A failed link keeps the executable of the last successful one in use where the program is current
    // (GL 4.6 §7.3).
    p.link_status = false;
    p.info_log = o.exe.error().message;
    if (!p.info_log.empty() && p.info_log.back() != '\n') p.info_log += '\n';
    return;
  }
  p.link_status = true;
  p.linked_separable = o.separable;  // what glUseProgramStages checks (program_pipelines.cpp)
  p.info_log = (*o.exe)->program.info_log;
  p.executable = *o.exe;
}

// The program's link inputs at glLinkProgram (GL 4.6 §7.3: the link uses the state at the call; the application may
// change sources, attachments and parameters as soon as it returns): copies of the attached shader objects and of
// the program state link() reads.
std::shared_ptr<ProgramObject> link_snapshot(const ProgramObject& p) {
  auto snapshot = std::make_shared<ProgramObject>();
  snapshot->name = p.name;
  snapshot->separable = p.separable;
  snapshot->wave_size_hint = p.wave_size_hint;
  snapshot->transform_feedback_varyings = p.transform_feedback_varyings;
  snapshot->transform_feedback_interleaved = p.transform_feedback_interleaved;
  for (const auto& s : p.attached) {
    auto copy = std::make_shared<ShaderObject>(*s);
    copy->pending.reset();
    snapshot->attached.push_back(std::move(copy));
  }
  return snapshot;
}

// A job submitted to the compiler threads: its result, and the job itself for run_here (parallel_compile.hpp).
template <class Outcome>
struct Submitted {
  std::shared_future<Outcome> result;
  std::function<void()> run_here;
};

// Runs `make` as a compiler-thread job completing a shared_future, or returns an invalid future when the context
// asks for synchronous work (hint 0) or the pool does not take the job (the process is exiting). Whoever claims the
// job first — a compiler thread, a thread settling its object (run_here) or the pool's stop (abandon) — completes
// it; the others then do nothing.
template <class Outcome, class Make, class Abandoned>
Submitted<Outcome> submit(Context* ctx, const std::atomic<bool>& front_used, Make make, Abandoned abandoned) {
  if (ctx->max_shader_compiler_threads == 0 || !front_used.load(std::memory_order_acquire)) return {};
  auto promise = std::make_shared<std::promise<Outcome>>();
  auto claimed = std::make_shared<std::atomic<bool>>(false);
  std::shared_future<Outcome> future = promise->get_future().share();
  auto run = std::make_shared<std::function<void()>>([promise, claimed, make = std::move(make), abandoned]() noexcept {
    if (claimed->exchange(true, std::memory_order_acq_rel)) return;
    std::vector<DeferredMessage> messages;
    std::vector<DeferredMessage>* outer = t_job_messages;  // a job this thread is running already, if any
    t_job_messages = &messages;
    try {
      Outcome outcome = make();
      t_job_messages = outer;
      outcome.messages.insert(outcome.messages.end(), messages.begin(), messages.end());
      promise->set_value(std::move(outcome));
    } catch (...) {
      t_job_messages = outer;
      // std::bad_alloc, or a thread the front could not start: a failed compile or link that says so.
      try {
        promise->set_value(abandoned("error: out of memory"));
      } catch (...) {
      }
    }
  });
  CompilerJob job;
  job.run = [run]() noexcept { (*run)(); };
  job.abandon = [promise, claimed, abandoned]() noexcept {
    if (claimed->exchange(true, std::memory_order_acq_rel)) return;  // running or done: it completes itself
    try {
      promise->set_value(abandoned(kExiting));
    } catch (...) {
    }
  };
  if (!ctx->device_state.compiler_threads->submit(std::move(job), ctx->max_shader_compiler_threads)) return {};
  return {std::move(future), [run] { (*run)(); }};
}

template <class Object>
bool pending_done(const Object& o) {
  if (!o.pending) return true;
  const auto future = o.pending->result;  // this thread's own copy of the shared state's handle
  return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace

void compile_compute(Context* ctx, ShaderObject& s, const translator::GlCompileOptions& options,
                     const std::string* rewritten, const std::string& log_prefix) {
  const LinkTarget target = link_target(ctx);
  const std::string& source = rewritten != nullptr ? *rewritten : s.source;
  CompileLookup lookup = find_compile(target, s.name, source, options);
  if (lookup.hit) {
    apply(s, *lookup.hit);
    s.info_log = log_prefix + s.info_log;
    emit_deferred_messages(ctx, lookup.hit->messages);
    return;
  }
  auto work = std::make_shared<const std::pair<CompileLookup, std::string>>(std::move(lookup), source);
  Submitted<CompileOutcome> submitted = submit<CompileOutcome>(
      ctx, g_front_compiled,
      [work, options, log_prefix] {
        CompileOutcome out = compile_from_source(work->first, work->second, options);
        out.info_log = log_prefix + out.info_log;
        return out;
      },
      [](const char* why) { return failed_compile(why); });
  if (submitted.result.valid()) {
    auto pending = std::make_shared<PendingCompile>();
    pending->result = std::move(submitted.result);
    pending->run_here = std::move(submitted.run_here);
    std::lock_guard lock(ctx->share->mutex);
    s.pending = std::move(pending);
    return;
  }
  CompileOutcome out = compile_from_source(work->first, work->second, options);
  out.info_log = log_prefix + out.info_log;
  if (out.ok) front_milestone(g_front_compiled, backend::DriverMilestone::FirstFrontCompile);
  apply(s, out);
  emit_deferred_messages(ctx, out.messages);
}

void link_program(Context* ctx, ProgramObject& p) {
  for (const auto& s : p.attached) settle(ctx, *s);
  const LinkTarget target = link_target(ctx);
  LinkLookup lookup = find_link(target, p);
  if (lookup.hit) {
    LinkOutcome out;
    out.exe = std::move(*lookup.hit);
    out.separable = p.separable;
    out.messages = std::move(lookup.messages);
    apply(p, out);
    emit_deferred_messages(ctx, out.messages);
    return;
  }
  // Programs of graphics stages link on the calling thread (their link is cheap: nothing is compiled for a device).
  if (!has_graphics_stage(p)) {
    auto snapshot = link_snapshot(p);
    auto shared_lookup = std::make_shared<const LinkLookup>(std::move(lookup));
    const bool separable = p.separable;
    Submitted<LinkOutcome> submitted = submit<LinkOutcome>(
        ctx, g_front_linked,
        [target, snapshot, shared_lookup] {
          LinkOutcome out;
          out.exe = link_from_source(target, *snapshot, *shared_lookup);
          out.separable = snapshot->separable;
          out.messages = shared_lookup->messages;
          note_spirv_validation(out, snapshot->name);
          return out;
        },
        [separable](const char* why) { return failed_link(why, separable); });
    if (submitted.result.valid()) {
      auto pending = std::make_shared<PendingLink>();
      pending->result = std::move(submitted.result);
      pending->run_here = std::move(submitted.run_here);
      std::lock_guard lock(ctx->share->mutex);
      p.pending = std::move(pending);
      p.has_pending.store(true, std::memory_order_release);
      return;
    }
    lookup = *shared_lookup;
  }
  LinkOutcome out;
  out.exe = link_from_source(target, p, lookup);
  if (out.exe && !has_graphics_stage(p)) front_milestone(g_front_linked, backend::DriverMilestone::FirstFrontLink);
  out.separable = p.separable;
  out.messages = std::move(lookup.messages);
  note_spirv_validation(out, p.name);
  apply(p, out);
  emit_deferred_messages(ctx, out.messages);
}

namespace {

// Waits outside the share group's lock (a compile may take long; other threads use other objects meanwhile), then
// applies under it: one thread applies a result, once, even when several settle the object together.
template <class Object>
void settle_object(Context* ctx, Object& o) {
  // A program with no link in flight needs no lock. A link started on this thread set the flag before; one started
  // on another thread reaches this one only through the application's synchronisation, which orders the flag too.
  if constexpr (std::is_same_v<Object, ProgramObject>) {
    if (!o.has_pending.load(std::memory_order_acquire)) return;
  }
  decltype(o.pending) pending;
  {
    std::lock_guard lock(ctx->share->mutex);
    pending = o.pending;
  }
  if (!pending) return;
  // Not taken by a compiler thread yet: this thread runs it rather than wait for one (parallel_compile.hpp).
  if (pending->run_here) pending->run_here();
  const auto future = pending->result;  // this thread's own copy of the shared state's handle
  const auto& outcome = future.get();
  {
    std::lock_guard lock(ctx->share->mutex);
    if (o.pending != pending) return;  // another thread applied it
    o.pending.reset();
    if constexpr (std::is_same_v<Object, ProgramObject>) o.has_pending.store(false, std::memory_order_release);
    apply(o, outcome);
  }
  emit_deferred_messages(ctx, outcome.messages);  // outside the lock: a debug callback may call GL
}

}  // namespace

void settle(Context* ctx, ShaderObject& shader) {
  settle_object(ctx, shader);
}
void settle(Context* ctx, ProgramObject& program) {
  settle_object(ctx, program);
}

void settle_current_programs(Context* ctx) {
  if (ctx->program) settle(ctx, *ctx->program);
  if (ctx->pipeline) {
    if (ctx->pipeline->compute) settle(ctx, *ctx->pipeline->compute);
    if (ctx->pipeline->active && ctx->pipeline->active != ctx->pipeline->compute) settle(ctx, *ctx->pipeline->active);
  }
}

bool defer_message_of_job(DeferredMessage message) {
  if (t_job_messages == nullptr) return false;
  t_job_messages->push_back(std::move(message));
  return true;
}

bool completion_status(Context* ctx, const ShaderObject& shader) {
  std::lock_guard lock(ctx->share->mutex);
  return pending_done(shader);
}

bool completion_status(Context* ctx, const ProgramObject& program) {
  std::lock_guard lock(ctx->share->mutex);
  return pending_done(program);
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

// KHR_parallel_shader_compile: "MaxShaderCompilerThreadsKHR(uint count) ... A count of zero specifies a request
// for no parallel compiling or linking and a count of 0xFFFFFFFF requests an implementation-specific maximum." A
// hint of the context (Table 23.51, "Hints"): 0 makes this context compile and link on the calling thread again
// (work already queued still finishes); any other count bounds the device's compiler threads (thread_limit).
GLAPI void APIENTRY glMaxShaderCompilerThreadsKHR(GLuint count) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  ctx->max_shader_compiler_threads = count;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// ARB_parallel_shader_compile: the same command under the ARB name (desktop GL).
GLAPI void APIENTRY glMaxShaderCompilerThreadsARB(GLuint count) {
  glMaxShaderCompilerThreadsKHR(count);
}

}  // extern "C"
