# cmake -DBISMUTH=<path to bismuth> -DVERSION=<x.y.z> -DOUTPUT=<bismuth.1> -P help_to_man.cmake
#
# Writes the `bismuth` man page from the CLI's own help (CLI11's --help of the program and of each subcommand), so
# the page cannot drift from the options the program accepts. The help text is kept as preformatted blocks; the
# program's path in CLI11's "Usage:" lines becomes "bismuth".
foreach(required BISMUTH VERSION OUTPUT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "help_to_man.cmake: -D${required}=... is required")
  endif()
endforeach()

# The help of `bismuth [subcommand] --help` as roff lines: backslashes doubled, lines that start with '.' or '\''
# protected with \&.
function(help_block out_var)
  execute_process(COMMAND ${BISMUTH} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "help_to_man.cmake: `bismuth ${ARGN} --help` failed (${status})")
  endif()
  string(REPLACE "${BISMUTH}" "bismuth" text "${text}")
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

help_block(main)
# The subcommands are the indented names under "Subcommands:" in the main help.
string(REGEX MATCH "Subcommands:\n(.*)" listing "${main}")
string(REGEX MATCHALL "\n  ([a-z][a-z-]*)" names "\n${CMAKE_MATCH_1}")
set(page ".TH BISMUTH 1 \"\" \"Bismuth ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nbismuth \\- run GL-style compute (piglit shader_test files, corpus cases) on any Vulkan device\n")
string(APPEND page ".SH SYNOPSIS\n.B bismuth\n.I subcommand\n[\\fIoptions\\fR]\n")
string(APPEND page ".SH DESCRIPTION\n.nf\n${main}.fi\n")
string(APPEND page ".SH SUBCOMMANDS\n")
foreach(entry IN LISTS names)
  string(STRIP "${entry}" name)
  help_block(help ${name})
  string(APPEND page ".SS \"bismuth ${name}\"\n.nf\n${help}.fi\n")
endforeach()
string(APPEND page ".SH ENVIRONMENT\n")
string(APPEND page ".TP\n.B BISMUTH_DEVICE\nThe Vulkan device: an index, \\fBcpu\\fR, \\fBgpu\\fR or a name substring.\n")
string(APPEND page ".TP\n.B BISMUTH_VALIDATION\n1: enable the Khronos validation layer and report every message.\n")
string(APPEND page ".SH SEE ALSO\nThe documentation in /usr/share/doc/bismuth (runner.md: the test formats).\n")
file(WRITE ${OUTPUT} "${page}")
