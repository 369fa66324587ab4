// glLinkProgram for programs of graphics stages: glslang's GL link, the GL 4.6 §7.3 stage rules glslang 12 does
// not check, stage-to-stage interface matching (GL 4.6 §7.4.1) and the program's first-stage inputs and
// last-stage outputs for GL_PROGRAM_INPUT / GL_PROGRAM_OUTPUT.
#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "declared_bindings.hpp"
#include "glslang_globals.hpp"
#include "glslang_process.hpp"
#include "graphics_shader_impl.hpp"
#include "large_stack.hpp"
#include "opaque_uniforms.hpp"
#include "program_reflection.hpp"
#include "stage_limits.hpp"
#include "transform_feedback_varyings.hpp"

namespace bismuth::translator {

namespace {

std::string link_error(const std::string& text) {
  return "error: " + text + "\n";
}

// glslang's "ERROR: Linking vertex stage: text" lines in the GL info-log style of the rest of the front.
std::string gl_link_log(const std::string& glslang_log) {
  std::istringstream in(glslang_log);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.starts_with("ERROR: ")) {
      line = "error: " + line.substr(7);
    } else if (line.starts_with("WARNING: ")) {
      line = "warning: " + line.substr(9);
    }
    out += line + "\n";
  }
  return out;
}

// One user-declared input or output of a stage: a variable, or an interface block (matched by block name).
struct InterfaceVariable {
  std::string name;
  const glslang::TType* type = nullptr;
  bool block = false;
  bool has_location = false;
  unsigned location = 0;
  bool patch = false;
  long long id = 0;  // the symbol's id in its stage's tree
};

// The stage's declared inputs or outputs (built-ins left out: GLSL defines their types on both sides).
std::vector<InterfaceVariable> stage_interface(const glslang::TIntermediate& intermediate,
                                               glslang::TStorageQualifier storage) {
  std::vector<InterfaceVariable> out;
  for_each_global(intermediate, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    const glslang::TQualifier& q = type.getQualifier();
    if (q.storage != storage || q.builtIn != glslang::EbvNone) return;
    const bool block = type.getBasicType() == glslang::EbtBlock;
    std::string name(block ? type.getTypeName().c_str() : symbol.getName().c_str());
    if (name.starts_with("gl_")) return;
    out.push_back({std::move(name), &type, block, q.hasLocation(), q.hasLocation() ? q.layoutLocation : 0u, q.patch,
                   symbol.getId()});
  });
  return out;
}

// Per-vertex inputs of tessellation and geometry shaders, and per-vertex outputs of tessellation control shaders,
// are arrays over the vertices (GLSL 4.60 §4.3.4, §4.3.6): their elements are what the neighbouring stage matches.
bool input_is_per_vertex_array(ShaderStage stage) {
  return stage == ShaderStage::TessControl || stage == ShaderStage::TessEvaluation || stage == ShaderStage::Geometry;
}

// Calls `use` with the type the neighbouring stage matches: the element of a per-vertex array, else the type.
template <class Use>
void with_matched_type(const InterfaceVariable& v, bool per_vertex, Use&& use) {
  if (per_vertex && !v.patch && v.type->isArray()) {
    const glslang::TType element(*v.type, 0);
    use(element);
  } else {
    use(*v.type);
  }
}

std::string type_text(const glslang::TType& type) {
  return type.getCompleteString(true, false, false).c_str();
}

