// Turns glslang's info log ("ERROR: name:12: 'x' : text") into "name:12:col: error: 'x' : text" lines.
#pragma once

#include <string>
#include <string_view>

namespace bismuth::translator {

// `log` is a glslang info log for `source`; `fallback_name` names the source when a line carries no location.
// glslang reports lines but not columns: the column is that of the quoted token on the reported line when it can
// be found there, else 1.
std::string format_glslang_log(std::string_view log, std::string_view source, std::string_view fallback_name);

}  // namespace bismuth::translator
