// glslang recurses over the syntax tree (its traversers, the SPIR-V generator, reflection): up to about 1.7 KiB
// of stack per level (nesting_limits.hpp). The GLSL front bounds the depth of what it hands glslang and runs
// glslang where the stack has room for that depth: on the calling thread when its stack has room, else on a
// thread of its own with a large stack.
#pragma once

#include <cstddef>
#include <functional>

#include "bismuth/common/expected.hpp"

namespace bismuth::translator {

// The compiler thread's stack: room for the deepest source the limits accept (64 Ki levels at 2 KiB, 128 MiB)
// twice over. Only the pages a compile touches are ever backed by memory.
inline constexpr size_t kCompilerStackBytes = size_t{256} << 20;
// What the deepest source the limits accept may need: for sources whose depth is known only after preprocessing.
// More than any calling thread has left, so they always get the compiler thread.
inline constexpr size_t kDeepestSourceStackBytes = kCompilerStackBytes / 2;

// Runs `work`, which needs up to `stack_bytes` of stack: on the calling thread when it has twice that left, else on
// a new thread with a kCompilerStackBytes stack that the call waits for (and joins). Starting a thread costs about
// 50 microseconds (docs/gl_shim.md, "Limits"); ordinary shaders never need one. An error when the thread cannot be
// started, or when `work` throws (the exception's text; "out of memory" for std::bad_alloc): nothing is thrown.
Status run_with_stack(size_t stack_bytes, const std::function<void()>& work);

// Runs `beside` on another thread, with room for `stack_bytes` of stack, while `work` runs on the calling thread, and
// waits for it before returning: two independent parts of one compile at once. The other thread is the calling
// thread's parked side thread (side_thread.hpp: kept between calls, stopped and joined at the calling thread's end or
// by the exit stop) where `stack_bytes` fits its stack, else one started and joined within the call. Where
// `stack_bytes` is too large for a side thread, none can be started or the exit stop ran, `beside` runs after `work`
// on the calling thread. What `beside` throws
// becomes the returned error (as in run_with_stack); what `work` throws propagates, after the join.
Status run_beside(size_t stack_bytes, const std::function<void()>& beside, const std::function<void()>& work);

// The calling thread's stack bytes left below the current frame (0 when unknown).
size_t stack_bytes_left();

}  // namespace bismuth::translator
