#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { float o[]; };
struct S { float a; vec3 b; mat2x3 m; bool f; double d; };
shared S s[3];
shared vec3 v[5];
void main() { s[gl_LocalInvocationIndex].a = 1.0; v[1] = vec3(2.0); o[0] = s[1].b.x + v[1].y + float(s[2].d); }
