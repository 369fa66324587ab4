# What `cmake --install` (and the .deb, cmake/BismuthPackage.cmake) puts where its ecosystem looks for it (issue 20):
#   bin/bismuth                                   the CLI (tools/CMakeLists.txt), and its man page (share/man/man1)
#   lib/libbismuth-gl.so.0 + .so                  the GL shim, with include/bismuth/gl/*.h,
#   lib/pkgconfig/bismuth-gl.pc                   pkg-config (relocatable),
#   lib/cmake/BismuthGL/                          find_package(BismuthGL) -> BismuthGL::gl
#   lib/libEGL_bismuth.so.0                       the GLVND EGL vendor (translator/gl/glvnd), with
#                                                 share/glvnd/egl_vendor.d/50_bismuth.json
#   lib/libVkLayer_bismuth_compute.so             the layer, with share/vulkan/{explicit,implicit}_layer.d manifests
#                                                 (layer/vk_layer/CMakeLists.txt)
#   share/doc/bismuth/                            README and docs/*.md
# Paths follow GNUInstallDirs (lib/x86_64-linux-gnu for the /usr prefix on Debian).
include(CMakePackageConfigHelpers)

set_target_properties(bismuth-gl PROPERTIES EXPORT_NAME gl)
install(TARGETS bismuth-gl EXPORT BismuthGLTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/translator/gl/include/bismuth DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

set(_bismuth_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/BismuthGL)
install(EXPORT BismuthGLTargets NAMESPACE BismuthGL:: DESTINATION ${_bismuth_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/install/BismuthGLConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/install/BismuthGLConfig.cmake
                              INSTALL_DESTINATION ${_bismuth_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/install/BismuthGLConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/install/BismuthGLConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/install/BismuthGLConfigVersion.cmake
        DESTINATION ${_bismuth_cmake_dir})

# The GLVND EGL vendor and its JSON, which names the installed library by absolute path: written at install time so
# that `cmake --install --prefix`, DESTDIR and the .deb's /usr (cmake/BismuthPackage.cmake) are honoured.
if(TARGET bismuth-egl-vendor)
  install(TARGETS bismuth-egl-vendor LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_SKIP)
  install(CODE "
    set(BISMUTH_EGL_VENDOR_LIBRARY
        \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_SONAME_FILE_NAME:bismuth-egl-vendor>\")
    set(destination \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATAROOTDIR}/glvnd/egl_vendor.d\")
    configure_file(\"${CMAKE_CURRENT_LIST_DIR}/install/50_bismuth.json.in\" \"\${destination}/50_bismuth.json\" @ONLY)
    message(STATUS \"Installing: \${destination}/50_bismuth.json\")
  ")
endif()

# The .pc file finds the prefix from its own folder (lib[/<multiarch>]/pkgconfig -> ../../[..]).
file(RELATIVE_PATH BISMUTH_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" BISMUTH_PC_TO_PREFIX "${BISMUTH_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/install/bismuth-gl.pc.in ${CMAKE_CURRENT_BINARY_DIR}/install/bismuth-gl.pc
               @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/install/bismuth-gl.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The man page, written from the CLI's own --help once the CLI is built.
set(_bismuth_man ${CMAKE_CURRENT_BINARY_DIR}/install/bismuth.1)
add_custom_command(OUTPUT ${_bismuth_man}
                   COMMAND ${CMAKE_COMMAND} -DBISMUTH=$<TARGET_FILE:bismuth> -DVERSION=${PROJECT_VERSION}
                           -DOUTPUT=${_bismuth_man} -P ${CMAKE_CURRENT_LIST_DIR}/help_to_man.cmake
                   DEPENDS bismuth ${CMAKE_CURRENT_LIST_DIR}/help_to_man.cmake
                   COMMENT "Writing the bismuth(1) man page from the CLI's help" VERBATIM)
add_custom_target(bismuth_man_page ALL DEPENDS ${_bismuth_man})
install(FILES ${_bismuth_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(_bismuth_doc_dir ${CMAKE_INSTALL_DATAROOTDIR}/doc/bismuth)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${_bismuth_doc_dir})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${_bismuth_doc_dir} FILES_MATCHING PATTERN "*.md")
