#!/bin/bash
# Runs on the GPU machine from a folder holding these files, nv_reference_probe (tests/gpu/nv_reference_probe.c)
# and gpu-env.sh (sourced first): dumps NVIDIA's assembly of each GLSL probe, then runs every probe once.
cd "$(dirname "$0")"
for f in p*.comp; do echo "=== dump $f"; ./nv_reference_probe dump "$f" 2>&1; done
for f in p1.comp p2.comp p6.comp q*.nvcp5; do echo "=== run $f"; ./nv_reference_probe run "$f" 2>&1; done
