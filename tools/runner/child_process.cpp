#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bismuth::tools::runner {

namespace {
// Output kept per stream: enough for the result line and the tail of a crash report, bounded against a
// worker that prints without end.
constexpr size_t kMaxOutput = 1 << 20;
}  // namespace

Expected<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const std::vector<std::string>& argv) {
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) return fail(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    return fail(std::string("pipe: ") + std::strerror(errno));
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out[0], out[1], err[0], err[1]}) close(fd);
    return fail(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also here: no race with a kill before the child ran setpgid
  close(out[1]);
  close(err[1]);
  fcntl(out[0], F_SETFL, O_NONBLOCK);
  fcntl(err[0], F_SETFL, O_NONBLOCK);
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->pid_ = pid;
  child->out_fd_ = out[0];
  child->err_fd_ = err[0];
  return child;
}

ChildProcess::~ChildProcess() {
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
  if (!reaped_ && pid_ > 0) {
    kill_group();
    wait();
  }
}

void ChildProcess::drain(int fd) {
  if (fd < 0) return;
  std::string& sink = fd == out_fd_ ? out_ : err_;
  char buffer[8192];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      if (sink.size() < kMaxOutput) sink.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close(fd);  // EOF or error
    if (fd == out_fd_)
      out_fd_ = -1;
    else
      err_fd_ = -1;
    return;
  }
}

void ChildProcess::kill_group() {
  if (pid_ > 0 && !reaped_) ::kill(-pid_, SIGKILL);
}

int ChildProcess::wait() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  return status;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "killed by signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  return "ended with status " + std::to_string(status);
}

}  // namespace bismuth::tools::runner
