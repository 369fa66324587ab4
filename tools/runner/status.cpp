#include "status.hpp"

#include <cctype>

namespace bismuth::tools::runner {

const char* to_string(Status status) {
  switch (status) {
    case Status::Pass: return "Pass";
    case Status::Fail: return "Fail";
    case Status::Skip: return "Skip";
    case Status::Crash: return "Crash";
    case Status::Timeout: return "Timeout";
    case Status::ExpectedFail: return "ExpectedFail";
    case Status::UnexpectedPass: return "UnexpectedPass";
    case Status::Flake: return "Flake";
  }
  return "?";
}

std::optional<Status> parse_status(std::string_view text) {
  std::string lower;
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "pass") return Status::Pass;
  if (lower == "fail") return Status::Fail;
  if (lower == "skip") return Status::Skip;
  if (lower == "crash") return Status::Crash;
  if (lower == "timeout") return Status::Timeout;
  if (lower == "expectedfail" || lower == "xfail") return Status::ExpectedFail;
  if (lower == "unexpectedpass" || lower == "upass") return Status::UnexpectedPass;
  if (lower == "flake") return Status::Flake;
  return std::nullopt;
}

bool is_unexpected(Status status) {
  return status == Status::Fail || status == Status::Crash || status == Status::Timeout ||
         status == Status::UnexpectedPass;
}

bool is_failure(Status status) {
  return status == Status::Fail || status == Status::Crash || status == Status::Timeout;
}

}  // namespace bismuth::tools::runner
