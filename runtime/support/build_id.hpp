// Support: the GNU build id of libpacxx itself, read from its ELF note (PT_NOTE,
// NT_GNU_BUILD_ID). The kernel cache puts it in every disk key.
#pragma once
#include <string>

// Internal to libpacxx: not exported (exports.map exports pacxx::*), so calls between
// the runtime's units bind directly, as they did inside one file.
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

// The raw build id bytes, or "unknown build" when the library has none.
std::string library_build_id();

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop
