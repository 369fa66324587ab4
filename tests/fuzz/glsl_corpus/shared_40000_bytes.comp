#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint o[]; };
shared uint s[10000];
void main() { s[gl_LocalInvocationIndex] = 1u; o[0] = s[3]; }
