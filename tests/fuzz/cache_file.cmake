# The persistent pipeline cache's file reader (layer/backend/src/disk_cache.cpp): the fuzz_cache_file target.
# Included from CMakeLists.txt.
set(_disk_cache_source ${PROJECT_SOURCE_DIR}/layer/backend/src/disk_cache.cpp)

function(bismuth_sanitized_disk_cache target)
  target_sources(${target} PRIVATE ${_disk_cache_source})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/layer/backend/include)
  target_link_libraries(${target} PRIVATE bismuth::common bismuth_volk PkgConfig::XXHASH)
  target_compile_options(${target} PRIVATE ${ARGN} -fno-omit-frame-pointer)
  target_link_options(${target} PRIVATE ${ARGN})
  bismuth_target_defaults(${target})
endfunction()

# The replay over cache_file_corpus/ (a valid file and damaged ones).
bismuth_corpus_replay(cache_file_corpus_replay SOURCES fuzz_cache_file.cpp LIBRARIES bismuth::backend)
bismuth_corpus_replay_test(fuzz:corpus_replay:cache_file:seeds cache_file_corpus_replay
                           ${CMAKE_CURRENT_SOURCE_DIR}/cache_file_corpus cache_file)

if(BISMUTH_BUILD_FUZZERS AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_executable(fuzz_cache_file fuzz_cache_file.cpp)
  target_compile_definitions(fuzz_cache_file PRIVATE BISMUTH_LIBFUZZER)
  bismuth_sanitized_disk_cache(fuzz_cache_file -fsanitize=fuzzer,address,undefined)
endif()
