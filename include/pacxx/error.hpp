// pacxx::error: every device, driver and JIT failure reaches the user as this.
#pragma once
#include <stdexcept>
#include <string>

namespace pacxx {

// The one exception type of pacxx: what() names the call that failed and, for device
// and JIT failures, carries the backend's own message.
class error : public std::runtime_error {
public:
  // An error whose message is `what`.
  explicit error(const std::string &what) : std::runtime_error(what) {}
};

} // namespace pacxx
