#include "compile_command.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "gl_glsl_front.hpp"
#include "nv_diagnostic.hpp"

namespace bismuth::tools {

namespace {

struct CompileOptions {
  std::string input;
  std::string output;
  std::string target = "vulkan1.1";
  std::string entry = "main";
  std::string group_size_form;  // empty: WorkgroupSize below SPIR-V 1.6, LocalSizeId from 1.6 on
  bool disasm = false;
  bool variable_group_size = false;
};

// Diagnostics without a source line (SPIR-V input, I/O) name the file and carry the word offset in the text.
void report(const std::string& file, const char* severity, const std::string& text) {
  std::fprintf(stderr, "%s: %s: %s\n", file.c_str(), severity, text.c_str());
}

std::optional<std::vector<uint32_t>> read_spirv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report(path, "error", "cannot open the file");
    return std::nullopt;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() % 4 != 0) {
    report(path, "error", "size " + std::to_string(bytes.size()) + " bytes is not a whole number of SPIR-V words");
    return std::nullopt;
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

bool is_spirv_file(const std::string& path) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".spv") == 0) return true;
  std::ifstream in(path, std::ios::binary);
  uint32_t magic = 0;
  return in.read(reinterpret_cast<char*>(&magic), 4) && magic == spv::MagicNumber;
}

std::string size_text(const std::array<uint32_t, 3>& size) {
  return std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" + std::to_string(size[2]);
}

