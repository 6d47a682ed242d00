// The engine of pacxx::dist (issue 39): MPI start-up, device choice, NCCL opened at run
// time, and the collective data movement the headers of include/pacxx/dist/ call.
#include "pacxx/dist/environment.hpp"

#include "pacxx/runtime.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // Open MPI: MPIX_Query_cuda_support
#endif

#include <dlfcn.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace pacxx {
namespace dist {
namespace {

// --- NCCL, opened at run time (as the runtime opens libcuda): only the part of its C
// API that pacxx calls, declared here so that building needs no NCCL headers.
using nccl_result = int;                     // ncclResult_t; ncclSuccess = 0
using nccl_comm = struct nccl_comm_opaque *; // ncclComm_t
struct nccl_unique_id {
  char internal[128]; // NCCL_UNIQUE_ID_BYTES
};
constexpr int nccl_int8 = 0; // ncclInt8: bytes
using cuda_stream = void *;  // cudaStream_t

struct nccl_api {
  void *handle = nullptr;
  nccl_result (*GetVersion)(int *) = nullptr;
  nccl_result (*GetUniqueId)(nccl_unique_id *) = nullptr;
  nccl_result (*CommInitRank)(nccl_comm *, int, nccl_unique_id, int) = nullptr;
  nccl_result (*CommDestroy)(nccl_comm) = nullptr;
  nccl_result (*CommAbort)(nccl_comm) = nullptr;
  const char *(*GetErrorString)(nccl_result) = nullptr;
  nccl_result (*GroupStart)() = nullptr;
  nccl_result (*GroupEnd)() = nullptr;
  nccl_result (*Send)(const void *, std::size_t, int, int, nccl_comm, cuda_stream) = nullptr;
  nccl_result (*Recv)(void *, std::size_t, int, int, nccl_comm, cuda_stream) = nullptr;

  // Opens the library; false (with the reason in `why`) if it or a symbol is missing.
  bool open(const std::string &path, std::string &why) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *e = dlerror();
      why = e ? e : ("cannot open " + path);
      return false;
    }
    bool ok = true;
    auto sym = [&](auto &fn, const char *name) {
      fn =
          reinterpret_cast<typename std::remove_reference<decltype(fn)>::type>(dlsym(handle, name));
      if (!fn) {
        ok = false;
        why = std::string(path) + " lacks " + name;
      }
    };
    sym(GetVersion, "ncclGetVersion");
    sym(GetUniqueId, "ncclGetUniqueId");
    sym(CommInitRank, "ncclCommInitRank");
    sym(CommDestroy, "ncclCommDestroy");
    sym(CommAbort, "ncclCommAbort");
    sym(GetErrorString, "ncclGetErrorString");
    sym(GroupStart, "ncclGroupStart");
    sym(GroupEnd, "ncclGroupEnd");
    sym(Send, "ncclSend");
    sym(Recv, "ncclRecv");
    return ok;
  }
};

// --- libcuda, for the two calls NCCL needs around it: the device count (to pick the
// local rank's device before the runtime selects one) and the current context (NCCL
// uses the CUDA runtime, which adopts the context current on the calling thread).
struct cuda_api {
  void *handle = nullptr;
  int (*Init)(unsigned) = nullptr;
  int (*DeviceGetCount)(int *) = nullptr;
  int (*CtxSetCurrent)(void *) = nullptr;
  bool open() {
    handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return false;
    Init = reinterpret_cast<int (*)(unsigned)>(dlsym(handle, "cuInit"));
    DeviceGetCount = reinterpret_cast<int (*)(int *)>(dlsym(handle, "cuDeviceGetCount"));
    CtxSetCurrent = reinterpret_cast<int (*)(void *)>(dlsym(handle, "cuCtxSetCurrent"));
    return Init && DeviceGetCount && CtxSetCurrent;
  }
  int device_count() {
    int n = 0;
    if (!handle && !open())
      return 0;
    if (Init(0) != 0 || DeviceGetCount(&n) != 0)
      return 0;
    return n;
  }
};

