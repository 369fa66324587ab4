// Main of the GPU-only tests: exits 77 (ctest: skipped) with a message when the loader sees no GPU, so CI
// machines with only lavapipe skip cleanly; otherwise runs the Catch2 session with BISMUTH_DEVICE=gpu.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/instance.hpp"

int main(int argc, char** argv) {
  auto instance = bismuth::backend::Instance::create({.application_name = "bismuth-gpu-tests"});
  bool has_gpu = false;
  if (instance) {
    if (auto devices = bismuth::backend::enumerate_devices(**instance)) {
      for (const auto& d : *devices) has_gpu |= d.is_gpu();
    }
  }
  if (!has_gpu) {
    std::printf("SKIP: no discrete or integrated GPU (only CPU Vulkan devices such as lavapipe)\n");
    return 77;
  }
  instance->reset();
  setenv("BISMUTH_DEVICE", "gpu", 1);
  return Catch::Session().run(argc, argv);
}
