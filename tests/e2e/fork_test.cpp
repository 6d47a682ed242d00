// fork() and pacxx (issue 34, item 10). Neither backend's driver state survives
// fork(): the CUDA driver does not support a context in a forked child, and PoCL's
// worker threads are not copied into it (a call in the child never returned). So a
// child forked after the parent used a device gets a pacxx::error saying why on every
// call, and exits without a hang (its exit tears nothing down); the parent goes on
// working. A process that forks before its first use of pacxx has a child that works.
//
// Each child reports through its exit status; the parent waits at most 60 s for it and
// kills it after that (a hang fails the test instead of stalling it).
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace view = ranges::views;

namespace {

// What a child's exit status means.
enum child_result : int {
  worked = 10,
  clear_error = 11,
  unclear_error = 12,
  wrong_result = 13,
  other_exception = 14,
};

// The child's status, or -1 (and the child killed) if it took longer than 60 s.
int wait_for(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r < 0)
      return -2;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Sum of 3 * i over [0, n) on the device (a transform and a reduction).
long long device_work(int n) {
  std::vector<int> h(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    h[static_cast<std::size_t>(i)] = i;
  gpu::vector<int> d = gpu::copy(h);
  gpu::transform(d, d, [](int x) { return 3 * x; });
  return gpu::reduce(d | view::transform([](int x) { return static_cast<long long>(x); }), 0ll);
}

long long expected(int n) { return 3ll * n * (n - 1) / 2; }

// In the child: one call, classified; exit() (not _exit) runs the static destructors,
// as a child that returns from main would.
[[noreturn]] void child_does_work(int n) {
  int result;
  try {
    result = device_work(n) == expected(n) ? worked : wrong_result;
  } catch (const pacxx::error &e) {
    const std::string what = e.what();
    std::fprintf(stderr, "child: pacxx::error: %s\n", e.what());
    result = what.find("forked") != std::string::npos ? clear_error : unclear_error;
  } catch (...) {
    result = other_exception;
  }
  std::fflush(nullptr);
  std::exit(result);
}

} // namespace

// First in this program: no pacxx call has been made yet, so the child starts the
// runtime itself and works (on PoCL and on CUDA).
TEST(Fork, AChildOfAProcessThatNeverUsedADeviceWorks) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0)
    child_does_work(1000);
  EXPECT_EQ(wait_for(pid), worked);
  // And the parent starts its own afterwards.
  EXPECT_EQ(device_work(1000), expected(1000));
}

TEST(Fork, AChildAfterTheParentUsedADeviceGetsAClearErrorAndExits) {
  ASSERT_EQ(device_work(5000), expected(5000));
  std::vector<int> h(100, 1);
  gpu::vector<int> inherited = gpu::copy(h); // the child's copy of it is freed there
  pacxx::queue q;                            // as is this queue
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    {
      gpu::vector<int> moved = std::move(inherited); // its free in the child does nothing
      pacxx::queue mine = std::move(q);
    }
    int first = other_exception;
    try {
      pacxx::synchronize();
      first = worked;
    } catch (const pacxx::error &e) {
      first = std::string(e.what()).find("fork") != std::string::npos ? clear_error : unclear_error;
    }
    if (first != clear_error)
      std::exit(first);
    child_does_work(5000); // the same error on an algorithm call
  }
  EXPECT_EQ(wait_for(pid), clear_error) << "-1: the child hung";
  // The parent's vector, queue and device are untouched.
  EXPECT_EQ(gpu::reduce(inherited, 0), 100);
  gpu::transform(q, inherited, inherited, [](int x) { return x + 1; });
  q.wait();
  EXPECT_EQ(gpu::reduce(inherited, 0), 200);
  EXPECT_EQ(device_work(7000), expected(7000));
}

TEST(Fork, ManyChildrenWhileTheParentKeepsLaunching) {
  std::vector<pid_t> children;
  for (int i = 0; i < 4; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
      child_does_work(100 + i);
    children.push_back(pid);
    EXPECT_EQ(device_work(3000 + i), expected(3000 + i));
  }
  for (pid_t pid : children)
    EXPECT_EQ(wait_for(pid), clear_error) << "-1: the child hung";
}

// A child that only exits (static destructors, no pacxx call) does not hang either.
TEST(Fork, AChildThatOnlyExitsDoesNotHang) {
  ASSERT_EQ(device_work(100), expected(100));
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0)
    std::exit(worked);
  EXPECT_EQ(wait_for(pid), worked);
}
