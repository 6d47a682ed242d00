// The runtime's side of pacxx/tools.hpp: the callbacks of a tool (set by the program or
// loaded from PACXX_TOOLS_LIBRARY) and NVTX ranges, around algorithms, launches, copies,
// allocations and compilations. Nothing here runs unless a tool or NVTX listens:
// callers test tools_on() (one relaxed load) first.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "pacxx/tools.hpp"

// Internal to libpacxx: not exported (exports.map exports pacxx::*).
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

// True while a tool's callbacks are set or NVTX has an injection library (a profiler).
extern std::atomic<bool> tools_active;
inline bool tools_on() { return tools_active.load(std::memory_order_relaxed); }

// At the runtime's start: loads the tool library (empty: none; a library that cannot
// be opened or lacks pacxx_tools_init is one line on stderr, and the program runs
// without it), finds NVTX, and sets tools_listening from them and the timeline.
void start_tools(const std::string &library, bool timeline_on);
// At its shutdown: the library's pacxx_tools_finalize, then nothing listens any more.
void stop_tools() noexcept;
// tools_listening anew (after set_callbacks).
void update_listening();

// A range's begin and end for the tool and NVTX. tool_begin sets info.id (always: the
// timeline's algorithms use it too) and calls the tool only when tools_on().
void tool_begin(tools::range_info &info) noexcept;
void tool_end(const tools::range_info &info) noexcept;

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop
