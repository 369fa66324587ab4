#version 0000000000000000150
#extension GL_ARB_compute_shader : require
layout(local_size_x = 1) in;
void main() { int v = __VERSION__; }
