// What cannot run on a GPU is an error at the user's line, through pacxx++ as users
// compile; the compilation fails and names the count.
// RUN: not %pacxx_cxx -std=c++14 -c %s -o %t.o 2>&1 | FileCheck %s
#include <pacxx/pacxx.hpp>

struct Shape {
  virtual float area() const { return 0.f; }
};
float counter = 0.f;
float twice(float x) { return 2 * x; }
float may_throw(float x); // defined elsewhere: it may throw

void launch(float *o, const Shape *s, float (*f)(float)) {
  pacxx::kernel([](float *o, const Shape *s) {
    o[0] = s->area();
    // CHECK-DAG: errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '(lambda at {{.*}}errors.cpp:[[@LINE-2]]:{{[0-9]+}})' makes a virtual call
  }, {{1}, {1}})(o, s);
  pacxx::kernel([](float *o, float (*f)(float)) {
    o[0] = f(1.f);
    // CHECK-DAG: errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '{{.*}}' calls through a function pointer
  }, {{1}, {1}})(o, f);
  pacxx::kernel([](float *o) {
    o[0] = counter;
    // CHECK-DAG: errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '{{.*}}' {{.*}}mutable host global 'counter'
  }, {{1}, {1}})(o);
  pacxx::kernel([](float *o) {
    long double x = o[0];
    // CHECK-DAG: errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '{{.*}}' {{.*}}long double
    o[0] = static_cast<float>(x * 2);
  }, {{1}, {1}})(o);
  pacxx::kernel([](float *o) {
    asm volatile("");
    // CHECK-DAG: errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '{{.*}}' {{.*}}inline assembly
  }, {{1}, {1}})(o);
  pacxx::kernel([](float *o) {
    try {
      o[0] = may_throw(o[0]);
      // CHECK-DAG: errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '{{.*}}' catches exceptions (try/catch)
    } catch (int code) {
      o[0] = code;
    }
  }, {{1}, {1}})(o);
  // A plain function with a body, called from a kernel, is no error.
  pacxx::kernel([](float *o) { o[0] = twice(o[0]); }, {{1}, {1}})(o);
  // CHECK-NOT: twice
}
// CHECK: error: pacxx: 6 construct(s) in kernel code cannot run on a GPU
