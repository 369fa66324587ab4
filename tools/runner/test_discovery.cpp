#include "test_discovery.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "input_file.hpp"

namespace bismuth::tools::runner {

namespace fs = std::filesystem;

// Every filesystem query here takes an error_code: a symlink loop, a dangling link or an unreadable entry makes
// the throwing overloads throw filesystem_error, which ended `bismuth run` with no report. Such an entry that
// names a test (a *.shader_test, a case folder's case.json) becomes that test, and its worker's read reports why
// it cannot be read: a Fail of that test only.

namespace {

bool is_shader_test(const fs::path& p) {
  return p.extension() == ".shader_test";
}

// A folder is a case when it holds an entry named case.json of any kind: a case.json that is a directory or a
// symlink loop is then a Fail naming it, not a folder searched and silently found empty.
bool is_case_dir(const fs::path& p) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(p / "case.json", ec));
}

bool resolves_to_directory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);  // follows links; false for a link that does not resolve
}

// `p` relative to `root` for test names; lexically when the filesystem cannot resolve `p` (a symlink loop).
fs::path relative_to(const fs::path& p, const fs::path& root) {
  std::error_code ec;
  fs::path r = fs::relative(p, root, ec);
  if (ec || r.empty()) r = p.lexically_relative(root);
  if (r.empty()) r = p.filename();
  return r;
}

struct Collector {
  const DiscoveryOptions& options;
  std::vector<TestSpec> tests;
  std::set<std::string> seen;  // path + front

  // `name` is relative to the input root, generic separators, no extension.
  void add_shader_test(const fs::path& path, std::string name) {
    if (!seen.insert(path.string()).second) return;
    tests.push_back({TestSpec::Kind::ShaderTest, std::move(name), path.string(), ""});
  }
  void add_case(const fs::path& dir, const std::string& name) {
    for (const std::string front : {"glsl", "hlsl", "nvasm"}) {
      if ((front == "glsl" && !options.glsl) || (front == "nvasm" && !options.nvasm)) continue;
      // HLSL is optional in a case folder: the NVIDIA corpus has none, the numWaves examples have one.
      std::error_code ec;
      if (front == "hlsl" && (!options.hlsl || !fs::exists(dir / "shader.hlsl", ec))) continue;
      if (!seen.insert(dir.string() + "@" + front).second) continue;
      tests.push_back({TestSpec::Kind::CorpusCase, name + "@" + front, dir.string(), front});
    }
  }

  static std::string stem_name(const fs::path& relative) {
    fs::path p = relative;
    if (is_shader_test(p)) p.replace_extension();
    std::string s = p.generic_string();
    if (s == "." || s.empty()) {
      std::error_code ec;
      s = fs::absolute(relative, ec).filename().string();
    }
    return s;
  }

  Expected<void> walk(const fs::path& root) {
    if (is_case_dir(root)) {
      add_case(root, root.filename().empty() ? root.parent_path().filename().string() : root.filename().string());
      return {};
    }
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const fs::path p = it->path();
      std::error_code type_error;
      const bool directory = it->is_directory(type_error);
      if (directory && is_case_dir(p)) {
        add_case(p, stem_name(relative_to(p, root)));
        it.disable_recursion_pending();  // a case folder holds one case
      } else if (!directory && is_shader_test(p)) {
        // A regular file, or one that cannot be read (a symlink loop, a dangling link, a FIFO): the worker says.
        add_shader_test(p, stem_name(relative_to(p, root)));
      }
    }
    if (ec) return fail(root.string() + ": cannot search the folder: " + ec.message());
    return {};
  }

  Expected<void> add_list(const fs::path& path, int depth) {
    if (depth > 4) return fail(path.string() + ": list files nested too deep");
    auto text = read_input_file(path.string());
    if (!text) return text.error();
    size_t pos = 0;
    int n = 0;
    while (pos < text->size()) {
      const size_t end = std::min(text->find('\n', pos), text->size());
      std::string line = text->substr(pos, end - pos);
      pos = end + 1;
      ++n;
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      if (auto r = add_input(line, path.parent_path(), depth + 1); !r) {
        return fail(path.string() + ":" + std::to_string(n) + ": " + r.error().message);
      }
    }
    return {};
  }

  Expected<void> add_glob(const fs::path& path) {
    // Names are relative to the folder the pattern starts from (the part before the first wildcard).
    const std::string pattern = path.string();
    const size_t slash = pattern.rfind('/', pattern.find_first_of("*?["));
    std::error_code ec;
    const fs::path root = slash == std::string::npos ? fs::current_path(ec) : fs::path(pattern.substr(0, slash));
    glob_t g{};
    Expected<void> result;
    if (::glob(path.c_str(), 0, nullptr, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc && result; ++i) {
        const fs::path match = g.gl_pathv[i];
        if (resolves_to_directory(match)) {
          result = walk(match);
        } else if (is_shader_test(match)) {
          add_shader_test(match, stem_name(relative_to(match, root)));
        }
      }
    }
    globfree(&g);
    return result;
  }

  Expected<void> add_input(const std::string& input, const fs::path& base, int depth) {
    // Paths given on the command line stay as given (relative ones too): messages then name files as the user
    // wrote them. Only list-file entries are resolved against the list's folder.
    const fs::path path = fs::path(input).is_absolute() || depth == 0 ? fs::path(input) : base / input;
    if (input.find_first_of("*?[") != std::string::npos) {
      const size_t before = tests.size();
      if (auto r = add_glob(path); !r) return r;
      if (tests.size() == before) return fail(input + ": the pattern matches no test");
      return {};
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    std::error_code link_error;
    const bool entry_exists = fs::exists(fs::symlink_status(path, link_error));
    if (fs::is_directory(status)) return walk(path);
    if (is_shader_test(path) && entry_exists) {
      add_shader_test(path, path.stem().string());  // a file that cannot be read fails as that test
      return {};
    }
    if (fs::is_regular_file(status)) return add_list(path, depth);
    if (!entry_exists) return fail(input + ": no such file or directory");
    if (ec) return fail(input + ": cannot read it: " + ec.message());
    return fail(input + ": not a folder, a .shader_test file or a list file");
  }
};

}  // namespace

Expected<std::vector<TestSpec>> discover_tests(const std::vector<std::string>& inputs,
                                               const DiscoveryOptions& options) {
  Collector c{options, {}, {}};
  for (const auto& input : inputs) {
    if (auto r = c.add_input(input, fs::path(), 0); !r) return r.error();
  }
  std::stable_sort(c.tests.begin(), c.tests.end(),
                   [](const TestSpec& a, const TestSpec& b) { return a.name < b.name; });
  return std::move(c.tests);
}

}  // namespace bismuth::tools::runner
