#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
  uint i = o[1];
  o[0] = max(i, max(i,
#if 0
))
#endif
 i + i));
}
