// The exit check shared by the process-exit test programs: an exit handler registered at the start of main, so
// that it runs after every handler Bismuth registers later (handlers run in reverse order), which checks that
// Bismuth's exit stop did its job — no thread Bismuth started is alive (they are named "bismuth-*") and the stop
// did not wait for the queued compiles (BISMUTH_TEST_EXIT_LIMIT_MS, default 3000 ms after exit was called).
// Exit code 3: a Bismuth thread outlived the stop; 4: the exit took longer than the limit.
#pragma once

#include <dirent.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace bismuth::exittest {

inline std::atomic<int64_t> g_exit_called_ns{0};

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Threads of this process whose name starts with "bismuth-".
inline std::vector<std::string> bismuth_threads() {
  std::vector<std::string> names;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return names;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream comm(std::string("/proc/self/task/") + e->d_name + "/comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind("bismuth-", 0) == 0) names.push_back(name + " (tid " + e->d_name + ")");
  }
  closedir(dir);
  return names;
}

inline void check_after_exit_stop() {
  const int64_t called = g_exit_called_ns.load();
  const double ms = called == 0 ? 0.0 : double(now_ns() - called) / 1e6;
  const std::vector<std::string> alive = bismuth_threads();
  if (!alive.empty()) {
    std::fprintf(stderr, "exit check: %zu Bismuth thread(s) alive after the exit stop:", alive.size());
    for (const auto& name : alive) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    _exit(3);
  }
  const char* limit_env = std::getenv("BISMUTH_TEST_EXIT_LIMIT_MS");
  const double limit = limit_env != nullptr ? std::atof(limit_env) : 3000.0;
  if (ms > limit) {
    std::fprintf(stderr, "exit check: the exit took %.1f ms (limit %.0f ms): it waited for queued work\n", ms, limit);
    std::fflush(stderr);
    _exit(4);
  }
  std::fprintf(stderr, "exit check: exit stop done, no Bismuth thread alive (%.1f ms after exit)\n", ms);
}

// A crash prints the stack (frames in shared objects as object(+offset): addr2line on the unstripped build maps
// them) and then dies of the same signal, so that the run still counts as killed by a signal.
inline void print_address(const char* what, void* address) {
  Dl_info info{};
  char line[512];
  if (address != nullptr && dladdr(address, &info) != 0 && info.dli_fname != nullptr) {
    std::snprintf(line, sizeof line, "exit check: %s %p = %s(+0x%lx)\n", what, address, info.dli_fname,
                  static_cast<unsigned long>(static_cast<char*>(address) - static_cast<char*>(info.dli_fbase)));
  } else {
    std::snprintf(line, sizeof line, "exit check: %s %p\n", what, address);
  }
  (void)!write(2, line, std::strlen(line));
}

inline void print_stack_and_die(int signal_number, siginfo_t*, void* context) {
#if defined(__x86_64__)
  // The faulting instruction, and the return address on top of the stack (a call through a null pointer faults
  // at address 0, with its caller's return address there).
  const auto* uc = static_cast<const ucontext_t*>(context);
  print_address("faulting instruction", reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]));
  print_address("top of stack", *reinterpret_cast<void* const*>(uc->uc_mcontext.gregs[REG_RSP]));
#else
  (void)context;
#endif
  void* frames[64];
  const int count = backtrace(frames, 64);
  const char header[] = "exit check: crashed; stack:\n";
  (void)!write(2, header, sizeof header - 1);
  backtrace_symbols_fd(frames, count, 2);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

inline void install_exit_check() {
  std::atexit([] { check_after_exit_stop(); });
  struct sigaction action {};
  action.sa_sigaction = print_stack_and_die;
  action.sa_flags = SA_SIGINFO;
  for (int signal_number : {SIGSEGV, SIGBUS, SIGABRT}) sigaction(signal_number, &action, nullptr);
}
inline void mark_exit_called() { g_exit_called_ns.store(now_ns()); }

}  // namespace bismuth::exittest
