# ctest example_rof_cmake_project: configures and builds examples/rof with pacxx++ as
# CMAKE_CXX_COMPILER (generator and build program of the enclosing build), then checks
# that the program starts (its usage message, no device needed).
file(REMOVE_RECURSE ${BIN})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -G ${GENERATOR}
                        -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_CXX_COMPILER=${PACXX_CXX}
                        RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "configuring examples/rof with pacxx++ failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "building examples/rof with pacxx++ failed")
endif()
execute_process(COMMAND ${BIN}/rof --bogus RESULT_VARIABLE r ERROR_VARIABLE err)
if(NOT r EQUAL 2 OR NOT err MATCHES "usage: rof")
  message(FATAL_ERROR "examples/rof built with pacxx++ did not run: ${r} ${err}")
endif()
