#version 430
layout(local_size_x = 8) in;
uniform float scale;
uniform vec3 offsets[4];
uniform mat3 m;
layout(binding = 2) uniform atomic_uint counter;
layout(std430, binding = 0) buffer B { float v[]; };
void main() { v[gl_GlobalInvocationID.x] = scale * offsets[1].y + m[1][1]; atomicCounterIncrement(counter); }
