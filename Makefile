# Thin wrapper over the CMake presets (CMakePresets.json). Developers can call cmake/ctest directly.
#   make run    install missing packages, build, run the main job on the default device (lavapipe)
#   make test   install missing packages, build, run the whole test suite through ctest
#   make package  build the Debian package (build/bismuth_<version>_amd64.deb)
# PRESET=default|debug|release|asan|tsan picks the preset; CI=true turns warnings into errors.

PRESET ?= default
JOBS ?= $(shell nproc)
BUILD_DIR := $(if $(filter default,$(PRESET)),build,build-$(PRESET))
export BISMUTH_WERROR := $(if $(filter true 1,$(CI)),ON,$(BISMUTH_WERROR))

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
# AddressSanitizer + UBSan (preset asan) and ThreadSanitizer (preset tsan); only the targets they need are built.
# CI runs it after `make test` (.ci/run).
SANITIZE_TARGETS := gl_tests backend_tests bismuth_layer_tests exit_program layer_exit_program
sanitize: deps
	set -e; for preset in asan tsan; do \
	  cmake --preset $$preset; \
	  cmake --build --preset $$preset -j $(JOBS) --target $(SANITIZE_TARGETS); \
	  ctest --preset $$preset -L 'sanitize|exit' -j $(JOBS); \
	done

# The Debian package bismuth_<version>_amd64.deb in the build folder (cmake/BismuthPackage.cmake): everything
# `cmake --install` installs, under /usr. Install it with `apt install ./build/bismuth_*.deb`.
package: build
	cd $(BUILD_DIR) && cpack -G DEB

clean:
	rm -rf $(BUILD_DIR)

format:
	git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | xargs clang-format -i
