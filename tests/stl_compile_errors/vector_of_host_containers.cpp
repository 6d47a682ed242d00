// A gpu::vector of std::vectors: the elements cannot live in device memory.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<std::vector<int>> v(4); // expect-static-error: gpu::vector<T>: T must be trivially copyable and destructible
  return v.size() == 4;
}
