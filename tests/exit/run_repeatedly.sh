#!/bin/sh
# run_repeatedly.sh RUNS PROGRAM ARGS...: runs PROGRAM RUNS times; fails when any run exits non-zero, dies from a
# signal or hangs (60 s per run). Prints one line per failed run and a summary.
runs=$1
shift
failed=0
signals=0
i=1
while [ "$i" -le "$runs" ]; do
  timeout -s KILL 60 "$@" > run.log 2>&1
  code=$?
  if [ "$code" -ne 0 ]; then
    failed=$((failed + 1))
    [ "$code" -gt 128 ] && signals=$((signals + 1))
    echo "run $i: exit code $code"
    tail -n 5 run.log
  fi
  i=$((i + 1))
done
echo "$* : $runs runs, $failed failed ($signals by a signal)"
[ "$failed" -eq 0 ]
