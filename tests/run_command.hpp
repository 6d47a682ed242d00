// Runs a shell command for the compile-error tests: its exit status and all it printed.
#pragma once
#include <cstdio>
#include <string>

namespace pacxx_test {

struct result {
  int status;
  std::string output;
};

inline result run(const std::string &cmd) {
  result r{0, ""};
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p)
    return {-1, "popen failed: " + cmd};
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    r.output.append(buf, n);
  r.status = pclose(p);
  return r;
}

} // namespace pacxx_test
