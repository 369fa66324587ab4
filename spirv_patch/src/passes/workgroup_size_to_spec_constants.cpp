// workgroup_size_to_spec_constants. The rules it follows:
// - SPIR-V 1.6 section 3.21 (BuiltIn WorkgroupSize): a constant decorated WorkgroupSize wins over the LocalSize
//   and LocalSizeId execution modes, for every entry point of the module.
// - Section 3.6: LocalSizeId (SPIR-V >= 1.2) takes <id>s of constant instructions, spec constants included.
// - Vulkan: WorkgroupSize decorating a constant is deprecated for SPIR-V 1.6, where LocalSizeId is the form.
// The old composite keeps its result id and is rewritten in place, so every use (code, OpSpecConstantOp) follows.
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"

#include <algorithm>
#include <set>

#include "analysis/entry_points.hpp"
#include "analysis/workgroup_size_sources.hpp"

namespace bismuth::spirv_patch {

namespace {

constexpr uint32_t kVersion1_2 = 0x00010200;
constexpr uint32_t kVersion1_6 = 0x00010600;

uint32_t pick_spec_id(std::set<uint32_t>& used, std::optional<uint32_t> preferred) {
  if (preferred && !used.contains(*preferred)) {
    used.insert(*preferred);
    return *preferred;
  }
  uint32_t id = 0;
  while (used.contains(id)) ++id;
  used.insert(id);
  return id;
}

void set_local_size_id(Module& module, uint32_t function_id, const std::array<uint32_t, 3>& ids) {
  for (InstructionHandle h : module.instructions(Section::ExecutionMode)) {
    const auto w = module.words(h);
    if (w.size() < 3 || w[1] != function_id) continue;
    if ((module.opcode(h) == spv::Op::OpExecutionMode &&
         w[2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) ||
        (module.opcode(h) == spv::Op::OpExecutionModeId &&
         w[2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId))) {
      module.erase(h);
    }
  }
  const uint32_t operands[] = {function_id, static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId), ids[0], ids[1],
                               ids[2]};
  module.append(Section::ExecutionMode, spv::Op::OpExecutionModeId, operands);
}

// Refuses an output form the module cannot take; raises the version for LocalSizeId.
Status prepare_output_form(Module& module, const WorkgroupSizeOptions& options, const WorkgroupSizeSources& sources,
                           const Module::EntryPoint& entry, const std::vector<Module::EntryPoint>& compute,
                           const std::array<uint32_t, 3>& original_size) {
  if (options.output_form == WorkgroupSizeForm::WorkgroupSizeBuiltIn) {
    if (module.version() >= kVersion1_6) {
      return fail("the WorkgroupSize built-in form needs SPIR-V < 1.6 (this module is " +
                  version_string(module.version()) + "); use the LocalSizeId form");
    }
    if (!sources.builtin_composite) {
      // A new WorkgroupSize constant would set every entry point's size: only allowed when they all agree.
      for (const auto& other : compute) {
        if (other.function_id == entry.function_id) continue;
        auto other_sources = find_workgroup_size_sources(module, other.function_id);
        if (!other_sources) return fail("entry point \"" + other.name + "\": " + other_sources.error().message);
        for (int d = 0; d < 3; ++d) {
          if (other_sources->dimensions[d].value != original_size[d]) {
            return fail("entry point \"" + other.name +
                        "\" has another workgroup size and a WorkgroupSize built-in would apply to it too; use the "
                        "LocalSizeId form");
          }
        }
      }
    }
  } else if (module.version() < kVersion1_2) {
    module.set_version(kVersion1_2);  // LocalSizeId is SPIR-V 1.2
  }
  return {};
}

// The uint type of the new spec constants: the composite's component type when there is a composite (it is
// declared before the composite, where the new constants go), else a 32-bit uint at the end of the globals.
Expected<uint32_t> spec_constant_type(Module& module, const WorkgroupSizeSources& sources) {
  if (!sources.builtin_composite) return module.type_int(32, false);
  const uint32_t vector_type = module.words(*sources.builtin_composite)[1];
  auto vector_definition = module.definition(vector_type);
  std::optional<InstructionHandle> component_definition;
  if (vector_definition && module.opcode(*vector_definition) == spv::Op::OpTypeVector &&
      module.words(*vector_definition).size() == 4 && module.words(*vector_definition)[3] == 3) {
    component_definition = module.definition(module.words(*vector_definition)[2]);
  }
  if (!component_definition || module.opcode(*component_definition) != spv::Op::OpTypeInt ||
      module.words(*component_definition).size() != 4 || module.words(*component_definition)[2] != 32) {
    return fail(module.describe(*sources.builtin_composite) +
                ": the WorkgroupSize type is not a 3-component vector of 32-bit integers");
  }
  return module.words(*vector_definition)[2];
}

// One spec constant with a SpecId per dimension: reused when the input has one, else given a SpecId or made. Fills
// the report's spec_ids and reused_spec_constant; returns the three result ids.
Expected<std::array<uint32_t, 3>> make_spec_constants(Module& module, const WorkgroupSizeOptions& options,
                                                      const WorkgroupSizeSources& sources, uint32_t uint_type,
                                                      WorkgroupSizeReport& report) {
  std::set<uint32_t> used;
  for (uint32_t id : module.spec_ids_in_use()) used.insert(id);
  std::array<uint32_t, 3> constants{};
  for (int d = 0; d < 3; ++d) {
    const WorkgroupSizeDimension& dimension = sources.dimensions[d];
    if (dimension.is_spec_constant && dimension.spec_id) {
      constants[d] = dimension.constant_id;
      report.spec_ids[d] = *dimension.spec_id;
      report.reused_spec_constant[d] = true;
      continue;
    }
    const uint32_t spec_id = pick_spec_id(used, options.preferred_spec_ids[d]);
    report.spec_ids[d] = spec_id;
    if (dimension.is_spec_constant) {
      // A spec constant without SpecId cannot be specialized; giving it one keeps its default and its uses.
      constants[d] = dimension.constant_id;
    } else {
      auto id = module.allocate_id();
      if (!id) return id.error();
      const uint32_t operands[] = {uint_type, *id, dimension.value};
      if (sources.builtin_composite) {
        module.insert_before(*sources.builtin_composite, spv::Op::OpSpecConstant, operands);
      } else {
        module.append(Section::Global, spv::Op::OpSpecConstant, operands);
      }
      constants[d] = *id;
    }
    module.add_decoration(constants[d], spv::Decoration::SpecId, std::span(&spec_id, 1));
  }
  return constants;
}

// Points the size at the spec constants: the built-in composite (rewritten or new) or LocalSizeId.
Status write_output_form(Module& module, const WorkgroupSizeOptions& options, const WorkgroupSizeSources& sources,
                         const Module::EntryPoint& entry, const std::vector<Module::EntryPoint>& compute,
                         uint32_t uint_type, const std::array<uint32_t, 3>& constants) {
  if (sources.builtin_composite) {
    const auto w = module.words(*sources.builtin_composite);
    const uint32_t operands[] = {w[1], w[2], constants[0], constants[1], constants[2]};
    module.replace(*sources.builtin_composite, spv::Op::OpSpecConstantComposite, operands);
  }

  if (options.output_form == WorkgroupSizeForm::WorkgroupSizeBuiltIn) {
    if (!sources.builtin_composite) {
      auto vector = module.type_vector(uint_type, 3);
      if (!vector) return vector.error();
      auto composite = module.allocate_id();
      if (!composite) return composite.error();
      const uint32_t operands[] = {*vector, *composite, constants[0], constants[1], constants[2]};
      module.append(Section::Global, spv::Op::OpSpecConstantComposite, operands);
      const uint32_t builtin = static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize);
      module.add_decoration(*composite, spv::Decoration::BuiltIn, std::span(&builtin, 1));
    }
    if (sources.local_size_id) {
      // The built-in overrides LocalSizeId, which Vulkan accepts only with maintenance4: restate the entry point's
      // size as LocalSize literals (its values before the pass), which every Vulkan version takes.
      const uint32_t operands[] = {entry.function_id, static_cast<uint32_t>(spv::ExecutionMode::LocalSize),
                                   sources.dimensions[0].value, sources.dimensions[1].value,
                                   sources.dimensions[2].value};
      module.replace(*sources.local_size_id, spv::Op::OpExecutionMode, operands);
    }
  } else {
    set_local_size_id(module, entry.function_id, constants);
    if (sources.builtin_decoration) {
      // The built-in would override LocalSizeId; without it, the other entry points that took their size from it
      // get the same spec constants through LocalSizeId, which keeps their behaviour exactly.
      module.erase(*sources.builtin_decoration);
      for (const auto& other : compute) {
        if (other.function_id != entry.function_id) set_local_size_id(module, other.function_id, constants);
      }
    }
  }
  return {};
}

}  // namespace

