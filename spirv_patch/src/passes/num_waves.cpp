// specialize_num_waves. The size sources come from analysis/workgroup_size_sources (the analysis
// workgroup_size_to_spec_constants uses); the rules it follows:
// - SPIR-V 1.6 section 3.21: a constant decorated BuiltIn WorkgroupSize wins over LocalSize / LocalSizeId, for
//   every entry point of the module, so it is rewritten when present (and the execution modes too, to agree).
// - A spec constant of the size is turned into an OpConstant in place: same result id and position, so its uses
//   (code, OpSpecConstantOp) follow; its SpecId decoration goes, so no specialization can change the size again.
// - A plain OpConstant may be shared with unrelated code, so a dimension whose constant has the wrong value gets a
//   new constant instead of an edit.
// - LocalSizeId becomes LocalSize with the literal size: the same value, but without the maintenance4 feature that
//   Vulkan requires for LocalSizeId (VUID-RuntimeSpirv-LocalSizeId-06434), and valid in every SPIR-V version.
#include "bismuth/spirv_patch/passes/num_waves.hpp"

#include <map>
#include <optional>
#include <string>

#include "analysis/entry_points.hpp"
#include "analysis/workgroup_size_sources.hpp"
#include "bismuth/spirv_patch/passes/bind_marker_builtins.hpp"

namespace bismuth::spirv_patch {

namespace {

uint32_t u(auto value) {
  return static_cast<uint32_t>(value);
}

void erase_spec_id(Module& module, uint32_t id) {
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) == spv::Op::OpDecorate && w.size() >= 3 && w[1] == id && w[2] == u(spv::Decoration::SpecId)) {
      module.erase(h);
    }
  }
}

// Rewrites the three constants a composite or LocalSizeId names so they hold `size`. `spec_values` remembers the
// value given to each spec constant already turned into a constant, so a constant shared by two dimensions with
// different targets gets a second constant. New constants go before `insert_before` (a composite that uses them) or,
// without it, nowhere: the caller then only needs the spec constants turned into constants.
Expected<std::array<uint32_t, 3>> constants_holding(Module& module, const WorkgroupSizeSources& sources,
                                                    const std::array<uint32_t, 3>& size,
                                                    std::optional<InstructionHandle> insert_before,
                                                    std::map<uint32_t, uint32_t>& spec_values) {
  std::array<uint32_t, 3> ids{};
  for (int d = 0; d < 3; ++d) {
    const WorkgroupSizeDimension& dimension = sources.dimensions[d];
    const uint32_t id = dimension.constant_id;
    auto definition = module.definition(id);
    if (!definition) return fail("workgroup size component %" + std::to_string(id) + " is not defined");
    const uint32_t type = module.words(*definition)[1];
    const auto given = spec_values.find(id);
    if (dimension.is_spec_constant && given == spec_values.end()) {
      const uint32_t operands[] = {type, id, size[d]};
      module.replace(*definition, spv::Op::OpConstant, operands);
      erase_spec_id(module, id);
      spec_values.emplace(id, size[d]);
      ids[d] = id;
      continue;
    }
    const uint32_t current = given != spec_values.end() ? given->second : dimension.value;
    if (current == size[d] || !insert_before) {
      ids[d] = id;
      continue;
    }
    auto fresh = module.allocate_id();
    if (!fresh) return fresh.error();
    const uint32_t operands[] = {type, *fresh, size[d]};
    module.insert_before(*insert_before, spv::Op::OpConstant, operands);
    ids[d] = *fresh;
  }
  return ids;
}

}  // namespace

Expected<NumWavesReport> specialize_num_waves(Module& module, const NumWavesOptions& options) {
  if (options.num_waves == 0) return fail("numWaves: the wave count must be greater than 0");
  if (options.wave_size == 0) return fail("numWaves: the wave size must be greater than 0");
  const uint64_t invocations = uint64_t{options.num_waves} * options.wave_size;
  if (invocations > UINT32_MAX) {
    return fail("numWaves: " + std::to_string(options.num_waves) + " waves of " + std::to_string(options.wave_size) +
                " invocations overflow a 32-bit workgroup size");
  }
  auto entry = find_compute_entry_point(module, options.entry_point);
  if (!entry) return entry.error();
  auto sources = find_workgroup_size_sources(module, entry->function_id);
  if (!sources) return fail("entry point \"" + options.entry_point + "\": " + sources.error().message);

  NumWavesReport report;
  report.group_size = {static_cast<uint32_t>(invocations), 1, 1};
  for (const auto& dimension : sources->dimensions) report.had_spec_constant_size |= dimension.is_spec_constant;

  std::map<uint32_t, uint32_t> spec_values;
  if (sources->builtin_composite) {
    const InstructionHandle composite = *sources->builtin_composite;
    auto ids = constants_holding(module, *sources, report.group_size, composite, spec_values);
    if (!ids) return ids.error();
    const auto w = module.words(composite);
    const uint32_t operands[] = {w[1], w[2], (*ids)[0], (*ids)[1], (*ids)[2]};
    module.replace(composite, spv::Op::OpConstantComposite, operands);
  }
  if (sources->local_size_id) {
    // Read the LocalSizeId constants on their own: with a built-in present, `sources` describes the built-in's.
    WorkgroupSizeSources own = *sources;
    const auto w = module.words(*sources->local_size_id);
    for (int d = 0; d < 3; ++d) {
      auto definition = module.definition(w[3 + d]);
      if (!definition || module.words(*definition).size() != 4) {
        return fail(module.describe(*sources->local_size_id) + ": a LocalSizeId operand is not a 32-bit constant");
      }
      const spv::Op op = module.opcode(*definition);
      own.dimensions[d] = {module.words(*definition)[3], w[3 + d], op == spv::Op::OpSpecConstant, std::nullopt};
      if (op != spv::Op::OpSpecConstant && op != spv::Op::OpConstant) {
        return fail(module.describe(*sources->local_size_id) + ": a LocalSizeId operand is " +
                    module.describe(*definition) + "; only OpConstant and OpSpecConstant are supported");
      }
      report.had_spec_constant_size |= own.dimensions[d].is_spec_constant;
    }
    auto ids = constants_holding(module, own, report.group_size, std::nullopt, spec_values);
    if (!ids) return ids.error();
    const uint32_t operands[] = {entry->function_id, u(spv::ExecutionMode::LocalSize), report.group_size[0], 1, 1};
    module.replace(*sources->local_size_id, spv::Op::OpExecutionMode, operands);
    if (sources->local_size) module.erase(*sources->local_size);  // one LocalSize per entry point
  } else if (sources->local_size) {
    const uint32_t operands[] = {entry->function_id, u(spv::ExecutionMode::LocalSize), report.group_size[0], 1, 1};
    module.replace(*sources->local_size, spv::Op::OpExecutionMode, operands);
  }

  auto markers = bind_marker_builtins(module);
  if (!markers) return markers.error();
  report.markers_bound = *markers;
  return report;
}

}  // namespace bismuth::spirv_patch
