// A tool for pacxx/tools.hpp, loaded by PACXX_TOOLS_LIBRARY (tests/CMakeLists.txt):
// counts the ranges of each kind, checks that every range ends, on its thread, in the
// reverse order of the begins (nested), with the same id, name and size as it began,
// and that every launch, copy and allocation lies inside an algorithm or outside all of
// them; at the runtime's shutdown it prints one line that the test matches, e.g.
//   pacxx counting tool: 3 algorithms (gpu::copy 2, gpu::reduce 1), 1 launches, ...
#include <pacxx/tools.hpp>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct counts {
  std::mutex mutex;
  std::size_t begins[4] = {}, ends[4] = {}, bytes_copied = 0, bytes_allocated = 0;
  std::size_t problems = 0, deepest = 0;
  std::map<std::string, std::size_t> algorithms; // by name
};
counts *all = new counts; // never destroyed: the runtime may call it during exit
thread_local std::vector<pacxx::tools::range_info> open;

void begin(void *data, const pacxx::tools::range_info &r) {
  counts &c = *static_cast<counts *>(data);
  std::lock_guard<std::mutex> lock(c.mutex);
  const int k = static_cast<int>(r.kind);
  if (k < 0 || k > 3 || r.id == 0 || !r.name) {
    c.problems++;
    return;
  }
  c.begins[k]++;
  if (r.kind == pacxx::tools::event::algorithm)
    c.algorithms[r.name]++;
  else if (!open.empty() && open.back().kind != pacxx::tools::event::algorithm)
    c.problems++; // a launch, copy or allocation inside another one
  open.push_back(r);
  if (open.size() > c.deepest)
    c.deepest = open.size();
}

void end(void *data, const pacxx::tools::range_info &r) {
  counts &c = *static_cast<counts *>(data);
  std::lock_guard<std::mutex> lock(c.mutex);
  const int k = static_cast<int>(r.kind);
  if (open.empty() || open.back().id != r.id || open.back().kind != r.kind ||
      open.back().size != r.size || std::string(open.back().name) != r.name) {
    std::fprintf(stderr, "pacxx counting tool: range %s (%llu) ends out of order\n", r.name,
                 static_cast<unsigned long long>(r.id));
    c.problems++;
    return;
  }
  open.pop_back();
  c.ends[k]++;
  if (r.kind == pacxx::tools::event::copy)
    c.bytes_copied += r.size;
  if (r.kind == pacxx::tools::event::allocation)
    c.bytes_allocated += r.size;
}

} // namespace

extern "C" void pacxx_tools_init(pacxx::tools::callbacks *cb) {
  cb->data = all;
  cb->begin = begin;
  cb->end = end;
}

extern "C" void pacxx_tools_finalize() {
  counts &c = *all;
  std::lock_guard<std::mutex> lock(c.mutex);
  std::string names;
  for (const auto &a : c.algorithms)
    names += (names.empty() ? "" : ", ") + a.first + " " + std::to_string(a.second);
  bool balanced = true;
  for (int k = 0; k < 4; ++k)
    balanced = balanced && c.begins[k] == c.ends[k];
  std::printf("pacxx counting tool: %zu algorithms (%s), %zu launches, %zu copies of %zu bytes, "
              "%zu allocations of %zu bytes, depth %zu, %s, %zu problems\n",
              c.begins[0], names.c_str(), c.begins[1], c.begins[2], c.bytes_copied, c.begins[3],
              c.bytes_allocated, c.deepest, balanced ? "balanced" : "UNBALANCED", c.problems);
  std::fflush(stdout);
}
