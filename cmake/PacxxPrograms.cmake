# pacxx_program(NAME SOURCES a.cpp b.cpp [FLAGS ...] [LIBS ...] [DEPENDS ...]): an executable built by
# the build tree's pacxx++ as a user would build it: each source compiled with -c (its
# header dependencies tracked through a depfile), then linked by pacxx++ (which runs
# the link-time kernel check). Compiled with the build's warning flags (PACXX_WARNING_FLAGS).
function(pacxx_program name)
  cmake_parse_arguments(P "" "" "SOURCES;FLAGS;LIBS;DEPENDS" ${ARGN})
  set(objs)
  foreach(s ${P_SOURCES})
    get_filename_component(stem ${s} NAME_WE)
    set(src ${CMAKE_CURRENT_SOURCE_DIR}/${s})
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/${name}.dir/${stem}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${name}.dir
      COMMAND ${PACXX_CXX} -O2 ${PACXX_WARNING_FLAGS} ${P_FLAGS} -c ${src} -o ${obj} -MD -MF ${obj}.d
      # The plugin as a file, not only the pacxx-toolchain target (which orders the build
      # but never makes an object out of date): a changed pass recompiles every program.
      DEPENDS ${src} pacxx-toolchain ${PACXX_CXX} $<TARGET_FILE:PacxxPass>
      DEPFILE ${obj}.d
      COMMENT "pacxx++ -c ${s}"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name})
  add_custom_command(OUTPUT ${out}
    COMMAND ${PACXX_CXX} -O2 ${objs} -o ${out} ${P_LIBS}
    DEPENDS ${objs} pacxx-toolchain $<TARGET_FILE:pacxx-kernels> ${P_DEPENDS}
    COMMENT "pacxx++ ${name}"
    VERBATIM)
  add_custom_target(${name}_program ALL DEPENDS ${out})
endfunction()
