// pacxx::error: every device, driver and JIT failure reaches the user as this.
#pragma once
#include <stdexcept>
#include <string>

namespace pacxx {

class error : public std::runtime_error {
public:
  explicit error(const std::string &what) : std::runtime_error(what) {}
};

} // namespace pacxx