// GL 4.6 §7.4.1: an output and an input match when both declare the same location, or when neither declares one
// and they have the same name (interface blocks: the same block name); "it is a link-time error if ... the
// matching input and output ... do not have the same type".
Status match_stages(ShaderStage producer, const glslang::TIntermediate& out_tree, ShaderStage consumer,
                    const glslang::TIntermediate& in_tree) {
  const std::vector<InterfaceVariable> outputs = stage_interface(out_tree, glslang::EvqVaryingOut);
  const std::vector<InterfaceVariable> inputs = stage_interface(in_tree, glslang::EvqVaryingIn);
  StaticUses uses;
  if (TIntermNode* root = in_tree.getTreeRoot()) root->traverse(&uses);
  for (const InterfaceVariable& in : inputs) {
    bool has_match = false;
    for (const InterfaceVariable& out : outputs) {
      const bool matched = in.has_location || out.has_location
                               ? in.has_location && out.has_location && in.location == out.location
                               : in.block == out.block && in.name == out.name;
      if (!matched) continue;
      has_match = true;
      std::string mismatch;
      with_matched_type(out, producer == ShaderStage::TessControl, [&](const glslang::TType& out_type) {
        with_matched_type(in, input_is_per_vertex_array(consumer), [&](const glslang::TType& in_type) {
          if (out_type != in_type) {
            mismatch = std::string(stage_name(consumer)) + " shader input `" + in.name + "' (" + type_text(in_type) +
                       ") does not match the " + stage_name(producer) + " shader output `" + out.name + "' (" +
                       type_text(out_type) + ") in type";
          }
        });
      });
      if (!mismatch.empty()) return fail(link_error(mismatch));
    }
    // GLSL 4.60 §4.3.4: "Only the input variables that are statically read need to be written by the previous
    // stage; it is allowed to have superfluous declarations of input variables." A statically read input without a
    // matching output is a link error (as Mesa reports it; interface blocks are left to the type check).
    if (!has_match && !in.block && uses.ids.count(in.id) != 0) {
      return fail(link_error(std::string(stage_name(consumer)) + " shader input `" + in.name +
                             "' has no matching output in the previous stage (" + stage_name(producer) + " shader)"));
    }
  }
  return {};
}

// The interface-block members a stage's code uses (GL 4.6 §7.3.1: the active ones), as "BlockType.member".
class UsedBlockMembers : public glslang::TIntermTraverser {
 public:
  explicit UsedBlockMembers(glslang::TStorageQualifier storage) : storage_(storage) {}
  std::unordered_set<std::string> members;
  bool visitBinary(glslang::TVisit, glslang::TIntermBinary* node) override {
    const glslang::TType& block = node->getLeft()->getType();
    // An element of a block array (gl_out[i]) is a temporary: the storage is the array variable's.
    TIntermNode* base = node->getLeft();
    while (base->getAsBinaryNode() != nullptr && (base->getAsBinaryNode()->getOp() == glslang::EOpIndexDirect ||
                                                  base->getAsBinaryNode()->getOp() == glslang::EOpIndexIndirect)) {
      base = base->getAsBinaryNode()->getLeft();
    }
    if (node->getOp() == glslang::EOpIndexDirectStruct && block.getBasicType() == glslang::EbtBlock &&
        base->getAsTyped() != nullptr && base->getAsTyped()->getQualifier().storage == storage_ &&
        node->getRight()->getAsConstantUnion() != nullptr) {
      const int index = node->getRight()->getAsConstantUnion()->getConstArray()[0].getIConst();
      members.insert(std::string(block.getTypeName().c_str()) + "." +
                     (*block.getStruct())[static_cast<size_t>(index)].type->getFieldName().c_str());
    }
    return true;
  }
  bool visitAggregate(glslang::TVisit, glslang::TIntermAggregate* node) override {
    return node->getOp() != glslang::EOpLinkerObjects;
  }

 private:
  glslang::TStorageQualifier storage_;
};

// A block member of a stage's inputs or outputs: its GL name and whether the stage uses it.
struct IoBlockMember {
  std::string gl_name;
  bool used = false;
};

