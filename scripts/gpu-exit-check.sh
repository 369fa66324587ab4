#!/usr/bin/env bash
# Process-exit runs on the GPU machine against the real driver (no test layer): the programs of tests/exit, RUNS
# times each, the five ways at once (the fifth: exit with compiles and links on the compiler threads) (the machine has 16 cores). From the repository root there, after unpacking the
# bundle (scripts/gpu-bundle.sh):
#   tar xJf .gpu.tar.xz && .gpu/gpu-exit-check.sh "$OUT" [RUNS] [PROGRAMS]
# RUNS defaults to 50, PROGRAMS (variable-size programs linked before exit in the first way) to 2108, the count of
# the GL test program whose exits crashed on the H100. Default prewarm (64 sizes per program on a GPU), default
# recording thread (on, on a GPU). One log per way and a summary line each: runs, failures, how many by a signal.
set -u
out=${1:?usage: gpu-exit-check.sh OUT_DIR [RUNS] [PROGRAMS]}
runs=${2:-50}
programs=${3:-2108}
source .gpu/gpu-env.sh > /dev/null 2>&1
export BISMUTH_CACHE_DIR=off
bin=$PWD/.gpu/bin
mkdir -p "$out"
root=$PWD
(cd /tmp && mkdir -p e1 && cd e1 && "$root/.gpu/run_repeatedly.sh" "$runs" "$bin/exit_program" link-many "$programs" > "$out/exit-link_many.log" 2>&1) &
(cd /tmp && mkdir -p e2 && cd e2 && "$root/.gpu/run_repeatedly.sh" "$runs" "$bin/exit_program" mid-dispatch > "$out/exit-mid_dispatch.log" 2>&1) &
(cd /tmp && mkdir -p e3 && cd e3 && "$root/.gpu/run_repeatedly.sh" "$runs" "$bin/exit_program" no-terminate > "$out/exit-no_terminate.log" 2>&1) &
(cd /tmp && mkdir -p e4 && cd e4 && VK_ADD_LAYER_PATH="$root/.gpu/layer_vk_layer" VK_INSTANCE_LAYERS=VK_LAYER_BISMUTH_compute \
  "$root/.gpu/run_repeatedly.sh" "$runs" "$bin/layer_exit_program" 20 > "$out/exit-layer_no_destroy.log" 2>&1) &
(cd /tmp && mkdir -p e5 && cd e5 && "$root/.gpu/run_repeatedly.sh" "$runs" "$bin/exit_program" compile-in-flight 256 \
  > "$out/exit-compile_in_flight.log" 2>&1) &
wait
for f in "$out"/exit-*.log; do tail -n 1 "$f"; done | tee "$out/exit-summary.txt"
