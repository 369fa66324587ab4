// Context lifecycle (context.cpp): creation, the current context of each thread, destruction, and the stop of GL
// work at process exit. The EGL and bismuth* entry points build on these.
//
// A context is deleted exactly once: by destroy_context when it is current nowhere, or by the release of the
// thread where it is current when it was destroyed there (EGL 1.5 §3.7.1.5). Only a live context (created, not
// yet destroyed) can become current.
#pragma once

#include <memory>

#include "gl_internal.hpp"

namespace bismuth::gl {

// A new context on `state`, in the share group of `share` (null: a new group). `profile`: the
// GL_CONTEXT_*_PROFILE_BIT glGetIntegerv(GL_CONTEXT_PROFILE_MASK) reports (desktop GL); `version`: desktop GL 4.6
// or OpenGL ES 3.1 / 3.2 (context_version.hpp).
Expected<Context*> create_context(std::shared_ptr<DeviceState> state, Context* share, bool debug, int profile,
                                  const ContextVersion& version = {});

// Whether `ctx` is a context created and not yet destroyed.
bool is_live(Context* ctx);

enum class Acquire { Ok, NotLive, CurrentElsewhere };

// Marks `ctx` current for the calling thread (which must then switch to it with switch_current).
Acquire acquire_current(Context* ctx);

// Makes `ctx` (acquired, or null) the calling thread's context.
void switch_current(Context* ctx);

// Makes `ctx` current in this thread; false when it is not live or current in another thread.
bool make_current(Context* ctx);

// Destroys `ctx` now, or marks it to be deleted when the thread where it is current releases it. Nothing when it
// is not live.
void destroy_context(Context* ctx);

// Registers the GL shim's exit stop with the backend (once); called when a device is created or adopted, as the
// driver is loaded from then on (process_exit.hpp).
void register_exit_stop();

}  // namespace bismuth::gl
