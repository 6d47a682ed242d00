# Configures, builds and runs the project with pacxx++ as CMAKE_CXX_COMPILER, with the
# generator and build program of the enclosing build (GENERATOR, MAKE_PROGRAM).
file(REMOVE_RECURSE ${BIN})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -G ${GENERATOR}
                        -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_CXX_COMPILER=${PACXX_CXX}
                        -DCMAKE_BUILD_TYPE=Release RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "configure with pacxx++ failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "build with pacxx++ failed")
endif()
execute_process(COMMAND ${BIN}/app RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "the program built with pacxx++ failed")
endif()
