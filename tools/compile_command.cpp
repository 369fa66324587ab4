// `bismuth compile`: one shader file to the SPIR-V a driver gets. Each front (GL GLSL, NV assembly, SPIR-V) says
// what the module needs as spirv_patch::PipelineOptions — GL programs exactly as the GL shim's glLinkProgram and
// glProgramStringARB do (translator/gl_program_pipeline.hpp, nvasm/gl_program_layout.hpp) — and the one pipeline
// runs them, so with the device's facts (--device) the output is byte for byte what the shim hands
// vkCreateShaderModule (tests/tools/cli_matches_gl_test.cpp).
#include "compile_command.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bismuth/backend/compile_target.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/nvasm/gl_program_layout.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"
#include "bismuth/translator/hlsl_compiler.hpp"
#include "gl_glsl_front.hpp"
#include "nv_diagnostic.hpp"

// spirv_patch's num_waves specialization (--wave-size).
#include "bismuth/spirv_patch/passes/num_waves.hpp"

namespace bismuth::tools {

namespace {

struct CompileOptions {
  std::vector<std::string> inputs;  // several only for GLSL: compute shaders linked into one program
  std::string input;                // the first, named in diagnostics
  std::string output;
  std::string runtime_output;  // the run-time group size variant of a variable-size program
  std::string target = "vulkan1.1";
  std::string entry = "main";
  std::string group_size_form;  // empty: WorkgroupSize below SPIR-V 1.6, LocalSizeId from 1.6 on
  std::string device;           // empty: no device, CompileTarget's defaults
  std::string language;         // glsl | hlsl; empty: by the file name (.hlsl is HLSL)
  uint32_t wave_size = 0;       // --wave-size: specialize a num_waves program for this wave size
  bool disasm = false;
  bool variable_group_size = false;
};

// What a front hands the pipeline.
struct FrontOutput {
  std::vector<uint32_t> words;
  spirv_patch::PipelineOptions pipeline;
  bool variable_size = false;  // the front already made the group size specialization constants
  std::optional<translator::NumWavesDeclaration> num_waves;  // a num_waves program (GLSL or HLSL)
};

// Diagnostics without a source line (SPIR-V input, I/O) name the file and carry the word offset in the text.
void report(const std::string& file, const char* severity, const std::string& text) {
  std::fprintf(stderr, "%s: %s: %s\n", file.c_str(), severity, text.c_str());
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report(path, "error", "cannot open the file");
    return std::nullopt;
  }
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool has_suffix(const std::string& path, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return path.size() >= n && path.compare(path.size() - n, n, suffix) == 0;
}

// A `.spv` name, or contents that start with the SPIR-V magic number.
bool is_spirv(const std::string& path, const std::string& bytes) {
  uint32_t magic = 0;
  if (bytes.size() >= sizeof(magic)) std::memcpy(&magic, bytes.data(), sizeof(magic));
  return has_suffix(path, ".spv") || magic == spv::MagicNumber;
}

std::string size_text(const std::array<uint32_t, 3>& size) {
  return std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" + std::to_string(size[2]);
}

// --device: the facts of the device the GL shim would run on (the same selector rule as BISMUTH_DEVICE).
std::optional<CompileTarget> device_compile_target(const std::string& selector_text, const std::string& input) {
  if (selector_text.empty()) return CompileTarget{};
  auto instance = backend::Instance::create({.application_name = "bismuth compile"});
  if (!instance) {
    report(input, "error", "--device: " + instance.error().message);
    return std::nullopt;
  }
  auto devices = backend::enumerate_devices(**instance);
  const backend::DeviceSelector selector = selector_text == "default" ? backend::DeviceSelector::from_environment()
                                                                      : backend::DeviceSelector::parse(selector_text);
  auto index = devices ? backend::select_device(*devices, selector) : Expected<size_t>(devices.error());
  if (!index) {
    report(input, "error", "--device: " + index.error().message);
    return std::nullopt;
  }
  auto device = backend::Device::create(**instance, (*devices)[*index]);
  if (!device) {
    report(input, "error", "--device: " + device.error().message);
    return std::nullopt;
  }
  return backend::compile_target(**device);
}

std::string num_waves_text(const translator::NumWavesDeclaration& d) {
  std::string text = std::to_string(d.num_waves) + (d.num_waves == 1 ? " wave" : " waves");
  if (d.wave_size_min != 0 || d.wave_size_max != 0) {
    text += " of size " + (d.wave_size_min ? std::to_string(d.wave_size_min) : std::string("any")) + ".." +
            (d.wave_size_max ? std::to_string(d.wave_size_max) : std::string("any"));
  }
  if (d.wave_size_preferred != 0) text += ", preferred " + std::to_string(d.wave_size_preferred);
  return text;
}

// A num_waves program's group size: what the consumer sets the spec constants to.
void report_num_waves(const std::string& input, const translator::NumWavesDeclaration& d) {
  const auto& ids = translator::kVariableGroupSizeSpecIds;
  report(input, "note",
         "num_waves: " + num_waves_text(d) + "; the group size (" + std::to_string(d.num_waves) +
             " x wave size, 1, 1) is specialization constants with SpecIds " + std::to_string(ids[0]) + " " +
             std::to_string(ids[1]) + " " + std::to_string(ids[2]));
}

// GL-style GLSL through the GL shim's front and glLinkProgram's pipeline options.
std::optional<FrontOutput> glsl_front(const CompileOptions& options, std::span<const GlslFile> files,
                                      spirv_patch::TargetEnv target, const CompileTarget& device) {
  auto compiled = compile_gl_glsl(files, target, device.extensions);
  if (!compiled) {
    std::fprintf(stderr, "%s\n", compiled.error().message.c_str());  // already file:line:column
    return std::nullopt;
  }
  if (!compiled->warnings.empty()) std::fprintf(stderr, "%s\n", compiled->warnings.c_str());
  std::string map;
  for (const auto& b : compiled->bindings) map += (map.empty() ? "" : ", ") + b;
  if (!map.empty()) report(options.input, "note", "descriptor set 0: " + map);
  translator::GlLinkedProgram& program = compiled->program;
  if (program.group_size == translator::GroupSize::Variable) {
    // The GL front already made the size specialization constants: --variable-group-size has nothing to do.
    const auto& ids = program.size_spec_ids;
    report(options.input, "note",
           "local_size_variable: the group size is specialization constants with SpecIds " + std::to_string(ids[0]) +
               " " + std::to_string(ids[1]) + " " + std::to_string(ids[2]));
  }
  if (program.num_waves) report_num_waves(options.input, *program.num_waves);
  FrontOutput out;
  out.variable_size =
      program.group_size == translator::GroupSize::Variable || program.group_size == translator::GroupSize::NumWaves;
  out.num_waves = program.num_waves;
  // The variant always, as the GL shim builds it: for a fixed size it also decides the main module's words (the
  // size becomes specializable), which must not depend on whether --runtime-output asks for the variant.
  out.pipeline = translator::gl_program_pipeline(program, device, {.runtime_group_size = true});
  out.words = std::move(program.spirv);
  return out;
}

// HLSL compute shaders through glslang's HLSL front end (docs/hlsl.md), [numWaves] included.
std::optional<FrontOutput> hlsl_front(const CompileOptions& options, const std::string& source,
                                      spirv_patch::TargetEnv target) {
  auto compiled = translator::compile_hlsl_compute(
      source, {.source_name = options.input, .entry_point = options.entry, .target = target});
  if (!compiled) {
    std::fprintf(stderr, "%s\n", compiled.error().message.c_str());  // already file:line:column
    return std::nullopt;
  }
  if (!compiled->warnings.empty()) std::fprintf(stderr, "%s\n", compiled->warnings.c_str());
  FrontOutput out;
  if (compiled->num_waves) {
    report_num_waves(options.input, *compiled->num_waves);
    out.variable_size = true;
  }
  out.num_waves = compiled->num_waves;
  out.words = std::move(compiled->words);
  return out;
}

// --wave-size: the num_waves specialization the layer runs when it creates the pipeline.
bool add_wave_size(const CompileOptions& options, FrontOutput& front) {
  if (options.wave_size == 0) return true;
  if (!front.num_waves) {
    report(options.input, "error", "--wave-size: the program does not declare num_waves / [numWaves]");
    return false;
  }
  const translator::NumWavesDeclaration& d = *front.num_waves;
  const uint32_t w = options.wave_size;
  if ((w & (w - 1)) != 0 || (d.wave_size_min != 0 && w < d.wave_size_min) ||
      (d.wave_size_max != 0 && w > d.wave_size_max)) {
    report(options.input, "error",
           "--wave-size " + std::to_string(w) + ": not a power of two within the program's range (" +
               num_waves_text(d) + ")");
    return false;
  }
  front.pipeline.num_waves =
      spirv_patch::NumWavesOptions{.entry_point = options.entry, .num_waves = d.num_waves, .wave_size = w};
  return true;
}

// !!NVcp5.0 assembly as glProgramStringARB loads it (docs/nvasm.md).
std::optional<FrontOutput> assembly_front(const CompileOptions& options, const std::string& source,
                                          const CompileTarget& device) {
  auto assembled = nvasm::assemble(source, nvasm::gl_assemble_options(device));
  if (!assembled) {
    // "file:line:column: error: ..." like the GLSL front, from the assembler's "line L, column C: error: ...".
    const auto& e = assembled.error();
    std::fprintf(stderr, "%s\n", runner::nv_file_diagnostic(options.input, source, e.code, e.message).c_str());
    return std::nullopt;
  }
  if (assembled->info.required_subgroup_size) {
    report(options.input, "note",
           "thread-group instructions: the pipeline needs a subgroup size of " +
               std::to_string(*assembled->info.required_subgroup_size));
  }
  const nvasm::GlProgramLayout layout = nvasm::gl_program_layout(assembled->info);
  if (layout.scratch_binding >= 0) {
    // The runtime must bind (invocations of the dispatch) x this many bytes there (docs/nvasm.md, "Registers").
    report(options.input, "note",
           "TEMP arrays in a scratch storage buffer at binding " + std::to_string(layout.scratch_binding) + ": " +
               std::to_string(assembled->info.scratch_bytes_per_invocation) + " bytes per invocation");
  }
  FrontOutput out;
  out.variable_size = assembled->info.group_size_form == nvasm::GroupSizeForm::Variable;
  out.pipeline = nvasm::gl_program_pipeline(assembled->info, layout, {.runtime_group_size = true});
  out.words = std::move(assembled->spirv);
  return out;
}

// A Vulkan SPIR-V module as the layer patches it: ballot/vote lowering.
std::optional<FrontOutput> spirv_front(const CompileOptions& options, const std::string& bytes) {
  if (bytes.size() % 4 != 0) {
    report(options.input, "error",
           "size " + std::to_string(bytes.size()) + " bytes is not a whole number of SPIR-V words");
    return std::nullopt;
  }
  FrontOutput out;
  out.words.resize(bytes.size() / 4);
  std::memcpy(out.words.data(), bytes.data(), bytes.size());
  return out;
}

// --variable-group-size: the size as specialization constants, as the layer makes it for variable-size pipelines.
bool add_variable_group_size(const CompileOptions& options, FrontOutput& front) {
  if (!options.variable_group_size || front.variable_size) return true;
  spirv_patch::WorkgroupSizeOptions group;
  group.entry_point = options.entry;
  if (options.group_size_form == "local-size-id" ||
      (options.group_size_form.empty() && front.words.size() > 1 && front.words[1] >= 0x00010600)) {
    group.output_form = spirv_patch::WorkgroupSizeForm::LocalSizeId;
  } else if (!options.group_size_form.empty() && options.group_size_form != "workgroup-size") {
    report(options.input, "error", "unknown --group-size-form \"" + options.group_size_form + "\"");
    return false;
  }
  front.pipeline.group_size_to_spec_constants = group;
  if (!options.runtime_output.empty()) {
    front.pipeline.runtime_group_size = spirv_patch::RuntimeGroupSizeOptions{.entry_point = options.entry};
  }
  return true;
}

void report_passes(const std::string& input, const spirv_patch::PipelineResult& result) {
  if (result.subgroup_lowering.changed) {
    const auto& r = result.subgroup_lowering;
    report(input, "note",
           "lowered SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote to GroupNonUniform: " +
               std::to_string(r.ballot + r.broadcast_first + r.broadcast + r.shuffle + r.all + r.any + r.all_equal) +
               " instructions, " + spirv_patch::version_string(r.version_after));
    if (r.requires_subgroup_size_at_most_64) {
      report(input, "note", "64-bit ballots (GL_ARB_shader_ballot): the shader needs a subgroup size of at most 64");
    }
  }
  if (const auto& group = result.group_size) {
    report(input, "note",
           "workgroup size " + size_text(group->original_size) + " (" + std::string(to_string(group->input_form)) +
               ") -> spec constants with SpecIds " + std::to_string(group->spec_ids[0]) + " " +
               std::to_string(group->spec_ids[1]) + " " + std::to_string(group->spec_ids[2]) + " (" +
               std::string(to_string(group->output_form)) + ")");
    if (group->input_was_fixed) {
      report(input, "warning",
             "the workgroup size was fixed; values the front end folded from gl_WorkGroupSize stay " +
                 size_text(group->original_size) + " (declare local_size_x_id to avoid this)");
    }
  }
}

bool write_words(const std::string& path, const std::vector<uint32_t>& words) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(words.data()),
             static_cast<std::streamsize>(words.size() * sizeof(uint32_t)));
  if (!file) report(path, "error", "cannot write the file");
  return static_cast<bool>(file);
}

