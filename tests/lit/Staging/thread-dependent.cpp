// A staged value must be known before the launch: one that depends on the thread index
// is an error at the stage call's line.
// RUN: not %pacxx_cxx -std=c++14 -c %s -o %t.o 2>&1 | FileCheck %s
#include <pacxx/pacxx.hpp>

void launch(int *o) {
  pacxx::kernel([](int *o) {
    o[0] = pacxx::stage(static_cast<int>(pacxx::Thread::get().global.x));
    // CHECK: thread-dependent.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '(lambda at {{.*}})' stages a value that depends on the thread or block index
  }, {{1}, {1}})(o);
}
// CHECK: error: pacxx: 1 staged value(s) cannot be computed before the launch
