#!/usr/bin/env bash
# Runs Bismuth's programs, tests and benchmarks on the GPU machine from the bundle scripts/gpu-bundle.sh made
# (.gpu/), writing one log per step and a summary into OUT_DIR. Start it from the repository root there:
#   tar xJf .gpu.tar.xz && .gpu/gpu-check.sh "$OUT"
# Steps are independent: one that fails is recorded in the summary and the next one runs.
set -u
out=${1:?usage: gpu-check.sh OUT_DIR}
logs="$out/logs"  # packed into logs.tgz at the end: the device tool returns at most 8 files
mkdir -p "$logs"
source .gpu/gpu-env.sh > "$logs/gpu.txt" 2>&1
export VK_ADD_LAYER_PATH=$PWD/.gpu/layers BISMUTH_TEST_BIN_DIR=$PWD/.gpu/bin
export BISMUTH_CORPUS_DIR=$PWD/tests/data/corpus/nvidia-h100 BISMUTH_NUM_WAVES_SHADER_DIR=$PWD/examples/num_waves
export BISMUTH_TEST_LAYER_DIR=$PWD/.gpu/layer_vk_layer BISMUTH_TEST_SPY_LAYER_DIR=$PWD/.gpu/tests_layer_vk_layer
bin=.gpu/bin
summary="$out/summary.txt"
: > "$summary"

step() {  # step NAME COMMAND... : runs with a time limit, logs to NAME.log, one summary line
  local name=$1; shift
  local start=$SECONDS
  timeout 240 "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  local last
  last=$(grep -E "All tests passed|test cases:|tests passed|OK|FAIL" "$logs/$name.log" | tail -1)
  printf '%-28s rc=%-3s %4ss  %s\n' "$name" "$rc" "$((SECONDS - start))" "$last" >> "$summary"
}

step devices "$bin/bismuth" devices
"$bin/bismuth" devices --json > "$out/devices.json" 2>&1
step hello_dispatch "$bin/hello_dispatch" --validate
# The conformance suite (tests/conformance): each C program (rc 77 = skipped, the reason in its log) and every
# shader_runner file through `bismuth run` on the GPU, with the validation layer.
for c in "$bin"/conformance_*; do
  [[ -x $c ]] && BISMUTH_VALIDATION=1 step "$(basename "$c")" "$c"
done
BISMUTH_VALIDATION=1 step run_conformance "$bin/bismuth" run tests/conformance --device gpu \
  --json "$out/run_conformance.json"
# GLVND (docs/glvnd.md): programs linked against the system libEGL + libOpenGL, on Bismuth through its vendor JSON
# listed first, with NVIDIA's after it as on a machine with NVIDIA's driver installed (tests/glvnd: the glvnd_*
# programs, each must exit 0; process exit without eglTerminate), then one example with NVIDIA's vendor alone, with
# Bismuth's alone and with both vendors in either order (each log shows the GL_RENDERER it ran on). NVIDIA's Vulkan
# driver queries EGL devices while it loads and does not load without its own EGL vendor, so with Bismuth's vendor
# alone Bismuth finds no Vulkan driver there.
if [[ -f .gpu/glvnd/50_bismuth.json ]]; then
  bismuth_json=$PWD/.gpu/glvnd/50_bismuth.json
  nvidia_json=$__EGL_VENDOR_LIBRARY_FILENAMES  # gpu-env.sh: NVIDIA's vendor
  for c in "$bin"/glvnd_*; do
    [[ -x $c && $(basename "$c") != glvnd_exit ]] || continue
    __EGL_VENDOR_LIBRARY_FILENAMES=$bismuth_json:$nvidia_json BISMUTH_VALIDATION=1 step "$(basename "$c")" "$c"
  done
  for mode in no-terminate mid-dispatch; do
    __EGL_VENDOR_LIBRARY_FILENAMES=$bismuth_json:$nvidia_json BISMUTH_VALIDATION=1 step "glvnd_exit_$mode" \
      .gpu/run_repeatedly.sh 10 \
      "$bin/glvnd_exit" "$mode"
  done
  if [[ -x $bin/dispatch_stream_system ]]; then
    for order in bismuth nvidia nvidia_bismuth bismuth_nvidia; do
      case $order in
        bismuth) files=$bismuth_json ;;
        nvidia) files=$nvidia_json ;;
        nvidia_bismuth) files=$nvidia_json:$bismuth_json ;;
        bismuth_nvidia) files=$bismuth_json:$nvidia_json ;;
      esac
      __EGL_VENDOR_LIBRARY_FILENAMES=$files step "glvnd_vendors_$order" \
        "$bin/dispatch_stream_system" --count 2000 --stream-dispatches 5 --stream-mb 64 --egl device
    done
  fi
