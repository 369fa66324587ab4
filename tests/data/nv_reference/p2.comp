#version 450
#extension GL_ARB_shader_atomic_counter_ops : require
layout(local_size_x = 1) in;
layout(binding = 0, offset = 4) uniform atomic_uint a;
layout(binding = 1, offset = 8) uniform atomic_uint b[4];
layout(std430, binding = 0) buffer Out { uint o[16]; };
void main() {
  o[0] = atomicCounterAddARB(a, 5u);
  o[1] = atomicCounterExchangeARB(b[1], 7u);
  uint i = o[15] & 3u;
  o[2] = atomicCounterCompSwapARB(b[i], 1030u, 9u);
  o[3] = atomicCounterMaxARB(b[0], 5000u);
}
