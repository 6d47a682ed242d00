// pacxx-kernels: the kernels inside a program built by pacxx++.
//   pacxx-kernels FILE                   list them
//   pacxx-kernels --check FILE           fail if a kernel calls a function with no body
//   pacxx-kernels --ptx DIR [--arch sm_XY] [--staged V,...] [--no-unroll] FILE
//       write each kernel's PTX and final LLVM IR for CUDA (default sm_90)
//   pacxx-kernels --spir DIR [--staged V,...] FILE
//       write each kernel's final LLVM IR for OpenCL (the SPIR the runtime loads)
// --staged gives the values of pacxx::stage calls (integers: raw bits, in id order) as a
// launch would compute them; without it staged values stay run-time values. --no-unroll
// lowers as PACXX_UNROLL=0 does (no loop unrolled).
#include "runtime.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

static const char help[] =
    "usage: pacxx-kernels [--check | --ptx DIR [--arch sm_XY] [--staged V,...] [--no-unroll] |"
    " --spir DIR [--staged V,...] [--no-unroll]] FILE\n"
    "The kernels inside FILE, a program or object built by pacxx++:\n"
    "  (no option)      list them\n"
    "  --check          fail, naming each call, if a kernel calls a function with no body\n"
    "                   in the program (pacxx++ runs this after linking)\n"
    "  --ptx DIR        write each kernel's PTX and final LLVM IR for CUDA into DIR\n"
    "  --arch sm_XY     the CUDA architecture for --ptx (default sm_90)\n"
    "  --spir DIR       write each kernel's final LLVM IR for OpenCL (the SPIR the runtime\n"
    "                   loads) into DIR\n"
    "  --staged V,...   the values of the pacxx::stage calls (integers, raw bits, in id\n"
    "                   order) as a launch would compute them; without it they stay\n"
    "                   run-time values\n"
    "  --no-unroll      unroll no loop, as the JIT under PACXX_UNROLL=0\n"
    "  --help           this text\n";

static int usage() {
  std::fputs(help, stderr);
  return 2;
}

// "8,-1,0x10": integers, as strtoll reads them (base prefixes allowed).
static bool parse_staged(const std::string &list, std::vector<std::uint64_t> &out) {
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos)
      end = list.size();
    std::string item = list.substr(at, end - at);
    char *stop = nullptr;
    long long v = std::strtoll(item.c_str(), &stop, 0);
    if (item.empty() || *stop)
      return false;
    out.push_back(static_cast<std::uint64_t>(v));
    at = end + 1;
  }
  return true;
}

int main(int argc, char **argv) {
  std::string mode = "list", dir, arch = "sm_90", file;
  std::vector<std::uint64_t> staged;
  bool have_staged = false, unroll = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help") {
      std::fputs(help, stdout);
      return 0;
    } else if (a == "--check")
      mode = "check";
    else if ((a == "--ptx" || a == "--spir") && i + 1 < argc)
      mode = a.substr(2), dir = argv[++i];
    else if (a == "--no-unroll")
      unroll = false;
    else if (a == "--arch" && i + 1 < argc)
      arch = argv[++i];
    else if (a == "--staged" && i + 1 < argc) {
      if (!parse_staged(argv[++i], staged))
        return usage();
      have_staged = true;
    } else if (!a.empty() && a[0] != '-' && file.empty())
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
    if (mode == "ptx" || mode == "spir") {
      auto target = mode == "ptx" ? pacxx::rt::ir_target::nvptx : pacxx::rt::ir_target::spir;
      for (const std::string &f : pacxx::rt::emit_kernels(file, dir, target, arch,
                                                          have_staged ? &staged : nullptr, unroll))
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
