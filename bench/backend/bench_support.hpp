// What bench_backend and bench_vk_record share: the add shader both record, the eight workgroup sizes they cycle
// through, and fatal-error helpers (a benchmark that cannot set up has nothing to measure).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "bismuth/common/expected.hpp"

namespace bench {

// dst[i] = src[i] + add for i < count; workgroup size from SpecIds 0/1/2.
inline constexpr const char* kAddShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) buffer Dst { uint dst[]; };
layout(push_constant) uniform Push { uint count; uint add; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) dst[i] = src[i] + add;
}
)";

// Sizes the recording benchmarks cycle through (a "variable-size" program).
inline constexpr std::array<uint32_t, 8> kSizes = {32, 64, 96, 128, 160, 192, 224, 256};

// Set by each binary's main file (its name prefixes the messages).
extern const char* const kProgramName;

[[noreturn]] inline void die(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", kProgramName, message.c_str());
  std::exit(1);
}

template <class T>
T take(bismuth::Expected<T> e, const char* what) {
  if (!e) die(std::string(what) + ": " + e.error().message);
  return std::move(*e);
}

}  // namespace bench