struct engine {
  environment *env = nullptr;
  bool we_initialised_mpi = false;
  nccl_api nccl;
  nccl_comm comm = nullptr;
  cuda_api cuda;
  void *cuda_context = nullptr;
  std::terminate_handler previous_terminate = nullptr;
};
engine &the_engine() {
  static engine e;
  return e;
}

[[noreturn]] void mpi_failed(const char *call, int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw error(std::string("pacxx::dist: ") + call + " failed: " + text);
}
void check_mpi(int code, const char *call) {
  if (code != MPI_SUCCESS)
    mpi_failed(call, code);
}
void check_nccl(nccl_result r, const char *call) {
  if (r != 0)
    throw error(std::string("pacxx::dist: ") + call +
                " failed: " + the_engine().nccl.GetErrorString(r));
}

int env_int(const char *name, int fallback) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  char *end = nullptr;
  long x = std::strtol(v, &end, 10);
  return (*end == '\0' && x >= 0 && x < INT_MAX) ? static_cast<int>(x) : fallback;
}

// Byte counts for MPI (int); a message over 2 GiB is split by nobody here, so it is an
// error naming the call rather than a silent truncation.
int mpi_count(std::size_t bytes, const char *who) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw error(std::string("pacxx::dist: ") + who +
                ": more than 2 GiB in one MPI message (host-staged path); use NCCL");
  return static_cast<int>(bytes);
}

void make_context_current() {
  engine &e = the_engine();
  if (e.cuda_context)
    e.cuda.CtxSetCurrent(e.cuda_context);
}

cuda_stream stream_of(void *q) { return pacxx::detail::queue_native(q); }

void terminate_with_mpi_abort() {
  std::string what = "std::terminate called";
  if (std::exception_ptr p = std::current_exception()) {
    try {
      std::rethrow_exception(p);
    } catch (const std::exception &ex) {
      what = std::string("uncaught exception: ") + ex.what();
    } catch (...) {
      what = "uncaught exception of a non-standard type";
    }
  }
  environment::abort(what);
}

// Pinned host memory that grows (for the host-staged paths).
struct pinned {
  void *p = nullptr;
  std::size_t bytes = 0;
  void *get(std::size_t n) {
    if (n > bytes) {
      pacxx::detail::host_free(p);
      p = nullptr;
      bytes = 0;
      p = pacxx::detail::host_allocate(n);
      bytes = n;
    }
    return p;
  }
  ~pinned() { pacxx::detail::host_free(p); }
};

std::uint64_t fnv1a(const char *s) {
  std::uint64_t h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
  return h;
}

} // namespace

environment::environment(int &argc, char **&argv) { start(argc, argv, -1); }
environment::environment(int &argc, char **&argv, int device_index) {
  if (device_index < 0)
    throw error("pacxx::dist::environment: the device index must not be negative");
  start(argc, argv, device_index);
}

