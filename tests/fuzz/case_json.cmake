# The case.json reader of `bismuth run` (tools/runner/corpus_case): fuzz_case_json.cpp built two ways, as the
# other targets here. Included from CMakeLists.txt.
set(_case_json_sources fuzz_case_json.cpp ${PROJECT_SOURCE_DIR}/tools/runner/corpus_case.cpp
                       ${PROJECT_SOURCE_DIR}/tools/runner/json_fields.cpp ${PROJECT_SOURCE_DIR}/tools/runner/input_file.cpp)

# bismuth_case_json_target(<target> <sanitizer flags>)
function(bismuth_case_json_target target)
  add_executable(${target} ${ARGN})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tools/runner)
  target_link_libraries(${target} PRIVATE bismuth::common nlohmann_json::nlohmann_json)
  bismuth_target_defaults(${target})
endfunction()

# The replay over the malformed seeds in case_json_corpus/ and every file of the reference corpus and the examples
# (case.json, and the other files of a case folder as malformed JSON).
bismuth_corpus_replay(case_json_corpus_replay SOURCES ${_case_json_sources} INCLUDES ${PROJECT_SOURCE_DIR}/tools/runner
                      LIBRARIES nlohmann_json::nlohmann_json)
foreach(_seeds seeds=tests/fuzz/case_json_corpus reference=tests/data/corpus examples=examples/corpus)
  string(REPLACE "=" ";" _pair "${_seeds}")
  list(GET _pair 0 _name)
  list(GET _pair 1 _dir)
  bismuth_corpus_replay_test(fuzz:corpus_replay:case_json:${_name} case_json_corpus_replay
                             ${PROJECT_SOURCE_DIR}/${_dir} case_json)
endforeach()

# The libFuzzer binary: clang only, on request (BISMUTH_BUILD_FUZZERS=ON with CC=clang CXX=clang++; CMakeLists.txt
# warns otherwise). tests/fuzz/case_json.dict holds the field names for -dict=.
if(BISMUTH_BUILD_FUZZERS AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  bismuth_case_json_target(fuzz_case_json ${_case_json_sources})
  target_compile_definitions(fuzz_case_json PRIVATE BISMUTH_LIBFUZZER)
  target_compile_options(fuzz_case_json PRIVATE -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer)
  target_link_options(fuzz_case_json PRIVATE -fsanitize=fuzzer,address,undefined)
endif()
