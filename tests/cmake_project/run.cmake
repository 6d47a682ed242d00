# Builds the project in SRC into BIN and runs it (on the device the environment picks),
# one of three ways (WAY):
#   compiler (default)  CMake with PACXX_CXX (a pacxx++) as CMAKE_CXX_COMPILER
#   package             CMake with CLANGXX (clang++-15) as the compiler and
#                       find_package(pacxx) from PREFIX (USE_PACXX_PACKAGE=ON)
#   make                SRC/Makefile with PACXX_CXX (needs make)
#   forgotten           as package, but scale.cpp without the plugin: the build must
#                       fail at the kernel check, naming the call, and leave no program
# CMake runs with the generator and build program of the enclosing build (GENERATOR,
# MAKE_PROGRAM). The program must exit 0 and report every result correct.
if(NOT WAY)
  set(WAY compiler)
endif()
file(REMOVE_RECURSE ${BIN})
if(WAY STREQUAL "make")
  file(MAKE_DIRECTORY ${BIN})
  find_program(MAKE NAMES make REQUIRED)
  execute_process(COMMAND ${MAKE} -f ${SRC}/Makefile SRC=${SRC} PACXX=${PACXX_CXX}
                  WORKING_DIRECTORY ${BIN} RESULT_VARIABLE r)
  if(r)
    message(FATAL_ERROR "make with ${PACXX_CXX} failed")
  endif()
else()
  if(WAY STREQUAL "package" OR WAY STREQUAL "forgotten")
    set(args -DCMAKE_CXX_COMPILER=${CLANGXX} -DCMAKE_PREFIX_PATH=${PREFIX} -DUSE_PACXX_PACKAGE=ON)
    if(WAY STREQUAL "forgotten")
      list(APPEND args -DFORGET_PACXX_TARGET=ON)
    endif()
  else()
    set(args -DCMAKE_CXX_COMPILER=${PACXX_CXX})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -G ${GENERATOR}
                          -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} ${args}
                          -DCMAKE_BUILD_TYPE=Release RESULT_VARIABLE r)
  if(r)
    message(FATAL_ERROR "configure (${WAY}) failed")
  endif()
  # --verbose: the commands, for the check below.
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} --verbose RESULT_VARIABLE r
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(WAY STREQUAL "forgotten")
    if(NOT r OR EXISTS ${BIN}/app OR NOT out MATCHES
       "main.cpp:[0-9]+:[0-9]+: error: pacxx: kernel [^\n]* calls 'scale\\(float\\)' whose body is nowhere")
      message(FATAL_ERROR "the kernel check did not reject the program (${r})")
    endif()
    return()
  endif()
  if(r)
    message(FATAL_ERROR "build (${WAY}) failed")
  endif()
  # pacxx_add_executable runs the link-time kernel check, as pacxx++ does.
  if(WAY STREQUAL "package" AND NOT out MATCHES "--check [^\n]*/pacxx-kernels ${BIN}/app")
    message(FATAL_ERROR "the build did not run the kernel check on app")
  endif()
endif()
execute_process(COMMAND ${BIN}/app RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(r OR NOT out MATCHES "cmake project: 1000 correct")
  message(FATAL_ERROR "the program built (${WAY}) failed (${r})")
endif()
