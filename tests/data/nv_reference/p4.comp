#version 450
#extension GL_NV_shader_buffer_load : require
layout(local_size_x = 1) in;
uniform uint* ptr;
uniform uvec4* vp;
uniform float* fp;
layout(std430, binding = 0) buffer Out { uint o[16]; };
void main() {
  o[0] = ptr[o[1] & 3u];
  o[2] = vp[1].y;
  o[3] = vp[o[4] & 1u].z;
  o[4] = floatBitsToUint(fp[5]);
}
