#include "reports.hpp"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

namespace bismuth::tools::runner {

namespace {

constexpr Status kOrder[] = {Status::Pass,    Status::Fail,         Status::Skip,           Status::Crash,
                             Status::Timeout, Status::ExpectedFail, Status::UnexpectedPass, Status::Flake};

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fs", s);
  return text;
}

// XML 1.0 text: the five escapes, and control characters (not allowed even escaped) dropped.
std::string xml_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// Invalid UTF-8 would make the XML unreadable; nlohmann's replace handler gives a clean copy.
std::string clean_utf8(const std::string& s) {
  const auto replaced = nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(replaced).get<std::string>();
}

}  // namespace

std::map<Status, size_t> count_statuses(const std::vector<TestResult>& results) {
  std::map<Status, size_t> counts;
  for (Status s : kOrder) counts[s] = 0;
  for (const auto& r : results) counts[r.outcome.status] += 1;
  return counts;
}

Progress::Progress(std::FILE* out, bool terminal, size_t total)
    : out_(out), terminal_(terminal), total_(total), start_(std::chrono::steady_clock::now()) {}

void Progress::on_result(const TestResult& result, size_t done) {
  counts_[result.outcome.status] += 1;
  if (!terminal_) {
    std::fprintf(out_, "[%zu/%zu] %-14s %s (%s, %s)%s%s\n", done, total_, to_string(result.outcome.status),
                 result.test.name.c_str(), seconds_text(result.seconds).c_str(), result.outcome.device.c_str(),
                 result.outcome.message.empty() || result.outcome.status == Status::Pass ? "" : ": ",
                 result.outcome.status == Status::Pass ? "" : result.outcome.message.c_str());
    std::fflush(out_);
    return;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
  std::string counts;
  for (Status s : kOrder) {
    if (counts_[s] > 0) counts += std::string(" ") + to_string(s) + " " + std::to_string(counts_[s]);
  }
  // Unexpected results also get their own line above the progress line, so they are not lost.
  if (is_unexpected(result.outcome.status)) {
    std::fprintf(out_, "\r\033[K%s %s: %s\n", to_string(result.outcome.status), result.test.name.c_str(),
                 result.outcome.message.c_str());
  }
  std::fprintf(out_, "\r\033[K[%zu/%zu]%s | %.1f tests/s | ETA %.0fs", done, total_, counts.c_str(), rate, eta);
  std::fflush(out_);
}

void Progress::finish() {
  if (terminal_) std::fprintf(out_, "\n");
  std::fflush(out_);
}

std::string summary_text(const std::vector<TestResult>& results, double wall_seconds) {
  std::ostringstream s;
  const auto counts = count_statuses(results);
  s << "\n";
  s << "status          count\n";
  s << "--------------  -----\n";
  for (Status st : kOrder) {
    if (counts.at(st) == 0 && st != Status::Pass && st != Status::Fail) continue;
    char line[64];
    std::snprintf(line, sizeof line, "%-14s  %5zu\n", to_string(st), counts.at(st));
    s << line;
  }
  char total[64];
  std::snprintf(total, sizeof total, "%-14s  %5zu  in %s\n", "total", results.size(),
                seconds_text(wall_seconds).c_str());
  s << total;

  std::map<std::string, size_t> per_device;
  for (const auto& r : results) per_device[r.outcome.device.empty() ? "(unknown)" : r.outcome.device] += 1;
  s << "\ndevices:\n";
  for (const auto& [device, n] : per_device) s << "  " << device << ": " << n << " tests\n";

  std::vector<const TestResult*> slowest;
  for (const auto& r : results) slowest.push_back(&r);
  std::sort(slowest.begin(), slowest.end(), [](auto* a, auto* b) { return a->seconds > b->seconds; });
  if (slowest.size() > 5) slowest.resize(5);
  if (!slowest.empty()) {
    s << "\nslowest:\n";
    for (const auto* r : slowest) s << "  " << seconds_text(r->seconds) << "  " << r->test.name << "\n";
  }

  bool header = false;
  for (const auto& r : results) {
    if (!is_unexpected(r.outcome.status) && r.outcome.status != Status::Skip && r.outcome.status != Status::Flake)
      continue;
    if (!header) s << "\nnot passing:\n";
    header = true;
    s << "  " << to_string(r.outcome.status) << "  " << r.test.name << ": " << r.outcome.message << "\n";
  }
  return s.str();
}

std::string junit_xml(const std::vector<TestResult>& results, double wall_seconds) {
  const auto counts = count_statuses(results);
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"bismuth run\" tests=\"" << results.size() << "\">\n";
  x << "  <testsuite name=\"bismuth\" tests=\"" << results.size() << "\" failures=\""
    << counts.at(Status::Fail) + counts.at(Status::UnexpectedPass) << "\" errors=\""
    << counts.at(Status::Crash) + counts.at(Status::Timeout) << "\" skipped=\""
    << counts.at(Status::Skip) + counts.at(Status::ExpectedFail) << "\" time=\"" << wall_seconds << "\">\n";
  for (const auto& r : results) {
    const std::string& name = r.test.name;
    const size_t slash = name.rfind('/');
    const std::string classname = "bismuth" + (slash == std::string::npos ? "" : "." + name.substr(0, slash));
    const std::string message = xml_escape(clean_utf8(r.outcome.message));
    x << "    <testcase classname=\"" << xml_escape(clean_utf8(classname)) << "\" name=\""
      << xml_escape(clean_utf8(slash == std::string::npos ? name : name.substr(slash + 1))) << "\" time=\"" << r.seconds
      << "\">\n";
    switch (r.outcome.status) {
      case Status::Fail:
      case Status::UnexpectedPass:
        x << "      <failure type=\"" << to_string(r.outcome.status) << "\" message=\"" << message << "\"/>\n";
        break;
      case Status::Crash:
      case Status::Timeout:
        x << "      <error type=\"" << to_string(r.outcome.status) << "\" message=\"" << message << "\"/>\n";
        break;
      case Status::Skip:
      case Status::ExpectedFail:
        x << "      <skipped message=\"" << to_string(r.outcome.status) << ": " << message << "\"/>\n";
        break;
      case Status::Pass:
      case Status::Flake: break;
    }
    x << "      <system-out>device: " << xml_escape(clean_utf8(r.outcome.device))
      << "; status: " << to_string(r.outcome.status) << "; attempts: " << r.attempts << "</system-out>\n";
    x << "    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

std::string results_json(const std::vector<TestResult>& results, double wall_seconds) {
  nlohmann::json j;
  j["time"] = wall_seconds;
  j["counts"] = nlohmann::json::object();
  for (const auto& [status, n] : count_statuses(results)) j["counts"][to_string(status)] = n;
  j["tests"] = nlohmann::json::array();
  for (const auto& r : results) {
    j["tests"].push_back({{"name", r.test.name},
                          {"path", r.test.path},
                          {"status", to_string(r.outcome.status)},
                          {"time", r.seconds},
                          {"device", r.outcome.device},
                          {"message", r.outcome.message},
                          {"attempts", r.attempts}});
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace bismuth::tools::runner
