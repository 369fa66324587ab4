# cmake -DVENDOR_JSON=<50_bismuth.json> [-DEXPECT=<regex>] -P run_through_glvnd.cmake -- PROGRAM ARGS...
# Runs a program linked against the system libEGL + libOpenGL with Bismuth's vendor JSON as glvnd's only vendor
# (__EGL_VENDOR_LIBRARY_FILENAMES replaces the vendor directories, so no other driver can answer) and the validation
# layer on. Fails when the program exits non-zero (a skip, 77, is a failure too: Bismuth has what these programs
# need), when Bismuth reports a Vulkan validation message, or when its output lacks EXPECT (Bismuth's GL_RENDERER,
# "Bismuth on <device>", for programs that print it).
set(_command)
set(_after_separator FALSE)
math(EXPR _last "${CMAKE_ARGC} - 1")
foreach(_i RANGE ${_last})
  if(_after_separator)
    list(APPEND _command "${CMAKE_ARGV${_i}}")
  elseif("${CMAKE_ARGV${_i}}" STREQUAL "--")
    set(_after_separator TRUE)
  endif()
endforeach()
if(NOT _command OR NOT VENDOR_JSON)
  message(FATAL_ERROR "usage: cmake -DVENDOR_JSON=... [-DEXPECT=...] -P run_through_glvnd.cmake -- PROGRAM ARGS...")
endif()

set(ENV{__EGL_VENDOR_LIBRARY_FILENAMES} "${VENDOR_JSON}")
unset(ENV{__EGL_VENDOR_LIBRARY_DIRS})
set(ENV{BISMUTH_VALIDATION} 1)
set(ENV{BISMUTH_CACHE_DIR} off)
execute_process(COMMAND ${_command} RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _result STREQUAL "0")
  message(FATAL_ERROR "${_command}: exit status ${_result}")
endif()
if("${_out}${_err}" MATCHES "Vulkan validation")
  message(FATAL_ERROR "${_command}: Bismuth reported a Vulkan validation message")
endif()
if(EXPECT AND NOT "${_out}${_err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${_command}: the output does not show \"${EXPECT}\"")
endif()
