// pacxx::detail::shared_owner: shared ownership of a host object that survives being
// sent to a device. Owning views hold one (a temporary gpu::vector piped into a view
// must live as long as the view). std::shared_ptr cannot be used: a kernel copies the
// views it is given, and those copies, compiled for the device, would update a host
// reference count. Here the count lives behind builtins (pacxx/builtins.hpp) that
// libpacxx implements on the host and the JIT removes from device code, where a copy is
// a byte copy that owns nothing (the host's copy in the launch payload keeps the
// object alive until the launch has been issued; the in-order queue keeps later reuse
// of freed device memory behind the kernel).
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

#include "pacxx/builtins.hpp"

namespace pacxx {
namespace detail {

class shared_owner {
  void *block_ = nullptr;

  template <class T> static void destroy(void *p) { delete static_cast<T *>(p); }

public:
  shared_owner() = default;
  // Takes over `object` (moved into a heap copy that the last owner deletes).
  template <class T, class U = typename std::decay<T>::type,
            class = typename std::enable_if<!std::is_same<U, shared_owner>::value>::type>
  explicit shared_owner(T &&object) {
    std::unique_ptr<U> p(new U(std::forward<T>(object)));
    block_ = __pacxx_owner_new(p.get(), &destroy<U>);
    p.release();
  }
  shared_owner(const shared_owner &o) noexcept : block_(o.block_) {
    if (block_)
      __pacxx_owner_retain(block_);
  }
  shared_owner(shared_owner &&o) noexcept : block_(o.block_) { o.block_ = nullptr; }
  shared_owner &operator=(shared_owner o) noexcept {
    std::swap(block_, o.block_);
    return *this;
  }
  ~shared_owner() {
    if (block_)
      __pacxx_owner_release(block_);
  }
  explicit operator bool() const noexcept { return block_ != nullptr; }
};

} // namespace detail
} // namespace pacxx
