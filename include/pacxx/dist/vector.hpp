// gpu::dist::vector<T>: a vector distributed over the ranks of a
// pacxx::dist::environment, one contiguous block per rank (issue 39). Each rank holds
// its block in device memory as an ordinary gpu::vector, so every view and algorithm
// applies to it unchanged; the distribution (every rank's offset and size) is known
// on every rank without communication.
//
//   gpu::dist::vector<float> x(n);                          // blocks as even as can be
//   gpu::dist::vector<float> u(n, gpu::dist::halo(1));       // one halo element each side
//   gpu::dist::vector<float> img(w * h, gpu::dist::rows(w)); // whole rows, one halo row
//   auto y = gpu::dist::vector<float>::scatter(host, 0);     // from rank 0's std::vector
//   std::vector<float> all = y.gather(0);                    // back (on rank 0; empty elsewhere)
//
// With a halo, each rank's device storage is [low halo | owned | high halo]: with_halo()
// is that gpu::vector, owned() a device_span of the owned part, and exchange_halo(q)
// fills the halos from the neighbouring ranks (those that own elements). The halos of
// the first and the last rank are the user's (boundary conditions): never written.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pacxx/device_span.hpp"
#include "pacxx/dist/environment.hpp"
#include "pacxx/error.hpp"
#include "pacxx/queue.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace dist {

/// A halo of `elements` elements on each side of every rank's block.
struct halo {
  /// Halo elements on each side.
  std::size_t elements = 0;
  /// h elements on each side.
  explicit halo(std::size_t h = 0) : elements(h) {}
};

/// A 2D row-block distribution of an image `width` elements wide: every rank holds
/// whole rows and `halo_rows` rows of halo on each side.
struct rows {
  /// Elements per row.
  std::size_t width = 1;
  /// Halo rows on each side.
  std::size_t halo_rows = 1;
  /// Rows of `width` elements, `halo_rows` halo rows on each side.
  explicit rows(std::size_t width_, std::size_t halo_rows_ = 1)
      : width(width_), halo_rows(halo_rows_) {}
};

/// Where the elements of a distributed vector live: rank r holds global indices
/// [offset(r), offset(r) + count(r)).
class distribution {
  std::vector<std::size_t> offsets_{0};

public:
  distribution() = default;
  /// Blocks of whole granules (n must be a multiple of `granule`) over `ranks` ranks:
  /// the first n/granule % ranks ranks hold one granule more; ranks beyond the number
  /// of granules hold nothing.
  static distribution block(std::size_t n, int ranks, std::size_t granule = 1) {
    if (ranks < 1)
      throw pacxx::error("gpu::dist::distribution: no ranks");
    if (granule == 0 || n % granule != 0)
      throw pacxx::error("gpu::dist::distribution: " + std::to_string(n) +
                         " elements are not whole rows of " + std::to_string(granule));
    const std::size_t units = n / granule, p = static_cast<std::size_t>(ranks);
    distribution d;
    d.offsets_.assign(p + 1, 0);
    for (std::size_t r = 0; r < p; ++r)
      d.offsets_[r + 1] = d.offsets_[r] + (units / p + (r < units % p ? 1 : 0)) * granule;
    return d;
  }
  /// Rank r holds counts[r] elements.
  static distribution from_counts(const std::vector<std::size_t> &counts) {
    distribution d;
    d.offsets_.assign(counts.size() + 1, 0);
    for (std::size_t r = 0; r < counts.size(); ++r)
      d.offsets_[r + 1] = d.offsets_[r] + counts[r];
    return d;
  }
  /// The number of ranks it spans.
  int ranks() const noexcept { return static_cast<int>(offsets_.size()) - 1; }
  /// The global number of elements.
  std::size_t size() const noexcept { return offsets_.back(); }
  /// The global index of rank r's first element.
  std::size_t offset(int r) const { return offsets_.at(static_cast<std::size_t>(r)); }
  /// The number of elements rank r holds.
  std::size_t count(int r) const {
    return offsets_.at(static_cast<std::size_t>(r) + 1) - offsets_.at(static_cast<std::size_t>(r));
  }
  /// Every rank's count, in rank order.
  std::vector<std::size_t> counts() const {
    std::vector<std::size_t> c(offsets_.size() - 1);
    for (std::size_t r = 0; r + 1 < offsets_.size(); ++r)
      c[r] = offsets_[r + 1] - offsets_[r];
    return c;
  }
  /// The rank that holds global index i (the last rank for i == size()).
  int owner(std::size_t i) const {
    int r = 0;
    while (r + 1 < ranks() && offsets_[static_cast<std::size_t>(r) + 1] <= i)
      ++r;
    return r;
  }
  /// Two distributions are equal when every rank holds the same indices.
  friend bool operator==(const distribution &a, const distribution &b) {
    return a.offsets_ == b.offsets_;
  }
  /// Whether some rank holds other indices in a than in b.
  friend bool operator!=(const distribution &a, const distribution &b) { return !(a == b); }
  /// A hash of the offsets (for the collective-call check).
  std::uint64_t hash() const noexcept {
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t o : offsets_)
      h = (h ^ o) * 1099511628211ull;
    return h;
  }
};

