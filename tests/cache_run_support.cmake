# Shared by the end-to-end cache scripts (disk_cache_run.cmake, disk_cache_trust.cmake,
# install/cache.cmake) and, for expect(), the other install scripts (tests/install).
# Expects DIR (the cache directory).

# run(program out_var [prefix...]): runs program on OpenCL with the trace on and the
# cache in DIR; prefix words (environment assignments, or a wrapper command) go before
# it. Fails on a non-zero exit or after 60 s (a hang is a failure, not a stall).
function(run program out_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PACXX_DEVICE=opencl PACXX_TRACE=1
                          PACXX_CACHE_DIR=${DIR} ${ARGN} ${program}
                  RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e TIMEOUT 60)
  if(NOT r STREQUAL "0")
    message(FATAL_ERROR "${program} failed (${r}): ${o}${e}")
  endif()
  set(${out_var} "${o}${e}" PARENT_SCOPE)
endfunction()

function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected '${pattern}' in:\n${text}")
  endif()
endfunction()
