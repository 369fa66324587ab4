#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint o[]; };
#define X8(x) x + x + x + x + x + x + x + x
void main() {
  uint i = o[1];
  o[0] = X8(X8(X8(X8(i))));
}