fi
# BISMUTH_GPU_CHECK=conformance: only the steps above plus the GL and translator tests (a quick pass).
if [[ ${BISMUTH_GPU_CHECK:-all} == conformance ]]; then
  for t in gl_tests gl_concurrency_tests translator_tests; do [[ -x $bin/$t ]] && step "$t" "$bin/$t"; done
  cp "$summary" "$logs/"
  tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$logs"
  cat "$summary"
  exit 0
fi
for t in "$bin"/*_tests; do
  [[ $(basename "$t") == *tsan* ]] && continue
  step "$(basename "$t")" "$t"
done
# The reference corpus case by case (which cases compared against expected.bin, which ran for validity only).
[[ -x $bin/gl_tests ]] && step gl_corpus "$bin/gl_tests" "[corpus]" -r compact -s
[[ -x $bin/nvasm_tests ]] && step nvasm_corpus "$bin/nvasm_tests" "[corpus]" -r compact -s
# The runner on the reference corpus through both fronts on the GPU, and (with the carried lavapipe, see
# gpu-bundle.sh) one suite sharded over both Vulkan devices of the machine.
BISMUTH_VALIDATION=1 step run_corpus_gpu "$bin/bismuth" run tests/data/corpus/nvidia-h100 --device gpu --front both \
  --json "$logs/run_corpus_gpu.json"
if [[ -f .gpu-lavapipe/lvp_icd.json ]]; then
  VK_DRIVER_FILES="$VK_DRIVER_FILES:$PWD/.gpu-lavapipe/lvp_icd.json" LD_LIBRARY_PATH="$PWD/.gpu-lavapipe:$LD_LIBRARY_PATH" \
    step devices_with_lavapipe "$bin/bismuth" devices
  VK_DRIVER_FILES="$VK_DRIVER_FILES:$PWD/.gpu-lavapipe/lvp_icd.json" LD_LIBRARY_PATH="$PWD/.gpu-lavapipe:$LD_LIBRARY_PATH" \
    BISMUTH_VALIDATION=1 step run_devices_all "$bin/bismuth" run examples tests/data/corpus/nvidia-h100 --devices all \
    --front both --json "$logs/run_devices_all.json" --junit "$logs/run_devices_all.xml"
fi
[[ -x $bin/egl_compute ]] && BISMUTH_VALIDATION=1 step egl_compute "$bin/egl_compute"
# The numWaves proposal's examples (GLSL and HLSL) against their CPU references, and its cases through bismuth run.
[[ -x $bin/num_waves_examples ]] && BISMUTH_VALIDATION=1 step num_waves_examples "$bin/num_waves_examples" \
  examples/num_waves
BISMUTH_VALIDATION=1 step run_num_waves "$bin/bismuth" run examples/num_waves/cases --device gpu
[[ -x $bin/egl_compute_system ]] && step egl_compute_system "$bin/egl_compute_system"
# Benchmarks: NVIDIA's own shader disk cache off so that "cold" is cold and disk-warm comes from Bismuth's file.
export __GL_SHADER_DISK_CACHE=0 BISMUTH_CACHE_DIR=off
for b in "$bin"/bench_*; do
  step "$(basename "$b")" "$b" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$(basename "$b").json" --benchmark_out_format=json
done
cp "$summary" "$logs/"
tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$logs"
cat "$summary"
