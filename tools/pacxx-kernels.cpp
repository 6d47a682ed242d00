// pacxx-kernels: the kernels inside a program built by pacxx++.
//   pacxx-kernels FILE                   list them
//   pacxx-kernels --check FILE           fail if a kernel calls a function with no body
//   pacxx-kernels --ptx DIR [--arch sm_XY] FILE   write each kernel's PTX (default sm_90)
#include "runtime.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

static int usage() {
  std::fprintf(stderr, "usage: pacxx-kernels [--check | --ptx DIR [--arch sm_XY]] FILE\n");
  return 2;
}

int main(int argc, char **argv) {
  std::string mode = "list", dir, arch = "sm_90", file;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--check")
      mode = "check";
    else if (a == "--ptx" && i + 1 < argc)
      mode = "ptx", dir = argv[++i];
    else if (a == "--arch" && i + 1 < argc)
      arch = argv[++i];
    else if (!a.empty() && a[0] != '-' && file.empty())
      file = a;
    else
      return usage();
  }
  if (file.empty())
    return usage();
  try {
    if (mode == "check") {
      std::string problems = pacxx::rt::check_links(file);
      std::fputs(problems.c_str(), stderr);
      return problems.empty() ? 0 : 1;
    }
    if (mode == "ptx") {
      for (const std::string &f : pacxx::rt::emit_ptx(file, dir, arch))
        std::printf("%s\n", f.c_str());
      return 0;
    }
    for (const auto &k : pacxx::rt::list_kernels(file))
      std::printf("%s\n    %s\n", k.display.c_str(), k.entry.c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pacxx-kernels: %s\n", e.what());
    return 1;
  }
  return 0;
}