Expected<WorkgroupSizeReport> workgroup_size_to_spec_constants(Module& module, const WorkgroupSizeOptions& options) {
  auto entry = find_compute_entry_point(module, options.entry_point);
  if (!entry) return entry.error();
  auto sources = find_workgroup_size_sources(module, entry->function_id);
  if (!sources) return fail("entry point \"" + options.entry_point + "\": " + sources.error().message);

  WorkgroupSizeReport report;
  report.input_form = sources->form;
  report.output_form = options.output_form;
  report.version_before = module.version();
  report.input_was_fixed =
      std::none_of(sources->dimensions.begin(), sources->dimensions.end(),
                   [](const WorkgroupSizeDimension& d) { return d.is_spec_constant && d.spec_id; });
  for (int d = 0; d < 3; ++d) report.original_size[d] = sources->dimensions[d].value;
  if (report.input_was_fixed && options.reject_fixed_size) {
    return fail("entry point \"" + options.entry_point + "\" has the fixed workgroup size " +
                std::to_string(report.original_size[0]) + "x" + std::to_string(report.original_size[1]) + "x" +
                std::to_string(report.original_size[2]) +
                "; its front end may have folded gl_WorkGroupSize into literals, so it cannot be made variable "
                "(compile with local_size_x_id / local_size_variable instead)");
  }

  const auto compute = compute_entry_points(module);
  if (Status ok = prepare_output_form(module, options, *sources, *entry, compute, report.original_size); !ok) {
    return ok.error();
  }
  auto uint_type = spec_constant_type(module, *sources);
  if (!uint_type) return uint_type.error();
  auto constants = make_spec_constants(module, options, *sources, *uint_type, report);
  if (!constants) return constants.error();
  report.spec_constant_ids = *constants;
  if (Status ok = write_output_form(module, options, *sources, *entry, compute, *uint_type, *constants); !ok) {
    return ok.error();
  }
  report.version_after = module.version();
  return report;
}

Expected<WorkgroupSizePatch> workgroup_size_to_spec_constants(std::span<const uint32_t> words,
                                                              const WorkgroupSizeOptions& options) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  auto report = workgroup_size_to_spec_constants(*module, options);
  if (!report) return report.error();
  return WorkgroupSizePatch{module->serialize(), *report};
}

}  // namespace bismuth::spirv_patch
