# Every dependency comes from a Debian 12 package (scripts/install-deps.sh installs them), found through the
# package's own CMake config or pkg-config. Nothing is downloaded or vendored.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# Vulkan headers only: the libraries load every entry point at run time through volk, never link libvulkan.
find_package(Vulkan REQUIRED)

# volk ships as a single volk.c/volk.h pair (libvulkan-volk-dev); build it once as a static library.
find_path(VOLK_INCLUDE_DIR volk.h REQUIRED)
find_file(VOLK_SOURCE volk.c PATHS ${VOLK_INCLUDE_DIR} NO_DEFAULT_PATH REQUIRED)
add_library(bismuth_volk STATIC ${VOLK_SOURCE})
target_include_directories(bismuth_volk SYSTEM PUBLIC ${VOLK_INCLUDE_DIR})
target_compile_definitions(bismuth_volk PUBLIC VK_NO_PROTOTYPES)
target_link_libraries(bismuth_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})

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
