#!/bin/sh
# Runs the ThreadSanitizer-instrumented concurrency test. GCC 12's TSAN runtime aborts at start-up ("unexpected
# memory mapping") on kernels with high mmap randomisation; the test is then re-run with ASLR disabled for this
# process only (setarch -R), which is what TSAN's own message recommends.
binary="$1"
shift
output=$("$binary" "$@" 2>&1)
status=$?
if [ $status -ne 0 ] && printf '%s' "$output" | grep -q "unexpected memory mapping"; then
  exec setarch "$(uname -m)" -R "$binary" "$@"
fi
printf '%s\n' "$output"
exit $status
