#include "stage_limits.hpp"

#include <string>

#include "glslang_globals.hpp"
#include "graphics_shader_impl.hpp"

namespace bismuth::translator {

namespace {

using L = GlStageLimits;

std::string link_error(const std::string& text) {
  return "error: " + text + "\n";
}

// The stage's part of the limits' names: MAX_<STAGE>_UNIFORM_COMPONENTS.
const char* stage_enum(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return "VERTEX";
    case ShaderStage::TessControl: return "TESS_CONTROL";
    case ShaderStage::TessEvaluation: return "TESS_EVALUATION";
    case ShaderStage::Geometry: return "GEOMETRY";
    case ShaderStage::Fragment: return "FRAGMENT";
  }
  return "";
}

bool is_64_bit(glslang::TBasicType t) {
  return t == glslang::EbtDouble || t == glslang::EbtInt64 || t == glslang::EbtUint64;
}

// Components a variable takes: scalars of its vectors and matrices, a 64-bit one counting two (GL 4.6 §7.6: "A
// scalar or vector uniform with double-precision components will consume no more than 2n components"; §11.1.2.1:
// "Each component of variables declared as double-precision floating-point scalars, vectors, or matrices may be
// counted as consuming two components"), times its array elements, summed over structure members. Opaque types
// (samplers, images, atomic counters) take none.
uint32_t components_of(const glslang::TType& type) {
  const uint32_t elements = type.isSizedArray() ? static_cast<uint32_t>(type.getCumulativeArraySize()) : 1u;
  if (type.isStruct()) {
    uint32_t sum = 0;
    for (const glslang::TTypeLoc& member : *type.getStruct()) sum += components_of(*member.type);
    return sum * elements;
  }
  switch (type.getBasicType()) {
    case glslang::EbtSampler:
    case glslang::EbtAtomicUint:
    case glslang::EbtVoid: return 0;
    default: break;
  }
  const uint32_t scalars = type.isMatrix() ? static_cast<uint32_t>(type.getMatrixCols() * type.getMatrixRows())
                                           : static_cast<uint32_t>(type.getVectorSize());
  return scalars * (is_64_bit(type.getBasicType()) ? 2u : 1u) * elements;
}

// Generic vertex attribute locations an input takes (GLSL 4.60 §4.4.1: a dvec3 or dvec4 takes two, a matrix one
// per column, an array one set per element).
uint32_t attribute_slots(const glslang::TType& type) {
  const uint32_t elements = type.isSizedArray() ? static_cast<uint32_t>(type.getCumulativeArraySize()) : 1u;
  const bool wide =
      is_64_bit(type.getBasicType()) && (type.isMatrix() ? type.getMatrixRows() : type.getVectorSize()) > 2;
  const uint32_t columns = type.isMatrix() ? static_cast<uint32_t>(type.getMatrixCols()) : 1u;
  return columns * (wide ? 2u : 1u) * elements;
}

// What one stage's code uses, counted.
struct StageUse {
  uint32_t default_uniforms = 0;   // components of the active default-block uniforms
  uint32_t inputs = 0;             // components of the active user inputs (one vertex's, for per-vertex arrays)
  uint32_t outputs = 0;            // components of the active user outputs (per vertex), patch outputs left out
  uint32_t patch_outputs = 0;      // components of a tessellation control shader's patch outputs
  uint32_t attribute_slots = 0;    // vertex shaders: locations of the active inputs
  std::string attribute_past_end;  // vertex shaders: an input whose declared location runs past MAX_VERTEX_ATTRIBS
};

// Per-vertex inputs of tessellation and geometry shaders, and per-vertex outputs of tessellation control shaders,
// are arrays over the vertices (GLSL 4.60 §4.3.4, §4.3.6): the limits count one vertex.
bool per_vertex(ShaderStage stage, bool input) {
  return input ? stage == ShaderStage::TessControl || stage == ShaderStage::TessEvaluation ||
                     stage == ShaderStage::Geometry
               : stage == ShaderStage::TessControl;
}

StageUse count_stage(const glslang::TIntermediate& tree, ShaderStage stage) {
  StaticUses uses;
  if (TIntermNode* root = tree.getTreeRoot()) root->traverse(&uses);
  StageUse use;
  for_each_global(tree, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    const glslang::TQualifier& q = type.getQualifier();
    const bool block = type.getBasicType() == glslang::EbtBlock;
    const std::string name(block ? type.getTypeName().c_str() : symbol.getName().c_str());
    const bool used = uses.ids.count(symbol.getId()) != 0;
    if (q.storage == glslang::EvqUniform) {
      if (!block && used) use.default_uniforms += components_of(type);
      return;
    }
    const bool input = q.storage == glslang::EvqVaryingIn;
    if (!input && q.storage != glslang::EvqVaryingOut) return;
    // Built-ins (gl_PerVertex and its members, gl_FragCoord, ...) are the stage's own, not user varyings.
    if (q.builtIn != glslang::EbvNone || name.starts_with("gl_")) return;
    if (stage == ShaderStage::Vertex && input) {
      const uint32_t slots = attribute_slots(type);
      if (q.hasLocation() && q.layoutLocation + slots > L::kVertexAttribs) use.attribute_past_end = name;
      if (used) use.attribute_slots += slots;
      return;
    }
    if (!used) return;
    uint32_t components = 0;
    if (per_vertex(stage, input) && !q.patch && type.isArray()) {
      components = components_of(glslang::TType(type, 0));
    } else {
      components = components_of(type);
    }
    if (input) {
      use.inputs += components;
    } else if (q.patch) {
      use.patch_outputs += components;
    } else {
      use.outputs += components;
    }
  });
  return use;
}