int run_compile(const CompileOptions& options) {
  const auto target = spirv_patch::parse_target_env(options.target);
  if (!target) {
    report(options.input, "error", "unknown target \"" + options.target + "\" (vulkan1.0 ... vulkan1.3)");
    return 1;
  }
  std::vector<GlslFile> files;
  for (const std::string& path : options.inputs) {
    auto text = read_file(path);
    if (!text) return 1;
    files.push_back({std::move(*text), path});
  }
  const std::string& first = files.front().source;
  if (!options.language.empty() && options.language != "glsl" && options.language != "hlsl") {
    report(options.input, "error", "unknown --language \"" + options.language + "\" (glsl | hlsl)");
    return 1;
  }
  const bool hlsl = options.language == "hlsl" || (options.language.empty() && has_suffix(options.input, ".hlsl"));
  const bool assembly = !hlsl && has_suffix(options.input, ".nvcp5");
  const bool spirv = !hlsl && !assembly && is_spirv(options.input, first);
  if ((hlsl || assembly || spirv) && files.size() > 1) {
    report(options.input, "error", "only GLSL compute shaders can be linked together: give one file");
    return 1;
  }
  std::optional<FrontOutput> front;
  if (spirv) {
    front = spirv_front(options, first);  // the layer's patching: no device facts involved
  } else if (hlsl) {
    front = hlsl_front(options, first, *target);
  } else {
    const auto device = device_compile_target(options.device, options.input);
    if (!device) return 1;
    front = assembly ? assembly_front(options, first, *device) : glsl_front(options, files, *target, *device);
  }
  if (!front || !add_variable_group_size(options, *front) || !add_wave_size(options, *front)) return 1;
  // The words are checked for the environment the user named (the shim checks Vulkan 1.1; the words are the same).
  front->pipeline.validate = *target;
  auto result = spirv_patch::run_pipeline(front->words, front->pipeline);
  if (!result) {
    report(options.input, "error", result.error().message);
    return 1;
  }
  report_passes(options.input, *result);
  if (options.disasm) {
    auto disassembly = spirv_patch::disassemble(result->words);
    if (!disassembly) {
      report(options.input, "error", disassembly.error().message);
      return 1;
    }
    std::fwrite(disassembly->data(), 1, disassembly->size(), stdout);
  }
  if (!write_words(options.output, result->words)) return 1;
  if (!options.runtime_output.empty()) {
    if (!result->runtime_group_size) {
      report(options.input, "error",
             "no run-time group size variant: " + (result->runtime_group_size_note.empty()
                                                       ? std::string("the group size is not variable")
                                                       : result->runtime_group_size_note));
      return 1;
    }
    if (!write_words(options.runtime_output, result->runtime_group_size->words)) return 1;
  }
  return 0;
}

}  // namespace

