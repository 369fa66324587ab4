#!/usr/bin/env bash
# Proves the Debian package on a clean Debian 12 (issue 20): builds a minimal bookworm root with mmdebstrap, installs
# the .deb with `apt install ./bismuth_*.deb` (apt resolves its dependencies from the mirror), then checks what a
# user of each piece would do:
#   * `VK_LOADER_LAYERS_ENABLE=*bismuth* vulkaninfo --summary` lists VK_LAYER_BISMUTH_compute (no VK_ADD_LAYER_PATH);
#   * `bismuth devices` runs (lavapipe comes with the package's Recommends);
#   * examples/downstream builds against /usr with find_package(BismuthGL) and with pkg-config, and both programs
#     compute on lavapipe;
#   * the same program linked only against glvnd's libEGL + libOpenGL runs on Bismuth with only
#     __EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_bismuth.json set.
#
#   sudo scripts/deb-check.sh [DEB] [WORK_DIR]     (default DEB: build/bismuth_*_amd64.deb; WORK_DIR /tmp/bismuth-deb)
#
# Needs root, mmdebstrap and a Debian mirror (BISMUTH_DEBIAN_MIRROR, default http://deb.debian.org/debian); takes a
# few minutes. Log: WORK_DIR/deb-check.log; exit status 0 only when every check passed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
deb=${1:-$(ls "$repo"/build/bismuth_*_amd64.deb 2>/dev/null | head -n 1)}
work=${2:-/tmp/bismuth-deb}
mirror=${BISMUTH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
[[ $(id -u) -eq 0 ]] || { echo "deb-check: needs root (mmdebstrap root mode and chroot)" >&2; exit 1; }
command -v mmdebstrap > /dev/null || { echo "deb-check: install mmdebstrap first" >&2; exit 1; }
[[ -f $deb ]] || { echo "deb-check: no package (run make package first)" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cp "$deb" "$work/bismuth.deb"
cat > "$work/inside.sh" <<'EOF'
#!/bin/sh
set -u
failed=0
check() { if "$@"; then echo "deb-check: ok: $*"; else echo "deb-check: FAILED: $*"; failed=1; fi; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -q > /dev/null
# As `apt install ./bismuth_*.deb` on a default Debian: with Recommends (lavapipe), which mmdebstrap turns off.
check apt-get install -y -q -o APT::Install-Recommends=true /root/bismuth.deb
check apt-get install -y -q --no-install-recommends vulkan-tools build-essential cmake pkg-config libgl-dev libegl-dev libopengl-dev
VK_LOADER_LAYERS_ENABLE='*bismuth*' vulkaninfo --summary > /root/vulkaninfo.txt 2>&1
check grep -q VK_LAYER_BISMUTH_compute /root/vulkaninfo.txt
check bismuth devices
check cmake -S /root/downstream -B /root/downstream-build -DCMAKE_PREFIX_PATH=/usr
check cmake --build /root/downstream-build
check /root/downstream-build/downstream_cmake
check /root/downstream-build/downstream_pkgconfig
# An unmodified program linked against glvnd's libEGL + libOpenGL, with only the vendor JSON named.
__EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_bismuth.json /root/downstream-build/downstream_glvnd \
  > /root/glvnd.txt 2>&1
cat /root/glvnd.txt
check grep -q "Bismuth on .*0 wrong" /root/glvnd.txt
echo "$failed" > /root/status
EOF
set +e
mmdebstrap --variant=minbase --include=ca-certificates --mode=root \
  --customize-hook="upload $work/bismuth.deb /root/bismuth.deb" \
  --customize-hook="copy-in $repo/examples/downstream /root" \
  --customize-hook="upload $work/inside.sh /root/inside.sh" \
  --customize-hook='chroot "$1" sh /root/inside.sh > "$1/root/deb-check.log" 2>&1' \
  --customize-hook="download /root/deb-check.log $work/deb-check.log" \
  --customize-hook="download /root/status $work/status" \
  bookworm "$work/root" "$mirror"
strap=$?
set -e
rm -rf "$work/root"
grep '^deb-check:' "$work/deb-check.log" 2>/dev/null || true
if [[ $strap -eq 0 && -f $work/status && $(cat "$work/status") == 0 ]]; then
  echo "deb-check: OK: $(basename "$deb") installs and works in a clean Debian 12 root (log: $work/deb-check.log)"
  exit 0
fi
echo "deb-check: FAILED (mmdebstrap exit $strap; log: $work/deb-check.log)" >&2
exit 1
