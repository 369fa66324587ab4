// Contexts: creation and destruction, the current context of each thread, and the stop of GL work at process exit
// (the calls in flight counted by ApiCall and EglCall).
#include <EGL/egl.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "bismuth/backend/process_exit.hpp"
#include "context.hpp"
#include "context_version.hpp"

namespace bismuth::gl {

namespace {

thread_local Context* t_current = nullptr;

// GL's memory model (GL 4.6 §7.13.2): dispatches are ordered with each other only by glMemoryBarrier, buffer
// commands with everything. BISMUTH_BARRIERS=automatic orders every hazard instead, for programs that forget
// glMemoryBarrier and relied on drivers that serialise dispatches.
backend::StreamOptions stream_options() {
  backend::StreamOptions options;
  const char* env = std::getenv("BISMUTH_BARRIERS");
  options.barriers = env != nullptr && std::strcmp(env, "automatic") == 0 ? backend::BarrierModel::Automatic
                                                                          : backend::BarrierModel::Gl;
  return options;
}

std::mutex g_contexts_mutex;
// Valid handles: created and not yet destroyed (guarded by g_contexts_mutex).
std::unordered_set<Context*>& live_contexts() {
  static auto* set = new std::unordered_set<Context*>;
  return *set;
}
// Every Context object that exists: the live ones and those destroyed while current, until their release deletes
// them (guarded by g_contexts_mutex). The exit stop needs all of them: each has a command stream.
std::unordered_set<Context*>& existing_contexts() {
  static auto* set = new std::unordered_set<Context*>;
  return *set;
}

void delete_context(Context* ctx) {
  {
    std::lock_guard lock(g_contexts_mutex);
    existing_contexts().erase(ctx);
  }
  delete ctx;
}

}  // namespace

bool is_live(Context* ctx) {
  std::lock_guard lock(g_contexts_mutex);
  return live_contexts().count(ctx) != 0;
}

Expected<Context*> create_context(std::shared_ptr<DeviceState> state, Context* share, bool debug, int profile,
                                  const ContextVersion& version) {
  std::shared_ptr<ShareGroup> group;
  if (share != nullptr) {
    if (share->share->device_state != state) return fail("the share context is on another device", EGL_BAD_MATCH);
    group = share->share;
  } else {
    group = std::make_shared<ShareGroup>(state);
  }
  auto stream = backend::CommandStream::create(*state->device, *state->cache, stream_options());
  if (!stream) return stream.error();
  std::string version_text = version_string(version, state->caps);
  std::string glsl_version_text = glsl_version_string(version);
  std::vector<std::string> extensions = context_extensions(version, state->caps);
  std::string extensions_text;
  for (const std::string& name : extensions) extensions_text += (extensions_text.empty() ? "" : " ") + name;
  auto* ctx = new Context(std::move(group), std::move(*stream), debug);
  ctx->profile_mask = profile;
  ctx->version = version;
  ctx->version_string = std::move(version_text);
  ctx->glsl_version_string = std::move(glsl_version_text);
  ctx->extensions = std::move(extensions);
  ctx->extensions_string = std::move(extensions_text);
  std::lock_guard lock(g_contexts_mutex);
  live_contexts().insert(ctx);
  existing_contexts().insert(ctx);
  return ctx;
}

// Contexts and threads. A context is deleted exactly once: by destroy_context when it is current nowhere, or by
// the release of the thread where it is current when it was destroyed there (EGL 1.5 §3.7.1.5). Both sides decide
// on one atomic word (Context::lifecycle), and a context can only become current while it is live, checked under
// g_contexts_mutex — the mutex destroy_context takes it out of the live set with — so no thread can make a
// context current after its destruction began.

// Marks `ctx` current for the calling thread (which must then switch to it with switch_current).
Acquire acquire_current(Context* ctx) {
  std::lock_guard lock(g_contexts_mutex);
  if (live_contexts().count(ctx) == 0) return Acquire::NotLive;
  uint32_t expected = 0;
  if (!ctx->lifecycle.compare_exchange_strong(expected, Context::kCurrent, std::memory_order_acq_rel)) {
    return Acquire::CurrentElsewhere;
  }
  return Acquire::Ok;
}

namespace {

// Releases the calling thread's context: flushed (EGL 1.5 §3.7.3: an implicit glFlush), deleted when it was
// destroyed while current.
void release_current() {
  Context* previous = t_current;
  if (previous == nullptr) return;
  (void)previous->stream->flush();
  t_current = nullptr;
  const uint32_t old = previous->lifecycle.fetch_and(~Context::kCurrent, std::memory_order_acq_rel);
  if (old & Context::kDestroyPending) delete_context(previous);
}

}  // namespace

// Makes `ctx` (acquired, or null) the calling thread's context.
void switch_current(Context* ctx) {
  if (ctx == t_current) return;
  release_current();
  t_current = ctx;
}

// Makes `ctx` current in this thread; false when it is not live or current in another thread.
bool make_current(Context* ctx) {
  if (ctx == t_current) return true;
  if (ctx != nullptr && acquire_current(ctx) != Acquire::Ok) return false;
  switch_current(ctx);
  return true;
}

// Destroys `ctx` now, or marks it to be deleted when the thread where it is current releases it.
void destroy_context(Context* ctx) {
  {
    std::lock_guard lock(g_contexts_mutex);
    if (live_contexts().erase(ctx) == 0) return;  // destroyed already (another thread, eglTerminate)
  }
  uint32_t state = ctx->lifecycle.load(std::memory_order_acquire);
  while (state & Context::kCurrent) {
    if (ctx->lifecycle.compare_exchange_weak(state, state | Context::kDestroyPending, std::memory_order_acq_rel)) {
      return;
    }
  }
  delete_context(ctx);
}

Context::Context(std::shared_ptr<ShareGroup> group, std::unique_ptr<backend::CommandStream> s, bool debug_ctx)
    : share(std::move(group)),
      device_state(*share->device_state),
      stream(std::move(s)),
      caps(device_state.caps),
      debug_context(debug_ctx) {
  bindings_scratch.reserve(GlBindingMap::kDefaultUniformBlockBinding + 1);
  default_asm_program = std::make_shared<AsmProgramObject>();
  default_asm_program->target = GL_COMPUTE_PROGRAM_NV;
  asm_program = default_asm_program;
}

Context::~Context() {
  if (program) --program->uses;
  if (stream) (void)stream->finish();
  stream.reset();
}

Context* current_context() {
  return t_current;
}

// ---- process exit (process_exit.hpp) ----

std::atomic<bool> g_api_exit_begun{false};

namespace {

std::atomic<uint32_t> g_egl_calls{0};   // EGL and bismuth* calls in flight
thread_local uint32_t t_egl_depth = 0;  // this thread's share of g_egl_calls

// The Callers phase for the GL shim: no application thread reaches the driver through GL or EGL any more, and the
// recording threads of the contexts are stopped. Waits for calls in flight at most kExitWait in all: a call that
// does not finish by then (glFinish behind a very long dispatch) keeps its context's recording thread running.
class GlExitStop final : public backend::ExitParticipant {
 public:
  void stop_for_exit() noexcept override {
    constexpr auto kExitWait = std::chrono::seconds(5);
    const auto deadline = std::chrono::steady_clock::now() + kExitWait;
    const auto wait_until = [&](auto&& done) {
      while (!done() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      return done();
    };
    g_api_exit_begun.store(true, std::memory_order_seq_cst);
    // EGL calls create and destroy contexts: none in flight (but this thread's own) before the contexts are read.
    wait_until([] { return g_egl_calls.load(std::memory_order_seq_cst) <= t_egl_depth; });
    std::vector<Context*> contexts;
    {
      std::lock_guard lock(g_contexts_mutex);
      contexts.assign(existing_contexts().begin(), existing_contexts().end());
    }
    for (Context* ctx : contexts) {
      // This thread's own context is idle unless exit() was called from inside a GL call (a debug callback).
      const bool idle = wait_until([ctx] { return ctx->api_calls.load(std::memory_order_seq_cst) == 0; });
      if (idle) ctx->stream->stop_recording_thread_for_exit();
    }
  }
};

}  // namespace

void register_exit_stop() {
  static GlExitStop* stop = new GlExitStop;  // never destroyed: the exit handler uses it
  static std::once_flag once;
  std::call_once(once, [] { (void)backend::exit_register(*stop, backend::ExitPhase::Callers); });
}

void ApiCall::on_exit_begun() noexcept {
  if (backend::is_exiting_thread()) return;
  ctx_.api_calls.store(ctx_.api_calls.load(std::memory_order_relaxed) - 1, std::memory_order_release);
  backend::park_until_process_ends();
}

EglCall::EglCall() {
  g_egl_calls.fetch_add(1, std::memory_order_seq_cst);
  ++t_egl_depth;
  if (api_exit_begun() && !backend::is_exiting_thread()) [[unlikely]] {
    --t_egl_depth;
    g_egl_calls.fetch_sub(1, std::memory_order_seq_cst);
    backend::park_until_process_ends();
  }
}

EglCall::~EglCall() {
  --t_egl_depth;
  g_egl_calls.fetch_sub(1, std::memory_order_release);
}

}  // namespace bismuth::gl
