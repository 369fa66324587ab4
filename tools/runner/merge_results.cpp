#include "merge_results.hpp"

#include "xml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

namespace bismuth::tools::runner {

namespace {

using json = nlohmann::json;

// ---- JSON shards (reports.cpp's results_json) ----

Expected<Shard> parse_json_shard(std::string_view text, const std::string& path) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return fail(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("tests") || !j["tests"].is_array()) {
    return fail(path + ": expected a `bismuth run --json` report: an object with a \"tests\" array");
  }
  Shard shard;
  if (j.contains("time")) {
    if (!j["time"].is_number() || !std::isfinite(j["time"].get<double>()) || j["time"].get<double>() < 0) {
      return fail(path + ": \"time\": expected a number of seconds >= 0");
    }
    shard.seconds = j["time"].get<double>();
  }
  size_t i = 0;
  for (const auto& t : j["tests"]) {
    const std::string where = path + ": tests[" + std::to_string(i++) + "]";
    if (!t.is_object()) return fail(where + ": expected an object");
    auto text_field = [&](const char* key, bool required, std::string* out) -> Expected<void> {
      if (!t.contains(key)) {
        if (required) return fail(where + ": \"" + key + "\" is missing");
        return {};
      }
      if (!t[key].is_string()) return fail(where + "." + key + ": expected a string");
      *out = t[key].get<std::string>();
      return {};
    };
    TestResult r;
    std::string status;
    if (auto e = text_field("name", true, &r.test.name); !e) return e.error();
    if (r.test.name.empty()) return fail(where + ".name: empty");
    if (auto e = text_field("status", true, &status); !e) return e.error();
    if (auto e = text_field("path", false, &r.test.path); !e) return e.error();
    if (auto e = text_field("device", false, &r.outcome.device); !e) return e.error();
    if (auto e = text_field("message", false, &r.outcome.message); !e) return e.error();
    const auto parsed = parse_status(status);
    if (!parsed) return fail(where + ".status: unknown status \"" + status + "\"");
    r.outcome.status = *parsed;
    if (t.contains("time")) {
      if (!t["time"].is_number() || !std::isfinite(t["time"].get<double>()) || t["time"].get<double>() < 0) {
        return fail(where + ".time: expected a number of seconds >= 0");
      }
      r.seconds = t["time"].get<double>();
    }
    if (t.contains("attempts")) {
      if (!t["attempts"].is_number_integer() || t["attempts"].get<int64_t>() < 1 ||
          t["attempts"].get<int64_t>() > 1000000) {
        return fail(where + ".attempts: expected an integer >= 1");
      }
      r.attempts = static_cast<int>(t["attempts"].get<int64_t>());
    }
    shard.results.push_back(std::move(r));
  }
  return shard;
}

// ---- JUnit shards ----

// "device: D; status: S; attempts: N", as junit_xml writes <system-out>. The device name may itself hold "; ", so
// the status and attempts fields are found from the end. Returns whether it held a status (then in `status`).
bool read_system_out(const std::string& text, TestResult& r, Status* status) {
  const size_t status_at = text.rfind("; status: ");
  if (status_at == std::string::npos) return false;
  if (text.rfind("device: ", 0) == 0) r.outcome.device = text.substr(8, status_at - 8);
  const size_t start = status_at + 10;
  const size_t end = text.find(';', start);
  const auto parsed = parse_status(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
  if (parsed) *status = *parsed;
  const size_t attempts_at = text.find("; attempts: ", start);
  if (attempts_at != std::string::npos) {
    try {
      r.attempts = std::max(1, std::stoi(text.substr(attempts_at + 12)));
    } catch (...) {
    }
  }
  return parsed.has_value();
}

Expected<Shard> parse_junit_shard(std::string_view text, const std::string& path) {
  XmlReader xml(text, path);
  Shard shard;
  std::vector<std::string> open;  // element stack
  std::optional<TestResult> current;
  Status from_children = Status::Pass;  // <failure>, <error>, <skipped>, or none
  Status from_system_out = Status::Pass;
  std::string system_out, ignored_text;
  bool in_system_out = false;
  bool saw_root = false;
  while (true) {
    std::string* sink = in_system_out ? &system_out : &ignored_text;
    auto event = xml.next(sink);
    if (!event) return event.error();
    if (!*event) break;
    auto& tag = **event;
    using K = XmlReader::Tag::Kind;
    if (tag.kind == K::End) {
      if (open.empty() || open.back() != tag.name) {
        return xml.error("</" + tag.name + "> does not close " + (open.empty() ? "anything" : "<" + open.back() + ">"));
      }
      open.pop_back();
      if (tag.name == "system-out") in_system_out = false;
      if (tag.name == "testcase" && current) {
        const bool exact = read_system_out(system_out, *current, &from_system_out);
        current->outcome.status = exact ? from_system_out : from_children;
        shard.results.push_back(std::move(*current));
        current.reset();
      }
      continue;
    }
    if (open.empty()) {
      if (saw_root) return xml.error("a second root element <" + tag.name + ">");
      if (tag.name != "testsuites" && tag.name != "testsuite") {
        return fail(path + ": not a JUnit report (root element <" + tag.name + ">)");
      }
      saw_root = true;
      if (tag.name == "testsuite" && tag.attributes.count("time")) {
        try {
          shard.seconds = std::stod(tag.attributes["time"]);
        } catch (...) {
        }
      }
    } else if (open.back() == "testsuites" && tag.name == "testsuite" && tag.attributes.count("time")) {
      try {
        shard.seconds = std::max(shard.seconds, std::stod(tag.attributes["time"]));
      } catch (...) {
      }
    }
    if (tag.name == "testcase") {
      if (current) return xml.error("<testcase> inside <testcase>");
      current = TestResult{};
      from_children = Status::Pass;
      system_out.clear();
      const std::string classname = tag.attributes["classname"];
      const std::string name = tag.attributes["name"];
      if (name.empty()) return xml.error("<testcase> without a name");
      // junit_xml's classname is "bismuth" or "bismuth.FOLDER" for the test FOLDER/NAME.
      std::string folder = classname;
      if (folder == "bismuth")
        folder.clear();
      else if (folder.rfind("bismuth.", 0) == 0)
        folder = folder.substr(8);
      current->test.name = folder.empty() ? name : folder + "/" + name;
      if (tag.attributes.count("time")) {
        try {
          current->seconds = std::max(0.0, std::stod(tag.attributes["time"]));
        } catch (...) {
          return xml.error("<testcase name=\"" + name + "\"> has a bad time \"" + tag.attributes["time"] + "\"");
        }
      }
    } else if (current && (tag.name == "failure" || tag.name == "error" || tag.name == "skipped")) {
      const std::string type = tag.attributes["type"];
      std::string message = tag.attributes["message"];
      if (tag.name == "failure") {
        from_children = type == "UnexpectedPass" ? Status::UnexpectedPass : Status::Fail;
      } else if (tag.name == "error") {
        from_children = type == "Timeout" ? Status::Timeout : Status::Crash;
      } else {
        // junit_xml writes "Skip: reason" / "ExpectedFail: reason".
        from_children = Status::Skip;
        for (Status s : {Status::Skip, Status::ExpectedFail}) {
          const std::string prefix = std::string(to_string(s)) + ": ";
          if (message.rfind(prefix, 0) == 0) {
            from_children = s;
            message = message.substr(prefix.size());
          }
        }
      }
      current->outcome.message = message;
    } else if (current && tag.name == "system-out") {
      in_system_out = tag.kind == K::Start;
    }
    if (tag.kind == K::Start)
      open.push_back(tag.name);
    else if (tag.name == "testcase" && current) {  // <testcase .../>: a pass without children
      current->outcome.status = Status::Pass;
      shard.results.push_back(std::move(*current));
      current.reset();
    }
  }
  if (!saw_root) return fail(path + ": empty: no JUnit <testsuites> or <testsuite> element");
  if (!open.empty()) return xml.error("<" + open.back() + "> is never closed");
  return shard;
}

// The status a failing test had before a baseline made it ExpectedFail: apply_baseline's message says
// "expected Fail (baseline), got Crash: ...".
Status observed_failure(const TestResult& r) {
  if (r.outcome.status != Status::ExpectedFail) return r.outcome.status;
  const std::string& m = r.outcome.message;
  const size_t got = m.find(", got ");
  if (got != std::string::npos) {
    const size_t start = got + 6;
    const size_t end = m.find(':', start);
    if (auto s = parse_status(m.substr(start, end == std::string::npos ? std::string::npos : end - start));
        s && is_failure(*s)) {
      return *s;
    }
  }
  return Status::Fail;
}

}  // namespace

Expected<Shard> parse_shard(std::string_view text, const std::string& path) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return fail(path + ": empty file, not a report");
  if (text.substr(first, 3) == "\xEF\xBB\xBF") return parse_shard(text.substr(first + 3), path);
  if (text[first] == '{') return parse_json_shard(text, path);
  if (text[first] == '<') return parse_junit_shard(text, path);
  return fail(path + ": neither a JSON report (bismuth run --json) nor JUnit XML (--junit)");
}

