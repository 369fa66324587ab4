# Every dependency comes from a Debian 12 package (scripts/install-deps.sh installs them), found through the
# package's own CMake config or pkg-config. Nothing is downloaded or vendored.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# Vulkan headers only: the libraries load every entry point at run time through volk, never link libvulkan.
find_package(Vulkan REQUIRED)

# volk ships as a single volk.c/volk.h pair (libvulkan-volk-dev); build it once as a static library, linked by the
# backend and through it by both shared objects (libbismuth-gl and the Vulkan layer).
#
# volk keeps every entry point in a global variable named after the Vulkan function, and this volk has no
# namespace option. Two of those names, vkGetInstanceProcAddr and vkGetDeviceProcAddr, are also functions the
# layer must export, and a static link resolves names before any version script hides them: a backend reference
# to volk's vkGetInstanceProcAddr would bind to the layer's own export (or collide with it). So the two variables
# are renamed by macro, PUBLIC, for volk.c and for every source that compiles against volk.h (the backend, the
# tests, the tools): no Bismuth object defines or references anything named vkGetInstanceProcAddr or
# vkGetDeviceProcAddr except the layer's exports, which undo the macros (layer/vk_layer/src/dispatch.cpp). Keeping
# volk.h out of the backend's headers instead would not help: the clash is between symbol names at link time.
# Position-independent and hidden: it goes into the two shared objects, whose version scripts export none of it.
find_path(VOLK_INCLUDE_DIR volk.h REQUIRED)
find_file(VOLK_SOURCE volk.c PATHS ${VOLK_INCLUDE_DIR} NO_DEFAULT_PATH REQUIRED)
add_library(bismuth_volk STATIC ${VOLK_SOURCE})  # third-party: without the project's warnings
target_include_directories(bismuth_volk SYSTEM PUBLIC ${VOLK_INCLUDE_DIR})
target_compile_definitions(bismuth_volk PUBLIC VK_NO_PROTOTYPES
  vkGetInstanceProcAddr=bismuth_volk_vkGetInstanceProcAddr vkGetDeviceProcAddr=bismuth_volk_vkGetDeviceProcAddr)
target_link_libraries(bismuth_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
set_target_properties(bismuth_volk PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)

find_package(SPIRV-Tools REQUIRED)
find_package(SPIRV-Tools-opt REQUIRED)
find_package(glslang REQUIRED)
find_package(SPIRV-Headers REQUIRED)
pkg_check_modules(SPIRV_CROSS_C REQUIRED IMPORTED_TARGET spirv-cross-c-shared)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)

if(BISMUTH_BUILD_TESTS)
  find_package(Catch2 2.13 REQUIRED)
  include(Catch)
endif()
if(BISMUTH_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
