#version 450
layout(local_size_x = 1) in;
subroutine uint op_t(uint x);
layout(index = 0) subroutine(op_t) uint twice(uint x) { return 2u * x; }
layout(index = 1) subroutine(op_t) uint plus5(uint x) { return x + 5u; }
layout(index = 2) subroutine(op_t) uint sq(uint x) { return x * x; }
subroutine uniform op_t op;
subroutine uniform op_t op2[2];
layout(std430, binding = 0) buffer Out { uint o[16]; };
void main() { o[0] = op(o[1] & 7u); o[2] = op2[o[3] & 1u](o[4]); }
