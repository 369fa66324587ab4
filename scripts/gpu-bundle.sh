#!/usr/bin/env bash
# Prepares .gpu/ for the GPU machine (../shared/gpu/README.md): the built programs and test binaries with their
# libraries (through ../shared/gpu/bundle.sh), debug info stripped to fit the transfer limit, plus the Khronos
# validation layer so tests there run with it too (point VK_ADD_LAYER_PATH at .gpu/layers).
#   scripts/gpu-bundle.sh [BUILD_DIR]     (default: build)
# The result is also packed as .gpu.tar.xz, which is what travels (carry [".gl", ".gpu.tar.xz"]): statically linked
# glslang makes each binary several MB and the transfer limit is 64 MiB. On the GPU machine:
#   tar xJf .gpu.tar.xz && source .gpu/gpu-env.sh; export VK_ADD_LAYER_PATH=$PWD/.gpu/layers BISMUTH_TEST_BIN_DIR=$PWD/.gpu/bin
# or everything at once, logs under $OUT:  tar xJf .gpu.tar.xz && .gpu/gpu-check.sh "$OUT"
# (with BISMUTH_GPU_LAVAPIPE=1, also carry .gpu-lavapipe.tar.xz and unpack it first: a second Vulkan device)
set -euo pipefail
repo=$(git rev-parse --show-toplevel)
build=${1:-$repo/build}
shared_gpu="$repo/../shared/gpu"
[[ -x $shared_gpu/bundle.sh ]] || { echo "gpu-bundle: $shared_gpu/bundle.sh not found" >&2; exit 1; }
[[ -d $repo/.gl ]] || "$shared_gpu/fetch-loader-debs.sh"

mapfile -t programs < <(find "$build/tools" "$build/examples" "$build/tests" "$build/bench" -maxdepth 3 -type f \
  -perm -u+x \( -name bismuth -o -name hello_dispatch -o -name 'egl_compute*' -o -name '*_tests' -o -name 'bench_*' \
  -o -name '*exit_program' -o -name 'conformance_*' -o -name num_waves_examples -o -name 'program_loop*' \
  -o -name 'dispatch_stream*' -o -name 'image_filter*' -o -name 'glvnd_*' \) \
  2>/dev/null)
# Bismuth's GLVND EGL vendor library (docs/glvnd.md), bundled like a program so that libbismuth-gl comes along.
vendor=$build/translator/gl/glvnd/libEGL_bismuth.so.0
[[ -f $vendor ]] && programs+=("$vendor")
# BISMUTH_GPU_SIDE_BY_SIDE=1: only the side-by-side programs (examples/side_by_side.sh) and the front-end
# benchmarks, so that the packed bundle leaves room in the 64 MiB transfer for .mesa (Zink) beside it.
if [[ ${BISMUTH_GPU_SIDE_BY_SIDE:-0} == 1 ]]; then
  mapfile -t programs < <(printf '%s\n' "${programs[@]}" | grep -E '/((program_loop|dispatch_stream|image_filter)(_system)?|bench_glslang_floor|bench_program_churn|libEGL_bismuth\.so\.0)$')
fi
validation_layer=/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so
rm -rf "$repo/.gpu"
if [[ ${BISMUTH_GPU_SIDE_BY_SIDE:-0} == 1 ]]; then
  # The programs measure; they need neither the validation layer nor Bismuth's layers.
  "$shared_gpu/bundle.sh" "${programs[@]}" >/dev/null
else
  "$shared_gpu/bundle.sh" "${programs[@]}" "$validation_layer" >/dev/null
  mkdir -p "$repo/.gpu/layers"
  mv "$repo/.gpu/bin/$(basename "$validation_layer")" "$repo/.gpu/layers/"
  sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
    /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json > "$repo/.gpu/layers/VkLayer_khronos_validation.json"
  # Bismuth's layer and the tests' spy and teardown layers, each with its manifest (which names the library relative
  # to itself), in a folder named after its build path: .gpu/layer_vk_layer, .gpu/tests_layer_vk_layer, .gpu/tests_exit.
  for layer in layer/vk_layer tests/layer/vk_layer tests/exit; do
    dest="$repo/.gpu/${layer//\//_}"
    layer="$build/$layer"
    [[ -d $layer ]] || continue
    mkdir -p "$dest"
    cp "$layer"/*.so "$layer"/*.json "$dest/" 2>/dev/null || true
    [[ -d $layer/implicit_layer.d ]] && cp -r "$layer/implicit_layer.d" "$dest/"
  done
fi
cp "$repo/scripts/gpu-check.sh" "$repo/scripts/gpu-exit-check.sh" "$repo/tests/exit/run_repeatedly.sh" "$repo/.gpu/"
# The vendor library goes beside libbismuth-gl in .gpu/lib, and its JSON names it by soname: glvnd dlopens the
# library_path, and a bare soname is found on LD_LIBRARY_PATH (gpu-env.sh puts .gpu/lib there).
if [[ -f $repo/.gpu/bin/libEGL_bismuth.so.0 ]]; then
  mv "$repo/.gpu/bin/libEGL_bismuth.so.0" "$repo/.gpu/lib/"
  mkdir -p "$repo/.gpu/glvnd"
  printf '{\n  "file_format_version": "1.0.0",\n  "ICD": {\n    "library_path": "libEGL_bismuth.so.0"\n  }\n}\n' \
    > "$repo/.gpu/glvnd/50_bismuth.json"
fi
strip --strip-debug "$repo"/.gpu/bin/* "$repo"/.gpu/lib/* 2>/dev/null || true
grep -qx '/.gpu.tar.xz' "$repo/.git/info/exclude" || echo '/.gpu.tar.xz' >> "$repo/.git/info/exclude"
tar -C "$repo" -cf - .gpu | xz -T2 -6 > "$repo/.gpu.tar.xz"
du -sh "$repo/.gpu" "$repo/.gpu.tar.xz"

# BISMUTH_GPU_LAVAPIPE=1: also pack this machine's lavapipe (Mesa's CPU Vulkan driver, its libraries and an ICD
# manifest naming it relative to itself) as .gpu-lavapipe.tar.xz, so that the GPU machine has two Vulkan devices
# (gpu-check.sh then demonstrates `bismuth run --devices all`). Built once: it does not change with Bismuth.
if [[ ${BISMUTH_GPU_LAVAPIPE:-0} == 1 && ! -f $repo/.gpu-lavapipe.tar.xz ]]; then
  lvp_dir="$repo/.gpu-lavapipe"
  lvp=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
  rm -rf "$lvp_dir" && mkdir -p "$lvp_dir"
  cp "$lvp" "$lvp_dir/"
  ldd "$lvp" | awk '/=> \//{print $1" "$3}' | while read -r name path; do
    [[ $name =~ ^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libvulkan\.|libstdc\+\+|libgcc_s) ]] && continue
    cp -L "$path" "$lvp_dir/$name"
  done
  printf '{ "file_format_version": "1.0.0", "ICD": { "library_path": "./libvulkan_lvp.so", "api_version": "1.1.230" } }\n' \
    > "$lvp_dir/lvp_icd.json"
  strip --strip-debug "$lvp_dir"/*.so* 2>/dev/null || true
  grep -qx '/.gpu-lavapipe*' "$repo/.git/info/exclude" || echo '/.gpu-lavapipe*' >> "$repo/.git/info/exclude"
  tar -C "$repo" -cf - .gpu-lavapipe | xz -T2 -6 > "$repo/.gpu-lavapipe.tar.xz"
  du -sh "$repo/.gpu-lavapipe.tar.xz"
fi
