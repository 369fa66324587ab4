#version 450
#extension GL_ARB_compute_variable_group_size : warn
layout(local_size_variable) in;
layout(std430, binding = 0) buffer B { uint b[]; };
uint a[gl_LocalGroupSizeARB.x];
void main() { b[gl_LocalGroupSizeARB.x] = gl_WorkGroupSize.x; }
