#!/usr/bin/env bash
# side_by_side.sh: issue 17's and 18's measuring programs on NVIDIA's GL, Zink and Bismuth, one after the other in one run on
# the GPU machine (docs/performance.md, "Real programs side by side"; ../shared/gpu/README.md, "Side by side").
#
#   examples/side_by_side.sh [BIN_DIR] [variable] [fixed] [stream] [filter]      (default: .gpu/bin, all four)
#
# From the repository root on the GPU machine, after `source .gpu/gpu-env.sh` (NVIDIA's EGL), with the bundle holding
# program_loop, dispatch_stream and image_filter (each with its _system twin), and .mesa carried for Zink (Zink is
# skipped with a message without .gpu/zink-env.sh or .mesa). Implementations:
#   nvidia   <name>_system --egl device          NVIDIA's GL through the system libEGL/libOpenGL
#   zink     <name>_system --egl surfaceless     the same binary after `source .gpu/zink-env.sh` (in a subshell)
#   bismuth  <name> --egl surfaceless            linked against libbismuth-gl (surfaceless honours BISMUTH_DEVICE)
# Program loops, for each implementation: `cold` (every disk cache off: __GL_SHADER_DISK_CACHE=0,
# MESA_SHADER_CACHE_DISABLE=true, BISMUTH_CACHE_DIR=off; --repeat 2, so its pass 2 shows the in-process cache),
# then `fill` and `warm`: two processes sharing fresh cache folders (NVIDIA's, Mesa's and Bismuth's), the second
# one is the warm figure. Dispatch streams and the image filter run once per implementation (caches off). Every output line is the
# program's own key=value line prefixed with `impl_kind=<nvidia|zink|bismuth> run=<cold|fill|warm>`; a program's
# failure (exit status 1) is reported as `status=<code>` and makes the script exit 1 at the end.
# PROGRAM_LOOP_ARGS, DISPATCH_STREAM_ARGS and IMAGE_FILTER_ARGS (e.g. "--count 100") are added to every run of each program;
# WARM_RUNS=N starts N warm processes one after another (default 1), to show the spread of the warm figure.
set -uo pipefail
bin=.gpu/bin
if [[ $# -gt 0 && -d $1 ]]; then
  bin=$1
  shift
fi
what=("$@")
[[ ${#what[@]} -gt 0 ]] || what=(variable fixed stream filter)
caches=$(mktemp -d)
failed=0
have_zink=0
[[ -f .gpu/zink-env.sh && -d .mesa ]] && have_zink=1

cold_env=(__GL_SHADER_DISK_CACHE=0 MESA_SHADER_CACHE_DISABLE=true BISMUTH_CACHE_DIR=off)
cache_env() {
  local dir=$caches/$1
  mkdir -p "$dir/nvidia" "$dir/mesa" "$dir/bismuth"
  echo __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH="$dir/nvidia" __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    MESA_SHADER_CACHE_DISABLE=false MESA_SHADER_CACHE_DIR="$dir/mesa" BISMUTH_CACHE_DIR="$dir/bismuth"
}

# NVIDIA's Vulkan driver, which Zink runs on, initialises through its GLVND EGL vendor: with only Mesa's vendor file
# in __EGL_VENDOR_LIBRARY_FILENAMES (as zink-env.sh sets it), its vk_icdGetInstanceProcAddr returns no
# vkCreateInstance and Zink fails with VK_ERROR_INCOMPATIBLE_DRIVER. Listing Mesa's file first and NVIDIA's after
# it keeps Mesa (Zink) as the surfaceless platform's EGL and lets the Vulkan driver start.
zink_vendors() {
  local nvidia_vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [[ -f $nvidia_vendor ]] && export __EGL_VENDOR_LIBRARY_FILENAMES="$__EGL_VENDOR_LIBRARY_FILENAMES:$nvidia_vendor"
  return 0
}

# run IMPL RUN ENV_WORDS PROGRAM ARGS...: one program on one implementation, its stdout lines prefixed.
run() {
  local impl=$1 label=$2 env_words=$3 program=$4
  shift 4
  local status
  case $impl in
    nvidia) env $env_words "$bin/${program}_system" --egl device "$@" ;;
    zink) (source .gpu/zink-env.sh >/dev/null 2>&1 && zink_vendors && env $env_words "$bin/${program}_system" --egl surfaceless "$@") ;;
    bismuth) env $env_words "$bin/$program" --egl surfaceless "$@" ;;
  esac | sed "s/^/impl_kind=$impl run=$label /"
  status=${PIPESTATUS[0]}
  if [[ $status -ne 0 ]]; then
    echo "impl_kind=$impl run=$label $program $* status=$status"
    [[ $status -ne 2 ]] && failed=1
  fi
}

implementations=(nvidia bismuth)
if [[ $have_zink -eq 1 ]]; then
  implementations=(nvidia zink bismuth)
else
  echo "side_by_side: no .gpu/zink-env.sh or .mesa: Zink skipped" >&2
fi

for item in "${what[@]}"; do
  for impl in "${implementations[@]}"; do
    case $item in
      variable | fixed)
        run "$impl" cold "${cold_env[*]}" program_loop "$item" --repeat 2 ${PROGRAM_LOOP_ARGS:-}
        run "$impl" fill "$(cache_env "$impl-$item")" program_loop "$item" ${PROGRAM_LOOP_ARGS:-}
        for ((i = 0; i < ${WARM_RUNS:-1}; ++i)); do
          run "$impl" warm "$(cache_env "$impl-$item")" program_loop "$item" ${PROGRAM_LOOP_ARGS:-}
        done
        ;;
      stream) run "$impl" cold "${cold_env[*]}" dispatch_stream ${DISPATCH_STREAM_ARGS:-} ;;
      filter) run "$impl" cold "${cold_env[*]}" image_filter ${IMAGE_FILTER_ARGS:-} ;;
      *) echo "side_by_side: unknown item $item (variable, fixed, stream, filter)" >&2; exit 64 ;;
    esac
  done
done
rm -rf "$caches"
exit $failed
