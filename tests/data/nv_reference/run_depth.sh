#!/bin/bash
# Runs on the GPU machine beside nv_reference_probe (see run.sh): the assembly limits and the recursion probes
# (q_depth<N>.nvcp5: CAL recursion N deep; word 0 the deepest level entered, word 3 the levels that returned, word 1
# the depth seen after the outer CAL, word 2 12345 when main went on after it).
cd "$(dirname "$0")"
./nv_reference_probe limits -
for f in q_depth8.nvcp5 q_depth40.nvcp5 q_depth100.nvcp5 q_depth300.nvcp5; do echo "=== run $f"; ./nv_reference_probe run "$f" 2>&1; done
