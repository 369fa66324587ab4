#include "gl_enum_names.hpp"

#include <algorithm>
#include <vector>

namespace bismuth::tools::runner {

namespace {

struct EnumName {
  std::string_view name;
  uint32_t value;
};

constexpr EnumName kEnums[] = {
#include "gl_enum_names.inc"
};

}  // namespace

std::optional<uint32_t> gl_enum_value(std::string_view name) {
  static const std::vector<EnumName> sorted = [] {
    std::vector<EnumName> v(std::begin(kEnums), std::end(kEnums));
    std::sort(v.begin(), v.end(), [](const EnumName& a, const EnumName& b) { return a.name < b.name; });
    return v;
  }();
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), name,
                                   [](const EnumName& e, std::string_view n) { return e.name < n; });
  if (it == sorted.end() || it->name != name) return std::nullopt;
  return it->value;
}

}  // namespace bismuth::tools::runner
