#include "program_info.hpp"

#include <algorithm>
#include <map>

#include "opcode_table.hpp"

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
  std::vector<uint32_t> indices = sorted_indices(program.storages, &StorageDecl::program_storage);
  // program.storagelen[i] reads the size of program.storage[i]: that buffer is bound even if nothing declares it.
  indices.insert(indices.end(), program.storage_lengths.begin(), program.storage_lengths.end());
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

std::vector<uint32_t> declared_parameter_buffers(const ParsedProgram& program) {
  return sorted_indices(program.buffers, &BufferDecl::program_buffer);
}

std::vector<uint32_t> declared_counter_buffers(const ParsedProgram& program) {
  std::vector<uint32_t> indices;
  for (const CounterDecl& c : program.counters) indices.push_back(c.binding);
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

uint32_t counter_binding(const AssembleOptions& options, uint32_t index) {
  return index < options.counter_bindings.size() ? options.counter_bindings[index] : kCounterBindingBase + index;
}

uint32_t storage_binding(const AssembleOptions& options, uint32_t index) {
  return index < options.storage_bindings.size() ? options.storage_bindings[index] : index;
}

uint32_t parameter_buffer_binding(const AssembleOptions& options, uint32_t index) {
  return index < options.parameter_buffer_bindings.size() ? options.parameter_buffer_bindings[index]
                                                           : kParameterBufferBindingBase + index;
}

namespace {

TextureTarget public_target(TexTarget t) {
  const TargetShape s = target_shape(t);
  switch (s.dim) {
    case TexDim::D1: return s.array ? TextureTarget::Array1D : TextureTarget::T1D;
    case TexDim::D2:
      if (s.multisample) return s.array ? TextureTarget::Array2DMS : TextureTarget::T2DMS;
      return s.array ? TextureTarget::Array2D : TextureTarget::T2D;
    case TexDim::D3: return TextureTarget::T3D;
    case TexDim::Cube: return s.array ? TextureTarget::ArrayCube : TextureTarget::Cube;
    case TexDim::Rect: return TextureTarget::Rect;
    case TexDim::Buffer: return TextureTarget::Buffer;
  }
  return TextureTarget::T2D;
}

SampledType sampled_type(DataType t) {
  return t == DataType::S32 ? SampledType::Int : t == DataType::U32 ? SampledType::Uint : SampledType::Float;
}

template <class T>
void add_once(std::vector<T>& v, T x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// The textures and images the instructions use, by unit (a register-indexed array uses all of its units).
void describe_textures(const ParsedProgram& program, const AssembleOptions& options, ProgramInfo& info) {
  std::map<uint32_t, TextureBinding> textures;
  std::map<uint32_t, ImageBinding> images;
  for (const Subroutine& sub : program.subroutines) {
    for (const Instruction& inst : sub.body) {
      if (!inst.texture) continue;
      const TextureAccess& t = *inst.texture;
      const std::vector<uint32_t> units = t.dynamic ? t.units : std::vector<uint32_t>{t.unit};
      for (uint32_t unit : units) {
        if (t.image) {
          ImageBinding& b = images[unit];
          b.unit = unit;
          b.target = public_target(t.target);
          // ATOMIM works on R32UI / R32I / R32F images (the format the module declares for it).
          ImageFormat format = t.format;
          if (inst.op == Op::ATOMIM && format == ImageFormat::Unknown) {
            format = inst.type == DataType::S32   ? ImageFormat::R32I
                     : inst.type == DataType::F32 ? ImageFormat::R32F
                                                  : ImageFormat::R32UI;
          }
          add_once(b.formats, gl_image_format(format));
          add_once(b.types, sampled_type(inst.type));
          b.read |= inst.op == Op::LOADIM;
          b.write |= inst.op == Op::STOREIM;
          b.atomic |= inst.op == Op::ATOMIM;
          b.binding = image_binding(options, unit);
        } else {
          TextureBinding& b = textures[unit];
          b.unit = unit;
          b.target = public_target(t.target);
          b.shadow = target_shape(t.target).shadow;
          // TXQ has no result type of the texture: it adds none.
          if (inst.op != Op::TXQ) add_once(b.types, sampled_type(b.shadow ? DataType::F32 : inst.type));
          b.binding = texture_binding(options, unit);
        }
      }
    }
  }
  for (auto& [unit, b] : textures) {
    if (b.types.empty()) b.types.push_back(SampledType::Float);
    info.textures.push_back(std::move(b));
  }
  for (auto& [unit, b] : images) info.images.push_back(std::move(b));
}

}  // namespace

uint32_t texture_binding(const AssembleOptions& options, uint32_t unit) {
  return unit < options.texture_bindings.size() ? options.texture_bindings[unit] : kTextureBindingBase + unit;
}

uint32_t image_binding(const AssembleOptions& options, uint32_t unit) {
  return unit < options.image_bindings.size() ? options.image_bindings[unit] : kImageBindingBase + unit;
}

uint32_t gl_image_format(ImageFormat f) {
  using I = ImageFormat;
  switch (f) {
    case I::Unknown: return 0;
    case I::RGBA32F: return 0x8814;
    case I::RGBA16F: return 0x881A;
    case I::RG32F: return 0x8230;
    case I::RG16F: return 0x822F;
    case I::R11FG11FB10F: return 0x8C3A;
    case I::R32F: return 0x822E;
    case I::R16F: return 0x822D;
    case I::RGBA32UI: return 0x8D70;
    case I::RGBA16UI: return 0x8D76;
    case I::RGB10A2UI: return 0x906F;
    case I::RGBA8UI: return 0x8D7C;
    case I::RG32UI: return 0x823C;
    case I::RG16UI: return 0x823A;
    case I::RG8UI: return 0x8238;
    case I::R32UI: return 0x8236;
    case I::R16UI: return 0x8234;
    case I::R8UI: return 0x8232;
    case I::RGBA32I: return 0x8D82;
    case I::RGBA16I: return 0x8D88;
    case I::RGBA8I: return 0x8D8E;
    case I::RG32I: return 0x823B;
    case I::RG16I: return 0x8239;
    case I::RG8I: return 0x8237;
    case I::R32I: return 0x8235;
    case I::R16I: return 0x8233;
    case I::R8I: return 0x8231;
    case I::RGBA16: return 0x805B;
    case I::RGB10A2: return 0x8059;
    case I::RGBA8: return 0x8058;
    case I::RG16: return 0x822C;
    case I::RG8: return 0x822B;
    case I::R16: return 0x822A;
    case I::R8: return 0x8229;
    case I::RGBA16_SNORM: return 0x8F9B;
    case I::RGBA8_SNORM: return 0x8F97;
    case I::RG16_SNORM: return 0x8F99;
    case I::RG8_SNORM: return 0x8F95;
    case I::R16_SNORM: return 0x8F98;
    case I::R8_SNORM: return 0x8F94;
  }
  return 0;
}

bool describe_program(const ParsedProgram& program, const AssembleOptions& options, ProgramInfo& info,
                      Failure& failure) {
  info.options = program.options;
  info.shared_memory_bytes = program.shared_memory;
  info.parameter_buffer_bytes = parameter_buffer_window(options);
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
  for (uint32_t index : declared_counter_buffers(program)) {
    info.counter_buffers.push_back({index, counter_binding(options, index)});
  }
  describe_textures(program, options, info);
  info.local_parameter_count = program.local_count;
  info.env_parameter_count = program.env_count;
  info.subroutine_parameters.assign(program.subroutine_param_count, {});
  for (const SubroutineVar& v : program.subroutine_vars) {
    std::vector<uint32_t> numbers;
    for (uint32_t label : program.subroutine_types[v.type].labels) {
      numbers.push_back(static_cast<uint32_t>(program.subroutines[label].number));
    }
    std::sort(numbers.begin(), numbers.end());
    for (uint32_t param : v.params) info.subroutine_parameters[param] = numbers;
  }
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
