#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<float> out(64);
  pacxx::kernel([](float *o) {
    auto i = pacxx::Thread::get().global.x;
    std::size_t k = pacxx::stage(i * 2); // expect-error: stages a value that depends on the thread or block index
    o[i] = static_cast<float>(k);
  }, {{1}, {64}})(out.data());
}
