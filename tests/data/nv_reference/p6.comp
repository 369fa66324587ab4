#version 450
layout(local_size_x = 1) in;
layout(binding = 0, offset = 0) uniform atomic_uint a;
layout(std430, binding = 0) buffer Out { uint o[16]; };
void main() { o[0] = atomicCounterIncrement(a); o[1] = atomicCounterIncrement(a); o[2] = atomicCounterDecrement(a); o[3] = atomicCounter(a); }
