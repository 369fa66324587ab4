// bind_marker_builtins. A marker is found by its OpName (the only trace of the HLSL name glslang keeps), checked to
// be exactly what the HLSL front declares (a Private uint that is only loaded), then moved to the Input storage
// class: the OpVariable is re-emitted at the end of the global section after its new pointer type, keeping its
// result id, so every OpLoad, OpName and interface entry stays valid.
#include "bismuth/spirv_patch/passes/bind_marker_builtins.hpp"

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/entry_points.hpp"
#include "analysis/type_queries.hpp"
#include "analysis/use_index.hpp"
#include "variable_edits.hpp"

namespace bismuth::spirv_patch {

namespace {

uint32_t u(auto value) {
  return static_cast<uint32_t>(value);
}

constexpr std::array<std::pair<std::string_view, spv::BuiltIn>, 4> kMarkers{{
    {"SubgroupId", spv::BuiltIn::SubgroupId},
    {"SubgroupLocalInvocationId", spv::BuiltIn::SubgroupLocalInvocationId},
    {"SubgroupSize", spv::BuiltIn::SubgroupSize},
    {"NumSubgroups", spv::BuiltIn::NumSubgroups},
}};

struct Marker {
  uint32_t variable = 0;
  spv::BuiltIn builtin{};
  std::string name;
};

std::vector<Marker> find_markers(const Module& module) {
  std::vector<Marker> markers;
  for (InstructionHandle h : module.instructions(Section::Debug)) {
    if (module.opcode(h) != spv::Op::OpName || module.words(h).size() < 3) continue;
    const std::string_view name = module.string_operand(h, 2);
    if (!name.starts_with(kMarkerBuiltinPrefix)) continue;
    const uint32_t variable = module.words(h)[1];
    bool named_twice = false;
    for (const Marker& known : markers) named_twice |= known.variable == variable;
    if (named_twice) continue;
    for (const auto& [suffix, builtin] : kMarkers) {
      if (name.substr(std::string_view(kMarkerBuiltinPrefix).size()) == suffix) {
        markers.push_back(Marker{variable, builtin, std::string(name)});
      }
    }
  }
  return markers;
}

// The marker's pointee type when it is a Private variable of a 32-bit unsigned integer.
Expected<uint32_t> checked_marker_type(const Module& module, const Marker& marker) {
  auto definition = module.definition(marker.variable);
  if (!definition || module.opcode(*definition) != spv::Op::OpVariable || module.words(*definition).size() < 4) {
    return fail("the marker " + marker.name + " names %" + std::to_string(marker.variable) +
                ", which is not a variable");
  }
  const auto w = module.words(*definition);
  const auto pointer = pointer_type(module, w[1]);
  if (w[3] != u(spv::StorageClass::Private) || !pointer || pointer->first != u(spv::StorageClass::Private)) {
    return fail("the marker " + marker.name +
                " is not a Private (HLSL static) variable: " + module.describe(*definition));
  }
  if (int32_type(module, pointer->second, 1) != false) {
    return fail("the marker " + marker.name +
                " must be a 32-bit unsigned integer (uint): " + module.describe(*definition));
  }
  return pointer->second;
}

// Loads only: a store, or a pointer passed on, would write or alias a read-only built-in.
Status check_marker_uses(const Module& module, const UseIndex& uses, const Marker& marker) {
  for (InstructionHandle user : uses.users(marker.variable)) {
    if (names_without_using(module, user)) continue;
    if (module.opcode(user) == spv::Op::OpLoad) continue;
    return fail("the marker " + marker.name + " is built-in " +
                std::string(marker.name.substr(std::string_view(kMarkerBuiltinPrefix).size())) +
                " and may only be read, but " + module.describe(user) + " uses it");
  }
  return {};
}

}  // namespace

Expected<uint32_t> bind_marker_builtins(Module& module) {
  const std::vector<Marker> markers = find_markers(module);
  if (markers.empty()) return 0u;
  const auto compute = compute_entry_points(module);
  if (compute.empty()) return fail("the marker " + markers.front().name + " needs a GLCompute entry point");
  const UseIndex uses(module);
  std::vector<uint32_t> pointees;
  for (const Marker& marker : markers) {
    auto pointee = checked_marker_type(module, marker);
    if (!pointee) return pointee.error();
    if (Status ok = check_marker_uses(module, uses, marker); !ok) return ok.error();
    pointees.push_back(*pointee);
  }
  for (size_t i = 0; i < markers.size(); ++i) {
    const Marker& marker = markers[i];
    auto input_pointer = pointer_to(module, spv::StorageClass::Input, pointees[i]);
    if (!input_pointer) return input_pointer.error();
    module.erase(*module.definition(marker.variable));
    const uint32_t operands[] = {*input_pointer, marker.variable, u(spv::StorageClass::Input)};  // no initializer
    module.append(Section::Global, spv::Op::OpVariable, operands);
    const uint32_t builtin = u(marker.builtin);
    module.add_decoration(marker.variable, spv::Decoration::BuiltIn, std::span(&builtin, 1));
    for (const auto& entry : compute) {
      module.replace(entry.handle, spv::Op::OpEntryPoint,
                     entry_point_interface_edit(module, entry.handle, 0, marker.variable));
    }
  }
  module.add_capability(spv::Capability::GroupNonUniform);
  return static_cast<uint32_t>(markers.size());
}

}  // namespace bismuth::spirv_patch
