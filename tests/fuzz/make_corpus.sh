#!/bin/bash
# Regenerates the seed corpus: valid modules in each input form the passes handle, and the malformed inputs the
# bad-input tests name. Needs glslangValidator and spirv-as (glslang-tools, spirv-tools). Run from anywhere.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/corpus"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

cat > "$work/ballot.comp" <<'GLSL'
#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 7, local_size_y = 3) in;
layout(std430, binding = 0) buffer B { uint lane; uint v[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  v[i * 8u + 0u] = uint(ballotARB((i & 1u) == 0u));
  v[i * 8u + 1u] = readFirstInvocationARB(i + 5u);
  v[i * 8u + 2u] = readInvocationARB(i * 3u, 2u);
  v[i * 8u + 3u] = readInvocationARB(i * 3u, lane);
  v[i * 8u + 4u] = anyInvocationARB(i == 3u) ? 1u : 0u;
  v[i * 8u + 5u] = allInvocationsARB(i < 20u) ? 1u : 0u;
  v[i * 8u + 6u] = allInvocationsEqualARB(i < 12u) ? 1u : 0u;
  v[i * 8u + 7u] = uint(gl_SubGroupEqMaskARB) + gl_SubGroupInvocationARB + gl_SubGroupSizeARB + gl_WorkGroupSize.x;
}
GLSL
cat > "$work/spec.comp" <<'GLSL'
#version 450
layout(local_size_x_id = 5, local_size_y = 3) in;
layout(constant_id = 0) const uint K = 4;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.y + K; }
GLSL
cat > "$work/fixed.comp" <<'GLSL'
#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint tile[8];
void main() {
  tile[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;
  barrier();
  atomicAdd(data[0], tile[7u - gl_LocalInvocationIndex]);
}
GLSL
cat > "$work/resources.comp" <<'GLSL'
#version 450
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; } in_data;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint b[]; } out_data;
layout(std140, set = 1, binding = 0) uniform Params { uvec4 p; } params;
layout(set = 1, binding = 2, r32ui) uniform uimage2D images[3];
layout(push_constant) uniform Push { uint offset; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x + pc.offset;
  out_data.b[i] = in_data.a[i] + params.p.x + imageLoad(images[1], ivec2(0)).x;
}
GLSL
# OpenGL SPIR-V (ARB_gl_spirv): default-block uniforms (with structures) and atomic counters.
cat > "$work/gl_uniforms.comp" <<'GLSL'
#version 450
layout(local_size_x = 4) in;
layout(location = 0) uniform uint mul;
layout(location = 2) uniform vec4 offs[2];
layout(location = 4) uniform mat3 m;
layout(location = 7) uniform bool flag;
layout(location = 8) uniform ivec2 iv;
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = i * mul + uint(offs[i & 1u].y) + uint(m[1][2]) + (flag ? 1000u : 0u) + uint(iv.y);
}
GLSL
cat > "$work/gl_structs.comp" <<'GLSL'
#version 450
layout(local_size_x = 4) in;
struct Inner { float x; mat2 m; };
struct S { float a; vec2 b[2]; uint c; Inner inner[2]; };
layout(location = 1) uniform S s;
layout(location = 0) uniform int first;
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  S t = s;
  o[i] = uint(first) + uint(t.a) + uint(s.b[i & 1u].y) + s.c + uint(s.inner[i & 1u].m[1][0]) + uint(t.inner[1].x);
}
GLSL
cat > "$work/gl_counters.comp" <<'GLSL'
#version 450
layout(local_size_x = 8) in;
layout(binding = 0, offset = 4) uniform atomic_uint ctr;
layout(binding = 0, offset = 8) uniform atomic_uint arr[2];
layout(std430, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint c = atomicCounterIncrement(ctr);
  atomicCounterDecrement(arr[i & 1u]);
  o[i] = c + 1000u * uint(o.length());
}
GLSL
cat > "$work/two_entry_points.spvasm" <<'ASM'
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %a "a"
OpEntryPoint GLCompute %b "main"
OpExecutionModeId %a LocalSizeId %uint_4 %uint_2 %uint_1
OpExecutionMode %b LocalSize 16 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%uint_2 = OpConstant %uint 2
%uint_1 = OpConstant %uint 1
%a = OpFunction %void None %fn
%la = OpLabel
OpReturn
OpFunctionEnd
%b = OpFunction %void None %fn
%lb = OpLabel
OpReturn
OpFunctionEnd
ASM

