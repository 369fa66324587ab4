#include "bismuth/backend/process_exit.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace bismuth::backend {

namespace {

struct Registry {
  std::mutex mutex;
  std::array<std::vector<ExitParticipant*>, 3> phases;  // guarded by mutex
  bool handler_installed = false;                       // guarded by mutex
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: used from exit handlers
  return *r;
}

std::atomic<bool> g_exiting{false};
std::atomic<std::thread::id> g_exiting_thread{};
std::array<std::atomic<bool>, 4> g_late_handler_installed{};  // per DriverMilestone

extern "C" void bismuth_backend_exit_handler() { run_exit_stop(); }

}  // namespace

bool exit_register(ExitParticipant& participant, ExitPhase phase) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (g_exiting.load(std::memory_order_seq_cst)) return false;
  r.phases[static_cast<size_t>(phase)].push_back(&participant);
  if (!r.handler_installed) {
    r.handler_installed = true;
    std::atexit(bismuth_backend_exit_handler);
  }
  return true;
}

void exit_unregister(ExitParticipant& participant) {
  Registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    if (!g_exiting.load(std::memory_order_seq_cst) || is_exiting_thread()) {
      for (auto& list : r.phases) std::erase(list, &participant);
      return;
    }
  }
  // Another thread destroys a participant while the exit stop may still use it: never return.
  park_until_process_ends();
}

void ensure_exit_handler_after(DriverMilestone milestone) {
  std::atomic<bool>& installed = g_late_handler_installed[static_cast<size_t>(milestone)];
  if (installed.load(std::memory_order_relaxed)) return;
  if (installed.exchange(true, std::memory_order_acq_rel)) return;
  std::atexit(bismuth_backend_exit_handler);
}

void register_exit_handler_again() noexcept {
  if (g_exiting.load(std::memory_order_seq_cst)) return;
  std::atexit(bismuth_backend_exit_handler);
}

bool process_exiting() noexcept { return g_exiting.load(std::memory_order_seq_cst); }

bool is_exiting_thread() noexcept {
  return g_exiting_thread.load(std::memory_order_acquire) == std::this_thread::get_id();
}

void park_until_process_ends() noexcept {
  while (true) pause();
}

void run_exit_stop() noexcept {
  Registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    if (g_exiting.load(std::memory_order_seq_cst)) return;
    g_exiting_thread.store(std::this_thread::get_id(), std::memory_order_release);
    g_exiting.store(true, std::memory_order_seq_cst);
  }
  for (size_t phase = 0; phase < r.phases.size(); ++phase) {
    // Participants cannot go away now (exit_unregister parks other threads) and none are added (exit_register
    // refuses), so no lock is held while they stop (a stop must not wait for a thread that needs it); a copy,
    // since this thread may still unregister one.
    const std::vector<ExitParticipant*> participants = r.phases[phase];
    for (ExitParticipant* participant : participants) participant->stop_for_exit();
  }
}

}  // namespace bismuth::backend
