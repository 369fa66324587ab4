#!/usr/bin/env bash
# Installs the Debian 12 packages Bismuth builds, runs and tests with — only those that are missing.
# Idempotent: with everything present it changes nothing and runs no apt-get at all.
# As non-root it prints the exact command to run and exits non-zero.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config
  # libraries (headers and static/shared libs)
  libvulkan-dev libvulkan-volk-dev glslang-dev spirv-tools spirv-headers libspirv-cross-c-shared-dev
  # glslang-dev's CMake package (glslang-targets.cmake) imports /usr/bin/glslangValidator, which glslang-tools
  # ships: without it `find_package(glslang)` fails at configure on a fresh machine
  glslang-tools
  catch2 nlohmann-json3-dev libcli11-dev libxxhash-dev libbenchmark-dev
  # GL/glcorearb.h and EGL/egl.h + eglext.h, headers only: libbismuth-gl generates its exported GL 4.6 entry
  # points from glcorearb.h and implements the EGL API against the Khronos headers (nothing links libGL/libEGL)
  libgl-dev libegl-dev
  # glvnd's vendor ABI headers (glvnd/libeglabi.h: libEGL_bismuth, the GLVND EGL vendor) and libOpenGL.so for the
  # programs built against glvnd instead of Bismuth (examples' _system twins, tests/glvnd, examples/downstream)
  libglvnd-core-dev libopengl-dev
  # run and test time: the Vulkan loader, lavapipe and the Khronos validation layer
  libvulkan1 mesa-vulkan-drivers vulkan-validationlayers
)
# clang builds the libFuzzer harnesses (-DBISMUTH_BUILD_FUZZERS=ON with CXX=clang++, docs/spirv_patch.md); the
# default build replays their seed corpora under ASan with gcc.
packages+=(clang)
# python3 (xml.etree) checks the JUnit XML of `bismuth run` in tests/tools/runner (check_junit.py).
packages+=(python3)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root:  $cmd" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
