// The abort path of gpu::dist (issue 39): the last rank throws while the others wait in
// a collective; they must not hang. `terminate`: the exception leaves main uncaught and
// the environment's std::terminate handler calls MPI_Abort with its message. `unwind`:
// the exception unwinds through the environment's scope (caught outside it); its
// destructor aborts every rank. `partial`: rank 0 makes a collective that the others
// never make (they leave main): the others' environment destructors see the mismatch
// and abort with the message instead of finishing or hanging. ctest expects the
// message and a bounded run time.
#include <pacxx/dist.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace {
void run(int &argc, char **&argv, bool unwind) {
  pacxx::dist::environment env(argc, argv);
  if (env.rank() == env.size() - 1)
    throw std::runtime_error("boom on rank " + std::to_string(env.rank()));
  env.barrier(); // never completes: the last rank does not come
  std::printf("rank %d passed the barrier (wrong)\n", env.rank());
  (void)unwind;
}
} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "partial") {
    pacxx::dist::environment env(argc, argv);
    gpu::dist::vector<int> x(0); // no elements: no kernel, only the collective
    if (env.rank() == 0)
      std::printf("rank 0: sum %d (wrong)\n", gpu::dist::reduce(x, 0));
    return 0;
  }
  const bool unwind = argc > 1 && std::string(argv[1]) == "unwind";
  if (!unwind) {
    run(argc, argv, false); // terminate: no handler anywhere
    return 0;
  }
  try {
    run(argc, argv, true);
  } catch (const std::exception &e) {
    std::printf("caught after the environment was destroyed (wrong): %s\n", e.what());
  }
  return 0;
}
