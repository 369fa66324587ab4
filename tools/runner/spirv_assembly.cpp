#include "spirv_assembly.hpp"

#include <spirv-tools/libspirv.h>

#include <string>

namespace bismuth::tools::runner {

Expected<std::vector<uint32_t>> assemble_spirv(std::string_view text) {
  // ARB_gl_spirv consumes SPIR-V 1.0 modules (GL 4.6 §7.2.1); the assembler writes that version in the header.
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_0);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result = spvTextToBinaryWithOptions(context, text.data(), text.size(),
                                                         SPV_TEXT_TO_BINARY_OPTION_NONE, &binary, &diagnostic);
  Expected<std::vector<uint32_t>> out = fail("SPIR-V assembly failed");
  if (result == SPV_SUCCESS && binary != nullptr) {
    out = std::vector<uint32_t>(binary->code, binary->code + binary->wordCount);
  } else if (diagnostic != nullptr) {
    out = fail(std::to_string(diagnostic->position.line + 1) + ":" + std::to_string(diagnostic->position.column + 1) +
               ": " + diagnostic->error);
  }
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return out;
}

}  // namespace bismuth::tools::runner
