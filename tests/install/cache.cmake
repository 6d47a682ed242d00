# pacxx-info --cache and --clear-cache (INFO) on a cache in DIR that PROGRAM (the saxpy
# example, on OpenCL) filled: the entries are counted and sized, cleared, and files of
# the user's in the directory and in kernels-v2/ survive the clearing.
include(${CMAKE_CURRENT_LIST_DIR}/../cache_run_support.cmake) # run(), expect()
file(REMOVE_RECURSE ${DIR})

set(cache "${INFO};--cache")
set(clear "${INFO};--clear-cache")
run("${cache}" out)
expect("${out}" "location: ${DIR}/kernels-v2\nentries: 0\nsize: 0 bytes" "an empty cache")

run(${PROGRAM} out)
run("${cache}" out)
expect("${out}" "^disk cache: ${DIR} \\(at most 1024 MB\\)\nlocation: ${DIR}/kernels-v2\nentries: [1-9][0-9]*\nsize: [1-9][0-9]* bytes \\([0-9.]+ MB\\)\nbound: 1024 MB\n"
       "the cache after a run")
string(REGEX MATCH "entries: ([0-9]+)" _ "${out}")
set(entries ${CMAKE_MATCH_1})
run("${cache}" out PACXX_CACHE_MAX_MB=7)
expect("${out}" "bound: 7 MB" "the bound from PACXX_CACHE_MAX_MB")
run("${cache}" out PACXX_CACHE=0)
expect("${out}" "disk cache: off \\(PACXX_CACHE=0\\)\nlocation: ${DIR}/kernels-v2\nentries: ${entries}\n"
       "a cache turned off is still shown")

file(WRITE ${DIR}/notes.txt "the user's")
file(WRITE ${DIR}/kernels-v2/mine.txt "the user's too")
run("${clear}" out)
expect("${out}" "removed ${entries} entries \\([0-9.]+ MB\\) from ${DIR}/kernels-v2" "clearing")
run("${cache}" out)
expect("${out}" "entries: 0\nsize: 0 bytes" "the cache after clearing")
foreach(f ${DIR}/notes.txt ${DIR}/kernels-v2/mine.txt)
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "--clear-cache deleted ${f}, a file that is not pacxx's")
  endif()
endforeach()

# A malformed setting is an error, as at a program's first launch.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PACXX_CACHE_MAX_MB=lots ${cache}
                RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e)
expect("${r}:${o}${e}" "^1:.*PACXX_CACHE_MAX_MB=lots is not a number of megabytes" "a malformed setting")
