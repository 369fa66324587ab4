// A worker process with its stdout and stderr on pipes, in its own process group so that a timeout kills
// everything it started.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

class ChildProcess {
 public:
  static Expected<std::unique_ptr<ChildProcess>> spawn(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Pipe ends still open (-1 once at EOF), for poll().
  int stdout_fd() const { return out_fd_; }
  int stderr_fd() const { return err_fd_; }
  // Reads what is available on `fd` without blocking; closes it at EOF.
  void drain(int fd);
  bool output_closed() const { return out_fd_ < 0 && err_fd_ < 0; }
  // SIGKILL to the whole process group.
  void kill_group();
  // Waits for the exit; the raw waitpid status.
  int wait();

  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }
  pid_t pid() const { return pid_; }

 private:
  ChildProcess() = default;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  bool reaped_ = false;
  std::string out_;
  std::string err_;
};

// "killed by signal 11 (Segmentation fault)" / "exited with code 3".
std::string describe_wait_status(int status);

}  // namespace bismuth::tools::runner