// The members of the stage's input or output blocks, keyed by the name glslang's reflection gives them with
// EShReflectionUnwrapIOBlocks ("m" in an anonymous block, "Type.m" in a block with an instance name, "[0]" after
// an array). GL 4.6 §7.3.1.1 names a member of a user block "Block.member"; a built-in (a gl_PerVertex member) is
// named by itself ("gl_Position"), as the built-in variables are.
std::unordered_map<std::string, IoBlockMember> io_block_members(const glslang::TIntermediate& tree,
                                                                glslang::TStorageQualifier storage) {
  UsedBlockMembers uses(storage);
  if (TIntermNode* root = tree.getTreeRoot()) root->traverse(&uses);
  std::unordered_map<std::string, IoBlockMember> out;
  for_each_global(tree, [&](const glslang::TIntermSymbol& symbol) {
    const glslang::TType& type = symbol.getType();
    if (type.getBasicType() != glslang::EbtBlock || type.getQualifier().storage != storage) return;
    const std::string block(type.getTypeName().c_str());
    const bool anonymous = std::string_view(symbol.getName().c_str()).starts_with("anon@");
    for (const glslang::TTypeLoc& member : *type.getStruct()) {
      const std::string field(member.type->getFieldName().c_str());
      const std::string suffix = member.type->isArray() ? "[0]" : "";
      const bool built_in = member.type->getQualifier().builtIn != glslang::EbvNone || field.starts_with("gl_");
      out[(anonymous ? "" : block + ".") + field + suffix] = {(built_in ? field : block + "." + field) + suffix,
                                                              uses.members.count(block + "." + field) != 0};
    }
  });
  return out;
}

// The first stage's active inputs or the last stage's active outputs (GL 4.6 §7.3.1: "the active resource list will
// include all active variables for the interface, including any active built-in variables"). glslang's reflection
// lists the variables the code uses and every member of a used block; only the used members are active. The
// per-vertex arrays of tessellation and geometry inputs and of tessellation control outputs are named and sized
// by their element, as the next stage matches them (GLSL 4.60 §4.3.4).
std::vector<GlStageVariable> reflect(const glslang::TProgram& program, bool inputs, ShaderStage stage) {
  const glslang::TIntermediate* tree = program.getIntermediate(glslang_stage(stage));
  const auto members = tree != nullptr
                           ? io_block_members(*tree, inputs ? glslang::EvqVaryingIn : glslang::EvqVaryingOut)
                           : std::unordered_map<std::string, IoBlockMember>{};
  const bool per_vertex = inputs ? input_is_per_vertex_array(stage) : stage == ShaderStage::TessControl;
  std::vector<GlStageVariable> out;
  const int n = inputs ? program.getNumPipeInputs() : program.getNumPipeOutputs();
  for (int i = 0; i < n; ++i) {
    const glslang::TObjectReflection& r = inputs ? program.getPipeInput(i) : program.getPipeOutput(i);
    const glslang::TType* type = r.getType();
    GlStageVariable v;
    v.name = r.name;
    if (auto member = members.find(r.name); member != members.end()) {
      if (!member->second.used) continue;
      v.name = member->second.gl_name;
    }
    bool array = type != nullptr && type->isArray();
    uint32_t array_size = array && type->getOuterArraySize() > 0 ? static_cast<uint32_t>(type->getOuterArraySize()) : 1;
    if (per_vertex && array && !type->getQualifier().patch && type->getQualifier().builtIn == glslang::EbvNone &&
        !type->isArrayOfArrays() && v.name.ends_with("[0]")) {
      v.name.resize(v.name.size() - 3);  // the per-vertex dimension is not the variable's own
      array = false;
      array_size = 1;
    }
    // GL introspection names an array by its first element (GL 4.6 §7.3.1.1).
    if (array && !v.name.ends_with("]")) v.name += "[0]";
    v.gl_type = static_cast<uint32_t>(std::max(r.glDefineType, 0));
    // GL 4.6 §7.3.1.1: LOCATION is -1 for built-ins; the linker assigns the others where the shader did not.
    if (type != nullptr && type->getQualifier().hasLocation())
      v.location = static_cast<int32_t>(type->getQualifier().layoutLocation);
    v.array_size = array_size;
    v.patch =
        type != nullptr && (type->getQualifier().patch || type->getQualifier().builtIn == glslang::EbvTessLevelOuter ||
                            type->getQualifier().builtIn == glslang::EbvTessLevelInner);
    out.push_back(std::move(v));
  }
  return out;
}

