#version 00000150
#extension GL_ARB_compute_shader : require
#extension GL_ARB_compute_variable_group_size : require
#extension GL_ARB_shader_storage_buffer_object : require
layout(std430, binding = 0) buffer B { uint b[]; };
layout(local_size_variable) in; const uint v = uint(__VERSION__); void main() { b[0] = v + gl_LocalGroupSizeARB.x; }
