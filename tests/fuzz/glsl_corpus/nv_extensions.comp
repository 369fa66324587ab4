#version 450
#extension GL_NV_shader_atomic_float : enable
#extension GL_NV_shader_thread_group : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float f[]; };
void main() { atomicAdd(f[0], 1.0); }