// A sampler or image of a program GL rules compiled (the GL parse keeps its binding qualifier): a uniform and a
// resource per element.
void add_opaque_resource(GlLinkedProgram& out, const DeclaredBindings& declared, const glslang::TObjectReflection& u,
                         GlOpaqueInfo info) {
  const glslang::TQualifier& q = u.getType()->getQualifier();
  info.declared_binding = q.hasBinding() ? static_cast<int32_t>(q.layoutBinding) : -1;
  info.resource = static_cast<uint32_t>(out.resources.size());
  GlUniform g;
  g.name = u.name;
  g.gl_type = static_cast<uint32_t>(std::max(u.glDefineType, 0));
  g.array_size = static_cast<uint32_t>(std::max(u.size, 1));
  g.location = declared_uniform_location(declared, u.name);
  g.stages = u.stages;
  g.opaque = info;
  const auto index = static_cast<uint32_t>(out.uniforms.size());
  for (uint32_t e = 0; e < g.array_size; ++e) out.resources.push_back({info.kind, e, index});
  out.uniforms.push_back(std::move(g));
}

// Default-block uniforms and atomic counters of a program GL rules compiled (they are in no block there:
// reflection index -1). Uniforms are laid out for the shim's CPU copy one after another: each vector or scalar in a
// 16-byte slot (32 for 3- and 4-component double vectors), a matrix as std140 columns, arrays at a stride of their
// element's size; a structure is its members, each an entry of its own ("s.f", "a[1].b[0]": glslang's reflection
// names them by GL 4.6 §7.3.1.1). Atomic counters keep the binding and offset the GL parse gave them (GLSL 4.60
// §4.4.6.2: an offset not declared follows the binding's previous counter); their buffers are
// add_atomic_counter_buffers'. Samplers and images have no storage: each is a uniform whose elements are resources
// (GlOpaqueInfo), their units starting at the binding qualifier, as in a compute program.
void add_default_uniforms(const glslang::TProgram& program, const DeclaredBindings& declared, GlLinkedProgram& out) {
  uint32_t offset = 0;
  for (int i = 0; i < program.getNumUniformVariables(); ++i) {
    const glslang::TObjectReflection& u = program.getUniform(i);
    const glslang::TType* type = u.getType();
    if (u.index >= 0 || type == nullptr || type->getBasicType() == glslang::EbtStruct) continue;
    if (type->getBasicType() == glslang::EbtSampler) {
      if (auto info = opaque_info(*type)) add_opaque_resource(out, declared, u, *info);
      continue;
    }
    if (type->getBasicType() == glslang::EbtAtomicUint) {
      const glslang::TQualifier& q = type->getQualifier();
      add_atomic_counter(out, u.name, q.hasBinding() ? q.layoutBinding : 0u, q.hasOffset() ? q.layoutOffset : 0u,
                         static_cast<uint32_t>(std::max(u.size, 1)), u.stages);
      continue;
    }
    const bool is_double = type->getBasicType() == glslang::EbtDouble;
    const uint32_t vector = is_double && type->getVectorSize() > 2 ? 32 : 16;
    const uint32_t matrix_stride = std140_matrix_stride(static_cast<uint32_t>(std::max(u.glDefineType, 0)));
    const uint32_t element = type->isMatrix() ? type->getMatrixCols() * matrix_stride : vector;
    GlUniform g{u.name,
                static_cast<uint32_t>(std::max(u.glDefineType, 0)),
                static_cast<uint32_t>(std::max(u.size, 1)),
                offset,
                type->isArray() ? element : 0,
                matrix_stride};
    g.location = declared_uniform_location(declared, u.name);
    g.stages = u.stages;
    offset += element * g.array_size;
    out.uniforms.push_back(std::move(g));
  }
  out.default_uniform_block_size = offset;
}

