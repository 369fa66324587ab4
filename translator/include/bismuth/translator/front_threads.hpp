// The threads the GLSL front keeps between compiles (translator/src/side_thread.hpp: the parked side thread on which
// each compile's GL-rules check parse runs beside its code-generating parse, one per thread that compiles).
#pragma once

namespace bismuth::translator {

// Stops and joins every such thread, waiting for a check parse still running on one; from then on the front keeps
// none (a compile still to come runs its two parses as it did before the threads were kept: beside each other on a
// thread started and joined within the compile, or one after the other). For the process's exit stop (the GL shim
// registers it for process_exit.hpp's Threads phase); idempotent, never throws.
void stop_front_threads() noexcept;

}  // namespace bismuth::translator
