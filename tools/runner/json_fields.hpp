// Strict reading of JSON fields for case.json: every value is checked against the type and range the field
// needs (nlohmann's get<uint32_t>() wraps -1 to 4294967295, truncates 4294967296 to 0 and 8.5 to 8). The first
// bad field is kept as "NAME: expected ..., got VALUE"; later reads then return defaults, so a caller reads all
// fields and checks ok() once.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace bismuth::tools::runner {

class JsonFields {
 public:
  using json = nlohmann::json;

  // object[key]; nullptr when absent (an error when `required`) or when `object` is not an object. `name` is the
  // key's full name for messages ("output.words").
  const json* member(const json* object, const std::string& object_name, const char* key, bool required);

  // An integer 0..4294967295; with `text` also a string of decimal digits or "0x" and hex digits.
  uint32_t u32(const json* v, const std::string& name, bool text = false);
  // An integer -2147483648..2147483647.
  int32_t i32(const json* v, const std::string& name);
  // A number inside the float range, as a float.
  float f32(const json* v, const std::string& name);
  std::string string(const json* v, const std::string& name);
  // An array of exactly three u32.
  std::array<uint32_t, 3> u32x3(const json* v, const std::string& name);

  // Records an error of the caller's own checks (the first one wins).
  void fail(const std::string& message);
  bool ok() const { return !error_; }
  const std::string& error() const { return *error_; }

 private:
  bool bad(const json* v, const std::string& name, const char* expected);
  std::optional<std::string> error_;
};

}  // namespace bismuth::tools::runner
