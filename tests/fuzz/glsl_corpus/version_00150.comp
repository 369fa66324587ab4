#version 00150
#extension GL_ARB_compute_shader : require
#if __VERSION__ != 150
#error wrong
#endif
layout(local_size_x = 1) in;
const int v = __VERSION__;
void main() { int check[v == 150 ? 1 : -1]; }
