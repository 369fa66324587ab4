# Thin wrapper over the CMake presets (CMakePresets.json). Developers can call cmake/ctest directly.
#   make run    install missing packages, build, run the main job on the default device (lavapipe)
#   make test   install missing packages, build, run the whole test suite through ctest
# PRESET=default|debug|release|asan|tsan picks the preset; CI=true turns warnings into errors.

PRESET ?= default
JOBS ?= $(shell nproc)
BUILD_DIR := $(if $(filter default,$(PRESET)),build,build-$(PRESET))
export BISMUTH_WERROR := $(if $(filter true 1,$(CI)),ON,$(BISMUTH_WERROR))

.PHONY: all deps configure build run test clean format

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
	$(BUILD_DIR)/tools/bismuth run examples/ --jobs $(JOBS)

test: build
	ctest --preset $(PRESET) -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)

format:
	git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | xargs clang-format -i