Status exceeds(ShaderStage stage, const std::string& what, uint32_t used, const std::string& limit, uint32_t value) {
  return fail(link_error(std::string("the ") + stage_name(stage) + " shader's " + what + " use " +
                         std::to_string(used) + " components, more than GL_" + limit + " (" + std::to_string(value) +
                         ")"));
}

}  // namespace

Status check_stage_limits(const glslang::TProgram& program, const std::vector<ShaderStage>& stages,
                          const GlLinkedProgram& interface) {
  for (ShaderStage stage : stages) {
    const glslang::TIntermediate* tree = program.getIntermediate(glslang_stage(stage));
    if (tree == nullptr) continue;
    StageUse use = count_stage(*tree, stage);
    const std::string s = stage_enum(stage);
    // GL 4.6 §7.6: "The implementation-dependent amount of storage available for uniform variables, except for
    // atomic counters, in the default uniform block accessed by a <stage> shader is specified by the value of the
    // implementation-dependent constant MAX_<STAGE>_UNIFORM_COMPONENTS"; "The total amount of combined storage
    // available for uniform variables in all uniform blocks accessed by a <stage> shader (including the default
    // uniform block) is specified by ... MAX_COMBINED_<STAGE>_UNIFORM_COMPONENTS". Using more fails the link.
    if (use.default_uniforms > L::kUniformComponents) {
      return exceeds(stage, "default-block uniforms", use.default_uniforms, "MAX_" + s + "_UNIFORM_COMPONENTS",
                     L::kUniformComponents);
    }
    uint32_t combined = use.default_uniforms;
    for (const GlBufferBinding& b : interface.uniform_blocks) {
      if ((b.stages >> static_cast<uint32_t>(stage)) & 1u) combined += b.min_size / 4;
    }
    if (combined > L::kCombinedUniformComponents) {
      return exceeds(stage, "uniforms (all blocks and the default block)", combined,
                     "MAX_COMBINED_" + s + "_UNIFORM_COMPONENTS", L::kCombinedUniformComponents);
    }
    switch (stage) {
      case ShaderStage::Vertex:
        // GL 4.6 §11.1.1: "A program object will fail to link if the number of active generic vertex attributes
        // exceeds MAX_VERTEX_ATTRIBS"; GLSL 4.60 §4.4.1: an input whose locations run past the last is an error.
        if (!use.attribute_past_end.empty()) {
          return fail(link_error("vertex shader input `" + use.attribute_past_end +
                                 "' has locations at or past GL_MAX_VERTEX_ATTRIBS (" +
                                 std::to_string(L::kVertexAttribs) + ")"));
        }
        if (use.attribute_slots > L::kVertexAttribs) {
          return fail(link_error("the vertex shader's active inputs take " + std::to_string(use.attribute_slots) +
                                 " generic vertex attributes, more than GL_MAX_VERTEX_ATTRIBS (" +
                                 std::to_string(L::kVertexAttribs) + ")"));
        }
        // GL 4.6 §11.1.2.1: "A program whose vertex shader writes more than the value of
        // MAX_VERTEX_OUTPUT_COMPONENTS components worth of outputs may fail to link"; "there is a limit on the
        // total number of components used as vertex shader outputs or fragment shader inputs. This limit is given
        // by the value of the implementation-dependent constant MAX_VARYING_COMPONENTS".
        if (use.outputs > L::kVertexOutputComponents) {
          return exceeds(stage, "outputs", use.outputs, "MAX_VERTEX_OUTPUT_COMPONENTS", L::kVertexOutputComponents);
        }
        if (use.outputs > L::kVaryingComponents) {
          return exceeds(stage, "outputs", use.outputs, "MAX_VARYING_COMPONENTS", L::kVaryingComponents);
        }
        break;
      case ShaderStage::TessControl: {
        // GL 4.6 §11.2.1.2: MAX_TESS_CONTROL_INPUT_COMPONENTS / _OUTPUT_COMPONENTS per vertex,
        // MAX_TESS_PATCH_COMPONENTS for the patch outputs, MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS for all of them.
        if (use.inputs > L::kTessControlInputComponents) {
          return exceeds(stage, "inputs", use.inputs, "MAX_TESS_CONTROL_INPUT_COMPONENTS",
                         L::kTessControlInputComponents);
        }
        if (use.outputs > L::kTessControlOutputComponents) {
          return exceeds(stage, "per-vertex outputs", use.outputs, "MAX_TESS_CONTROL_OUTPUT_COMPONENTS",
                         L::kTessControlOutputComponents);
        }
        if (use.patch_outputs > L::kTessPatchComponents) {
          return exceeds(stage, "patch outputs", use.patch_outputs, "MAX_TESS_PATCH_COMPONENTS",
                         L::kTessPatchComponents);
        }
        const uint32_t total =
            use.outputs * static_cast<uint32_t>(std::max(tree->getVertices(), 0)) + use.patch_outputs;
        if (total > L::kTessControlTotalOutputComponents) {
          return exceeds(stage, "outputs for all vertices", total, "MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS",
                         L::kTessControlTotalOutputComponents);
        }
        break;
      }
      case ShaderStage::TessEvaluation:
        // GL 4.6 §11.2.3.2: MAX_TESS_EVALUATION_INPUT_COMPONENTS / _OUTPUT_COMPONENTS.
        if (use.inputs > L::kTessEvaluationInputComponents) {
          return exceeds(stage, "inputs", use.inputs, "MAX_TESS_EVALUATION_INPUT_COMPONENTS",
                         L::kTessEvaluationInputComponents);
        }
        if (use.outputs > L::kTessEvaluationOutputComponents) {
          return exceeds(stage, "outputs", use.outputs, "MAX_TESS_EVALUATION_OUTPUT_COMPONENTS",
                         L::kTessEvaluationOutputComponents);
        }
        break;
      case ShaderStage::Geometry: {
        // GL 4.6 §11.3.4.3-4: MAX_GEOMETRY_INPUT_COMPONENTS per input vertex, MAX_GEOMETRY_OUTPUT_COMPONENTS per
        // emitted vertex, MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS for all the vertices one invocation may emit.
        if (use.inputs > L::kGeometryInputComponents) {
          return exceeds(stage, "inputs", use.inputs, "MAX_GEOMETRY_INPUT_COMPONENTS", L::kGeometryInputComponents);
        }
        if (use.outputs > L::kGeometryOutputComponents) {
          return exceeds(stage, "outputs", use.outputs, "MAX_GEOMETRY_OUTPUT_COMPONENTS", L::kGeometryOutputComponents);
        }
        const uint32_t total = use.outputs * static_cast<uint32_t>(std::max(tree->getVertices(), 0));
        if (total > L::kGeometryTotalOutputComponents) {
          return exceeds(stage, "outputs for max_vertices vertices", total, "MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS",
                         L::kGeometryTotalOutputComponents);
        }
        break;
      }
      case ShaderStage::Fragment:
        // GL 4.6 §15.2.3 (MAX_FRAGMENT_INPUT_COMPONENTS) and §11.1.2.1's MAX_VARYING_COMPONENTS.
        if (use.inputs > L::kFragmentInputComponents) {
          return exceeds(stage, "inputs", use.inputs, "MAX_FRAGMENT_INPUT_COMPONENTS", L::kFragmentInputComponents);
        }
        if (use.inputs > L::kVaryingComponents) {
          return exceeds(stage, "inputs", use.inputs, "MAX_VARYING_COMPONENTS", L::kVaryingComponents);
        }
        break;
    }
  }
  return {};
}

}  // namespace bismuth::translator
