// The public entry: parse, describe (and check the subgroup-size rule), emit, optimize, validate.
#include "bismuth/nvasm/assembler.hpp"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "ast.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "codegen.hpp"
#include "parser.hpp"
#include "program_info.hpp"

namespace bismuth::nvasm {

SourcePosition position_of(std::string_view source, size_t offset) {
  SourcePosition pos;
  const size_t end = std::min(offset, source.size());
  for (size_t i = 0; i < end; ++i) {
    if (source[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  return pos;
}

namespace {

Error load_error(std::string_view source, const detail::Failure& failure) {
  const SourcePosition pos = position_of(source, failure.offset);
  return Error{"line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ": error: " + failure.text,
               static_cast<int64_t>(std::min(failure.offset, source.size()))};
}

Expected<Program> assemble_unchecked(std::string_view source, const AssembleOptions& options) {
  detail::ParsedProgram parsed;
  detail::Failure failure;
  if (!detail::parse_program(source, parsed, failure)) return load_error(source, failure);

  Program program;
  if (!detail::describe_program(parsed, options, program.info, failure)) return load_error(source, failure);
  std::vector<uint32_t> words;
  if (!detail::generate_spirv(parsed, options, words, program.info, failure)) return load_error(source, failure);

  if (options.optimize) {
    spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
    optimizer.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
    optimizer.RegisterPerformancePasses();
    std::vector<uint32_t> optimized;
    spvtools::OptimizerOptions optimizer_options;
    optimizer_options.set_run_validator(false);
    if (optimizer.Run(words.data(), words.size(), &optimized, optimizer_options)) words = std::move(optimized);
  }
  if (auto valid = options.validate ? spirv_patch::validate(words, spirv_patch::TargetEnv::Vulkan1_1) : Status{}; !valid) {
    return Error{"line 1, column 1: error: internal error: the translation does not validate: " + valid.error().message, 0};
  }
  program.spirv = std::move(words);
  return program;
}

}  // namespace

Expected<Program> assemble(std::string_view source, const AssembleOptions& options) {
  try {
    return assemble_unchecked(source, options);
  } catch (const std::exception& e) {
    return Error{std::string("line 1, column 1: error: internal error: ") + e.what(), 0};
  } catch (...) {
    return Error{"line 1, column 1: error: internal error", 0};
  }
}

}  // namespace bismuth::nvasm
