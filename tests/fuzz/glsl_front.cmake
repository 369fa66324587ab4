# The GLSL front (translator/): fuzz_glsl_rewrites (its token-level rewrites and nesting check, no glslang) and
# fuzz_glsl_front (the whole GL front to SPIR-V, glslang as the distribution builds it). Included from
# CMakeLists.txt, after the spirv_patch helpers it uses.
set(_glsl_token_sources diagnostics.cpp glsl_lexer.cpp nesting_limits.cpp nv_extension_rewrite.cpp
                        variable_group_size_rewrite.cpp version_rewrite.cpp)
get_target_property(_translator_sources bismuth_translator SOURCES)
get_target_property(_translator_dir bismuth_translator SOURCE_DIR)
list(TRANSFORM _translator_sources PREPEND "${_translator_dir}/")
list(TRANSFORM _glsl_token_sources PREPEND "${_translator_dir}/src/")

# bismuth_sanitized_translator(<target> <flags>): the translator's sources (all of them, or with TOKENS_ONLY the
# rewrites that need no glslang), compiled into <target> with the flags. Debian builds glslang without RTTI, so
# UBSan's vptr check stays off, as in the asan preset.
function(bismuth_sanitized_translator target)
  cmake_parse_arguments(ARG "TOKENS_ONLY" "" "" ${ARGN})
  if(ARG_TOKENS_ONLY)
    target_sources(${target} PRIVATE ${_glsl_token_sources})
    target_link_libraries(${target} PRIVATE bismuth::common)
  else()
    target_sources(${target} PRIVATE ${_translator_sources})
    bismuth_sanitized_spirv_patch(${target} ${ARG_UNPARSED_ARGUMENTS} -fno-sanitize=vptr)
    target_link_libraries(${target} PRIVATE glslang::glslang glslang::SPIRV glslang::glslang-default-resource-limits
                                            Threads::Threads)
  endif()
  target_include_directories(${target} PRIVATE ${_translator_dir}/include ${_translator_dir}/src)
  target_compile_options(${target} PRIVATE ${ARG_UNPARSED_ARGUMENTS} -fno-sanitize=vptr -fno-omit-frame-pointer)
  target_link_options(${target} PRIVATE ${ARG_UNPARSED_ARGUMENTS})
  bismuth_target_defaults(${target})
endfunction()

# The replay over the seeds (glsl_corpus/: shaders, and inputs the front once mishandled: deep nesting, #version with
# leading zeros, shared memory over the limit) and every file of the example and reference corpora.
bismuth_corpus_replay(glsl_corpus_replay SOURCES fuzz_glsl_rewrites.cpp fuzz_glsl_front.cpp
                      LIBRARIES bismuth::translator INCLUDES ${_translator_dir}/src)
foreach(_name glsl_rewrites glsl_front)
  foreach(_seeds seeds=tests/fuzz/glsl_corpus examples=examples/corpus reference=tests/data/corpus)
    string(REPLACE "=" ";" _pair "${_seeds}")
    list(GET _pair 0 _set)
    list(GET _pair 1 _dir)
    bismuth_corpus_replay_test(fuzz:corpus_replay:${_name}:${_set} glsl_corpus_replay ${PROJECT_SOURCE_DIR}/${_dir}
                               ${_name})
  endforeach()
endforeach()

if(BISMUTH_BUILD_FUZZERS AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_executable(fuzz_glsl_rewrites fuzz_glsl_rewrites.cpp)
  target_compile_definitions(fuzz_glsl_rewrites PRIVATE BISMUTH_LIBFUZZER)
  bismuth_sanitized_translator(fuzz_glsl_rewrites TOKENS_ONLY -fsanitize=fuzzer,address,undefined)
  add_executable(fuzz_glsl_front fuzz_glsl_front.cpp)
  target_compile_definitions(fuzz_glsl_front PRIVATE BISMUTH_LIBFUZZER)
  bismuth_sanitized_translator(fuzz_glsl_front -fsanitize=fuzzer,address,undefined)
endif()