/// A vector of T distributed in blocks over the ranks (see the header comment).
template <class T> class vector {
  static_assert(std::is_trivially_copyable<T>::value,
                "gpu::dist::vector: T must be trivially copyable (it moves as bytes)");
  distribution dist_;
  std::size_t halo_ = 0;
  int rank_ = 0;
  gpu::vector<T> storage_;
  std::unique_ptr<pacxx::dist::detail::exchange> exchange_;

  std::size_t count() const { return dist_.count(rank_); }
  // The nearest ranks below and above that hold elements (-1: none).
  int lower_neighbour() const {
    int r = rank_ - 1;
    while (r >= 0 && dist_.count(r) == 0)
      --r;
    return r;
  }
  int upper_neighbour() const {
    int r = rank_ + 1;
    while (r < dist_.ranks() && dist_.count(r) == 0)
      ++r;
    return r < dist_.ranks() ? r : -1;
  }

public:
  /// The element type.
  using value_type = T;

  /// n elements (uninitialised), in blocks as even as can be, with an optional halo.
  explicit vector(std::size_t n, halo h = halo(0))
      : vector(distribution::block(n, pacxx::dist::size()), h.elements) {}
  /// A width-wide image of n elements (whole rows), split by rows, with halo rows.
  vector(std::size_t n, rows r)
      : vector(distribution::block(n, pacxx::dist::size(), r.width), r.width * r.halo_rows) {}
  /// The elements that `d` places on this rank, with `halo_elements` of halo on each side.
  explicit vector(const distribution &d, std::size_t halo_elements = 0)
      : dist_(d), halo_(halo_elements), rank_(pacxx::dist::rank()) {
    if (d.ranks() != pacxx::dist::size())
      throw pacxx::error("gpu::dist::vector: a distribution over " + std::to_string(d.ranks()) +
                         " ranks, but the program runs on " + std::to_string(pacxx::dist::size()));
    storage_ = gpu::vector<T>(count() == 0 ? 0 : count() + 2 * halo_);
  }
  /// A deep copy (same distribution and halo; the halo's contents are copied too).
  vector(const vector &o) : dist_(o.dist_), halo_(o.halo_), rank_(o.rank_), storage_(o.storage_) {}
  /// Takes over o's storage.
  vector(vector &&) noexcept = default;
  /// A deep copy of o.
  vector &operator=(const vector &o) {
    vector t(o);
    return *this = std::move(t);
  }
  /// Takes over o's storage.
  vector &operator=(vector &&) noexcept = default;

  /// Collective: root's host vector scattered over the ranks in blocks (root's size is
  /// broadcast; the other ranks' `host` is ignored).
  static vector scatter(const std::vector<T> &host, int root = 0, halo h = halo(0)) {
    unsigned long long n = host.size();
    pacxx::dist::detail::broadcast(&n, sizeof n, root);
    vector v(static_cast<std::size_t>(n), h);
    v.scatter_from(host, root);
    return v;
  }
  /// Collective: fills the owned elements from root's host vector (size() elements).
  void scatter_from(const std::vector<T> &host, int root = 0) {
    pacxx::dist::detail::check_collective("gpu::dist::vector::scatter", dist_.hash());
    if (pacxx::dist::rank() == root && host.size() != size())
      throw pacxx::error("gpu::dist::vector::scatter: the host vector has " +
                         std::to_string(host.size()) + " elements, the distributed one " +
                         std::to_string(size()));
    std::vector<std::size_t> bytes = dist_.counts();
    for (std::size_t &b : bytes)
      b *= sizeof(T);
    pacxx::dist::detail::scatter_to_device(host.data(), bytes.data(), owned().data(), root);
  }
  /// Collective: every rank's owned elements, in order, into a host vector on root
  /// (the other ranks get an empty vector).
  std::vector<T> gather(int root = 0) const {
    pacxx::dist::detail::check_collective("gpu::dist::vector::gather", dist_.hash());
    std::vector<T> host(pacxx::dist::rank() == root ? size() : 0);
    std::vector<std::size_t> bytes = dist_.counts();
    for (std::size_t &b : bytes)
      b *= sizeof(T);
    pacxx::dist::detail::gather_from_device(storage_.data() + (count() ? halo_ : 0), bytes.data(),
                                            host.data(), root);
    return host;
  }

  /// The global number of elements.
  std::size_t size() const noexcept { return dist_.size(); }
  /// Whether the vector holds no element on any rank.
  bool empty() const noexcept { return size() == 0; }
  /// The number of elements this rank owns.
  std::size_t local_size() const { return count(); }
  /// The global index of this rank's first element.
  std::size_t offset() const { return dist_.offset(rank_); }
  /// Where every rank's elements are.
  const distribution &get_distribution() const noexcept { return dist_; }
  /// Halo elements on each side.
  std::size_t halo_size() const noexcept { return halo_; }

  /// This rank's elements as a gpu::vector (a vector without halo only: with one, use
  /// owned() or with_halo()).
  gpu::vector<T> &local() {
    if (halo_)
      throw pacxx::error("gpu::dist::vector::local: the vector has a halo; use owned() (the "
                         "owned elements) or with_halo()");
    return storage_;
  }
  /// const access to local().
  const gpu::vector<T> &local() const { return const_cast<vector *>(this)->local(); }
  /// The owned elements (without the halo) as a device span, usable in any view.
  gpu::device_span<T> owned() {
    return gpu::device_span<T>(storage_.data() + (count() ? halo_ : 0), count());
  }
  /// const access to owned().
  gpu::device_span<const T> owned() const {
    return gpu::device_span<const T>(storage_.data() + (count() ? halo_ : 0), count());
  }
  /// This rank's device storage: low halo, owned elements, high halo (empty on a rank
  /// that owns nothing).
  gpu::vector<T> &with_halo() noexcept { return storage_; }
  /// const access to with_halo().
  const gpu::vector<T> &with_halo() const noexcept { return storage_; }

  /// Collective: starts filling the halos from the neighbouring ranks on queue q.
  /// Work on other queues may run meanwhile (the interior update); the owned elements
  /// next to the halos must not change until exchange_halo_end(). The first exchange
  /// of a vector checks that every rank makes it with the same distribution (a
  /// pacxx::error otherwise); later ones of the same vector are not checked again.
  void exchange_halo_begin(pacxx::queue &q) {
    if (!exchange_) {
      // The collective check is an MPI all-gather, a host round trip through every rank:
      // in a time-step loop it was one more collective a step on top of the exchange
      // (which a halo exchange should cost no more than 1.2x a raw NCCL send/recv, issue
      // 39). A vector's distribution and halo never change, so the first exchange checks
      // them for all later ones.
      pacxx::dist::detail::check_collective("gpu::dist::vector::exchange_halo",
                                            dist_.hash() ^ (halo_ * 0x9e3779b97f4a7c15ull));
      if (halo_ == 0)
        return;
      for (int r = 0; r < dist_.ranks(); ++r)
        if (dist_.count(r) != 0 && dist_.count(r) < halo_)
          throw pacxx::error("gpu::dist::vector::exchange_halo: rank " + std::to_string(r) +
                             " owns " + std::to_string(dist_.count(r)) +
                             " elements, fewer than the halo of " + std::to_string(halo_));
      exchange_.reset(new pacxx::dist::detail::exchange);
    }
    pacxx::dist::detail::exchange_part lo, hi;
    if (count()) {
      T *base = storage_.data();
      const std::size_t bytes = halo_ * sizeof(T);
      lo.peer = lower_neighbour();
      lo.send = base + halo_;
      lo.recv = base;
      lo.bytes = bytes;
      hi.peer = upper_neighbour();
      hi.send = base + count();
      hi.recv = base + halo_ + count();
      hi.bytes = bytes;
    }
    exchange_->begin(lo, hi, q.get());
  }
  /// Completes the exchange: work enqueued on q afterwards sees the halos.
  void exchange_halo_end() {
    if (halo_ == 0)
      return;
    if (!exchange_)
      throw pacxx::error("gpu::dist::vector::exchange_halo_end: no exchange in flight");
    exchange_->end();
  }
  /// exchange_halo_begin(q), then exchange_halo_end().
  void exchange_halo(pacxx::queue &q) {
    exchange_halo_begin(q);
    exchange_halo_end();
  }
  /// The exchange on the default queue.
  void exchange_halo() { exchange_halo(pacxx::queue::default_queue()); }
};

} // namespace dist
} // namespace gpu
