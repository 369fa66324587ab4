#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bismuth::tools::runner {

namespace {

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// An open descriptor of a regular file, or the reason there is none. O_NONBLOCK: opening a FIFO must not wait for
// a writer; the file type is checked before anything is read.
class RegularFile {
 public:
  explicit RegularFile(const std::string& path) : path_(path) {}
  ~RegularFile() {
    if (fd_ >= 0) close(fd_);
  }
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  Expected<uint64_t> open_checked() {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd_ < 0) return fail(path_ + ": cannot read the file: " + std::strerror(errno));
    struct stat st {};
    if (fstat(fd_, &st) != 0) return fail(path_ + ": cannot read the file: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) {
      return fail(path_ + ": cannot read the file: it is " + file_kind(st.st_mode) + ", not a regular file");
    }
    return static_cast<uint64_t>(st.st_size);
  }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

Expected<uint64_t> input_file_size(const std::string& path) {
  RegularFile file(path);
  return file.open_checked();
}

Expected<std::string> read_input_file(const std::string& path, uint64_t max_bytes) {
  RegularFile file(path);
  auto size = file.open_checked();
  if (!size) return size.error();
  if (*size > max_bytes) {
    return fail(path + ": " + std::to_string(*size) + " bytes, more than the " + std::to_string(max_bytes) +
                " bytes a test input may have");
  }
  std::string bytes;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(file.fd(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(path + ": cannot read the file: " + std::strerror(errno));
    if (n == 0) break;
    // The file may grow while it is read: the limit holds for what is read, not only for what stat said.
    if (bytes.size() + static_cast<size_t>(n) > max_bytes) {
      return fail(path + ": more than the " + std::to_string(max_bytes) + " bytes a test input may have");
    }
    bytes.append(buffer, static_cast<size_t>(n));
  }
  return bytes;
}

}  // namespace bismuth::tools::runner
