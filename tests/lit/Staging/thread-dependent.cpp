// A staged value must be known before the launch: one that depends on the thread index
// is an error at the stage call's line.
// RUN: not %pacxx_cxx -std=c++14 -c %s -o %t.o 2>&1 | FileCheck %s
// PACXX_DEBUG_STAGING=1 also prints where the slice stopped and the kernel; a malformed
// value is an error naming the variable and the accepted values.
// RUN: env PACXX_DEBUG_STAGING=1 not %pacxx_cxx -std=c++14 -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEBUG
// RUN: env PACXX_DEBUG_STAGING=yes not %pacxx_cxx -std=c++14 -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADENV
// DEBUG: pacxx: staging failed at
// DEBUG: define {{.*}}kernel_entry
// BADENV: error: pacxx: PACXX_DEBUG_STAGING=yes is not a switch; use 0 (off) or 1 (on)
#include <pacxx/pacxx.hpp>

void launch(int *o) {
  pacxx::kernel([](int *o) {
    o[0] = pacxx::stage(static_cast<int>(pacxx::Thread::get().global.x));
    // CHECK: thread-dependent.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '(lambda at {{.*}})' stages a value that depends on the thread or block index
  }, {{1}, {1}})(o);
}
// CHECK: error: pacxx: 1 staged value(s) cannot be computed before the launch