// GL_ATOMIC_COUNTER_BUFFER (GL 4.6 §7.3.1): one per binding point with an active counter, ordered by binding as the
// compute front orders its counter blocks; BUFFER_DATA_SIZE is where the last counter ends.
void add_atomic_counter_buffers(GlLinkedProgram& out) {
  for (const GlAtomicCounter& c : out.atomic_counters) {
    auto buffer = std::find_if(out.atomic_counter_buffers.begin(), out.atomic_counter_buffers.end(),
                               [&](const GlBufferBinding& b) { return b.gl_binding == c.gl_binding; });
    if (buffer == out.atomic_counter_buffers.end()) {
      out.atomic_counter_buffers.push_back({std::to_string(c.gl_binding), c.gl_binding, 0, 0, 0});
      buffer = out.atomic_counter_buffers.end() - 1;
    }
    buffer->min_size = std::max(buffer->min_size, c.offset + 4 * c.array_size);
    buffer->stages |= c.stages;
  }
  std::stable_sort(out.atomic_counter_buffers.begin(), out.atomic_counter_buffers.end(),
                   [](const GlBufferBinding& a, const GlBufferBinding& b) { return a.gl_binding < b.gl_binding; });
}

// GL 4.6 §7.6.2 and §7.8: a program fails to link when a stage uses more active uniform blocks or shader storage
// blocks than MAX_<STAGE>_UNIFORM_BLOCKS / MAX_<STAGE>_SHADER_STORAGE_BLOCKS, or the stages together (a block
// used by two stages counts twice) more than MAX_COMBINED_UNIFORM_BLOCKS / MAX_COMBINED_SHADER_STORAGE_BLOCKS.
// Each element of an array of blocks is a block.
Status check_block_limits(const GlLinkedProgram& p, const std::vector<ShaderStage>& stages) {
  struct Kind {
    const std::vector<GlBufferBinding>& blocks;
    uint32_t per_stage, combined;
    const char* what;
  };
  const Kind kinds[] = {{p.uniform_blocks, GlStageBlockLimits::kUniformBlocks,
                         GlStageBlockLimits::kCombinedUniformBlocks, "uniform blocks"},
                        {p.storage_blocks, GlStageBlockLimits::kShaderStorageBlocks,
                         GlStageBlockLimits::kCombinedShaderStorageBlocks, "shader storage blocks"}};
  for (const Kind& kind : kinds) {
    uint32_t combined = 0;
    for (ShaderStage stage : stages) {
      uint32_t used = 0;
      for (const GlBufferBinding& b : kind.blocks) used += (b.stages >> static_cast<uint32_t>(stage)) & 1u;
      if (used > kind.per_stage) {
        return fail(link_error(std::string("the ") + stage_name(stage) + " shader uses " + std::to_string(used) + " " +
                               kind.what + ", more than the " + std::to_string(kind.per_stage) + " a stage may use"));
      }
      combined += used;
    }
    if (combined > kind.combined) {
      return fail(link_error(std::string("the program's stages use ") + std::to_string(combined) + " " + kind.what +
                             " together, more than the " + std::to_string(kind.combined) + " a program may use"));
    }
  }
  return {};
}

