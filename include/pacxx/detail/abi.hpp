// The contract between the offline compiler (compiler/) and the runtime (runtime/):
// names, metadata and the layout of the device modules embedded in a program.
// Users never include this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "pacxx/runtime.hpp"

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
constexpr std::uint32_t module_version = 3;
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
  const void *host_entry;   // &kernel_entry<P> in the host program
  const char *name;         // its mangled name, the kernel's name in the device module
  const stage_stub *stages; // one stub per pacxx::stage in the kernel, in id order
  std::uint64_t stage_count;
};
// KernelExtraction.cpp emits these structs as LLVM types ({i32, i32, i64} and
// {ptr, ptr, ptr, i64}, 64-bit pointers): the layouts may not drift.
static_assert(sizeof(void *) == 8, "pacxx hosts are 64-bit");
static_assert(sizeof(module_header) == 16 && offsetof(module_header, size) == 8,
              "module_header is {i32 magic, i32 version, i64 size}");
static_assert(sizeof(kernel_record) == 32 && offsetof(kernel_record, name) == 8 &&
                  offsetof(kernel_record, stages) == 16 &&
                  offsetof(kernel_record, stage_count) == 24,
              "kernel_record is {ptr, ptr, ptr, i64}");

// In a device module each pacxx::stage(v) has become __pacxx_staged_<type>(i32 id, v):
// the JIT substitutes the host's value (or v itself when staging is off).
constexpr const char *staged_prefix = "__pacxx_staged_";

// pacxx::stage(v) calls one of these (include/pacxx/stage.hpp; the host versions in
// runtime/host_builtins.cpp return v); the compiler's Staging finds them by name.
constexpr const char *stage_builtins[] = {"__pacxx_stage_int", "__pacxx_stage_float",
                                          "__pacxx_stage_double"};
constexpr const char *stage_builtin_prefix = "__pacxx_stage_";
// The host stub the compiler makes for stage id N is named stage_stub_prefix + N.
constexpr const char *stage_stub_prefix = "__pacxx_stage_stub.";
// Called by the constructor the compiler adds to each unit with kernels:
// void __pacxx_register_module(const module_header *, const kernel_record *, uint64_t count)
// (runtime/registry.cpp).
constexpr const char *register_module_function = "__pacxx_register_module";

// Shared ownership for owning views (pacxx/detail/owner.hpp, builtins.hpp): the JIT
// removes retain and release from device code and rejects owner_new there.
constexpr const char *owner_new = "__pacxx_owner_new";
constexpr const char *owner_retain = "__pacxx_owner_retain";
constexpr const char *owner_release = "__pacxx_owner_release";

// The bytes of pacxx::launch_config as a stage stub reads them (Staging.cpp generates
// loads at these offsets): grid x, y, z then block x, y, z, 8 bytes each.
constexpr std::size_t launch_config_grid = 0;
constexpr std::size_t launch_config_block = 24;
constexpr std::size_t launch_config_field = 8;
static_assert(sizeof(std::size_t) == launch_config_field, "launch_config fields are 64-bit");
static_assert(offsetof(launch_config, grid) == launch_config_grid &&
                  offsetof(launch_config, block) == launch_config_block &&
                  offsetof(dim, y) == launch_config_field &&
                  offsetof(dim, z) == 2 * launch_config_field,
              "Staging.cpp reads launch_config at these offsets");

// Named metadata in a device module.
// !pacxx.kernels: !{!"mangled entry", i64 payload_size, i64 payload_align, !"readable name"}
constexpr const char *md_kernels = "pacxx.kernels";
// !pacxx.extern_calls: !{!"callee", !"file:line:col", !"readable kernel name", !"notes"} for
// each call to a function this unit does not define; resolved against the other units at
// link. notes: lines "file:line:col: note: ..." to print after the error (version 3).
constexpr const char *md_extern_calls = "pacxx.extern_calls";
// !pacxx.source on each function of a device module: !{!"file:line"} of its definition.
// The module carries no other debug information; the JIT names functions by it where
// a problem only shows after linking (recursion on a target that forbids it).
constexpr const char *md_source = "pacxx.source";

