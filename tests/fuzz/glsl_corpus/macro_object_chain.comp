#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint o[]; };
#define A (i + i)
#define B A * A
#define C B - B
#define D C ^ C
void main() {
  uint i = o[1];
  o[0] = D + D;
}
