# Issue 13's reproductions end to end, on real programs that check their results
# (saxpy; transform_kernel, whose arguments are laid out differently) against a real
# cache on OpenCL:
#  - user files in PACXX_CACHE_DIR survive trimming, even named *.tmp / *.pxc;
#  - entries swapped between two kernels are rebuilt, with correct results;
#  - an entry claiming another argument layout is rebuilt, not an error on every run;
#  - a FIFO at an entry's path does not hang the program;
#  - modes 0700/0600 under umask 0; a directory writable by others is refused.
file(REMOVE_RECURSE ${DIR})
set(sub ${DIR}/kernels-v2)
include(${CMAKE_CURRENT_LIST_DIR}/cache_run_support.cmake)
function(mode_of path out_var)
  execute_process(COMMAND stat -c %a ${path} OUTPUT_VARIABLE m OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out_var} "${m}" PARENT_SCOPE)
endfunction()

# Modes: a fresh cache created under umask 0 is still private.
run(${PROGRAM} first bash -c "umask 0 && exec \"$0\"")
expect("${first}" "compiled in" "cold cache")
file(GLOB saxpy_entries ${sub}/*.pxc)
list(LENGTH saxpy_entries n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one saxpy entry in ${sub}, found: ${saxpy_entries}")
endif()
foreach(p ${DIR} ${sub})
  mode_of(${p} m)
  if(NOT m STREQUAL "700")
    message(FATAL_ERROR "${p} has mode ${m}, expected 700")
  endif()
endforeach()
mode_of(${saxpy_entries} m)
if(NOT m STREQUAL "600")
  message(FATAL_ERROR "${saxpy_entries} has mode ${m}, expected 600")
endif()

# Swapped entries: each program's entry copied over the other's name.
run(${OTHER} other)
file(GLOB all_entries ${sub}/*.pxc)
list(REMOVE_ITEM all_entries ${saxpy_entries})
list(LENGTH all_entries n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one transform_kernel entry, found: ${all_entries}")
endif()
set(saxpy_entry ${saxpy_entries})
set(other_entry ${all_entries})
file(RENAME ${saxpy_entry} ${DIR}/saxpy.saved)
file(COPY_FILE ${other_entry} ${saxpy_entry})
file(COPY_FILE ${DIR}/saxpy.saved ${other_entry})
file(REMOVE ${DIR}/saxpy.saved)
run(${PROGRAM} swapped)
expect("${swapped}" "compiled in.*another key" "saxpy with transform_kernel's entry")
run(${OTHER} swapped)
expect("${swapped}" "compiled in.*another key" "transform_kernel with saxpy's entry")
run(${PROGRAM} again)
expect("${again}" "from disk cache in" "saxpy after the rebuild")
run(${OTHER} again)
expect("${again}" "from disk cache in" "transform_kernel after the rebuild")

# An entry under the right key that claims another argument layout: rebuilt once.
execute_process(COMMAND ${EDIT} ${DIR} RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(r)
  message(FATAL_ERROR "cache_entry_edit failed: ${o}${e}")
endif()
run(${PROGRAM} layout)
expect("${layout}" "compiled in.*bytes of arguments.*rebuilt" "saxpy, entry for another layout")
run(${PROGRAM} again)
expect("${again}" "from disk cache in" "saxpy after the layout rebuild")

# A FIFO at the entry's path: no hang (run() times out after 60 s), rebuilt, replaced.
file(REMOVE ${saxpy_entry})
execute_process(COMMAND mkfifo ${saxpy_entry} RESULT_VARIABLE r)
if(r)
  message(FATAL_ERROR "mkfifo failed")
endif()
run(${PROGRAM} fifo)
expect("${fifo}" "compiled in.*not a regular file" "saxpy with a FIFO at its entry")
run(${PROGRAM} again)
expect("${again}" "from disk cache in" "saxpy after the FIFO was replaced")

# A subdirectory writable by others: refused with the reason in the trace, still correct.
execute_process(COMMAND chmod 0777 ${sub})
run(${PROGRAM} refused)
expect("${refused}" "compiled in.*writable by other users" "group/other-writable cache")
execute_process(COMMAND chmod 0700 ${sub})

# User files in the configured directory, named like the cache's and old, with the
# cache over its bound: all survive, and the cache still works.
file(WRITE ${DIR}/notes.tmp "my notes")
file(WRITE ${DIR}/thesis.pxc "my thesis")
string(REPEAT "0123456789abcdef" 131072 big) # 2 MB: over PACXX_CACHE_MAX_MB=1 alone
file(WRITE ${DIR}/big.pxc "${big}")
execute_process(COMMAND touch -d "3 hours ago" ${DIR}/notes.tmp ${DIR}/thesis.pxc ${DIR}/big.pxc)
file(REMOVE_RECURSE ${sub})
run(${PROGRAM} bounded PACXX_CACHE_MAX_MB=1)
expect("${bounded}" "compiled in" "bounded cache")
run(${OTHER} bounded PACXX_CACHE_MAX_MB=1)
foreach(f notes.tmp thesis.pxc big.pxc)
  if(NOT EXISTS ${DIR}/${f})
    message(FATAL_ERROR "trimming deleted the user's ${DIR}/${f}")
  endif()
endforeach()
run(${PROGRAM} bounded PACXX_CACHE_MAX_MB=1)
expect("${bounded}" "from disk cache in" "bounded cache, warm")
