// In a kernel of the GPU STL, what cannot run on a GPU is an error at the user's line,
// not in pacxx's headers: the kernel is named by its algorithm, the user's frames on
// the way get a note, and so does the algorithm's call (Diagnostics.h).
// RUN: not %pacxx_cxx -std=c++14 -c %s -o %t.o 2>&1 | FileCheck %s
// A call to a function with no body is recorded for the link-time check with the same
// location, name and notes.
// RUN: %clangxx %device_cxxflags -DLINK_ONLY %s -o %t.ll
// RUN: %pacxx_opt -passes='pacxx-kernel-extraction<print-device>' -disable-output %t.ll \
// RUN:   | FileCheck %s --check-prefix=LINK
#include <pacxx/pacxx.hpp>

#include <functional>

struct Shape {
  virtual float area() const { return 1.f; }
};
float weight(float x); // defined in no translation unit

float scaled(const Shape *s, float x) {
  return x * s->area();
  // CHECK-DAG: library-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel 'gpu::transform' makes a virtual call (no vtables on the device) in 'scaled(Shape const*, float)'
}

void run(gpu::vector<float> &v, const Shape *s, bool (*less)(float, float)) {
#ifndef LINK_ONLY
  gpu::transform(v, v, [s](float x) { return scaled(s, x); });
  // CHECK: library-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: note: called from here
  // CHECK-NEXT: library-errors.cpp:[[@LINE-2]]:3: note: in the function passed to gpu::transform here
  float r = v | ranges::views::transform([s](float x) {
              return x * s->area();
              // CHECK: library-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel 'gpu::reduce' makes a virtual call
            }) | gpu::reduce(0.f);
  // CHECK-NEXT: library-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: note: in a kernel of gpu::reduce launched here
  (void)r;
  // A function pointer called in pacxx's code (several places, several kernels): once,
  // at the user's call of the algorithm.
  gpu::sort(v, less);
  // CHECK: library-errors.cpp:[[@LINE-1]]:3: error: pacxx: kernel 'gpu::sort' calls through a function pointer{{$}}
  // CHECK-NEXT: {{.*}}/include/pacxx/{{.*}}: note: in pacxx's code of gpu::sort here
  // CHECK-NOT: kernel 'gpu::sort' calls through
  // In a system header (std::function calls through a pointer): there, and a note at the
  // user's line.
  std::function<float(float)> *fn = nullptr;
  gpu::for_each(v, [fn](float &x) { x = (*fn)(x); });
  // CHECK: {{.*}}std_function.h:{{[0-9]+}}:{{[0-9]+}}: error: pacxx: kernel 'gpu::for_each' calls through a function pointer in 'std::function<float (float)>::operator()(float) const'
  // CHECK-NEXT: library-errors.cpp:[[@LINE-2]]:{{[0-9]+}}: note: called from here
  // CHECK-NEXT: library-errors.cpp:[[@LINE-3]]:3: note: in the function passed to gpu::for_each here
  // A raw kernel keeps its name, the user's lambda.
  pacxx::kernel([s](float *o) { o[0] = s->area(); }, {{1}, {1}})(v.data());
  // CHECK: library-errors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: pacxx: kernel '(lambda at {{.*}}library-errors.cpp:[[@LINE-1]]:{{[0-9]+}})' makes a virtual call
  // CHECK-NOT: note:
#endif
  gpu::sort(v, [](float a, float b) { return weight(a) < b; });
  // LINK: !pacxx.extern_calls = !{![[E:[0-9]+]]}
  // LINK: ![[E]] = !{!"_Z6weightf", !"{{.*}}library-errors.cpp:[[@LINE-2]]:{{[0-9]+}}", !"gpu::sort", !"{{.*}}library-errors.cpp:[[@LINE-2]]:3: note: in the function passed to gpu::sort here\0A"}
}
// CHECK: error: pacxx: 5 construct(s) in kernel code cannot run on a GPU
