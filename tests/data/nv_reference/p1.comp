#version 450
layout(local_size_x = 1) in;
layout(binding = 0, offset = 0) uniform atomic_uint a;
layout(binding = 0, offset = 8) uniform atomic_uint b[3];
layout(binding = 1, offset = 4) uniform atomic_uint c;
layout(binding = 1, offset = 12) uniform atomic_uint d[2];
layout(std430, binding = 0) buffer Out { uint o[16]; };
void main() {
  o[0] = atomicCounterIncrement(a);
  o[1] = atomicCounterIncrement(b[1]);
  o[2] = atomicCounterDecrement(b[2]);
  o[3] = atomicCounter(c);
  uint i = o[15] & 1u;
  o[4] = atomicCounterIncrement(d[i]);
  o[5] = atomicCounter(b[0]);
}
