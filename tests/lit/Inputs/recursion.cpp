// A kernel that calls a recursive function (issue 34).
#include <pacxx/pacxx.hpp>

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main() {
  gpu::vector<int> o(64);
  pacxx::kernel([](int *o) {
    const int t = static_cast<int>(pacxx::Thread::get().global.x);
    o[t] = fib(t % 20);
  }, {{1}, {64}})(o.data());
}
