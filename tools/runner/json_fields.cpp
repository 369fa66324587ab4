#include "json_fields.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace bismuth::tools::runner {

namespace {

// The value as JSON text for a message, shortened. Arrays and objects are described, not dumped: dump() recurses,
// and a field may hold a document nested a million levels deep.
std::string shown(const nlohmann::json& v) {
  if (v.is_array()) return "an array of " + std::to_string(v.size()) + " elements";
  if (v.is_object()) return "an object";
  std::string text = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 48) text = text.substr(0, 45) + "...";
  return text;
}

// "123" or "0x7B": no sign, no space, no fraction, at most 0xFFFFFFFF ("0x1DEADBEEF" is out of range, not
// 0xDEADBEEF).
std::optional<uint32_t> u32_text(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  if (text.empty() || text[0] == '+' || text[0] == '-') return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || end != text.data() + text.size() || v > 0xFFFFFFFFu) return std::nullopt;
  return static_cast<uint32_t>(v);
}

}  // namespace

void JsonFields::fail(const std::string& message) {
  if (!error_) error_ = message;
}

bool JsonFields::bad(const json* v, const std::string& name, const char* expected) {
  fail("\"" + name + "\": expected " + expected + (v ? ", got " + shown(*v) : ""));
  return false;
}

const nlohmann::json* JsonFields::member(const json* object, const std::string& object_name, const char* key,
                                         bool required) {
  const std::string name = object_name.empty() ? key : object_name + "." + key;
  if (!ok() || object == nullptr) return nullptr;
  if (!object->is_object()) {
    bad(object, object_name.empty() ? "(the document)" : object_name, "an object");
    return nullptr;
  }
  const auto it = object->find(key);
  if (it == object->end()) {
    if (required) fail("\"" + name + "\" is missing");
    return nullptr;
  }
  return &*it;
}

uint32_t JsonFields::u32(const json* v, const std::string& name, bool text) {
  constexpr const char* kExpected = "an integer 0..4294967295";
  if (!ok() || v == nullptr) return 0;
  if (v->is_number_unsigned()) {
    const uint64_t u = v->get<uint64_t>();
    if (u <= 0xFFFFFFFFu) return static_cast<uint32_t>(u);
  } else if (text && v->is_string()) {
    if (auto u = u32_text(v->get_ref<const std::string&>())) return *u;
    bad(v, name, "an integer 0..4294967295 (a number, or text in decimal or 0x hex)");
    return 0;
  }
  bad(v, name, kExpected);
  return 0;
}

int32_t JsonFields::i32(const json* v, const std::string& name) {
  if (!ok() || v == nullptr) return 0;
  if (v->is_number_unsigned()) {
    const uint64_t u = v->get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) return static_cast<int32_t>(u);
  } else if (v->is_number_integer()) {
    const int64_t i = v->get<int64_t>();
    if (i >= std::numeric_limits<int32_t>::min()) return static_cast<int32_t>(i);
  }
  bad(v, name, "an integer -2147483648..2147483647");
  return 0;
}

float JsonFields::f32(const json* v, const std::string& name) {
  if (!ok() || v == nullptr) return 0;
  if (v->is_number()) {
    const double d = v->get<double>();
    // From halfway between FLT_MAX and 2^128 up a value rounds to infinity (and the conversion is undefined,
    // C++ [conv.double]); below, it rounds to a finite float ("3.4028235e38" is FLT_MAX). JSON has no NaN or inf.
    if (std::isfinite(d) && std::fabs(d) < 0x1.ffffffp127) return static_cast<float>(d);
  }
  bad(v, name, "a number in the float range");
  return 0;
}

std::string JsonFields::string(const json* v, const std::string& name) {
  if (!ok() || v == nullptr) return {};
  if (v->is_string()) return v->get<std::string>();
  bad(v, name, "a string");
  return {};
}

std::array<uint32_t, 3> JsonFields::u32x3(const json* v, const std::string& name) {
  if (!ok() || v == nullptr) return {};
  if (!v->is_array() || v->size() != 3) {
    bad(v, name, "an array of 3 integers");
    return {};
  }
  std::array<uint32_t, 3> out{};
  for (size_t i = 0; i < 3; ++i) out[i] = u32(&(*v)[i], name + "[" + std::to_string(i) + "]");
  return out;
}

}  // namespace bismuth::tools::runner
