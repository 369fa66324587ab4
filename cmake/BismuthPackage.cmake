# The Debian package (issue 20): `cpack -G DEB` in a build folder, or `make package` from the source tree, writes
# bismuth_<version>_amd64.deb holding everything `cmake --install` installs (cmake/BismuthInstall.cmake), under /usr.
# Its shared-library dependencies come from dpkg-shlibdeps; the Vulkan loader is named by hand because volk opens
# libvulkan.so.1 with dlopen, which dpkg-shlibdeps cannot see.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bismuth)
set(CPACK_PACKAGE_VENDOR "Bismuth")
set(CPACK_PACKAGE_CONTACT "Bismuth developers <bismuth-dev@lists.bismuth.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GL-style compute (GL 4.6 / ES 3.2 compute, NV assembly, a Vulkan layer) on any Vulkan GPU")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "Bismuth runs GL compute on any Vulkan 1.1+ device: libbismuth-gl (GL 4.6 / OpenGL ES 3.2 compute and a "
       "headless EGL, linked instead of libEGL/libGL), the Vulkan layer VK_LAYER_BISMUTH_compute (variable group "
       "size, ballot and vote, num_waves) and the bismuth command-line runner for piglit shader_test files and corpus "
       "cases.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# The package installs under /usr whatever prefix the build was configured with: CPack installs into a staging
# DESTDIR with CMAKE_INSTALL_PREFIX = CPACK_INSTALL_PREFIX, so the layer manifests written at install time
# (layer/vk_layer/CMakeLists.txt) name /usr/... and not the staging folder.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # bismuth_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libvulkan1 (>= 1.3)")
# lavapipe lets it run without a GPU; the validation layer serves BISMUTH_VALIDATION=1.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")
# glvnd (libegl1, libopengl0) loads the EGL vendor for programs linked against it.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "vulkan-validationlayers, libegl1, libopengl0, libgl-dev, libegl-dev")
set(CPACK_STRIP_FILES ON)
include(CPack)
