// Errors are values at module boundaries: no exception crosses a Bismuth library's API, the layer boundary or a
// GL entry point. Expected<T> holds either a T or an Error (a message that names the input position or the
// Vulkan/GL call, plus an optional numeric code such as a VkResult or a GL error enum).
// C++20 has no std::expected, so this is the small subset Bismuth needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace bismuth {

struct Error {
  std::string message;
  // A VkResult, a GL error enum, or 0 when the message is all there is.
  int64_t code = 0;
};

// fail("...") converts to any Expected<T>, so `return fail("bad magic");` reads like the error it is.
inline Error fail(std::string message, int64_t code = 0) { return Error{std::move(message), code}; }

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design

  // Success holds no Error at all (no string to build and destroy): Status is returned on every hot path.
  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const Error& error() const {
    static const Error kNone{};
    return error_ ? *error_ : kNone;
  }

 private:
  std::optional<Error> error_;
};

using Status = Expected<void>;

}  // namespace bismuth
