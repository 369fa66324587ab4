// Process exit and library unload while Bismuth's threads run.
//
// A program may exit at any moment: exit() or a return from main while prewarm compiles run, another thread in
// the middle of a dispatch, no eglTerminate, no vkDestroyDevice. The Vulkan driver then tears itself down from its
// own exit-time handlers, and a Bismuth thread still inside the driver (vkCreateComputePipelines on a prewarm
// worker, vkQueueSubmit on a recording thread) crashes the process. So every object that starts threads or
// submits work registers here, and the first registration installs an exit handler (std::atexit) that stops them
// in three phases before anything else of the process's exit runs:
//
//   Callers  the API layers above the backend stop their callers: the GL shim parks application threads that
//            enter GL/EGL after exit began and waits (bounded) for the calls already in flight, then stops the
//            recording threads of its command streams.
//   Threads  owners of worker threads abandon their queued work, let the work in flight finish and join them
//            (the pipeline cache's prewarm and background-compile workers).
//   Devices  devices Bismuth created wait until what was submitted to them has completed.
//
// Why atexit is early enough: exit handlers run in the reverse order of their registration, and Bismuth registers
// only once it has a device, so after the driver was loaded and initialized; drivers that initialize parts
// lazily (a compiler on the first pipeline) are covered by registering the same handler again after the first
// compile and again after the first submission (ensure_exit_handler_after), and after each pipeline's first
// execution was seen complete (register_exit_handler_again). A handler registered from a shared
// object also runs when that object is really unloaded (glibc keeps libbismuth-gl mapped after dlclose once a
// thread used it: docs/backend.md).
//
// After the exit stop, objects stay usable on the exiting thread: an application's own exit handlers may still
// destroy contexts or call GL; streams then record inline and caches compile in the foreground only.
#pragma once

#include <thread>

namespace bismuth::backend {

enum class ExitPhase { Callers = 0, Threads = 1, Devices = 2 };

class ExitParticipant {
 public:
  // Called at most once, at exit or unload, on the exiting thread; must not throw. Stops what `phase` says and
  // leaves the object destructible.
  virtual void stop_for_exit() noexcept = 0;

 protected:
  ~ExitParticipant() = default;
};

// Registers `participant` for `phase` and installs the exit handler on first use. Returns false when the exit stop
// has begun: the caller must not start threads then.
bool exit_register(ExitParticipant& participant, ExitPhase phase);
// Removes `participant`; call it first in the destructor. A thread other than the exiting one that unregisters
// while the exit stop runs waits until the process ends, so that no participant dies under the stop.
void exit_unregister(ExitParticipant& participant);
// Driver work after which a driver may have registered exit-time handlers of its own (lazy initialization); and the
// GL shim's first compile and first link from source, after which the front's function-local statics (tables whose
// destructors are exit-time handlers too) exist: the exit stop must run before those are destroyed, because compiler
// threads may be using them (translator/gl/src/parallel_compile.cpp).
enum class DriverMilestone { FirstPipeline = 0, FirstSubmission = 1, FirstFrontCompile = 2, FirstFrontLink = 3 };
// Registers the exit handler once more the first time `milestone` is reached, so that it still runs before
// handlers the driver registered up to then. Cheap after that (one relaxed load).
void ensure_exit_handler_after(DriverMilestone milestone);
// Registers the exit handler once more, now: after driver work that may have registered exit-time handlers from
// the driver's own threads, seen complete on this one — the first execution of each pipeline (Device::
// note_first_execution): lavapipe JITs a pipeline's code in its queue thread at its first dispatch, and LLVM then
// registers the destructor of the GDB JIT listener that every later JIT object's destructor uses; a queue thread
// destroying JIT code after that destructor ran crashed at exit. At most one registration per pipeline, fewer
// when several first executions complete together; none once the exit stop has begun.
void register_exit_handler_again() noexcept;

// True from the moment the exit stop begins.
bool process_exiting() noexcept;
// Whether the calling thread is the one running the exit stop (or exit handlers after it).
bool is_exiting_thread() noexcept;
// Blocks the calling thread until the process ends (threads that must not reach the driver any more).
[[noreturn]] void park_until_process_ends() noexcept;

// The exit stop itself (idempotent): the exit handler and tests call it.
void run_exit_stop() noexcept;

}  // namespace bismuth::backend