void add_compile_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CompileOptions>();
  CLI::App* command = app.add_subcommand(
      "compile",
      "Compile a GLSL compute shader or NV assembly program as the GL shim does, an HLSL compute shader, "
      "or patch a SPIR-V module as the layer does (ballot/vote lowering, variable group size)");
  command
      ->add_option("input", options->inputs,
                   "FILE.comp (GLSL; several are linked into one program), FILE.hlsl (HLSL compute, -E names the "
                   "entry point), FILE.nvcp5 (!!NVcp5.0 assembly) or FILE.spv (SPIR-V binary)")
      ->required();
  command->add_option("-o,--output", options->output, "Output SPIR-V binary")->required();
  command->add_option("--runtime-output", options->runtime_output,
                      "Also write the run-time group size variant of a variable-size program (the second module the "
                      "GL shim creates for it)");
  command->add_option("--device", options->device,
                      "Compile for this device as the GL shim would on it: an index, cpu, gpu, a name substring, or "
                      "'default' (BISMUTH_DEVICE's rule). Without it: no device-specific choices");
  command->add_option("--target", options->target, "vulkan1.0 | vulkan1.1 | vulkan1.2 | vulkan1.3 (default vulkan1.1)");
  command->add_flag("--disasm", options->disasm, "Print the result as SPIR-V assembly");
  command->add_flag("--variable-group-size", options->variable_group_size,
                    "Turn a fixed workgroup size into specialization constants");
  command->add_option("--group-size-form", options->group_size_form,
                      "workgroup-size (SPIR-V < 1.6) | local-size-id (needs maintenance4); default by SPIR-V version");
  command->add_option("-E,--entry", options->entry, "Compute entry point (default main)");
  command->add_option("--language", options->language, "glsl | hlsl (default: hlsl for .hlsl files, else glsl)");
  command->add_option("--wave-size", options->wave_size,
                      "Specialize a num_waves / [numWaves] program for this wave size, as the layer does when it "
                      "creates the pipeline: group size (num_waves x N, 1, 1)");
  command->callback([options, exit_code] {
    options->input = options->inputs.front();
    *exit_code = run_compile(*options);
  });
}

}  // namespace bismuth::tools
