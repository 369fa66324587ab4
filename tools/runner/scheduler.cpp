#include "scheduler.hpp"

#include <poll.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <iomanip>
#include <memory>
#include <sstream>

#include "child_process.hpp"
#include "worker.hpp"

namespace bismuth::tools::runner {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  size_t test = 0;
  std::unique_ptr<ChildProcess> child;
  Clock::time_point start;
  Clock::time_point deadline;
  bool timed_out = false;
};

std::string tail(const std::string& text, size_t max) {
  std::string t = text.size() > max ? "..." + text.substr(text.size() - max) : text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  return t;
}

// "[1] NVIDIA H200": the device index the worker was pinned to, then its name (the worker's own report when it
// made one). Hosts often hold several devices of one name; the index keeps the shards apart in reports.
std::string device_label(const DeviceTarget& device, const std::string& reported) {
  const std::string& name = reported.empty() ? device.name : reported;
  return device.selector.empty() ? name : "[" + device.selector + "] " + name;
}

// The timeout inside [kMinTimeoutSeconds, kMaxTimeoutSeconds]; NaN as the largest.
double bounded_timeout(double seconds) {
  if (std::isnan(seconds)) return kMaxTimeoutSeconds;
  return std::clamp(seconds, kMinTimeoutSeconds, kMaxTimeoutSeconds);
}

// Seconds as given ("10", "0.5", "1000000"), not truncated to an int.
std::string seconds_text(double seconds) {
  std::ostringstream s;
  s << std::setprecision(6) << seconds;
  return s.str();
}

// The outcome of a finished worker: its result line, else CRASH with the exit status and the end of stderr.
Outcome finish(Running& r, const DeviceTarget& device, double timeout) {
  r.child->kill_group();  // a worker that closed its pipes but lingers
  const int status = r.child->wait();
  if (r.timed_out) {
    return {Status::Timeout, "no result after " + seconds_text(timeout) + " s; worker killed",
            device_label(device, "")};
  }
  auto outcome = decode_result(r.child->out());
  if (outcome && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    outcome->device = device_label(device, outcome->device);
    return *outcome;
  }
  std::string message = "worker " + describe_wait_status(status);
  // A worker that reported and then died (context teardown, atexit) still crashed: say what it had reported.
  if (outcome) message += " after reporting " + std::string(to_string(outcome->status));
  const std::string err = tail(r.child->err(), 600);
  if (!err.empty()) message += "; stderr: " + err;
  return {Status::Crash, message, device_label(device, "")};
}

}  // namespace

std::vector<size_t> slot_devices(int jobs, size_t devices) {
  const size_t n = std::max<size_t>({static_cast<size_t>(std::max(jobs, 1)), devices, 1});
  std::vector<size_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = devices == 0 ? 0 : i % devices;
  return out;
}

std::vector<TestResult> run_scheduled(const std::vector<TestSpec>& tests, const SchedulerOptions& options) {
  std::vector<TestResult> results(tests.size());
  for (size_t i = 0; i < tests.size(); ++i) {
    results[i].test = tests[i];
    results[i].attempts = 0;
  }
  const std::vector<DeviceTarget> devices = options.devices.empty() ? std::vector<DeviceTarget>{{}} : options.devices;
  const auto slots_device = slot_devices(options.jobs, devices.size());
  std::vector<std::unique_ptr<Running>> slots(slots_device.size());
  std::deque<size_t> queue;
  for (size_t i = 0; i < tests.size(); ++i) queue.push_back(i);
  std::vector<bool> failed_before(tests.size(), false);
  size_t done = 0;
  const double timeout_seconds = bounded_timeout(options.timeout_seconds);
  const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));

  auto complete = [&](size_t test, const Outcome& outcome, double seconds) {
    TestResult& r = results[test];
    r.attempts += 1;
    r.seconds += seconds;
    if (is_failure(outcome.status) && r.attempts <= options.retry_flakes) {
      failed_before[test] = true;
      queue.push_front(test);  // retried next, on whichever device is free
      return;
    }
    r.outcome = outcome;
    if (failed_before[test] && outcome.status == Status::Pass) {
      r.outcome.status = Status::Flake;
      r.outcome.message = "failed, then passed on attempt " + std::to_string(r.attempts);
    }
    ++done;
    if (options.on_result) options.on_result(r, done, tests.size());
  };

  while (done < tests.size()) {
    for (size_t s = 0; s < slots.size(); ++s) {
      if (slots[s] || queue.empty()) continue;
      const size_t test = queue.front();
      queue.pop_front();
      const DeviceTarget& device = devices[slots_device[s]];
      auto child = ChildProcess::spawn(options.worker_command(tests[test], device));
      if (!child) {
        complete(test, {Status::Crash, "cannot start the worker: " + child.error().message, device_label(device, "")},
                 0);
        continue;
      }
      auto running = std::make_unique<Running>();
      running->test = test;
      running->child = std::move(*child);
      running->start = Clock::now();
      running->deadline = running->start + timeout;
      slots[s] = std::move(running);
    }
    std::vector<pollfd> fds;
    auto now = Clock::now();
    auto wake = now + std::chrono::milliseconds(500);
    for (const auto& r : slots) {
      if (!r) continue;
      for (int fd : {r->child->stdout_fd(), r->child->stderr_fd()}) {
        if (fd >= 0) fds.push_back({fd, POLLIN, 0});
      }
      wake = std::min(wake, r->deadline);
    }
    if (fds.empty() && queue.empty()) continue;
    const int wait_ms = static_cast<int>(
        std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count() + 1));
    poll(fds.data(), fds.size(), wait_ms);
    now = Clock::now();
    for (size_t s = 0; s < slots.size(); ++s) {
      auto& r = slots[s];
      if (!r) continue;
      r->child->drain(r->child->stdout_fd());
      r->child->drain(r->child->stderr_fd());
      if (!r->child->output_closed() && now >= r->deadline) r->timed_out = true;
      if (r->child->output_closed() || r->timed_out) {
        const double seconds = std::chrono::duration<double>(now - r->start).count();
        const Outcome outcome = finish(*r, devices[slots_device[s]], timeout_seconds);
        const size_t test = r->test;
        r.reset();
        complete(test, outcome, seconds);
      }
    }
  }
  return results;
}

}  // namespace bismuth::tools::runner
