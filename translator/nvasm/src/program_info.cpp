#include "program_info.hpp"

#include <algorithm>

namespace bismuth::nvasm::detail {
namespace {

template <class Decls, class Indices>
std::vector<uint32_t> sorted_indices(const Decls& decls, Indices member) {
  std::vector<uint32_t> indices;
  for (const auto& d : decls) indices.insert(indices.end(), (d.*member).begin(), (d.*member).end());
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

}  // namespace

std::vector<uint32_t> declared_storage_buffers(const ParsedProgram& program) {
  return sorted_indices(program.storages, &StorageDecl::program_storage);
}

std::vector<uint32_t> declared_parameter_buffers(const ParsedProgram& program) {
  return sorted_indices(program.buffers, &BufferDecl::program_buffer);
}

uint32_t storage_binding(const AssembleOptions& options, uint32_t index) {
  return index < options.storage_bindings.size() ? options.storage_bindings[index] : index;
}

uint32_t parameter_buffer_binding(const AssembleOptions& options, uint32_t index) {
  return index < options.parameter_buffer_bindings.size() ? options.parameter_buffer_bindings[index]
                                                           : kParameterBufferBindingBase + index;
}

bool describe_program(const ParsedProgram& program, const AssembleOptions& options, ProgramInfo& info,
                      Failure& failure) {
  info.options = program.options;
  info.shared_memory_bytes = program.shared_memory;
  if (program.variable_group_size) {
    info.group_size_form = GroupSizeForm::Variable;
  } else {
    info.group_size = *program.group_size;
  }
  for (uint32_t index : declared_storage_buffers(program)) {
    info.storage_buffers.push_back({index, storage_binding(options, index)});
  }
  for (uint32_t index : declared_parameter_buffers(program)) {
    info.parameter_buffers.push_back({index, parameter_buffer_binding(options, index)});
  }
  info.local_parameter_count = program.local_count;
  info.env_parameter_count = program.env_count;
  if (program.first_thread_group_use != SIZE_MAX) {
    // NV_shader_thread_group / NV_shader_thread_shuffle describe 32-thread warps (masks are 32 bits, SHF* clamps
    // lanes to 0..31). On another subgroup size the results would be wrong, so the program does not load.
    info.required_subgroup_size = kWarpSize;
    if (!options.subgroup_size_32_available) {
      failure = {program.first_thread_group_use,
                 "thread-group instructions and values need a subgroup size of 32 (NVIDIA warps), and this device "
                 "cannot run compute with 32-lane subgroups"};
      return false;
    }
  }
  return true;
}

}  // namespace bismuth::nvasm::detail