int run_compile(const CompileOptions& options) {
  const auto target = spirv_patch::parse_target_env(options.target);
  if (!target) {
    report(options.input, "error", "unknown target \"" + options.target + "\" (vulkan1.0 ... vulkan1.3)");
    return 1;
  }
  std::vector<uint32_t> words;
  bool glsl_variable_size = false;
  if (options.input.size() >= 6 && options.input.compare(options.input.size() - 6, 6, ".nvcp5") == 0) {
    // !!NVcp5.0 assembly (docs/nvasm.md). No device here: assume 32-lane subgroups can be pinned, and say so.
    std::ifstream in(options.input, std::ios::binary);
    if (!in) {
      report(options.input, "error", "cannot open the file");
      return 1;
    }
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nvasm::AssembleOptions nv_options;
    nv_options.subgroup_size_32_available = true;
    auto assembled = nvasm::assemble(source, nv_options);
    if (!assembled) {
      // "file:line:column: error: ..." like the GLSL front, from the assembler's "line L, column C: error: ...".
      const auto& e = assembled.error();
      std::fprintf(stderr, "%s\n", runner::nv_file_diagnostic(options.input, source, e.code, e.message).c_str());
      return 1;
    }
    if (assembled->info.required_subgroup_size) {
      report(options.input, "note", "thread-group instructions: the pipeline needs a subgroup size of " +
                                        std::to_string(*assembled->info.required_subgroup_size));
    }
    words = std::move(assembled->spirv);
  } else if (is_spirv_file(options.input)) {
    auto read = read_spirv(options.input);
    if (!read) return 1;
    words = std::move(*read);
  } else {
    std::ifstream in(options.input, std::ios::binary);
    if (!in) {
      report(options.input, "error", "cannot open the file");
      return 1;
    }
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto compiled = compile_gl_glsl(source, options.input, *target);
    if (!compiled) {
      std::fprintf(stderr, "%s\n", compiled.error().message.c_str());  // already file:line:column
      return 1;
    }
    if (!compiled->warnings.empty()) std::fprintf(stderr, "%s\n", compiled->warnings.c_str());
    std::string map;
    for (const auto& b : compiled->bindings) map += (map.empty() ? "" : ", ") + b;
    if (!map.empty()) report(options.input, "note", "descriptor set 0: " + map);
    if (compiled->variable_group_size) {
      // The GL front already made the size specialization constants: --variable-group-size has nothing to do.
      const auto& ids = compiled->size_spec_ids;
      report(options.input, "note",
             "local_size_variable: the group size is specialization constants with SpecIds " + std::to_string(ids[0]) +
                 " " + std::to_string(ids[1]) + " " + std::to_string(ids[2]));
      glsl_variable_size = true;
    }
    words = std::move(compiled->spirv);
  }

  auto module = spirv_patch::Module::parse(words);
  if (!module) {
    report(options.input, "error", module.error().message);
    return 1;
  }
  auto lowered = spirv_patch::lower_khr_subgroup_ops(*module);
  if (!lowered) {
    report(options.input, "error", lowered.error().message);
    return 1;
  }
  if (lowered->changed) {
    const auto& r = *lowered;
    report(options.input, "note",
           "lowered SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote to GroupNonUniform: " +
               std::to_string(r.ballot + r.broadcast_first + r.broadcast + r.shuffle + r.all + r.any + r.all_equal) +
               " instructions, " + spirv_patch::version_string(r.version_after));
    if (r.requires_subgroup_size_at_most_64) {
      report(options.input, "note",
             "64-bit ballots (GL_ARB_shader_ballot): the shader needs a subgroup size of at most 64");
    }
  }
  if (options.variable_group_size && !glsl_variable_size) {
    spirv_patch::WorkgroupSizeOptions group_options;
    group_options.entry_point = options.entry;
    if (options.group_size_form == "local-size-id" ||
        (options.group_size_form.empty() && module->version() >= 0x00010600)) {
      group_options.output_form = spirv_patch::WorkgroupSizeForm::LocalSizeId;
    } else if (!options.group_size_form.empty() && options.group_size_form != "workgroup-size") {
      report(options.input, "error", "unknown --group-size-form \"" + options.group_size_form + "\"");
      return 1;
    }
    auto group = spirv_patch::workgroup_size_to_spec_constants(*module, group_options);
    if (!group) {
      report(options.input, "error", group.error().message);
      return 1;
    }
    report(options.input, "note",
           "workgroup size " + size_text(group->original_size) + " (" + std::string(to_string(group->input_form)) +
               ") -> spec constants with SpecIds " + std::to_string(group->spec_ids[0]) + " " +
               std::to_string(group->spec_ids[1]) + " " + std::to_string(group->spec_ids[2]) + " (" +
               std::string(to_string(group->output_form)) + ")");
    if (group->input_was_fixed) {
      report(options.input, "warning",
             "the workgroup size was fixed; values the front end folded from gl_WorkGroupSize stay " +
                 size_text(group->original_size) + " (declare local_size_x_id to avoid this)");
    }
  }
  const std::vector<uint32_t> out = module->serialize();
  if (auto valid = spirv_patch::validate(out, *target); !valid) {
    report(options.input, "error", valid.error().message);
    return 1;
  }
  if (options.disasm) {
    auto text = spirv_patch::disassemble(out);
    if (!text) {
      report(options.input, "error", text.error().message);
      return 1;
    }
    std::fwrite(text->data(), 1, text->size(), stdout);
  }
  std::ofstream file(options.output, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size() * sizeof(uint32_t)));
  if (!file) {
    report(options.output, "error", "cannot write the file");
    return 1;
  }
  return 0;
}

}  // namespace

void add_compile_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CompileOptions>();
  CLI::App* command = app.add_subcommand(
      "compile", "Compile a GLSL compute shader or patch a SPIR-V module (ballot/vote lowering, variable group size)");
  command->add_option("input", options->input, "FILE.comp (GLSL), FILE.nvcp5 (!!NVcp5.0 assembly) or FILE.spv (SPIR-V binary)")->required();
  command->add_option("-o,--output", options->output, "Output SPIR-V binary")->required();
  command->add_option("--target", options->target, "vulkan1.0 | vulkan1.1 | vulkan1.2 | vulkan1.3 (default vulkan1.1)");
  command->add_flag("--disasm", options->disasm, "Print the result as SPIR-V assembly");
  command->add_flag("--variable-group-size", options->variable_group_size,
                    "Turn the workgroup size into specialization constants");
  command->add_option("--group-size-form", options->group_size_form,
                      "workgroup-size (SPIR-V < 1.6) | local-size-id (needs maintenance4); default by SPIR-V version");
  command->add_option("--entry", options->entry, "Compute entry point (default main)");
  command->callback([options, exit_code] { *exit_code = run_compile(*options); });
}

}  // namespace bismuth::tools
