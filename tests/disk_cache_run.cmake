# The persistent kernel cache seen from outside, on a real program (the saxpy example,
# which checks its result): a new process finds what an earlier one compiled; a
# corrupted entry is reported and rebuilt; PACXX_CACHE=0 turns it off; processes that
# start together on an empty cache all succeed.
file(REMOVE_RECURSE ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/cache_run_support.cmake)

run(${PROGRAM} first)
expect("${first}" "compiled in" "cold cache")
run(${PROGRAM} second)
expect("${second}" "from disk cache in" "warm cache in a new process")

# Corrupt every entry (cut in half): detected, reported, rebuilt, never trusted.
file(GLOB entries ${DIR}/kernels-v2/*.pxc) # pacxx's own subdirectory
list(LENGTH entries count)
if(count EQUAL 0)
  message(FATAL_ERROR "no cache entries in ${DIR}")
endif()
foreach(f ${entries})
  file(SIZE ${f} size)
  math(EXPR half "${size} / 2")
  execute_process(COMMAND truncate -s ${half} ${f} RESULT_VARIABLE x)
  if(x)
    message(FATAL_ERROR "cannot truncate ${f}")
  endif()
endforeach()
run(${PROGRAM} third)
expect("${third}" "compiled in" "corrupted entry")
expect("${third}" "disk cache|truncated|checksum|size" "the trace reports the bad entry")
run(${PROGRAM} fourth)
expect("${fourth}" "from disk cache in" "rebuilt entry")

run(${PROGRAM} off PACXX_CACHE=0)
expect("${off}" "compiled in" "PACXX_CACHE=0")

# Four processes at once on an empty cache.
file(REMOVE_RECURSE ${DIR})
set(ENV{PACXX_DEVICE} opencl)
set(ENV{PACXX_CACHE_DIR} ${DIR})
execute_process(
  COMMAND bash -c "pids=; for i in 1 2 3 4; do \"$0\" > /dev/null 2>&1 & pids=\"$pids $!\"; done; s=0; for p in $pids; do wait $p || s=1; done; exit $s" ${PROGRAM}
  RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "one of four concurrent processes failed")
endif()
run(${PROGRAM} after)
expect("${after}" "from disk cache in" "after concurrent writers")
