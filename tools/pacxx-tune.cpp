// pacxx-tune PROGRAM [ARGS]: runs a pacxx program with tuning exploration on
// (PACXX_TUNE=explore; pacxx/tune.hpp, docs/tuning.md) and prints, after it, every tuning
// record the program used: those it explored (the candidates' times, the choice, the
// time the exploration took) and those already stored. The choices are stored beside the
// kernel cache, so later runs of any program use them with the default PACXX_TUNE=1.
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

static const char help[] =
    "usage: pacxx-tune [--budget MS] PROGRAM [ARGS...]\n"
    "  runs PROGRAM with PACXX_TUNE=explore: the first call of each tunable kernel family\n"
    "  (gpu::reduce, scans, radix sorts, gemm, user kernels declared with pacxx/tune.hpp)\n"
    "  at each size class times its candidate policies on the device and stores the\n"
    "  fastest beside the kernel cache; then prints the records the program used.\n"
    "  --budget MS  the time one exploration may take (PACXX_TUNE_BUDGET_MS; default\n"
    "               10000); the built-in policy is always timed\n"
    "  With PACXX_CACHE=0 nothing is stored: the choices last for the run only.\n";

int main(int argc, char **argv) {
  int first = 1;
  if (argc > 1 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
    std::fputs(help, stdout);
    return 0;
  }
  if (argc > 2 && !std::strcmp(argv[1], "--budget")) {
    if (setenv("PACXX_TUNE_BUDGET_MS", argv[2], 1) != 0)
      return 2;
    first = 3;
  }
  if (first >= argc) {
    std::fputs(help, stderr);
    return 2;
  }
  char report[] = "/tmp/pacxx-tune-XXXXXX";
  const int fd = mkstemp(report);
  if (fd < 0) {
    std::fprintf(stderr, "pacxx-tune: cannot create a report file: %s\n", std::strerror(errno));
    return 2;
  }
  close(fd);
  setenv("PACXX_TUNE", "explore", 1);
  setenv("PACXX_TUNE_REPORT", report, 1);
  if (const char *c = std::getenv("PACXX_CACHE"); c && !std::strcmp(c, "0"))
    std::fprintf(stderr, "pacxx-tune: PACXX_CACHE=0: the choices will not be stored\n");

  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "pacxx-tune: fork: %s\n", std::strerror(errno));
    return 2;
  }
  if (pid == 0) {
    execvp(argv[first], argv + first);
    std::fprintf(stderr, "pacxx-tune: cannot run %s: %s\n", argv[first], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  unlink(report);
  const std::string records = text.str();
  std::size_t explored = 0, stored = 0;
  for (std::size_t at = records.find("# explored"); at != std::string::npos;
       at = records.find("# explored", at + 1))
    ++explored;
  for (std::size_t at = records.find("# stored"); at != std::string::npos;
       at = records.find("# stored", at + 1))
    ++stored;
  std::printf("pacxx-tune: %s: %zu choices explored, %zu stored ones used\n%s", argv[first],
              explored, stored, records.c_str());
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  std::fprintf(stderr, "pacxx-tune: %s ended by signal %d\n", argv[first],
               WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
