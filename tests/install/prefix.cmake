# The install tests' fixture: `cmake --install BUILD --prefix ROOT/first`, then the prefix
# moved to ROOT/moved (PREFIX of the other install tests), so that everything after
# runs from a prefix that was never where it was installed. Checks the GNUInstallDirs
# layout and that nothing installed points back into the build or source tree.
file(REMOVE_RECURSE ${ROOT})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${ROOT}/first
                RESULT_VARIABLE r OUTPUT_QUIET)
if(r)
  message(FATAL_ERROR "cmake --install ${BUILD} --prefix ${ROOT}/first failed")
endif()
file(RENAME ${ROOT}/first ${ROOT}/moved)
set(p ${ROOT}/moved)
foreach(f bin/pacxx++ bin/pacxx-info bin/pacxx-kernels ${LIBDIR}/libpacxx.so
          ${LIBDIR}/pacxx/libPacxxPass.so include/pacxx/pacxx.hpp include/pacxx/detail/abi.hpp
          ${LIBDIR}/cmake/pacxx/pacxxConfig.cmake ${LIBDIR}/cmake/pacxx/pacxxConfigVersion.cmake
          ${LIBDIR}/cmake/pacxx/pacxxTargets.cmake)
  if(NOT EXISTS ${p}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# Text files and the tools (their RUNPATH among their strings) name no path of the
# build or source tree, nor the prefix they were installed into.
file(GLOB cmake_files ${p}/${LIBDIR}/cmake/pacxx/*.cmake)
foreach(f ${p}/bin/pacxx++ ${p}/bin/pacxx-info ${p}/bin/pacxx-kernels ${cmake_files})
  foreach(tree ${BUILD} ${SOURCE} ${ROOT}/first)
    file(STRINGS ${f} hits REGEX "${tree}")
    if(hits)
      message(FATAL_ERROR "${f} names ${tree}: ${hits}")
    endif()
  endforeach()
endforeach()
file(STRINGS ${p}/bin/pacxx-info runpath REGEX "^\\$ORIGIN/")
if(NOT runpath STREQUAL "\$ORIGIN/../${LIBDIR}")
  message(FATAL_ERROR "pacxx-info's RUNPATH is '${runpath}', not \$ORIGIN/../${LIBDIR}")
endif()
message("installed into ${ROOT}/first, moved to ${p}")
