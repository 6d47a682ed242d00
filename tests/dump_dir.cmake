# PACXX_DUMP_DIR: the kernel's final IR and its SPIR are written there.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -E env PACXX_DEVICE=opencl PACXX_DUMP_DIR=${DIR} ${PROGRAM}
                RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "${PROGRAM} failed")
endif()
file(GLOB ll ${DIR}/*.spir.ll)
file(GLOB bc ${DIR}/*.spir.bc)
list(LENGTH ll nll)
list(LENGTH bc nbc)
if(NOT nll EQUAL 1 OR NOT nbc EQUAL 1)
  message(FATAL_ERROR "expected one .spir.ll and one .spir.bc in ${DIR}, found ${ll} ${bc}")
endif()
file(READ ${ll} ir)
if(NOT ir MATCHES "define spir_kernel void @pacxx_kernel")
  message(FATAL_ERROR "the dumped IR has no SPIR kernel")
endif()

# A symbolic link planted under a dump file's name is refused with a clear error, never
# followed: the file it points at stays as it was.
set(victim ${DIR}-victim.txt)
file(WRITE ${victim} "untouched")
file(REMOVE ${ll})
file(CREATE_LINK ${victim} ${ll} SYMBOLIC)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PACXX_DEVICE=opencl PACXX_DUMP_DIR=${DIR} ${PROGRAM}
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT r)
  message(FATAL_ERROR "${PROGRAM} wrote through a planted symbolic link")
endif()
if(NOT err MATCHES "PACXX_DUMP_DIR: cannot create ${ll}: it is a symbolic link, which pacxx does not follow")
  message(FATAL_ERROR "unexpected error for a planted symbolic link:\n${out}${err}")
endif()
file(READ ${victim} content)
if(NOT content STREQUAL "untouched")
  message(FATAL_ERROR "the symbolic link was followed: ${victim} now holds '${content}'")
endif()

# A dump directory that cannot exist (under a regular file) names the reason.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PACXX_DEVICE=opencl PACXX_DUMP_DIR=${victim}/dump ${PROGRAM}
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT r OR NOT err MATCHES "PACXX_DUMP_DIR: cannot create the directory ${victim}/dump: Not a directory")
  message(FATAL_ERROR "expected 'Not a directory' for a dump directory under a file:\n${out}${err}")
endif()
file(REMOVE ${victim})
