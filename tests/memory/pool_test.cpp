// The device memory pool (runtime/memory/pool.cpp) over a fake device that counts the
// driver allocations and frees, without a GPU.
#include "memory/pool.hpp"

#include "pacxx/error.hpp"

#include <cstdlib>
#include <map>
#include <set>

#include <gtest/gtest.h>

namespace {

using pacxx::rt::memory_pool;

// Only memory is real; the pool calls nothing else.
class fake_device : public pacxx::rt::device {
public:
  std::size_t capacity = SIZE_MAX, in_use = 0;
  int allocations = 0, frees = 0;
  std::set<void *> live;

  void *allocate(std::size_t bytes) override {
    if (in_use + bytes > capacity)
      throw pacxx::error("fake: out of memory");
    void *p = std::malloc(bytes);
    live.insert(p);
    sizes[p] = bytes;
    in_use += bytes;
    ++allocations;
    return p;
  }
  void deallocate(void *p) noexcept override {
    EXPECT_EQ(live.erase(p), 1u) << "freed a pointer the device did not hand out";
    in_use -= sizes[p];
    std::free(p);
    ++frees;
  }
  const char *backend_name() const override { return "fake"; }
  std::string name() const override { return "fake"; }
  pacxx::rt::ir_target target() const override { return pacxx::rt::ir_target::spir; }
  std::string arch() const override { return "fake"; }
  std::string driver_version() const override { return "0"; }
  std::size_t memory_bytes() const override { return capacity; }
  void copy_to_device(void *, const void *, std::size_t, void *, bool) override { unused(); }
  void copy_to_host(void *, const void *, std::size_t, void *, bool) override { unused(); }
  void copy_on_device(void *, const void *, std::size_t, void *) override { unused(); }
  void fill_on_device(void *, unsigned char, std::size_t, void *) override { unused(); }
  std::string build_binary(const std::string &) override { return unused(), ""; }
  std::unique_ptr<pacxx::rt::loaded_kernel> load_binary(const std::string &,
                                                        const std::string &) override {
    return unused(), nullptr;
  }
  void launch(pacxx::rt::loaded_kernel &, pacxx::rt::dim3, pacxx::rt::dim3, std::size_t,
              const void *, std::size_t, void *) override {
    unused();
  }
  void synchronize() override { unused(); }

private:
  std::map<void *, std::size_t> sizes;
  static void unused() { ADD_FAILURE() << "the pool called a device function other than memory"; }
};

TEST(MemoryPool, BinsAreQuarterPowersOfTwo) {
  EXPECT_EQ(memory_pool::bin(1), 512u);
  EXPECT_EQ(memory_pool::bin(512), 512u);
  EXPECT_EQ(memory_pool::bin(513), 640u); // 512 + 128
  EXPECT_EQ(memory_pool::bin(1024), 1024u);
  EXPECT_EQ(memory_pool::bin(1025), 1280u);
  EXPECT_EQ(memory_pool::bin(1000000), 1048576u);
  for (std::size_t b : {std::size_t(600), std::size_t(4097), std::size_t(123456789)}) {
    EXPECT_GE(memory_pool::bin(b), b);
    EXPECT_LE(memory_pool::bin(b), b + b / 4) << "at most 25% more than asked";
  }
}

TEST(MemoryPool, FreedBlockIsReusedForTheSameBin) {
  fake_device dev;
  memory_pool pool(dev, 1 << 20);
  bool reused = true;
  void *a = pool.allocate(1000, reused);
  EXPECT_FALSE(reused);
  pool.deallocate(a);
  EXPECT_EQ(dev.frees, 0) << "kept for reuse";
  void *b = pool.allocate(1020, reused); // same bin (1024)
  EXPECT_TRUE(reused);
  EXPECT_EQ(b, a);
  EXPECT_EQ(dev.allocations, 1);
  void *c = pool.allocate(2000, reused); // another bin
  EXPECT_FALSE(reused);
  EXPECT_EQ(dev.allocations, 2);
  pool.deallocate(b);
  pool.deallocate(c);
  pool.release();
  EXPECT_EQ(dev.frees, 2);
  EXPECT_TRUE(dev.live.empty());
}

TEST(MemoryPool, KeepsAtMostMaxCached) {
  fake_device dev;
  memory_pool pool(dev, 2048);
  bool reused;
  void *a = pool.allocate(1024, reused), *b = pool.allocate(1024, reused),
       *c = pool.allocate(1024, reused);
  pool.deallocate(a);
  pool.deallocate(b);
  EXPECT_EQ(dev.frees, 0);
  pool.deallocate(c); // a third would exceed 2048 bytes kept: the oldest (a) goes
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(dev.live.size(), 2u);
  EXPECT_EQ(dev.live.count(a), 0u);
}

// A program that moves on to other sizes: the blocks freed longest ago make room, so
// the sizes in use now are reused (keeping the old ones missed every time after).
TEST(MemoryPool, AFullPoolGivesBackTheOldestBlocks) {
  fake_device dev;
  memory_pool pool(dev, 4096);
  bool reused;
  void *a = pool.allocate(2048, reused), *b = pool.allocate(1024, reused),
       *c = pool.allocate(1024, reused);
  pool.deallocate(a); // freed first
  pool.deallocate(b);
  pool.deallocate(c); // 4096 bytes kept: full
  EXPECT_EQ(dev.frees, 0);
  for (int round = 0; round < 3; ++round) {
    void *d = pool.allocate(3000, reused); // bin 3072
    EXPECT_EQ(reused, round > 0) << "round " << round;
    pool.deallocate(d); // needs 3072: a (2048) and b (1024) go, c stays
  }
  EXPECT_EQ(dev.allocations, 4);
  EXPECT_EQ(dev.frees, 2);
  EXPECT_EQ(dev.live.count(a) + dev.live.count(b), 0u) << "the oldest were given back";
  EXPECT_EQ(dev.live.count(c), 1u);
  void *e = pool.allocate(1000, reused); // c's bin
  EXPECT_TRUE(reused);
  EXPECT_EQ(e, c);
  pool.deallocate(e);
  // A block larger than the whole pool is given back itself, and evicts nothing.
  void *big = pool.allocate(8192, reused);
  pool.deallocate(big);
  EXPECT_EQ(dev.frees, 3);
  EXPECT_EQ(dev.live.size(), 2u);
  pool.release();
  EXPECT_TRUE(dev.live.empty());
}

TEST(MemoryPool, ZeroTurnsThePoolOff) {
  fake_device dev;
  memory_pool pool(dev, 0);
  bool reused;
  void *a = pool.allocate(1000, reused);
  EXPECT_EQ(dev.in_use, 1000u) << "no rounding to a bin without a pool";
  pool.deallocate(a);
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(pool.allocate(0, reused), nullptr);
}

TEST(MemoryPool, OutOfMemoryReleasesTheCacheAndRetries) {
  fake_device dev;
  dev.capacity = 4096;
  memory_pool pool(dev, 1 << 20);
  bool reused;
  void *a = pool.allocate(2048, reused);
  pool.deallocate(a);                    // kept: 2048 of 4096 in use by the pool
  void *b = pool.allocate(3000, reused); // bin 3072: fails, cache released, retried
  EXPECT_FALSE(reused);
  EXPECT_NE(b, nullptr);
  EXPECT_EQ(dev.frees, 1);
  // With nothing cached to give back, the device's error reaches the caller.
  EXPECT_THROW(pool.allocate(2048, reused), pacxx::error);
  pool.deallocate(b);
}

TEST(MemoryPool, DoubleFreeAndUnknownPointersAreIgnored) {
  fake_device dev;
  memory_pool pool(dev, 1 << 20);
  bool reused;
  void *a = pool.allocate(1000, reused);
  pool.deallocate(a);
  pool.deallocate(a); // twice: must not be cached twice (handed to two owners)
  int not_ours;
  pool.deallocate(&not_ours);
  pool.deallocate(nullptr);
  void *b = pool.allocate(1000, reused), *c = pool.allocate(1000, reused);
  EXPECT_NE(b, c);
  EXPECT_EQ(dev.allocations, 2);
  pool.deallocate(b);
  pool.deallocate(c);
}

TEST(MemoryPool, DestructorReleasesCachedBlocks) {
  fake_device dev;
  {
    memory_pool pool(dev, 1 << 20);
    bool reused;
    pool.deallocate(pool.allocate(5000, reused));
    pool.deallocate(pool.allocate(70000, reused));
    EXPECT_EQ(dev.live.size(), 2u);
  }
  EXPECT_TRUE(dev.live.empty());
}

} // namespace
