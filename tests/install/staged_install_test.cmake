# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DLIBDIR=... -P staged_install_test.cmake
#
# Installs the build into WORK_DIR/stage and checks what issue 20 asks of the tree: the CLI runs from it, the layer
# manifests and the EGL vendor JSON name the installed libraries, pkg-config and find_package find libbismuth-gl,
# and a program outside the tree (examples/downstream) runs built each way: against libbismuth-gl (CMake package,
# pkg-config) and against glvnd's libEGL/libOpenGL with only __EGL_VENDOR_LIBRARY_FILENAMES set.
file(REMOVE_RECURSE ${WORK_DIR})
set(stage ${WORK_DIR}/stage)

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${stage})

foreach(file bin/bismuth ${LIBDIR}/libbismuth-gl.so ${LIBDIR}/libbismuth-gl.so.0 include/bismuth/gl/bismuth_gl.h
        include/bismuth/gl/glext_bismuth.h include/vulkan/vulkan_bismuth.h ${LIBDIR}/pkgconfig/bismuth-gl.pc
        ${LIBDIR}/cmake/BismuthGL/BismuthGLConfig.cmake ${LIBDIR}/libVkLayer_bismuth_compute.so
        share/vulkan/explicit_layer.d/VkLayer_bismuth_compute.json
        share/vulkan/implicit_layer.d/VkLayer_bismuth_compute_implicit.json share/man/man1/bismuth.1
        share/doc/bismuth/README.md)
  if(NOT EXISTS ${stage}/${file})
    message(FATAL_ERROR "the install has no ${file}")
  endif()
endforeach()

# The manifests must name the installed library (the loader reads library_path as written).
foreach(kind explicit implicit)
  file(GLOB manifest ${stage}/share/vulkan/${kind}_layer.d/*.json)
  file(READ ${manifest} text)
  string(JSON library GET "${text}" layer library_path)
  if(NOT library STREQUAL "${stage}/${LIBDIR}/libVkLayer_bismuth_compute.so")
    message(FATAL_ERROR "${manifest} names ${library}, not the installed layer")
  endif()
endforeach()

# The GLVND EGL vendor (built where glvnd's ABI headers are installed, libglvnd-core-dev).
if(EGL_VENDOR)
  if(NOT EXISTS ${stage}/${LIBDIR}/libEGL_bismuth.so.0)
    message(FATAL_ERROR "the install has no ${LIBDIR}/libEGL_bismuth.so.0")
  endif()
  file(READ ${stage}/share/glvnd/egl_vendor.d/50_bismuth.json text)
  string(JSON library GET "${text}" ICD library_path)
  if(NOT library STREQUAL "${stage}/${LIBDIR}/libEGL_bismuth.so.0")
    message(FATAL_ERROR "50_bismuth.json names ${library}, not the installed EGL vendor")
  endif()
endif()

# The installed CLI finds the installed libbismuth-gl (its RPATH is $ORIGIN/../lib) and a device.
run_checked("the installed bismuth devices" ${stage}/bin/bismuth devices)
# The man page is the CLI's help.
file(READ ${stage}/share/man/man1/bismuth.1 man)
if(NOT man MATCHES "bismuth run" OR NOT man MATCHES "--baseline")
  message(FATAL_ERROR "bismuth.1 lacks the run subcommand's options")
endif()

# A program outside the tree, found through the CMake package and through pkg-config.
set(ENV{PKG_CONFIG_PATH} ${stage}/${LIBDIR}/pkgconfig)
run_checked("configuring examples/downstream" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/downstream
            -B ${WORK_DIR}/downstream -DCMAKE_PREFIX_PATH=${stage} -DCMAKE_BUILD_TYPE=Release)
run_checked("building examples/downstream" ${CMAKE_COMMAND} --build ${WORK_DIR}/downstream)
foreach(program downstream_cmake downstream_pkgconfig)
  run_checked(${program} ${WORK_DIR}/downstream/${program})
  message(STATUS "${program}: ${last_output}")
  if(NOT last_output MATCHES "0 wrong")
    message(FATAL_ERROR "${program} did not compute: ${last_output}")
  endif()
endforeach()
# The same program linked only against glvnd's libEGL and libOpenGL runs on Bismuth through the installed vendor.
if(EGL_VENDOR AND EXISTS ${WORK_DIR}/downstream/downstream_glvnd)
  set(ENV{__EGL_VENDOR_LIBRARY_FILENAMES} ${stage}/share/glvnd/egl_vendor.d/50_bismuth.json)
  run_checked(downstream_glvnd ${WORK_DIR}/downstream/downstream_glvnd)
  message(STATUS "downstream_glvnd: ${last_output}")
  if(NOT last_output MATCHES "Bismuth on .*0 wrong")
    message(FATAL_ERROR "downstream_glvnd did not run on Bismuth: ${last_output}")
  endif()
endif()
file(REMOVE_RECURSE ${WORK_DIR})