// GL enum values (GL/glcorearb.h) of the layouts glGetProgramiv reports.
uint32_t gl_primitive(glslang::TLayoutGeometry primitive) {
  switch (primitive) {
    case glslang::ElgPoints: return 0x0000;              // GL_POINTS
    case glslang::ElgLines: return 0x0001;               // GL_LINES
    case glslang::ElgLinesAdjacency: return 0x000A;      // GL_LINES_ADJACENCY
    case glslang::ElgLineStrip: return 0x0003;           // GL_LINE_STRIP
    case glslang::ElgTriangles: return 0x0004;           // GL_TRIANGLES
    case glslang::ElgTrianglesAdjacency: return 0x000C;  // GL_TRIANGLES_ADJACENCY
    case glslang::ElgTriangleStrip: return 0x0005;       // GL_TRIANGLE_STRIP
    case glslang::ElgQuads: return 0x0007;               // GL_QUADS
    case glslang::ElgIsolines: return 0x8E7A;            // GL_ISOLINES
    default: return 0;
  }
}

// The linked stages' layouts. GLSL 4.60 §4.4.1.1: spacing is equal_spacing and the vertex order ccw when no
// tessellation evaluation shader declares them; a geometry shader without `invocations` runs once per primitive.
GlStageLayouts stage_layouts(const glslang::TProgram& program) {
  GlStageLayouts layouts;
  if (const glslang::TIntermediate* gs = program.getIntermediate(EShLangGeometry)) {
    layouts.geometry_vertices_out = static_cast<uint32_t>(std::max(gs->getVertices(), 0));
    layouts.geometry_input_type = gl_primitive(gs->getInputPrimitive());
    layouts.geometry_output_type = gl_primitive(gs->getOutputPrimitive());
    layouts.geometry_invocations = static_cast<uint32_t>(std::max(gs->getInvocations(), 1));
  }
  if (const glslang::TIntermediate* tcs = program.getIntermediate(EShLangTessControl)) {
    layouts.tess_control_output_vertices = static_cast<uint32_t>(std::max(tcs->getVertices(), 0));
  }
  if (const glslang::TIntermediate* tes = program.getIntermediate(EShLangTessEvaluation)) {
    layouts.tess_gen_mode = gl_primitive(tes->getInputPrimitive());
    switch (tes->getVertexSpacing()) {
      case glslang::EvsFractionalEven: layouts.tess_gen_spacing = 0x8E7C; break;  // GL_FRACTIONAL_EVEN
      case glslang::EvsFractionalOdd: layouts.tess_gen_spacing = 0x8E7B; break;   // GL_FRACTIONAL_ODD
      default: layouts.tess_gen_spacing = 0x0202; break;                          // GL_EQUAL
    }
    layouts.tess_gen_vertex_order = tes->getVertexOrder() == glslang::EvoCw ? 0x0900u : 0x0901u;  // GL_CW : GL_CCW
    layouts.tess_gen_point_mode = tes->getPointMode();
  }
  return layouts;
}

// Desktop shaders of any versions link together (GLSL 4.60 §3.3); an ES shader links only with ES shaders of the
// same version (GLSL ES 3.20 §3.3), as Mesa's linker checks it (piglit shaders/version-mixing). glslang checks
// this within one stage, not across stages.
Status check_versions(std::span<const std::shared_ptr<const GlGraphicsShader>> shaders,
                      const std::vector<std::unique_ptr<glslang::TShader>>& trees) {
  auto describe = [](const glslang::TIntermediate& i) {
    return std::to_string(i.getVersion()) + (i.getProfile() == EEsProfile ? " es" : "");
  };
  for (size_t a = 0; a < trees.size(); ++a) {
    for (size_t b = a + 1; b < trees.size(); ++b) {
      const glslang::TIntermediate* x = trees[a]->getIntermediate();
      const glslang::TIntermediate* y = trees[b]->getIntermediate();
      if (x == nullptr || y == nullptr) continue;
      const bool x_es = x->getProfile() == EEsProfile, y_es = y->getProfile() == EEsProfile;
      if (!x_es && !y_es) continue;
      if (x_es != y_es || x->getVersion() != y->getVersion()) {
        return fail(link_error(std::string("a ") + stage_name(shaders[a]->stage()) + " shader of GLSL " + describe(*x) +
                               " cannot be linked with a " + stage_name(shaders[b]->stage()) + " shader of GLSL " +
                               describe(*y) + ": ES shaders link only with ES shaders of the same version"));
      }
    }
  }
  return {};
}