// The C library functions a kernel may call without a body in the program: what CUDA
// offers in device code from <cmath>, <cstdlib> and <cstring>, and the C99 complex
// arithmetic and <complex.h> functions that std::complex calls. One table, read by the
// compiler's link check (pacxx-kernels --check, DeviceCheck) and by the JIT that
// provides them (runtime/jit: libdevice on CUDA, OpenCL builtins on SPIR, or IR of its
// own; the complex ones from its device library, runtime/jit/device_library/). A
// floating-point function has a double variant `name` and a float one `namef`.
// Each is matched with the signature clang gives it on the host (x86-64: long and long
// long are 64 bits, div_t comes back as an i64, ldiv_t as {i64, i64}, float _Complex as
// <2 x float>, double _Complex as two doubles and returned as {double, double}).
//
// Deliberately not provided:
// - long double variants (sinl, nexttoward, ...): no long double on a device (DeviceCheck
//   rejects the type);
// - memcpy, memset, memmove are no calls: clang emits LLVM intrinsics, which both
//   targets lower; memcmp, strlen and the rest of <cstring> are not offered by CUDA;
// - malloc/free (a CUDA device heap has no OpenCL counterpart), rand, qsort, atoi, ...;
// - isnan, isinf, isfinite, signbit, fpclassify, isgreater, ... and std::abs(float) are
//   no calls either: clang expands them inline;
// - lgamma's sign (signgam) and the non-standard sincos, exp10, sinpi, rsqrt;
// - the trigonometric and hyperbolic functions of complex numbers and their inverses
//   (csin, ccosh, catan, ...: std::sin(std::complex) and the like): each has special
//   values of its own in Annex G and none was asked for yet; calling one stays the
//   compile-time error of any function without a body.
enum class lib_shape : unsigned char {
  f_f,      // F(F): sin, ...
  f_ff,     // F(F, F): atan2, ...
  f_fff,    // F(F, F, F): fma
  f_fi,     // F(F, int): ldexp, scalbn
  f_fl,     // F(F, long): scalbln
  f_fpi,    // F(F, int *): frexp
  f_fpf,    // F(F, F *): modf
  f_ffpi,   // F(F, F, int *): remquo
  i_f,      // int(F): ilogb
  l_f,      // long or long long (F): lround, llround, lrint, llrint
  f_str,    // F(const char *): nan
  i_i,      // integer (integer): abs, labs, llabs; no float variant
  quot_rem, // div_t(int, int), ldiv_t(long, long), lldiv_t: no float variant
  // C99 complex, F _Complex written z; the JIT's device library defines these.
  z_f4, // z(F, F, F, F): __mulsc3, __divsc3 (float), __muldc3, __divdc3 (double), what
        // clang calls for `*` and `/`; the type is in the name, no `f` variant
  f_z,  // F(z): cabs, carg
  z_z,  // z(z): cexp, clog, csqrt, cproj
  z_zz, // z(z, z): cpow
};
struct lib_function {
  const char *name;
  lib_shape shape;
};
constexpr lib_function lib_functions[] = {
    {"sin", lib_shape::f_f},        {"cos", lib_shape::f_f},        {"tan", lib_shape::f_f},
    {"asin", lib_shape::f_f},       {"acos", lib_shape::f_f},       {"atan", lib_shape::f_f},
    {"sinh", lib_shape::f_f},       {"cosh", lib_shape::f_f},       {"tanh", lib_shape::f_f},
    {"asinh", lib_shape::f_f},      {"acosh", lib_shape::f_f},      {"atanh", lib_shape::f_f},
    {"exp", lib_shape::f_f},        {"exp2", lib_shape::f_f},       {"expm1", lib_shape::f_f},
    {"log", lib_shape::f_f},        {"log2", lib_shape::f_f},       {"log10", lib_shape::f_f},
    {"log1p", lib_shape::f_f},      {"logb", lib_shape::f_f},       {"sqrt", lib_shape::f_f},
    {"cbrt", lib_shape::f_f},       {"fabs", lib_shape::f_f},       {"floor", lib_shape::f_f},
    {"ceil", lib_shape::f_f},       {"round", lib_shape::f_f},      {"trunc", lib_shape::f_f},
    {"rint", lib_shape::f_f},       {"nearbyint", lib_shape::f_f},  {"erf", lib_shape::f_f},
    {"erfc", lib_shape::f_f},       {"tgamma", lib_shape::f_f},     {"lgamma", lib_shape::f_f},
    {"atan2", lib_shape::f_ff},     {"pow", lib_shape::f_ff},       {"hypot", lib_shape::f_ff},
    {"fmod", lib_shape::f_ff},      {"fmin", lib_shape::f_ff},      {"fmax", lib_shape::f_ff},
    {"copysign", lib_shape::f_ff},  {"remainder", lib_shape::f_ff}, {"fdim", lib_shape::f_ff},
    {"nextafter", lib_shape::f_ff}, {"fma", lib_shape::f_fff},      {"ldexp", lib_shape::f_fi},
    {"scalbn", lib_shape::f_fi},    {"scalbln", lib_shape::f_fl},   {"frexp", lib_shape::f_fpi},
    {"modf", lib_shape::f_fpf},     {"remquo", lib_shape::f_ffpi},  {"ilogb", lib_shape::i_f},
    {"lround", lib_shape::l_f},     {"llround", lib_shape::l_f},    {"lrint", lib_shape::l_f},
    {"llrint", lib_shape::l_f},     {"nan", lib_shape::f_str},      {"abs", lib_shape::i_i},
    {"labs", lib_shape::i_i},       {"llabs", lib_shape::i_i},      {"div", lib_shape::quot_rem},
    {"ldiv", lib_shape::quot_rem},  {"lldiv", lib_shape::quot_rem}, {"__mulsc3", lib_shape::z_f4},
    {"__muldc3", lib_shape::z_f4},  {"__divsc3", lib_shape::z_f4},  {"__divdc3", lib_shape::z_f4},
    {"cabs", lib_shape::f_z},       {"carg", lib_shape::f_z},       {"cexp", lib_shape::z_z},
    {"clog", lib_shape::z_z},       {"csqrt", lib_shape::z_z},      {"cproj", lib_shape::z_z},
    {"cpow", lib_shape::z_zz},
};

