// The contract between the offline compiler (compiler/) and the runtime (runtime/):
// names, metadata and the layout of the device modules embedded in a program.
// Users never include this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pacxx {
namespace abi {

// Mangled-name prefix of pacxx::detail::kernel_entry<P>, the only kernel entry.
constexpr const char *kernel_entry_prefix = "_ZN5pacxx6detail12kernel_entry";
// Prefix of the device builtins declared in pacxx/builtins.hpp.
constexpr const char *builtin_prefix = "__pacxx_";

// Each translation unit's device module is stored in this section as
// {magic, version, size} followed by `size` bytes of LLVM bitcode, padded to 8.
// Tools read all of them from a linked program (pacxx-kernels).
constexpr const char *section_name = "pacxx_modules";
constexpr std::uint32_t module_magic = 0x4d445850; // "PXDM"
constexpr std::uint32_t module_version = 2;
struct module_header {
  std::uint32_t magic;
  std::uint32_t version;
  std::uint64_t size;
};

// A staged value's host stub: computes the value of a pacxx::stage(expr) from the
// launch's argument bytes and its pacxx::launch_config, as raw 64 bits (integers sign-
// extended, float and double by their bit patterns).
using stage_stub = std::uint64_t (*)(const void *args, const void *config);

// Registration, called by a constructor the compiler adds to each such unit.
struct kernel_record {
  const void *host_entry;    // &kernel_entry<P> in the host program
  const char *name;          // its mangled name, the kernel's name in the device module
  const stage_stub *stages;  // one stub per pacxx::stage in the kernel, in id order
  std::uint64_t stage_count;
};

// In a device module each pacxx::stage(v) has become __pacxx_staged_<type>(i32 id, v):
// the JIT substitutes the host's value (or v itself when staging is off).
constexpr const char *staged_prefix = "__pacxx_staged_";

// Named metadata in a device module.
// !pacxx.kernels: !{!"mangled entry", i64 payload_size, i64 payload_align, !"readable name"}
constexpr const char *md_kernels = "pacxx.kernels";
// !pacxx.extern_calls: !{!"callee", !"file:line:col", !"readable kernel name"} for each call
// to a function this unit does not define; resolved against the other units at link.
constexpr const char *md_extern_calls = "pacxx.extern_calls";

// C math functions a kernel may call (float variant adds 'f'); the JIT maps them to
// libdevice (CUDA) or OpenCL builtins. {name, number of floating-point arguments}.
struct math_function {
  const char *name;
  int arity;
};
constexpr math_function math_functions[] = {
    {"sin", 1},   {"cos", 1},    {"tan", 1},       {"asin", 1},  {"acos", 1},   {"atan", 1},
    {"sinh", 1},  {"cosh", 1},   {"tanh", 1},      {"asinh", 1}, {"acosh", 1},  {"atanh", 1},
    {"exp", 1},   {"exp2", 1},   {"expm1", 1},     {"log", 1},   {"log2", 1},   {"log10", 1},
    {"log1p", 1}, {"sqrt", 1},   {"cbrt", 1},      {"fabs", 1},  {"floor", 1},  {"ceil", 1},
    {"round", 1}, {"trunc", 1},  {"rint", 1},      {"nearbyint", 1}, {"erf", 1}, {"erfc", 1},
    {"tgamma", 1}, {"lgamma", 1}, {"atan2", 2},    {"pow", 2},   {"hypot", 2},  {"fmod", 2},
    {"fmin", 2},  {"fmax", 2},   {"copysign", 2},  {"remainder", 2}, {"fdim", 2}, {"fma", 3},
};

// The math function `name` (e.g. "sinf": float; "sin": double), or null.
inline const math_function *find_math_function(const char *name, std::size_t len, bool *is_float) {
  for (const math_function &m : math_functions) {
    std::size_t n = std::strlen(m.name);
    if (std::strncmp(name, m.name, n) != 0)
      continue;
    if (len == n || (len == n + 1 && name[n] == 'f')) {
      *is_float = len != n;
      return &m;
    }
  }
  return nullptr;
}

// Functions a kernel may call without a body in the program: pacxx builtins, LLVM
// intrinsics, C math and assert's failure handler, all provided by the JIT.
inline bool is_device_provided(const char *name, std::size_t len) {
  bool is_float;
  const std::size_t prefix = std::strlen(builtin_prefix);
  return (len >= prefix && std::strncmp(name, builtin_prefix, prefix) == 0) ||
         (len == 13 && std::strncmp(name, "__assert_fail", 13) == 0) || // assert() traps

         (len >= 5 && std::strncmp(name, "llvm.", 5) == 0) ||
         find_math_function(name, len, &is_float) != nullptr;
}

} // namespace abi
} // namespace pacxx