glslangValidator -V --target-env vulkan1.0 -o "$out/ballot_vote_spv1.0.spv" "$work/ballot.comp" >/dev/null
glslangValidator -V --target-env vulkan1.1 -o "$out/ballot_vote_spv1.3.spv" "$work/ballot.comp" >/dev/null
glslangValidator -V --target-env vulkan1.2 -o "$out/ballot_vote_spv1.5.spv" "$work/ballot.comp" >/dev/null
glslangValidator -V --target-env vulkan1.1 -o "$out/spec_constant_x.spv" "$work/spec.comp" >/dev/null
glslangValidator -V --target-env vulkan1.3 -o "$out/local_size_id_spv1.6.spv" "$work/spec.comp" >/dev/null
glslangValidator -V --target-env vulkan1.1 -o "$out/fixed_builtin.spv" "$work/fixed.comp" >/dev/null
glslangValidator -V --target-env vulkan1.3 -o "$out/fixed_spv1.6.spv" "$work/fixed.comp" >/dev/null
glslangValidator -V --target-env vulkan1.1 -o "$out/resources.spv" "$work/resources.comp" >/dev/null
spirv-as --target-env spv1.3 -o "$out/two_entry_points.spv" "$work/two_entry_points.spvasm"
glslangValidator -G --target-env opengl -o "$out/gl_default_uniforms.spv" "$work/gl_uniforms.comp" >/dev/null
glslangValidator -G --target-env opengl -o "$out/gl_struct_uniforms.spv" "$work/gl_structs.comp" >/dev/null
glslangValidator -G --target-env opengl -o "$out/gl_atomic_counters.spv" "$work/gl_counters.comp" >/dev/null

# Malformed inputs, derived from a valid module with python3 (word-level edits).
python3 - "$out" <<'PY'
import struct, sys, pathlib
out = pathlib.Path(sys.argv[1])
words = list(struct.unpack("<%dI" % (len((out / "fixed_builtin.spv").read_bytes()) // 4),
                           (out / "fixed_builtin.spv").read_bytes()))
def save(name, ws): (out / name).write_bytes(struct.pack("<%dI" % len(ws), *ws))
def first(op):
    i = 5
    while i < len(words):
        if words[i] & 0xffff == op: return i
        i += words[i] >> 16
    raise SystemExit("opcode %d not found" % op)
(out / "empty.bin").write_bytes(b"")
save("short_header.spv", words[:3])
w = list(words); w[0] = 0xdeadbeef; save("wrong_magic.spv", w)
w = list(words); w[5] = 17; save("word_count_zero.spv", w)                  # OpCapability with word count 0
w = list(words[:-1]) + [(9 << 16) | 56]; save("word_count_past_end.spv", w)  # OpFunctionEnd claiming 9 words
w = list(words); e = first(15); w[e + 2] = words[3] + 7; save("id_over_bound.spv", w)  # OpEntryPoint function
w = list(words); w[3] = 0xffffffff; save("huge_bound.spv", w)
w = list(words); w[5] = (2 << 16) | 4090; save("unknown_opcode.spv", w)
w = list(words); e = first(15); w[e + 3] = 0x6e69616d; save("entry_point_renamed.spv", w)  # "main" -> "niam"...
# ARB_gl_spirv storage passes: a pointer type naming the result of an access chain into a default-block uniform
# (invalid but parseable) must be refused, not rewritten as if it were a load.
g = list(struct.unpack("<%dI" % (len((out / "gl_default_uniforms.spv").read_bytes()) // 4),
                       (out / "gl_default_uniforms.spv").read_bytes()))
def instructions(ws):
    i = 5
    while i < len(ws):
        yield i
        i += ws[i] >> 16
uniform_constant = {g[i + 2] for i in instructions(g) if g[i] & 0xffff == 59 and g[i + 3] == 0}
chain = next(g[i + 2] for i in instructions(g) if g[i] & 0xffff == 65 and g[i + 3] in uniform_constant)
pointer = next(i for i in instructions(g) if g[i] & 0xffff == 32 and g[i + 2] == 1)  # OpTypePointer Input
g[pointer + 3] = chain
save("gl_pointer_to_uniform_access_chain.spv", g)
PY
echo "corpus: $(ls "$out" | wc -l) files in $out"
