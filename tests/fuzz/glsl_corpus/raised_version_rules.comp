#version 330 core
#extension GL_ARB_compute_shader : require
layout(local_size_x = 1) in;
layout(binding = 0) uniform atomic_uint c;
layout(std430, binding = 1) buffer B { double d[]; };
image2D img;
void main() { float a[2] = { 1.0, 2.0 }; atomicCounterIncrement(c); }
