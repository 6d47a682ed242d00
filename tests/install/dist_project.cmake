# tests/cmake_project_dist built against the moved install prefix PREFIX with
# find_package(pacxx COMPONENTS dist) and CLANGXX as the compiler, then run with
# mpirun -np 2 on PoCL (RUNNER: tests/dist/run_mpi.sh). With MISSING set, the project
# asks for a component that does not exist instead: the configuration must fail, naming it.
file(REMOVE_RECURSE ${BIN})
set(args -DCMAKE_CXX_COMPILER=${CLANGXX} -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release)
if(MISSING)
  list(APPEND args -DCOMPONENT=${MISSING})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -G ${GENERATOR}
                        -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} ${args}
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(MISSING)
  if(NOT r OR NOT out MATCHES "pacxx: no component '${MISSING}'")
    message(FATAL_ERROR "find_package(pacxx COMPONENTS ${MISSING}) did not fail naming it (${r})")
  endif()
  return()
endif()
if(r)
  message(FATAL_ERROR "configure with find_package(pacxx COMPONENTS dist) failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} RESULT_VARIABLE r
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(r)
  message(FATAL_ERROR "build against pacxx::dist failed")
endif()
# The program links libpacxx_dist of the prefix, not the build tree's.
execute_process(COMMAND ldd ${BIN}/app OUTPUT_VARIABLE libs)
if(NOT libs MATCHES "libpacxx_dist.so => ${PREFIX}/")
  message(FATAL_ERROR "app does not load libpacxx_dist from ${PREFIX}:\n${libs}")
endif()
execute_process(COMMAND ${RUNNER} ${MPIEXEC} ${PREFIX}/bin/pacxx-info 2 opencl ${BIN}/app
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(r OR NOT out MATCHES "dist project: 1001 elements on 2 ranks \\(host_staged\\), sum [0-9]+: correct")
  message(FATAL_ERROR "the dist program failed under mpirun -np 2 (${r})")
endif()
