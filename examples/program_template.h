/* program_template: the compute shader a GL test program builds thousands of times (issue 17), differing only in
 * a literal constant baked into the source and in its work-group size, as generated test programs do.
 *
 * Every invocation adds the program's literal to one atomic counter (binding 0, offset 0) when its
 * gl_LocalInvocationID lies inside the group's size (gl_LocalGroupSizeARB or gl_WorkGroupSize), else nothing; so
 * after a dispatch the counter holds literal x invocations (mod 2^32), which the caller checks after reading the
 * counter buffer back. Shared by examples/program_loop.c and bench/gl/bench_program_churn.cpp. */
#ifndef BISMUTH_EXAMPLES_PROGRAM_TEMPLATE_H
#define BISMUTH_EXAMPLES_PROGRAM_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  PROGRAM_TEMPLATE_VARIABLE, /* layout(local_size_variable) in; dispatched with glDispatchComputeGroupSizeARB */
  PROGRAM_TEMPLATE_FIXED     /* layout(local_size_x = X, local_size_y = Y, local_size_z = Z) in; glDispatchCompute */
} ProgramTemplateKind;

typedef enum {
  /* #version 450 + GL_ARB_shader_atomic_counter_ops: atomicCounterAddARB */
  PROGRAM_TEMPLATE_COUNTER_OPS_ARB,
  /* #version 460: atomicCounterAdd (core since GLSL 4.60) */
  PROGRAM_TEMPLATE_COUNTER_OPS_460
} ProgramTemplateCounterOps;

/* Writes the source into `out`; `local_size` is only used by PROGRAM_TEMPLATE_FIXED. Returns 0 when it does not
 * fit. */
int program_template_source(char* out, size_t capacity, ProgramTemplateKind kind, ProgramTemplateCounterOps ops,
                            uint32_t literal, const uint32_t local_size[3]);

/* The group sizes a variable-size test program cycles through: 1-, 2- and 3-dimensional, powers of two, their
 * neighbours and odd sizes, each within the per-dimension limits and `max_invocations`. Returns how many were
 * written (at most `capacity`). */
size_t program_template_variable_sizes(uint32_t (*sizes)[3], size_t capacity, uint32_t max_invocations,
                                       const uint32_t max_size[3]);

/* The first `count` distinct fixed sizes x * y * 1 in order of x + y (1x1, 1x2, 2x1, 1x3, ...: every 1-D and 2-D
 * shape up to x + y = 64 for 2016 programs), within the limits. Returns how many were written. */
size_t program_template_fixed_sizes(uint32_t (*sizes)[3], size_t count, uint32_t max_invocations,
                                    const uint32_t max_size[3]);

/* The work-group counts of the `index`-th dispatch: 1 to 3 by 1 to 2 by 1. */
void program_template_groups(uint32_t index, uint32_t groups[3]);

/* The counter's value after one dispatch of `groups` groups of `size` invocations (mod 2^32). */
uint32_t program_template_expected(uint32_t literal, const uint32_t size[3], const uint32_t groups[3]);

#ifdef __cplusplus
}
#endif

#endif
