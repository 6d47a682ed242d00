// The value rules of pacxx's environment variables, shared by the runtime's
// configuration (runtime/config.hpp, every PACXX_* variable a program reads) and the
// compiler plugin (PACXX_STRIP_DEBUG, PACXX_DEBUG_STAGING), so that both accept the
// same spellings and word the same error.
//
// The rule: unset or empty means the default; any other value must be well formed, and
// a malformed one is an error naming the variable, the value and what is accepted,
// never a silent default. Each caller reports the message its own way (the runtime
// throws pacxx::error, the plugin emits a compiler error).
//
// Header-only and without LLVM: the plugin links nothing of the runtime.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace pacxx {
namespace support {

inline bool all_digits(const std::string &s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// "NAME=value", as messages show a setting.
inline std::string setting(const char *name, const std::string &value) {
  return std::string(name) + "=" + value;
}

// Switches: exactly 0 or 1; no yes/on/true, so that there is one spelling to document,
// test and grep for.
inline std::optional<bool> switch_value(const std::string &value) {
  if (value == "0" || value == "1")
    return value == "1";
  return std::nullopt;
}
inline std::string not_a_switch(const char *name, const std::string &value) {
  return "pacxx: " + setting(name, value) + " is not a switch; use 0 (off) or 1 (on)";
}

// Megabytes: decimal digits, 0 included, at most max_mb; no sign, unit or spaces.
inline std::optional<std::uint64_t> megabytes_value(const std::string &value,
                                                    std::uint64_t max_mb) {
  // Digits only: strtoull alone would take " 5", "+5", "-5" (wrapping) and "5MB".
  if (!all_digits(value) || value.size() > 20)
    return std::nullopt;
  errno = 0;
  unsigned long long parsed = std::strtoull(value.c_str(), nullptr, 10);
  if (errno == ERANGE || parsed > max_mb)
    return std::nullopt;
  return parsed;
}
inline std::string not_megabytes(const char *name, const std::string &value, std::uint64_t max_mb) {
  return "pacxx: " + setting(name, value) +
         " is not a number of megabytes; use a decimal integer from 0 to " + std::to_string(max_mb);
}

// Counts: decimal digits, from min to max; no sign or spaces.
inline std::optional<std::uint64_t> count_value(const std::string &value, std::uint64_t min,
                                                std::uint64_t max) {
  std::optional<std::uint64_t> n = megabytes_value(value, max); // the same digits rule
  if (!n || *n < min)
    return std::nullopt;
  return n;
}
inline std::string not_a_count(const char *name, const std::string &value, std::uint64_t min,
                               std::uint64_t max) {
  return "pacxx: " + setting(name, value) + " is not a count; use a decimal integer from " +
         std::to_string(min) + " to " + std::to_string(max);
}

} // namespace support
} // namespace pacxx
