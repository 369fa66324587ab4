#include "test_discovery.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace bismuth::runner {

namespace fs = std::filesystem;

namespace {

bool is_shader_test(const fs::path& p) {
  return p.extension() == ".shader_test";
}
bool is_case_dir(const fs::path& p) {
  return fs::is_regular_file(p / "case.json");
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
    for (const char* front : {"glsl", "nvasm"}) {
      if ((std::string(front) == "glsl" && !options.glsl) || (std::string(front) == "nvasm" && !options.nvasm))
        continue;
      if (!seen.insert(dir.string() + "@" + front).second) continue;
      tests.push_back({TestSpec::Kind::CorpusCase, name + "@" + front, dir.string(), front});
    }
  }

  static std::string stem_name(const fs::path& relative) {
    fs::path p = relative;
    if (is_shader_test(p)) p.replace_extension();
    std::string s = p.generic_string();
    if (s == "." || s.empty()) s = fs::absolute(relative).filename().string();
    return s;
  }

  void walk(const fs::path& root) {
    if (is_case_dir(root)) {
      add_case(root, root.filename().empty() ? root.parent_path().filename().string() : root.filename().string());
      return;
    }
    std::vector<fs::path> entries;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path p = it->path();
      if (it->is_directory() && is_case_dir(p)) {
        add_case(p, stem_name(fs::relative(p, root)));
        it.disable_recursion_pending();  // a case folder holds one case
      } else if (it->is_regular_file() && is_shader_test(p)) {
        add_shader_test(p, stem_name(fs::relative(p, root)));
      }
    }
  }

  Expected<void> add_input(const std::string& input, const fs::path& base, int depth) {
    // Paths given on the command line stay as given (relative ones too): messages then name files as the user
    // wrote them. Only list-file entries are resolved against the list's folder.
    const fs::path path = fs::path(input).is_absolute() || depth == 0 ? fs::path(input) : base / input;
    const size_t before = tests.size();
    if (input.find_first_of("*?[") != std::string::npos) {
      // Names are relative to the folder the pattern starts from (the part before the first wildcard).
      const std::string pattern = path.string();
      const size_t slash = pattern.rfind('/', pattern.find_first_of("*?["));
      const fs::path root = slash == std::string::npos ? fs::current_path() : fs::path(pattern.substr(0, slash));
      glob_t g{};
      if (::glob(path.c_str(), 0, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; ++i) {
          const fs::path match = g.gl_pathv[i];
          if (fs::is_directory(match)) {
            walk(match);
          } else if (is_shader_test(match)) {
            add_shader_test(match, stem_name(fs::relative(match, root)));
          }
        }
      }
      globfree(&g);
    } else if (fs::is_directory(path)) {
      walk(path);
    } else if (fs::is_regular_file(path) && is_shader_test(path)) {
      add_shader_test(path, path.stem().string());
    } else if (fs::is_regular_file(path)) {
      if (depth > 4) return fail(path.string() + ": list files nested too deep");
      std::ifstream list(path);
      std::string line;
      int n = 0;
      while (std::getline(list, line)) {
        ++n;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (auto r = add_input(line, path.parent_path(), depth + 1); !r) {
          return fail(path.string() + ":" + std::to_string(n) + ": " + r.error().message);
        }
      }
      return {};
    } else {
      return fail(input + ": no such file or directory");
    }
    if (tests.size() == before && input.find_first_of("*?[") != std::string::npos) {
      return fail(input + ": the pattern matches no test");
    }
    return {};
  }
};

}  // namespace

Expected<std::vector<TestSpec>> discover_tests(const std::vector<std::string>& inputs,
                                               const DiscoveryOptions& options) {
  Collector c{options, {}, {}};
  for (const auto& input : inputs) {
    if (auto r = c.add_input(input, fs::current_path(), 0); !r) return r.error();
  }
  std::stable_sort(c.tests.begin(), c.tests.end(),
                   [](const TestSpec& a, const TestSpec& b) { return a.name < b.name; });
  return std::move(c.tests);
}

}  // namespace bismuth::runner
