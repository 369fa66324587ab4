#!/bin/bash
# Runs every libFuzzer binary of a build (BISMUTH_BUILD_FUZZERS=ON, clang) for N executions each, in fork mode
# over all cores, starting from its seed corpus, and prints one line per target:
#     target executions seconds findings
# (findings: crash-, leak-, timeout- and oom- files libFuzzer wrote). Inputs it finds new coverage with are kept
# under OUT_DIR/<target>/corpus, findings under OUT_DIR/<target>/artifacts, the log in OUT_DIR/<target>/log.
#
# Usage: tests/fuzz/run_fuzzers.sh BUILD_DIR [EXECUTIONS=1000000] [OUT_DIR=BUILD_DIR/fuzz-runs] [TARGET...]
#   JOBS (default: every core) sets the number of fuzzing processes; TIMEOUT (default 60) the seconds one input
#   may take before it counts as a finding; MAX_LEN, when set, the longest input; MAX_TIME, when set, the seconds
#   a target may run before it stops short of EXECUTIONS.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:?usage: run_fuzzers.sh BUILD_DIR [EXECUTIONS] [OUT_DIR] [TARGET...]}"
executions="${2:-1000000}"
out="${3:-$build/fuzz-runs}"
shift $(($# < 3 ? $# : 3))
jobs="${JOBS:-$(nproc)}"
timeout="${TIMEOUT:-60}"

# The seed corpus of each target (several directories where a target has them).
seeds_of() {
  case "$1" in
    module_parse | workgroup_size | subgroup_lowering | reflect | runtime_group_size) echo "$here/corpus" ;;
    shader_test_parse) echo "$here/shader_test_corpus $repo/tests/tools/runner/data $repo/examples/shader_tests" ;;
    case_json) echo "$here/case_json_corpus $repo/tests/data/corpus/nvidia-h100 $repo/examples/corpus" ;;
    nvasm_assemble) echo "$repo/tests/translator/nvasm/fuzz/corpus" ;;
    glsl_rewrites | glsl_front) echo "$here/glsl_corpus" ;;
    cache_file) echo "$here/cache_file_corpus" ;;
  esac
}

# Its dictionary: tests/fuzz/<target>.dict, else the one named by the target's first word (glsl.dict).
dictionary_of() {
  for dict in "$here/$1.dict" "$here/${1%%_*}.dict" "$repo/tests/translator/nvasm/fuzz/${1%%_*}.dict"; do
    if [ -f "$dict" ]; then
      echo "$dict"
      return
    fi
  done
}

mapfile -t binaries < <(find "$build" -type f -perm -u+x -name 'fuzz_*' | sort)
if [ "${#binaries[@]}" -eq 0 ]; then
  echo "no fuzz_* binaries under $build (configure it with -DBISMUTH_BUILD_FUZZERS=ON and CXX=clang++)" >&2
  exit 1
fi

printf '%-22s %12s %9s %9s\n' target executions seconds findings
status=0
for binary in "${binaries[@]}"; do
  name="$(basename "$binary")"
  name="${name#fuzz_}"
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  work="$out/$name"
  mkdir -p "$work/corpus" "$work/artifacts"
  options=(-fork="$jobs" -runs="$executions" -timeout="$timeout" -ignore_crashes=1 -ignore_timeouts=1
           -ignore_ooms=1 -artifact_prefix="$work/artifacts/")
  dict="$(dictionary_of "$name")"
  [ -n "$dict" ] && options+=(-dict="$dict")
  [ -n "${MAX_LEN:-}" ] && options+=(-max_len="$MAX_LEN")
  [ -n "${MAX_TIME:-}" ] && options+=(-max_total_time="$MAX_TIME")
  read -r -a seeds <<< "$(seeds_of "$name")"
  start=$(date +%s)
  "$binary" "${options[@]}" "$work/corpus" "${seeds[@]}" > "$work/log" 2>&1
  seconds=$(($(date +%s) - start))
  # Fork mode's status lines start with "#<total executions>:".
  ran="$(grep -oE '^#[0-9]+' "$work/log" | tail -1 | tr -d '#')"
  findings="$(find "$work/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)"
  printf '%-22s %12s %9s %9s\n' "$name" "${ran:-0}" "$seconds" "$findings"
  [ "$findings" -eq 0 ] || status=1
done
exit $status
