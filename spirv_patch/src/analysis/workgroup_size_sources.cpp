#include "analysis/workgroup_size_sources.hpp"

#include <string>

namespace bismuth::spirv_patch {

namespace {

Expected<WorkgroupSizeDimension> resolve_dimension(const Module& module, InstructionHandle user, uint32_t id) {
  auto definition = module.definition(id);
  if (!definition) {
    return fail(module.describe(user) + ": workgroup size component %" + std::to_string(id) + " is not defined");
  }
  const spv::Op op = module.opcode(*definition);
  const auto w = module.words(*definition);
  if ((op == spv::Op::OpConstant || op == spv::Op::OpSpecConstant) && w.size() == 4) {
    WorkgroupSizeDimension dimension;
    dimension.value = w[3];
    dimension.constant_id = id;
    dimension.is_spec_constant = op == spv::Op::OpSpecConstant;
    if (dimension.is_spec_constant) dimension.spec_id = module.decoration_literal(id, spv::Decoration::SpecId);
    return dimension;
  }
  return fail(module.describe(user) + ": workgroup size component %" + std::to_string(id) + " is " +
              module.describe(*definition) + "; only 32-bit OpConstant and OpSpecConstant are supported");
}

}  // namespace

Expected<WorkgroupSizeSources> find_workgroup_size_sources(const Module& module, uint32_t function_id) {
  WorkgroupSizeSources sources;
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) != spv::Op::OpDecorate || w.size() < 4 ||
        w[2] != static_cast<uint32_t>(spv::Decoration::BuiltIn) ||
        w[3] != static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)) {
      continue;
    }
    auto definition = module.definition(w[1]);
    if (!definition) return fail(module.describe(h) + ": decorates undefined id %" + std::to_string(w[1]));
    const spv::Op op = module.opcode(*definition);
    if ((op != spv::Op::OpConstantComposite && op != spv::Op::OpSpecConstantComposite) ||
        module.words(*definition).size() != 6) {
      return fail(module.describe(h) + ": BuiltIn WorkgroupSize decorates " + module.describe(*definition) +
                  "; a 3-component constant composite is required");
    }
    sources.builtin_composite = *definition;
    sources.builtin_decoration = h;
    break;
  }
  for (InstructionHandle h : module.instructions(Section::ExecutionMode)) {
    const auto w = module.words(h);
    if (w.size() < 3 || w[1] != function_id) continue;
    if (module.opcode(h) == spv::Op::OpExecutionMode && w[2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) {
      if (w.size() != 6) return fail(module.describe(h) + ": LocalSize needs 3 literals");
      sources.local_size = h;
    }
    if (module.opcode(h) == spv::Op::OpExecutionModeId &&
        w[2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId)) {
      if (w.size() != 6) return fail(module.describe(h) + ": LocalSizeId needs 3 ids");
      sources.local_size_id = h;
    }
  }
  if (sources.builtin_composite) {
    sources.form = WorkgroupSizeForm::WorkgroupSizeBuiltIn;
    const auto w = module.words(*sources.builtin_composite);
    for (int d = 0; d < 3; ++d) {
      auto dimension = resolve_dimension(module, *sources.builtin_composite, w[3 + d]);
      if (!dimension) return dimension.error();
      sources.dimensions[d] = *dimension;
    }
  } else if (sources.local_size_id) {
    sources.form = WorkgroupSizeForm::LocalSizeId;
    const auto w = module.words(*sources.local_size_id);
    for (int d = 0; d < 3; ++d) {
      auto dimension = resolve_dimension(module, *sources.local_size_id, w[3 + d]);
      if (!dimension) return dimension.error();
      sources.dimensions[d] = *dimension;
    }
  } else if (sources.local_size) {
    sources.form = WorkgroupSizeForm::LocalSize;
    const auto w = module.words(*sources.local_size);
    for (int d = 0; d < 3; ++d) sources.dimensions[d].value = w[3 + d];
  } else {
    return fail("the entry point has no workgroup size (no LocalSize, LocalSizeId or BuiltIn WorkgroupSize)");
  }
  for (int d = 0; d < 3; ++d) {
    if (sources.dimensions[d].value == 0) {
      return fail("workgroup size dimension " + std::to_string(d) + " is 0");
    }
  }
  return sources;
}

}  // namespace bismuth::spirv_patch