void environment::start(int &argc, char **&argv, int device_index) {
  engine &e = the_engine();
  if (e.env)
    throw error("pacxx::dist::environment: one exists already");
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    // Serialized: a program may run pacxx on several host threads, one at a time in MPI.
    check_mpi(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    e.we_initialised_mpi = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  local_rank_ = env_int("OMPI_COMM_WORLD_LOCAL_RANK",
                        env_int("MPI_LOCALRANKID", env_int("SLURM_LOCALID", rank_)));
  uncaught_ = std::uncaught_exceptions();
  e.env = this;
  e.previous_terminate = std::set_terminate(terminate_with_mpi_abort);

  // The device: the local rank's CUDA device unless PACXX_DEVICE names one. The
  // runtime reads PACXX_DEVICE when it first starts, which must be after this.
  // PACXX_DEVICE=cuda without an index also means "the local rank's CUDA device".
  const char *chosen = std::getenv("PACXX_DEVICE");
  if (!chosen || !*chosen || std::strcmp(chosen, "cuda") == 0) {
    const int n = e.cuda.device_count();
    if (n > 0) {
      const int index = device_index >= 0 ? device_index : local_rank_ % n;
      const std::string d = "cuda:" + std::to_string(index);
      setenv("PACXX_DEVICE", d.c_str(), 1);
    }
  }
  const native_handles_t h = native_handles(); // selects the device now
  const bool on_cuda = std::strcmp(h.backend, "cuda") == 0;
  if (on_cuda) {
    if (!e.cuda.handle)
      e.cuda.open();
    e.cuda_context = h.context;
  }

  // The transport: the best that every rank has (they must agree).
  int mine = 0;
  std::string why_not;
  if (on_cuda) {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    if (MPIX_Query_cuda_support() == 1)
      mine = 1;
#endif
    const char *setting = std::getenv("PACXX_NCCL");
    const std::string path = setting && *setting ? setting : "libnccl.so.2";
    if (path != "0" && e.nccl.open(path, why_not))
      mine = 2;
  }
  int agreed = 0;
  check_mpi(MPI_Allreduce(&mine, &agreed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  transport_ = agreed == 2   ? dist::transport::nccl
               : agreed == 1 ? dist::transport::mpi_device
                             : dist::transport::host_staged;
  if (transport_ == dist::transport::nccl) {
    // NVLink multicast stays off on the lent machines (NCCL_NVLS_ENABLE=0) unless the
    // user set it.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    nccl_unique_id id{};
    if (rank_ == 0)
      check_nccl(e.nccl.GetUniqueId(&id), "ncclGetUniqueId");
    check_mpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
    make_context_current();
    check_nccl(e.nccl.CommInitRank(&e.comm, size_, id, rank_), "ncclCommInitRank");
  }
}

environment::~environment() {
  engine &e = the_engine();
  if (std::uncaught_exceptions() > uncaught_)
    abort("a rank left the scope of pacxx::dist::environment with an exception");
  // A collective that the other ranks never make shows here (they are finalising):
  // abort with the message rather than hang or finish wrongly.
  try {
    detail::check_collective("pacxx::dist::environment::~environment", 0);
  } catch (const std::exception &ex) {
    abort(ex.what());
  }
  if (e.comm) {
    pacxx::synchronize();
    e.nccl.CommDestroy(e.comm);
    e.comm = nullptr;
  }
  std::set_terminate(e.previous_terminate);
  e.env = nullptr;
  if (e.we_initialised_mpi) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
      MPI_Finalize();
  }
}

const char *environment::transport_name() const noexcept {
  switch (transport_) {
  case dist::transport::nccl:
    return "nccl";
  case dist::transport::mpi_device:
    return "mpi_device";
  case dist::transport::host_staged:
    break;
  }
  return "host_staged";
}

void environment::barrier() const { check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

void environment::abort(const std::string &message) noexcept {
  int rank = -1, initialised = 0, finalized = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalized);
  if (initialised && !finalized)
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "pacxx::dist: rank %d aborts all ranks: %s\n", rank, message.c_str());
  std::fflush(stderr);
  engine &e = the_engine();
  if (e.comm)
    e.nccl.CommAbort(e.comm); // NCCL's kernels may be waiting for a peer
  if (initialised && !finalized)
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

environment &environment::current(const char *who) {
  engine &e = the_engine();
  if (!e.env)
    throw error(std::string(who) +
                ": no pacxx::dist::environment (construct one at the start of main)");
  return *e.env;
}

namespace detail {

void allgather(const void *mine, std::size_t bytes, void *all) {
  check_mpi(MPI_Allgather(mine, mpi_count(bytes, "allgather"), MPI_BYTE, all,
                          mpi_count(bytes, "allgather"), MPI_BYTE, MPI_COMM_WORLD),
            "MPI_Allgather");
}

void allgatherv(const void *mine, std::size_t bytes, void *all, std::size_t *offsets,
                std::size_t capacity) {
  const int p = environment::current().size();
  std::vector<unsigned long long> sizes(p);
  unsigned long long b = bytes;
  check_mpi(MPI_Allgather(&b, 1, MPI_UNSIGNED_LONG_LONG, sizes.data(), 1, MPI_UNSIGNED_LONG_LONG,
                          MPI_COMM_WORLD),
            "MPI_Allgather");
  std::vector<int> counts(p), displs(p);
  offsets[0] = 0;
  for (int r = 0; r < p; ++r) {
    offsets[r + 1] = offsets[r] + sizes[r];
    counts[r] = mpi_count(sizes[r], "allgatherv");
    displs[r] = mpi_count(offsets[r], "allgatherv");
  }
  if (offsets[p] > capacity)
    throw error("pacxx::dist: allgatherv: the result does not fit its buffer");
  check_mpi(MPI_Allgatherv(mine, mpi_count(bytes, "allgatherv"), MPI_BYTE, all, counts.data(),
                           displs.data(), MPI_BYTE, MPI_COMM_WORLD),
            "MPI_Allgatherv");
}

void broadcast(void *data, std::size_t bytes, int root) {
  check_mpi(MPI_Bcast(data, mpi_count(bytes, "broadcast"), MPI_BYTE, root, MPI_COMM_WORLD),
            "MPI_Bcast");
}

namespace {
// The first message of every checked collective (see checked_allgather).
struct check_message {
  std::uint64_t name, signature, bytes;
  unsigned char payload[40];
};
static_assert(sizeof(check_message) == 64, "one message size for every checked collective");
} // namespace

void checked_allgather(const char *name, std::uint64_t signature, const void *payload,
                       std::size_t bytes, void *all) {
  environment &env = environment::current(name);
  const std::size_t p = static_cast<std::size_t>(env.size());
  check_message mine{};
  mine.name = fnv1a(name);
  mine.signature = signature;
  mine.bytes = bytes;
  const bool inline_payload = bytes <= sizeof mine.payload;
  if (inline_payload && bytes)
    std::memcpy(mine.payload, payload, bytes);
  std::vector<check_message> msgs(p);
  allgather(&mine, sizeof mine, msgs.data());
  for (std::size_t r = 0; r < p; ++r) {
    if (msgs[r].name != mine.name || msgs[r].bytes != mine.bytes)
      throw error(std::string(name) + ": rank " + std::to_string(env.rank()) +
                  " called it while rank " + std::to_string(r) +
                  " called another collective (every rank must make the same "
                  "pacxx::dist calls in the same order)");
    if (msgs[r].signature != mine.signature)
      throw error(std::string(name) + ": rank " + std::to_string(env.rank()) + " and rank " +
                  std::to_string(r) +
                  " called it with different arguments (sizes or distributions differ)");
  }
  if (!bytes)
    return;
  if (inline_payload)
    for (std::size_t r = 0; r < p; ++r)
      std::memcpy(static_cast<unsigned char *>(all) + r * bytes, msgs[r].payload, bytes);
  else
    allgather(payload, bytes, all);
}

void check_collective(const char *name, std::uint64_t signature) {
  checked_allgather(name, signature, nullptr, 0, nullptr);
}

void scatter_to_device(const void *host_root, const std::size_t *counts, void *dst, int root) {
  environment &env = environment::current("pacxx::dist::scatter");
  const int p = env.size();
  std::vector<int> c(p), d(p);
  std::size_t off = 0;
  for (int r = 0; r < p; ++r) {
    c[r] = mpi_count(counts[r], "scatter");
    d[r] = mpi_count(off, "scatter");
    off += counts[r];
  }
  const std::size_t mine = counts[env.rank()];
  pinned buf;
  void *h = buf.get(mine ? mine : 1);
  check_mpi(MPI_Scatterv(host_root, c.data(), d.data(), MPI_BYTE, h, c[env.rank()], MPI_BYTE, root,
                         MPI_COMM_WORLD),
            "MPI_Scatterv");
  if (mine)
    pacxx::detail::copy_to_device(dst, h, mine);
}

void gather_from_device(const void *src, const std::size_t *counts, void *host_root, int root) {
  environment &env = environment::current("pacxx::dist::gather");
  const int p = env.size();
  std::vector<int> c(p), d(p);
  std::size_t off = 0;
  for (int r = 0; r < p; ++r) {
    c[r] = mpi_count(counts[r], "gather");
    d[r] = mpi_count(off, "gather");
    off += counts[r];
  }
  const std::size_t mine = counts[env.rank()];
  pinned buf;
  void *h = buf.get(mine ? mine : 1);
  if (mine)
    pacxx::detail::copy_to_host(h, src, mine);
  check_mpi(MPI_Gatherv(h, c[env.rank()], MPI_BYTE, host_root, c.data(), d.data(), MPI_BYTE, root,
                        MPI_COMM_WORLD),
            "MPI_Gatherv");
}

void alltoallv_device(const void *send, const std::size_t *send_counts, void *recv,
                      const std::size_t *recv_counts) {
  environment &env = environment::current("pacxx::dist::alltoallv");
  engine &e = the_engine();
  const int p = env.size();
  void *q = pacxx::detail::current_queue();
  const int me = env.rank();
  if (send_counts[me] != recv_counts[me])
    throw error("pacxx::dist::alltoallv: a rank sends itself another byte count than it receives");
  std::size_t send_total = 0, recv_total = 0, send_self = 0, recv_self = 0;
  for (int r = 0; r < p; ++r) {
    if (r == me) {
      send_self = send_total;
      recv_self = recv_total;
    }
    send_total += send_counts[r];
    recv_total += recv_counts[r];
  }
  // The rank's own part is a device-to-device copy on the queue, not a message: in
  // dist::sort's move back into the blocks it is most of the data (each bucket is about
  // the rank's own block), and a copy runs at the device's copy rate where NCCL's
  // send to self or the host-staged path (device -> host -> device) is far slower.
  const auto copy_self = [&] {
    if (send_counts[me])
      pacxx::detail::copy_on_device(static_cast<char *>(recv) + recv_self,
                                    static_cast<const char *>(send) + send_self, send_counts[me]);
  };
  if (env.transport() == transport::nccl) {
    make_context_current();
    const char *s = static_cast<const char *>(send);
    char *d = static_cast<char *>(recv);
    check_nccl(e.nccl.GroupStart(), "ncclGroupStart");
    for (int r = 0; r < p; ++r) {
      if (send_counts[r] && r != me)
        check_nccl(e.nccl.Send(s, send_counts[r], nccl_int8, r, e.comm, stream_of(q)), "ncclSend");
      if (recv_counts[r] && r != me)
        check_nccl(e.nccl.Recv(d, recv_counts[r], nccl_int8, r, e.comm, stream_of(q)), "ncclRecv");
      s += send_counts[r];
      d += recv_counts[r];
    }
    check_nccl(e.nccl.GroupEnd(), "ncclGroupEnd");
    copy_self();
    pacxx::detail::queue_wait(q);
    return;
  }
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  std::size_t so = 0, ro = 0;
  for (int r = 0; r < p; ++r) {
    sc[r] = mpi_count(send_counts[r], "alltoallv");
    sd[r] = mpi_count(so, "alltoallv");
    rc[r] = mpi_count(recv_counts[r], "alltoallv");
    rd[r] = mpi_count(ro, "alltoallv");
    so += send_counts[r];
    ro += recv_counts[r];
  }
  sc[me] = rc[me] = 0; // copy_self
  if (env.transport() == transport::mpi_device) {
    pacxx::detail::queue_wait(q);
    check_mpi(MPI_Alltoallv(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(),
                            MPI_BYTE, MPI_COMM_WORLD),
              "MPI_Alltoallv");
    copy_self();
    pacxx::detail::queue_wait(q);
    return;
  }
  pinned hs, hr;
  void *s = hs.get(send_total ? send_total : 1);
  void *r = hr.get(recv_total ? recv_total : 1);
  if (send_total)
    pacxx::detail::copy_to_host(s, send, send_total);
  check_mpi(MPI_Alltoallv(s, sc.data(), sd.data(), MPI_BYTE, r, rc.data(), rd.data(), MPI_BYTE,
                          MPI_COMM_WORLD),
            "MPI_Alltoallv");
  if (recv_total)
    pacxx::detail::copy_to_device(recv, r, recv_total);
  copy_self(); // after that copy: r holds no valid bytes for the own part
  pacxx::detail::queue_wait(q);
}

// --- halo exchange
namespace {
struct exchange_state {
  pinned send[2], recv[2];
  exchange_part part[2];
  MPI_Request requests[4];
  int count = 0;
  void *queue = nullptr;
  bool active = false;
};
// Tags: a part's send goes "down" (to rank-1) from the low part and "up" from the high one;
// the receiver of the low part gets what its lower neighbour sent up.
constexpr int tag_down = 3901, tag_up = 3902;
} // namespace

exchange::~exchange() {
  auto *s = static_cast<exchange_state *>(state_);
  if (s && s->active) {
    try {
      end();
    } catch (...) {
    }
  }
  delete s;
}

void exchange::begin(const exchange_part &lo, const exchange_part &hi, void *q) {
  environment &env = environment::current("pacxx::dist::exchange_halo_begin");
  engine &e = the_engine();
  if (!state_)
    state_ = new exchange_state;
  auto *s = static_cast<exchange_state *>(state_);
  if (s->active)
    throw error("pacxx::dist::vector::exchange_halo_begin: an exchange is already in flight "
                "(call exchange_halo_end first)");
  s->part[0] = lo;
  s->part[1] = hi;
  s->queue = q;
  s->count = 0;
  const int send_tag[2] = {tag_down, tag_up}, recv_tag[2] = {tag_up, tag_down};
  if (env.transport() == transport::nccl) {
    make_context_current();
    check_nccl(e.nccl.GroupStart(), "ncclGroupStart");
    for (const exchange_part &x : s->part)
      if (x.peer >= 0 && x.bytes) {
        check_nccl(e.nccl.Send(x.send, x.bytes, nccl_int8, x.peer, e.comm, stream_of(q)),
                   "ncclSend");
        check_nccl(e.nccl.Recv(x.recv, x.bytes, nccl_int8, x.peer, e.comm, stream_of(q)),
                   "ncclRecv");
      }
    check_nccl(e.nccl.GroupEnd(), "ncclGroupEnd");
    s->active = true;
    return;
  }
  const bool staged = env.transport() == transport::host_staged;
  void *previous = pacxx::detail::set_current_queue(q);
  try {
    if (staged)
      for (int i = 0; i < 2; ++i)
        if (s->part[i].peer >= 0 && s->part[i].bytes)
          pacxx::detail::copy_to_host_async(s->send[i].get(s->part[i].bytes), s->part[i].send,
                                            s->part[i].bytes);
    // The boundary must be on the host (or finished on the device) before MPI reads it.
    pacxx::detail::queue_wait(q);
  } catch (...) {
    pacxx::detail::set_current_queue(previous);
    throw;
  }
  pacxx::detail::set_current_queue(previous);
  for (int i = 0; i < 2; ++i) {
    const exchange_part &x = s->part[i];
    if (x.peer < 0 || !x.bytes)
      continue;
    const int n = mpi_count(x.bytes, "exchange_halo");
    void *rb = staged ? s->recv[i].get(x.bytes) : x.recv;
    const void *sb = staged ? s->send[i].p : x.send;
    check_mpi(
        MPI_Irecv(rb, n, MPI_BYTE, x.peer, recv_tag[i], MPI_COMM_WORLD, &s->requests[s->count++]),
        "MPI_Irecv");
    check_mpi(
        MPI_Isend(sb, n, MPI_BYTE, x.peer, send_tag[i], MPI_COMM_WORLD, &s->requests[s->count++]),
        "MPI_Isend");
  }
  s->active = true;
}

void exchange::end() {
  auto *s = static_cast<exchange_state *>(state_);
  if (!s || !s->active)
    throw error("pacxx::dist::vector::exchange_halo_end: no exchange in flight "
                "(call exchange_halo_begin first)");
  s->active = false;
  environment &env = environment::current("pacxx::dist::exchange_halo_end");
  if (env.transport() == transport::nccl)
    return; // ordered on the queue already
  check_mpi(MPI_Waitall(s->count, s->requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
  if (env.transport() != transport::host_staged)
    return;
  void *previous = pacxx::detail::set_current_queue(s->queue);
  try {
    for (int i = 0; i < 2; ++i)
      if (s->part[i].peer >= 0 && s->part[i].bytes)
        pacxx::detail::copy_to_device_async(s->part[i].recv, s->recv[i].p, s->part[i].bytes);
  } catch (...) {
    pacxx::detail::set_current_queue(previous);
    throw;
  }
  pacxx::detail::set_current_queue(previous);
}

} // namespace detail
} // namespace dist
} // namespace pacxx
