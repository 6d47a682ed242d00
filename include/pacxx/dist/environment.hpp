// pacxx::dist::environment: one process per device, started by mpirun (or a batch
// system), talking over MPI and, on CUDA, NCCL (issue 39). Part of the pacxx_dist
// library (`find_package(pacxx COMPONENTS dist)`, target pacxx::dist; link
// -lpacxx_dist): programs that do not include pacxx/dist/ do not link MPI.
//
// The transports, chosen once at start-up (the same on every rank):
//   nccl         CUDA device and libnccl.so.2 opened (PACXX_NCCL names another path,
//                PACXX_NCCL=0 turns it off): device data moves device to device on the
//                queue's stream; MPI carries the bootstrap (NCCL's unique id) and small
//                control data.
//   mpi_device   CUDA device, no NCCL, and an MPI library that says it is CUDA-aware
//                (MPIX_Query_cuda_support): device pointers are handed to MPI.
//   host_staged  otherwise (always on OpenCL/PoCL): device data is copied through pinned
//                host buffers and sent with MPI.
//
// Failure: a rank that throws out of main destroys the environment during unwinding;
// the destructor then calls MPI_Abort (with the exception's message on stderr), so the
// other ranks, which may be waiting in a collective, end too instead of hanging. An
// uncaught exception that reaches std::terminate does the same through the terminate
// handler the environment installs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "pacxx/error.hpp"

namespace pacxx {
namespace dist {

/// How device data moves between ranks (see the header comment).
enum class transport { nccl, mpi_device, host_staged };

/// Start-up and shut-down of a distributed pacxx program: MPI_Init_thread, the rank's
/// device (its local rank among the processes of its node picks it), NCCL where
/// present. Exactly one may exist at a time; construct it first in main.
class environment {
public:
  /// Initialises MPI (if not yet initialised), picks the device from the local rank
  /// (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID; otherwise the rank
  /// modulo the number of devices) unless PACXX_DEVICE is set, and opens NCCL.
  environment(int &argc, char **&argv);
  /// As above with the index of the CUDA device to use (among the node's devices).
  environment(int &argc, char **&argv, int device_index);
  environment(const environment &) = delete;
  environment &operator=(const environment &) = delete;
  /// Closes NCCL and finalises MPI; during unwinding from an exception it aborts every
  /// rank (MPI_Abort) instead, so that none waits for this one forever.
  ~environment();

  /// This process's rank in MPI_COMM_WORLD.
  int rank() const noexcept { return rank_; }
  /// The number of ranks.
  int size() const noexcept { return size_; }
  /// The rank among the processes on this node (the device it uses on CUDA).
  int local_rank() const noexcept { return local_rank_; }
  /// How device data moves between ranks.
  dist::transport transport() const noexcept { return transport_; }
  /// "nccl", "mpi_device" or "host_staged".
  const char *transport_name() const noexcept;
  /// Waits until every rank has reached this call (MPI_Barrier).
  void barrier() const;
  /// Prints `message` with the rank to stderr and ends every rank (MPI_Abort).
  [[noreturn]] static void abort(const std::string &message) noexcept;

  /// The live environment; a pacxx::error naming `who` if there is none.
  static environment &current(const char *who = "pacxx::dist");

private:
  void start(int &argc, char **&argv, int device_index);
  int rank_ = 0, size_ = 1, local_rank_ = 0;
  dist::transport transport_ = dist::transport::host_staged;
  int uncaught_ = 0;
};

/// This process's rank (environment::current().rank()).
inline int rank() { return environment::current().rank(); }
/// The number of ranks (environment::current().size()).
inline int size() { return environment::current().size(); }

namespace detail {
// The engine's calls (libpacxx_dist). Host buffers are plain memory; device buffers
// are pacxx device pointers of the selected device, used on the current queue
// (pacxx::queue_scope). Every call is collective: every rank makes it, in the same order.

// Every rank's `bytes` bytes at `mine`, in rank order, into `all` (size() * bytes).
void allgather(const void *mine, std::size_t bytes, void *all);
// Every rank's counts (any number per rank): `all` gets rank r's bytes at
// offsets[r] (offsets: size()+1 entries, written).
void allgatherv(const void *mine, std::size_t bytes, void *all, std::size_t *offsets,
                std::size_t capacity);
// root's bytes to every rank.
void broadcast(void *data, std::size_t bytes, int root);
// Checks that every rank makes the same collective call with the same arguments: an
// all-gather of (signature, name hash); a pacxx::error on every rank if they differ.
void check_collective(const char *name, std::uint64_t signature);
// The same check with `bytes` of payload per rank, gathered into `all` (size() * bytes,
// rank order). Every checked collective's first message has one size (64 bytes: the
// call, its signature, the payload's size and up to 40 payload bytes), so two ranks in
// different calls always meet in a message they can compare, never in an MPI
// truncation error; a larger payload follows in a second all-gather.
void checked_allgather(const char *name, std::uint64_t signature, const void *payload,
                       std::size_t bytes, void *all);
// Host data on root, block `counts[r]` bytes for rank r (in rank order), into each
// rank's device buffer `dst` (counts[rank] bytes).
void scatter_to_device(const void *host_root, const std::size_t *counts, void *dst, int root);
// The reverse: each rank's device bytes into root's host buffer, in rank order.
void gather_from_device(const void *src, const std::size_t *counts, void *host_root, int root);
// Device all-to-all: rank r sends send_counts[s] bytes (from send, consecutively) to
// rank s and receives recv_counts[s] bytes from it (into recv, consecutively). NCCL
// (grouped send/recv), CUDA-aware MPI or host-staged MPI_Alltoallv. Returns when done.
void alltoallv_device(const void *send, const std::size_t *send_counts, void *recv,
                      const std::size_t *recv_counts);

// One point-to-point exchange of device bytes with a neighbour (peer < 0: none).
struct exchange_part {
  int peer = -1;
  const void *send = nullptr;
  void *recv = nullptr;
  std::size_t bytes = 0;
};
// An exchange in flight (begin/end). Owns the pinned staging buffers it reuses.
class exchange {
public:
  exchange() = default;
  exchange(const exchange &) = delete;
  exchange &operator=(const exchange &) = delete;
  ~exchange();
  // Starts the exchange of both parts on queue `q` (a runtime queue, null: default).
  void begin(const exchange_part &lo, const exchange_part &hi, void *q);
  // Completes it: afterwards work on `q` sees the received bytes.
  void end();

private:
  void *state_ = nullptr;
};
} // namespace detail
} // namespace dist
} // namespace pacxx
