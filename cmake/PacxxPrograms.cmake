# pacxx_program(NAME SOURCES a.cpp b.cpp [FLAGS ...] [LIBS ...]): an executable built by
# pacxx++ (the build tree's), as a user would build it.
function(pacxx_program name)
  cmake_parse_arguments(P "" "" "SOURCES;FLAGS;LIBS" ${ARGN})
  set(srcs)
  foreach(s ${P_SOURCES})
    list(APPEND srcs ${CMAKE_CURRENT_SOURCE_DIR}/${s})
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name})
  add_custom_command(OUTPUT ${out}
    COMMAND ${PACXX_CXX} -O2 ${P_FLAGS} ${srcs} -o ${out} ${P_LIBS}
    DEPENDS ${srcs} pacxx-toolchain ${PACXX_CXX}
    IMPLICIT_DEPENDS CXX ${srcs}
    COMMENT "pacxx++ ${name}"
    VERBATIM)
  add_custom_target(${name}_program ALL DEPENDS ${out})
endfunction()
