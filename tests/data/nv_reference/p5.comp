#version 450
#extension GL_NV_shader_buffer_load : require
#extension GL_NV_gpu_shader5 : require
layout(local_size_x = 1) in;
uniform uint* ptr;
layout(std430, binding = 0) buffer Out { uint o[16]; };
void main() {
  ptr[2] = 7u;
  o[0] = atomicAdd(ptr + 3, 1u);
  o[1] = atomicCompSwap(ptr + 4, 5u, 6u);
}
