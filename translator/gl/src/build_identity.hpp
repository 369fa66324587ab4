// Which build of Bismuth is running, for what Bismuth writes and reads back later (program binaries, the program
// cache): PROJECT_VERSION alone would let a rebuilt library of the same version take records whose SPIR-V or
// reflection an older build made.
#pragma once

#include <string>

namespace bismuth::gl {

// The version and the GNU build ID of the module this code is linked into (libbismuth-gl, or an executable that
// links it statically), e.g. "0.1.0+af48538898afd1c69f661addb54f73e60a469d3f"; the version alone when the module
// has no build ID note (linked with --build-id=none).
const std::string& build_identity();

}  // namespace bismuth::gl