// The last vertex processing stage (GL 4.6 §11.1.2.1: vertex, tessellation evaluation or geometry shader).
std::optional<ShaderStage> last_vertex_stage(const std::vector<ShaderStage>& stages) {
  std::optional<ShaderStage> last;
  for (ShaderStage s : stages) {
    if (s == ShaderStage::Vertex || s == ShaderStage::TessEvaluation || s == ShaderStage::Geometry) last = s;
  }
  return last;
}

Expected<GlGraphicsProgram> link_on_this_thread(std::span<const std::shared_ptr<const GlGraphicsShader>> shaders,
                                                const GlGraphicsLinkOptions& options) {
  // GL 4.6 §7.3: linking fails if "no shader objects are attached to program".
  if (shaders.empty()) return fail(link_error("no shader objects are attached to the program"));
  bool present[5] = {};
  for (const auto& shader : shaders) {
    // GL 4.6 §7.3: "one or more of the shader objects attached to program are not compiled successfully".
    if (!shader || !shader->ok()) return fail(link_error("a shader attached to the program failed to compile"));
    present[static_cast<int>(shader->stage())] = true;
  }
  // GL 4.6 §7.3: a program containing tessellation control, tessellation evaluation or geometry shader objects
  // fails to link when "the program is not separable and contains no objects to form a vertex shader".
  if (!options.separable && !present[static_cast<int>(ShaderStage::Vertex)]) {
    for (ShaderStage s : {ShaderStage::TessControl, ShaderStage::TessEvaluation, ShaderStage::Geometry}) {
      if (present[static_cast<int>(s)]) {
        return fail(link_error(std::string("the program has a ") + stage_name(s) +
                               " shader but no vertex shader (and is not separable)"));
      }
    }
  }

  // OpenGL ES 3.2 §7.3 (LinkProgram): linking fails if "program is not separable and does not contain objects to
  // form both a vertex shader and a fragment shader" (a compute shader alone is linked by the compute front).
  if (options.es && !options.separable &&
      (!present[static_cast<int>(ShaderStage::Vertex)] || !present[static_cast<int>(ShaderStage::Fragment)])) {
    return fail(link_error(std::string("an OpenGL ES program that is not separable needs both a vertex and a "
                                       "fragment shader; this one has no ") +
                           (present[static_cast<int>(ShaderStage::Vertex)] ? "fragment" : "vertex") + " shader"));
  }

  // Each link parses its own trees (graphics_shader_impl.hpp says why); they outlive the program that links them.
  std::vector<std::unique_ptr<glslang::TShader>> trees;
  std::vector<const char*> texts;
  texts.reserve(shaders.size());
  for (const auto& shader : shaders) {
    texts.push_back(shader->impl().source.c_str());
    bool parsed = false;
    trees.push_back(parse_gl_stage(shader->stage(), &texts.back(), parsed));
    if (!parsed)
      return fail(link_error(std::string("internal error: a ") + stage_name(shader->stage()) +
                             " shader that compiled does not parse again: " + trees.back()->getInfoLog()));
  }
  if (Status versions = check_versions(shaders, trees); !versions) return versions.error();
  glslang::TProgram program;
  for (const auto& tree : trees) program.addShader(tree.get());
  // glslang checks each stage: a main, layouts that agree across the stage's shaders, a tessellation control
  // shader's output vertex count, a tessellation evaluation shader's primitive mode, a geometry shader's input and
  // output primitives and maximum vertex count.
  if (!program.link(EShMsgDefault)) {
    std::string log = gl_link_log(program.getInfoLog());
    return fail(log.empty() ? link_error("linking failed") : log);
  }

  GlGraphicsProgram linked;
  for (int s = 0; s < 5; ++s) {
    if (present[s]) linked.stages.push_back(static_cast<ShaderStage>(s));
  }
  for (size_t i = 1; i < linked.stages.size(); ++i) {
    const ShaderStage producer = linked.stages[i - 1];
    const ShaderStage consumer = linked.stages[i];
    const glslang::TIntermediate* out_tree = program.getIntermediate(glslang_stage(producer));
    const glslang::TIntermediate* in_tree = program.getIntermediate(glslang_stage(consumer));
    if (out_tree == nullptr || in_tree == nullptr) continue;
    if (Status matched = match_stages(producer, *out_tree, consumer, *in_tree); !matched) return matched.error();
  }
  linked.layouts = stage_layouts(program);
  DeclaredBindings declared;
  for (int s = 0; s < 5; ++s) {
    if (const glslang::TIntermediate* tree = program.getIntermediate(glslang_stage(static_cast<ShaderStage>(s)))) {
      DeclaredBindings stage = declared_bindings(*tree);
      stage.uniform_locations = declared_uniform_locations(*tree);
      declared.merge(stage);
    }
  }
  // The pipe inputs and outputs need no options; the blocks and uniforms are reflected with GL's naming rules.
  reflect_program_interface(program, declared, linked.interface,
                            EShReflectionIntermediateIO | EShReflectionUnwrapIOBlocks);
  add_default_uniforms(program, declared, linked.interface);
  add_atomic_counter_buffers(linked.interface);
  if (Status limits = check_block_limits(linked.interface, linked.stages); !limits) return limits.error();
  if (Status limits = check_stage_limits(program, linked.stages, linked.interface); !limits) return limits.error();
  linked.inputs = reflect(program, true, linked.stages.front());
  linked.outputs = reflect(program, false, linked.stages.back());
  if (!options.transform_feedback_varyings.empty()) {
    // GL 4.6 §11.1.2.1: the varyings are outputs of the last vertex processing stage; the link fails when "the
    // count specified by TransformFeedbackVaryings is non-zero, but the program object has no vertex, tessellation
    // evaluation, or geometry shader".
    if (!last_vertex_stage(linked.stages)) {
      return fail(
          link_error("transform feedback varyings are given but the program has no vertex, tessellation "
                     "evaluation or geometry shader"));
    }
  }
  if (const std::optional<ShaderStage> last = last_vertex_stage(linked.stages)) {
    const glslang::TIntermediate& tree = *program.getIntermediate(glslang_stage(*last));
    if (!options.transform_feedback_varyings.empty() || declares_transform_feedback(tree)) {
      auto resolved = resolve_transform_feedback(tree, *last, options.transform_feedback_varyings, options.interleaved);
      if (!resolved) return resolved.error();
      linked.transform_feedback = std::move(resolved->varyings);
      linked.transform_feedback_buffers = std::move(resolved->buffers);
      linked.transform_feedback_declared = resolved->declared;
      linked.transform_feedback_interleaved = resolved->declared || options.interleaved;
    }
  }
  linked.info_log = gl_link_log(program.getInfoLog());
  return linked;
}

}  // namespace

bool GlGraphicsProgram::has(ShaderStage stage) const {
  return std::find(stages.begin(), stages.end(), stage) != stages.end();
}

Expected<GlGraphicsProgram> link_gl_graphics_program(std::span<const std::shared_ptr<const GlGraphicsShader>> shaders,
                                                     const GlGraphicsLinkOptions& options) {
  ensure_glslang_initialized();
  size_t stack = 0;
  for (const auto& shader : shaders) stack = std::max(stack, shader ? shader->impl().stack_bytes : 0);
  Expected<GlGraphicsProgram> linked = fail("not linked");
  if (Status ran = run_with_stack(stack, [&] { linked = link_on_this_thread(shaders, options); }); !ran) {
    return fail(link_error("internal error: " + ran.error().message));
  }
  return linked;
}

}  // namespace bismuth::translator