Expected<Shard> load_shard(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return fail(path + ": cannot read the file");
  std::stringstream text;
  text << file.rdbuf();
  if (file.bad()) return fail(path + ": cannot read the file");
  return parse_shard(text.str(), path);
}

Expected<Merged> merge_shards(const std::vector<std::string>& paths) {
  Merged merged;
  std::map<std::string, std::string> source;  // test name -> shard file
  for (const auto& path : paths) {
    auto shard = load_shard(path);
    if (!shard) return shard.error();
    merged.seconds = std::max(merged.seconds, shard->seconds);
    for (auto& r : shard->results) {
      const auto [it, inserted] = source.emplace(r.test.name, path);
      if (!inserted) {
        return fail("test \"" + r.test.name + "\" is in " + it->second + " and in " + path +
                    " (overlapping --fraction shards, or one shard given twice)");
      }
      merged.results.push_back(std::move(r));
    }
  }
  std::sort(merged.results.begin(), merged.results.end(),
            [](const TestResult& a, const TestResult& b) { return a.test.name < b.test.name; });
  return merged;
}

std::string baseline_text(const std::vector<TestResult>& results) {
  std::vector<std::string> lines;
  for (const auto& r : results) {
    const Status s = observed_failure(r);
    if (is_failure(s)) lines.push_back(r.test.name + "," + to_string(s));
  }
  std::sort(lines.begin(), lines.end());
  std::string text = "# bismuth merge-results: " + std::to_string(lines.size()) + " failing of " +
                     std::to_string(results.size()) + " tests\n";
  for (const auto& line : lines) text += line + "\n";
  return text;
}

}  // namespace bismuth::tools::runner
