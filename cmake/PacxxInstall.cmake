# Installing pacxx as a toolchain (issue 15), included at the end of CMakeLists.txt:
#
#   cmake --install build --prefix P   P/bin/{pacxx++,pacxx-info,pacxx-kernels,pacxx-tune},
#                                      P/<libdir>/libpacxx.so, P/<libdir>/pacxx/libPacxxPass.so,
#                                      P/include/pacxx/, P/<libdir>/cmake/pacxx/
#   find_package(pacxx)                pacxx::pacxx, pacxx_target(), pacxx_add_executable()
#                                      (cmake/pacxxConfig.cmake.in)
#   cpack -G DEB                       a Debian package installing into /usr
#
# The layout is GNUInstallDirs'. Everything installed finds the rest of the prefix
# relative to itself (pacxx++ from its own directory, the tools through $ORIGIN, the
# CMake package from its own location), so a copied or moved prefix keeps working; only
# clang++-15 is taken from the system. The build tree's pacxx++ (CMakeLists.txt) is
# unchanged and keeps absolute paths into the build and source trees.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PACXX_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/pacxx)
set(PACXX_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pacxx)

# The installed driver: the same template as the build tree's; its paths start at the
# prefix, which the script finds from its own location (PACXX_BIN_TO_PREFIX: the way up
# from the bin directory). A directory given absolute stays absolute (not relocatable).
function(pacxx_installed_driver out)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
    message(FATAL_ERROR "pacxx: the installed pacxx++ needs a relative CMAKE_INSTALL_BINDIR")
  endif()
  file(RELATIVE_PATH PACXX_BIN_TO_PREFIX "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix")
  foreach(v LIBDIR INCLUDEDIR BINDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${v}}")
      set(${v} "${CMAKE_INSTALL_${v}}")
    else()
      set(${v} "\${root}/${CMAKE_INSTALL_${v}}")
    endif()
  endforeach()
  set(PACXX_PLUGIN "${LIBDIR}/pacxx/$<TARGET_FILE_NAME:PacxxPass>")
  set(PACXX_INCLUDE_DIR "${INCLUDEDIR}")
  set(PACXX_LIB_DIR "${LIBDIR}")
  set(PACXX_KERNELS_TOOL "${BINDIR}/$<TARGET_FILE_NAME:pacxx-kernels>")
  configure_file(${CMAKE_SOURCE_DIR}/compiler/driver/pacxx++.in ${out}.in @ONLY)
  file(GENERATE OUTPUT ${out} INPUT ${out}.in)
endfunction()
pacxx_installed_driver(${CMAKE_BINARY_DIR}/install/pacxx++)

# The tools find libpacxx relative to themselves, in the build tree and installed.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(pacxx_tools_rpath "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH pacxx_tools_rpath "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${CMAKE_INSTALL_LIBDIR}")
  set(pacxx_tools_rpath "\$ORIGIN/${pacxx_tools_rpath}")
endif()
set_target_properties(pacxx-info pacxx-kernels PROPERTIES INSTALL_RPATH "${pacxx_tools_rpath}")
# Imported as pacxx::plugin, pacxx::pacxx (the runtime), pacxx::pacxx-info, pacxx::pacxx-kernels.
set_target_properties(PacxxPass PROPERTIES EXPORT_NAME plugin)

install(PROGRAMS ${CMAKE_BINARY_DIR}/install/pacxx++ DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pacxx-info pacxx-kernels EXPORT pacxxTargets DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pacxx-tune DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pacxx EXPORT pacxxTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS PacxxPass EXPORT pacxxTargets LIBRARY DESTINATION ${PACXX_INSTALL_PLUGINDIR})
install(DIRECTORY include/pacxx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT pacxxTargets NAMESPACE pacxx:: DESTINATION ${PACXX_INSTALL_CMAKEDIR})
# pacxx::dist (find_package(pacxx COMPONENTS dist)), where MPI was found: an export set
# of its own, so pacxx::pacxx never depends on MPI.
if(TARGET pacxx_dist)
  set_target_properties(pacxx_dist PROPERTIES INSTALL_RPATH "\$ORIGIN")
  install(TARGETS pacxx_dist EXPORT pacxxDistTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT pacxxDistTargets NAMESPACE pacxx:: DESTINATION ${PACXX_INSTALL_CMAKEDIR})
endif()

# The package's version rule: while pacxx is 0.x, a minor version may change the
# compiler/runtime contract (include/pacxx/detail/abi.hpp) or the API, so
# find_package(pacxx 0.1) accepts 0.1.z only (SameMinorVersion). From 1.0 on this
# becomes SameMajorVersion.
configure_package_config_file(cmake/pacxxConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install/pacxxConfig.cmake
  INSTALL_DESTINATION ${PACXX_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install/pacxxConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install/pacxxConfig.cmake
              ${CMAKE_BINARY_DIR}/install/pacxxConfigVersion.cmake
        DESTINATION ${PACXX_INSTALL_CMAKEDIR})

# cpack -G DEB (in the build directory): pacxx_<version>_<arch>.deb, installing into /usr.
# Depends: what it compiles and links with (clang-15, whose own dependencies bring
# libstdc++-12-dev and the linker; range-v3's headers, which the pacxx headers include),
# and the shared libraries its binaries need, computed by dpkg-shlibdeps (libc6,
# libstdc++6, libgcc-s1, zlib1g, libzstd1). GPU drivers are opened at run time: the
# OpenCL ICD loader is recommended, PoCL (OpenCL on the CPU) suggested, and the CUDA
# driver is not a Debian dependency (it comes with NVIDIA's driver).
set(CPACK_PACKAGE_NAME pacxx)
set(CPACK_PACKAGE_VENDOR "pacxx")
set(CPACK_PACKAGE_CONTACT "pacxx developers <pacxx@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Composable GPU programming in standard C++14 (CUDA and OpenCL), with range-v3")
set(CPACK_PACKAGE_DESCRIPTION
    "pacxx++ (clang++ 15 with a kernel-extraction plugin), libpacxx (the JIT runtime, LLVM 15 inside), pacxx-info, pacxx-kernels, the headers and a CMake package (find_package(pacxx)).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-15, librange-v3-dev")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ocl-icd-libopencl1")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pocl-opencl-icd")
include(CPack)
