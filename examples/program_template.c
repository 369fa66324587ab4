/* program_template: see program_template.h. */
#include "program_template.h"

#include <stdio.h>

int program_template_source(char* out, size_t capacity, ProgramTemplateKind kind, ProgramTemplateCounterOps ops,
                            uint32_t literal, const uint32_t local_size[3]) {
  const int arb_ops = ops == PROGRAM_TEMPLATE_COUNTER_OPS_ARB;
  const int variable = kind == PROGRAM_TEMPLATE_VARIABLE;
  char layout[96];
  if (variable) {
    snprintf(layout, sizeof layout, "layout(local_size_variable) in;\n");
  } else {
    snprintf(layout, sizeof layout, "layout(local_size_x = %u, local_size_y = %u, local_size_z = %u) in;\n",
             (unsigned)local_size[0], (unsigned)local_size[1], (unsigned)local_size[2]);
  }
  const int written =
      snprintf(out, capacity,
               "#version %s\n"
               "%s"
               "%s"
               "%s"
               "layout(binding = 0, offset = 0) uniform atomic_uint invocations;\n"
               "void main() {\n"
               "  bool inside = all(lessThan(gl_LocalInvocationID, %s));\n"
               "  %s(invocations, inside ? %uu : 0u);\n"
               "}\n",
               arb_ops ? "450" : "460", variable ? "#extension GL_ARB_compute_variable_group_size : require\n" : "",
               arb_ops ? "#extension GL_ARB_shader_atomic_counter_ops : require\n" : "", layout,
               variable ? "gl_LocalGroupSizeARB" : "gl_WorkGroupSize",
               arb_ops ? "atomicCounterAddARB" : "atomicCounterAdd", (unsigned)literal);
  return written > 0 && (size_t)written < capacity;
}

static int fits(uint32_t x, uint32_t y, uint32_t z, uint32_t max_invocations, const uint32_t max_size[3]) {
  return x <= max_size[0] && y <= max_size[1] && z <= max_size[2] && (uint64_t)x * y * z <= max_invocations;
}

size_t program_template_variable_sizes(uint32_t (*sizes)[3], size_t capacity, uint32_t max_invocations,
                                       const uint32_t max_size[3]) {
  static const uint32_t xs[] = {1,  2,   3,   4,   5,   7,   8,   13,  16,  24,  31,  32,  33,  48,   63,   64,  65,
                                96, 100, 127, 128, 192, 255, 256, 257, 384, 511, 512, 513, 768, 1000, 1023, 1024};
  static const uint32_t ys[] = {1, 2, 3, 4, 8, 16};
  static const uint32_t zs[] = {1, 2, 4};
  size_t n = 0;
  for (size_t k = 0; k < sizeof zs / sizeof zs[0]; ++k) {
    for (size_t j = 0; j < sizeof ys / sizeof ys[0]; ++j) {
      for (size_t i = 0; i < sizeof xs / sizeof xs[0] && n < capacity; ++i) {
        if (!fits(xs[i], ys[j], zs[k], max_invocations, max_size)) continue;
        sizes[n][0] = xs[i];
        sizes[n][1] = ys[j];
        sizes[n][2] = zs[k];
        ++n;
      }
    }
  }
  return n;
}

size_t program_template_fixed_sizes(uint32_t (*sizes)[3], size_t count, uint32_t max_invocations,
                                    const uint32_t max_size[3]) {
  size_t n = 0;
  const uint64_t last_sum = (uint64_t)max_size[0] + max_size[1];
  for (uint64_t sum = 2; sum <= last_sum && n < count; ++sum) {
    for (uint64_t x = 1; x < sum && n < count; ++x) {
      const uint64_t y = sum - x;
      if (x > max_size[0] || y > max_size[1] || x * y > max_invocations) continue;
      sizes[n][0] = (uint32_t)x;
      sizes[n][1] = (uint32_t)y;
      sizes[n][2] = 1;
      ++n;
    }
  }
  return n;
}

void program_template_groups(uint32_t index, uint32_t groups[3]) {
  groups[0] = 1 + index % 3;
  groups[1] = 1 + index / 3 % 2;
  groups[2] = 1;
}

uint32_t program_template_expected(uint32_t literal, const uint32_t size[3], const uint32_t groups[3]) {
  const uint32_t invocations = size[0] * size[1] * size[2] * groups[0] * groups[1] * groups[2];
  return literal * invocations;
}
