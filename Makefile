# Thin wrapper over the CMake presets (CMakePresets.json). Developers can call cmake/ctest directly.
#   make run    install missing packages, build, run the main job on the default device (lavapipe)
#   make test   install missing packages, build, run the whole test suite through ctest
#   make package  build the Debian package (build/bismuth_<version>_amd64.deb)
# PRESET=default|debug|release|asan|tsan picks the preset; CI=true turns warnings into errors.

PRESET ?= default
JOBS ?= $(shell nproc)
BUILD_DIR := $(if $(filter default,$(PRESET)),build,build-$(PRESET))
export BISMUTH_WERROR := $(if $(filter true 1,$(CI)),ON,$(BISMUTH_WERROR))
# CI=true also builds with line tables only (-g1, docs/building.md "Sanitizers in CI"): the same code, less to compile.
export BISMUTH_DEBUG_INFO := $(if $(filter true 1,$(CI)),lines,$(BISMUTH_DEBUG_INFO))

.PHONY: all deps configure build run test sanitize package clean format

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

# The main job: list the Vulkan devices, prove the toolchain end to end on the default device, then run the
# example regression suite (examples/: shader_tests and corpus cases) through `bismuth run` and print its summary.
run: build
	$(BUILD_DIR)/tools/bismuth devices
	$(BUILD_DIR)/examples/hello_dispatch/hello_dispatch
	$(BUILD_DIR)/examples/num_waves/num_waves_examples
	$(BUILD_DIR)/tools/bismuth run examples/ --jobs $(JOBS)

test: build
	ctest --preset $(PRESET) -j $(JOBS)

# The multi-threaded tests of the GL shim, the backend and the layer, and the process-exit tests, under
# AddressSanitizer + UBSan (preset asan) and ThreadSanitizer (preset tsan), and the fuzz corpus replays under
# AddressSanitizer + UBSan; only the targets they need are built. CI runs it after `make test` (.ci/run).
SANITIZE_TARGETS := gl_concurrency_tests backend_concurrency_tests bismuth_layer_tests exit_program layer_exit_program
FUZZ_REPLAY_TARGETS := spirv_patch_corpus_replay glsl_corpus_replay nvasm_corpus_replay shader_test_corpus_replay \
                       case_json_corpus_replay cache_file_corpus_replay
sanitize: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS) --target $(SANITIZE_TARGETS) $(FUZZ_REPLAY_TARGETS)
	ctest --preset asan -L 'sanitize|exit|fuzz' -j $(JOBS)
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS) --target $(SANITIZE_TARGETS)
	ctest --preset tsan -L 'sanitize|exit' -j $(JOBS)

# The Debian package bismuth_<version>_amd64.deb in the build folder (cmake/BismuthPackage.cmake): everything
# `cmake --install` installs, under /usr. Install it with `apt install ./build/bismuth_*.deb`.
package: build
	cd $(BUILD_DIR) && cpack -G DEB

clean:
	rm -rf $(BUILD_DIR)

format:
	git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | xargs clang-format -i
