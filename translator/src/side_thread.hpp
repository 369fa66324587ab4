// The side thread of run_beside (large_stack.hpp): one parked thread per calling thread, kept between compiles, so
// that the GL-rules check parse beside each compile's code-generating parse costs two wake-ups instead of a thread's
// start (clone, its stack's pages faulted in again after glibc released them at the last thread's exit, a fresh
// malloc cache) and its join (docs/performance.md, "A cheap front end").
//
// Lifetime: the thread belongs to the thread that first asked for it and is stopped and joined when that thread ends
// (its thread_local destructor): a compiler thread's at the pool's stop (which the exit stop and the device's
// teardown join: translator/gl/src/compiler_threads.hpp), the main thread's in exit() before any atexit handler or
// static destructor runs (glibc runs the exiting thread's thread_local destructors first), so before Bismuth's exit
// stop and the driver's teardown. A thread still alive at exit (an application thread that compiled) has its side
// thread stopped and joined by the exit stop (stop_front_threads, front_threads.hpp); no side thread is started
// after that. Between jobs it only waits on its own condition variable: it never holds a lock of anyone else's or
// touches glslang or the driver. After fork() the child's copy names a thread the child does not have: it is
// dropped there (never joined) and a new one started.
#pragma once

#include <cstddef>
#include <functional>

namespace bismuth::translator {

class SideThread;

// The calling thread's side thread, started on first use; nullptr where none can be started (also after the exit
// stop), the calling thread's side thread is busy (run_beside nested inside a part of run_beside), or `stack_bytes`
// exceeds its stack.
SideThread* idle_side_thread(size_t stack_bytes);

// Hands `work` to `side`, which runs it; `work` must not throw (run_beside catches inside it) and must outlive the
// wait. One job at a time: every post that returns true is followed by side_thread_wait on the same thread. False
// (nothing posted, nothing to wait for) once the exit stop stopped the thread (front_threads.hpp).
bool side_thread_post(SideThread& side, const std::function<void()>& work);
// Waits until the posted work has ended; work the side thread has not taken yet runs on the calling thread instead.
void side_thread_wait(SideThread& side);

// Whether the exit stop ran (front_threads.hpp): from then on run_beside starts no thread at all.
bool side_threads_stopped();

// The stack each side thread has: the usual 8 MiB, twice what the sources of the front's usual depth need.
inline constexpr size_t kSideThreadStackBytes = size_t{8} << 20;

}  // namespace bismuth::translator