// Whether the function has a float variant `namef`.
constexpr bool has_float_variant(lib_shape s) {
  return s != lib_shape::i_i && s != lib_shape::quot_rem && s != lib_shape::z_f4;
}
// The complex functions: the JIT links their definitions from its device library
// (runtime/jit/device_library/); no target maps them.
constexpr bool is_complex(lib_shape s) {
  return s == lib_shape::z_f4 || s == lib_shape::f_z || s == lib_shape::z_z || s == lib_shape::z_zz;
}

// The library function `name` ("sinf": float; "sin": double; "abs"), or null
// (*is_float is false for __mulsc3 and its kin: their type is in the name).
inline const lib_function *find_lib_function(const char *name, std::size_t len, bool *is_float) {
  for (const lib_function &m : lib_functions) {
    std::size_t n = std::strlen(m.name);
    if (len < n || std::strncmp(name, m.name, n) != 0)
      continue;
    if (len == n || (len == n + 1 && name[n] == 'f' && has_float_variant(m.shape))) {
      *is_float = len != n;
      return &m;
    }
  }
  return nullptr;
}

// Functions a kernel may call without a body in the program: pacxx builtins, LLVM
// intrinsics, the C library above and assert's failure handler, all provided by the JIT.
inline bool is_device_provided(const char *name, std::size_t len) {
  bool is_float;
  const std::size_t prefix = std::strlen(builtin_prefix);
  return (len >= prefix && std::strncmp(name, builtin_prefix, prefix) == 0) ||
         (len == 13 && std::strncmp(name, "__assert_fail", 13) == 0) || // assert() traps
         (len >= 5 && std::strncmp(name, "llvm.", 5) == 0) ||
         find_lib_function(name, len, &is_float) != nullptr;
}

} // namespace abi
} // namespace pacxx
