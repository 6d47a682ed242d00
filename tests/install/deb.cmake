# cpack -G DEB on the build (BUILD) into OUT, then the package checked with dpkg-deb:
# its control fields (dependencies) and its files, and unpacked into OUT/root for
# install_deb_project, which builds a program with the unpacked pacxx++.
include(${CMAKE_CURRENT_LIST_DIR}/../cache_run_support.cmake) # expect()
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CPACK} --config ${BUILD}/CPackConfig.cmake -G DEB -B ${OUT}
                RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE o)
file(GLOB deb ${OUT}/pacxx_*.deb)
if(r OR NOT deb)
  message(FATAL_ERROR "cpack -G DEB failed (${r}):\n${o}")
endif()

execute_process(COMMAND dpkg-deb -I ${deb} OUTPUT_VARIABLE info COMMAND_ERROR_IS_FATAL ANY)
message("${info}")
expect("${info}" "\n Package: pacxx\n" "the package name")
expect("${info}" "\n Version: ${VERSION}\n" "the version")
string(REGEX MATCH "\n Depends: [^\n]*" depends "${info}")
foreach(d "clang-15" "librange-v3-dev" "libc6 \\(>= [0-9.]+\\)" "libstdc\\+\\+6 \\(>= [0-9.]+\\)")
  expect("${depends}" "[ ,]${d}(,|$)" "a dependency")
endforeach()
# The OpenCL loader and drivers are optional (opened at run time), and so is CUDA's.
if(depends MATCHES "opencl|pocl|cuda|nvidia")
  message(FATAL_ERROR "a GPU runtime is a hard dependency: ${depends}")
endif()
expect("${info}" "\n Recommends: ocl-icd-libopencl1\n" "the OpenCL loader, recommended")
expect("${info}" "\n Suggests: pocl-opencl-icd\n" "PoCL, suggested")

execute_process(COMMAND dpkg-deb -c ${deb} OUTPUT_VARIABLE files COMMAND_ERROR_IS_FATAL ANY)
foreach(f usr/bin/pacxx\\+\\+ usr/bin/pacxx-info usr/bin/pacxx-kernels usr/${LIBDIR}/libpacxx.so
          usr/${LIBDIR}/pacxx/libPacxxPass.so usr/include/pacxx/pacxx.hpp
          usr/${LIBDIR}/cmake/pacxx/pacxxConfig.cmake usr/${LIBDIR}/cmake/pacxx/pacxxTargets.cmake)
  expect("${files}" " \\./${f}\n" "a file in the package")
endforeach()
expect("${files}" "\n-rwxr-xr-x [^\n]* \\./usr/bin/pacxx\\+\\+\n" "pacxx++ executable")

execute_process(COMMAND dpkg-deb -x ${deb} ${OUT}/root COMMAND_ERROR_IS_FATAL ANY)
