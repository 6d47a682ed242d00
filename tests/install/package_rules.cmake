# The rules of find_package(pacxx) from the moved prefix PREFIX, each a configure of
# tests/install/package_rules: the version rule (SameMinorVersion while 0.x: 0.1
# accepted, 0.2 and 1.0 refused) and the compiler rule (clang++-15 or pacxx++; the host
# C++ compiler, g++, refused with a message saying what to use).
include(${CMAKE_CURRENT_LIST_DIR}/../cache_run_support.cmake) # expect()

function(configure name compiler request out_var)
  set(bin ${BIN}/${name})
  file(REMOVE_RECURSE ${bin})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/package_rules -B ${bin}
                          -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
                          -DCMAKE_CXX_COMPILER=${compiler} -DCMAKE_PREFIX_PATH=${PREFIX}
                          -DREQUEST=${request}
                  RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e)
  set(${out_var} "${r}:${o}${e}" PARENT_SCOPE)
endfunction()

configure(same_minor ${CLANGXX} ${VERSION} out)
expect("${out}" "^0:.*found pacxx ${VERSION}" "find_package(pacxx ${VERSION})")
configure(driver ${PREFIX}/bin/pacxx++ ${VERSION} out)
expect("${out}" "^0:.*found pacxx ${VERSION}" "find_package(pacxx) with pacxx++ as the compiler")
foreach(request 0.2 1.0)
  configure(newer ${CLANGXX} ${request} out)
  expect("${out}" "^1:.*version: ${VERSION}" "find_package(pacxx ${request}) must fail")
endforeach()
configure(gxx ${GXX} "" out)
expect("${out}" "^1:.*pacxx needs clang\\+\\+-15 as the project's C\\+\\+ compiler" "g++ refused")
