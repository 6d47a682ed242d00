# PACXX_PREFILL (issue 37) on a real program (tests/e2e/prefetch_test, whose kernels
# have no staged values): into an empty cache it compiles every kernel at the first
# launch, says so and ends the process; the next run finds every kernel in the disk
# cache and compiles none; a prefill over a full cache compiles nothing; PACXX_PREFETCH
# runs the whole program with its results checked.
file(REMOVE_RECURSE ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/cache_run_support.cmake)

run(${PROGRAM} filled PACXX_PREFILL=1 PACXX_PREFETCH=2)
if(NOT filled MATCHES "PACXX_PREFILL: ([0-9]+) kernels without staged values for [^:]*: ([0-9]+) compiled and stored, 0 already in the disk cache, 0 failed")
  message(FATAL_ERROR "PACXX_PREFILL=1: no summary line in:\n${filled}")
endif()
set(kernels ${CMAKE_MATCH_1})
if(NOT CMAKE_MATCH_2 STREQUAL kernels OR kernels LESS 6)
  message(FATAL_ERROR "PACXX_PREFILL=1 compiled ${CMAKE_MATCH_2} of ${kernels} kernels:\n${filled}")
endif()
if(filled MATCHES "PASSED|OK \\]")
  message(FATAL_ERROR "PACXX_PREFILL=1 ran the tests instead of ending at the first launch:\n${filled}")
endif()
file(GLOB entries ${DIR}/kernels-v2/*.pxc)
list(LENGTH entries count)
if(NOT count EQUAL kernels)
  message(FATAL_ERROR "${count} cache entries after prefilling ${kernels} kernels")
endif()

# Only the test without pacxx::prefetch: each launch says where its kernel came from.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PACXX_DEVICE=opencl PACXX_TRACE=1
                        PACXX_CACHE_DIR=${DIR} PACXX_CACHE=1 ${PROGRAM}
                        --gtest_filter=Prefetch.KernelsRunAndMatchTheHost
                RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e TIMEOUT 60)
if(NOT r STREQUAL "0")
  message(FATAL_ERROR "${PROGRAM} failed (${r}) after PACXX_PREFILL=1: ${o}${e}")
endif()
set(warm "${o}${e}")
expect("${warm}" "from disk cache in" "the run after PACXX_PREFILL=1")
expect("${warm}" "PASSED" "the run after PACXX_PREFILL=1")
if(warm MATCHES "compiled in")
  message(FATAL_ERROR "a kernel was compiled after PACXX_PREFILL=1:\n${warm}")
endif()

run(${PROGRAM} again PACXX_PREFILL=1)
expect("${again}" "0 compiled and stored, ${kernels} already in the disk cache, 0 failed"
       "PACXX_PREFILL=1 over a full cache")

run(${PROGRAM} prefetched PACXX_CACHE=0 PACXX_PREFETCH=2)
expect("${prefetched}" "PASSED" "PACXX_PREFETCH=2")
