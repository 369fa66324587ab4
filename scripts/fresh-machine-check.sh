#!/usr/bin/env bash
# Proves the README's two commands on a fresh Debian 12: builds a minimal bookworm root with mmdebstrap (minbase:
# essential packages, apt and make — nothing of what scripts/install-deps.sh installs), clones this repository's
# committed HEAD into it, and runs `make run` and `make test` there as root, so install-deps.sh must install
# everything the build, the main job and the tests need. A green run on a developer's machine can hide a missing
# install step (glslang-dev needs glslang-tools, which the developer's machine happened to have); this cannot.
#
#   sudo scripts/fresh-machine-check.sh [--keep] [WORK_DIR]     (default WORK_DIR: /tmp/bismuth-fresh)
#
# Needs root (mmdebstrap's root mode, chroot), mmdebstrap (apt-get install mmdebstrap) and access to a Debian
# mirror (BISMUTH_DEBIAN_MIRROR, default http://deb.debian.org/debian). Takes 20-40 minutes on 2 cores; not part of
# CI's time budget (docs/building.md). Logs: WORK_DIR/make-run.log and WORK_DIR/make-test.log; exit status 0 only
# when both commands succeeded.
set -euo pipefail

keep=0
if [[ ${1:-} == --keep ]]; then
  keep=1
  shift
fi
work=${1:-/tmp/bismuth-fresh}
mirror=${BISMUTH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
repo=$(cd "$(dirname "$0")/.." && pwd)

if [[ $(id -u) -ne 0 ]]; then
  echo "fresh-machine-check: needs root (mmdebstrap root mode and chroot)" >&2
  exit 1
fi
command -v mmdebstrap > /dev/null || { echo "fresh-machine-check: install mmdebstrap first" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
# A fresh clone of what is committed: uncommitted files must not make the check pass.
git clone --quiet --no-local "$repo" "$work/src"
# The reference corpus lives beside the checkout (../shared); tests use the copy in tests/data, so it stays out.
echo "fresh-machine-check: cloned $(git -C "$work/src" rev-parse --short HEAD) into $work/src"

# Runs inside the new root (mmdebstrap mounts /proc, /sys and /dev for the hooks); `make` is the only package
# added to minbase, since the README's commands start with it.
cat > "$work/inside.sh" <<'EOF'
#!/bin/sh
set -u
cd /root/src
echo "== make run"
make run > /root/make-run.log 2>&1
run=$?
echo "make run: exit $run"
tail -n 25 /root/make-run.log
echo "== make test"
CI=true make test > /root/make-test.log 2>&1
test=$?
echo "make test: exit $test"
tail -n 15 /root/make-test.log
echo "$run $test" > /root/status
EOF
chmod +x "$work/inside.sh"

set +e
mmdebstrap --variant=minbase --include=make,ca-certificates --mode=root \
  --customize-hook="copy-in $work/src /root" \
  --customize-hook="upload $work/inside.sh /root/inside.sh" \
  --customize-hook='chroot "$1" sh /root/inside.sh' \
  --customize-hook="download /root/make-run.log $work/make-run.log" \
  --customize-hook="download /root/make-test.log $work/make-test.log" \
  --customize-hook="download /root/status $work/status" \
  bookworm "$work/root" "$mirror"
strap=$?
set -e
if [[ $strap -ne 0 || ! -f $work/status ]]; then
  echo "fresh-machine-check: FAILED: mmdebstrap exited $strap (logs in $work)" >&2
  exit 1
fi
read -r run test < "$work/status"
[[ $keep -eq 1 ]] || rm -rf "$work/root"
if [[ $run -eq 0 && $test -eq 0 ]]; then
  echo "fresh-machine-check: OK: make run and make test passed in a fresh Debian 12 root (logs in $work)"
  exit 0
fi
echo "fresh-machine-check: FAILED: make run exit $run, make test exit $test (logs in $work)" >&2
exit 1
