// The [test] commands of shader_runner that create textures, bind images and framebuffers, clear and probe pixels
// (piglit's tests/shaders/shader_runner.c), parsed into Command values. GL is not touched here: running them is
// texture_commands.hpp's job.
#pragma once

#include <optional>
#include <string_view>

#include "bismuth/common/expected.hpp"
#include "shader_test.hpp"

namespace bismuth::tools::runner {

// nullopt: `line` is none of these commands. Otherwise the kind of command `line` is, with `c` filled in, or what
// is wrong with it (a message without the file:line, which the caller adds). Kind::Unsupported is a form that
// needs something the runner does not do (`fb ms`, `fb winsys`, `fb tex slice`): the test is a Skip there.
std::optional<Expected<Command::Kind>> parse_texture_command(std::string_view line, Command& c);

}  // namespace bismuth::tools::runner
