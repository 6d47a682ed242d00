// The PACXX_* configuration parser (runtime/config.cpp): every variable's accepted
// values, and that a malformed value is an error naming the variable, the value and
// what is accepted, never a silent default.
#include "config.hpp"

#include "pacxx/error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

using pacxx::rt::configuration;
using pacxx::rt::read_configuration;

namespace {

configuration read(const std::map<std::string, std::string> &env) {
  return read_configuration([&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

// The message of the error that reading env raises ("" and a failure if none).
std::string error_of(const std::map<std::string, std::string> &env) {
  try {
    read(env);
  } catch (const pacxx::error &e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << env.begin()->first << "=" << env.begin()->second;
  return "";
}

} // namespace

TEST(Config, DefaultsWhenUnsetOrEmpty) {
  for (const char *value : {static_cast<const char *>(nullptr), ""}) {
    std::map<std::string, std::string> env = {{"HOME", "/home/u"}};
    if (value)
      for (const char *v : {"PACXX_DEVICE", "PACXX_TRACE", "PACXX_STAGING", "PACXX_UNROLL",
                            "PACXX_DUMP_DIR", "PACXX_POOL_MB", "PACXX_CACHE", "PACXX_CACHE_DIR",
                            "PACXX_CACHE_MAX_MB", "PACXX_KERNEL_VARIANTS", "XDG_CACHE_HOME"})
        env[v] = value;
    configuration c = read(env);
    EXPECT_EQ(c.device_backend, "");
    EXPECT_FALSE(c.trace);
    EXPECT_TRUE(c.staging);
    EXPECT_TRUE(c.unroll);
    EXPECT_EQ(c.dump_dir, "");
    EXPECT_FALSE(c.pool_mb);
    EXPECT_TRUE(c.cache);
    EXPECT_EQ(c.cache_dir, "/home/u/.cache/pacxx");
    EXPECT_FALSE(c.cache_max_mb);
    EXPECT_EQ(c.kernel_variants, 256u);
  }
}

TEST(Config, KernelVariantsIsACountFromOne) {
  EXPECT_EQ(read({{"PACXX_KERNEL_VARIANTS", "1"}}).kernel_variants, 1u);
  EXPECT_EQ(read({{"PACXX_KERNEL_VARIANTS", "4096"}}).kernel_variants, 4096u);
  EXPECT_EQ(read({{"PACXX_KERNEL_VARIANTS", "1000000"}}).kernel_variants, 1000000u);
  for (const char *bad :
       {"0", "-1", "+5", " 5", "5 ", "1e3", "lots", "1000001", "99999999999999999999999"})
    EXPECT_EQ(error_of({{"PACXX_KERNEL_VARIANTS", bad}}),
              "pacxx: PACXX_KERNEL_VARIANTS=" + std::string(bad) +
                  " is not a count; use a decimal integer from 1 to 1000000");
}

TEST(Config, PrefetchThreadsAndPrefill) {
  EXPECT_EQ(read({}).prefetch_threads, 0u);
  EXPECT_FALSE(read({}).prefill);
  EXPECT_EQ(read({{"PACXX_PREFETCH", "0"}}).prefetch_threads, 0u);
  EXPECT_EQ(read({{"PACXX_PREFETCH", "8"}}).prefetch_threads, 8u);
  EXPECT_TRUE(read({{"PACXX_PREFILL", "1"}}).prefill);
  for (const char *bad : {"-1", "all", "1025", " 2"})
    EXPECT_EQ(error_of({{"PACXX_PREFETCH", bad}}),
              "pacxx: PACXX_PREFETCH=" + std::string(bad) +
                  " is not a count; use a decimal integer from 0 to 1024");
  EXPECT_NE(error_of({{"PACXX_PREFILL", "yes"}}).find("is not a switch"), std::string::npos);
}

TEST(Config, Switches) {
  for (const char *name : {"PACXX_TRACE", "PACXX_STAGING", "PACXX_UNROLL", "PACXX_CACHE"}) {
    configuration on = read({{name, "1"}}), off = read({{name, "0"}});
    bool configuration::*field = std::string(name) == "PACXX_TRACE"     ? &configuration::trace
                                 : std::string(name) == "PACXX_STAGING" ? &configuration::staging
                                 : std::string(name) == "PACXX_UNROLL"  ? &configuration::unroll
                                                                        : &configuration::cache;
    EXPECT_TRUE(on.*field) << name;
    EXPECT_FALSE(off.*field) << name;
    for (const char *bad : {"yes", "maybe", "true", "on", "2", "01", " 1", "1 ", "-1"})
      EXPECT_EQ(error_of({{name, bad}}), "pacxx: " + std::string(name) + "=" + bad +
                                             " is not a switch; use 0 (off) or 1 (on)");
  }
}

TEST(Config, Megabytes) {
  EXPECT_EQ(*read({{"PACXX_POOL_MB", "0"}}).pool_mb, 0u);
  EXPECT_EQ(*read({{"PACXX_POOL_MB", "512"}}).pool_mb, 512u);
  EXPECT_EQ(*read({{"PACXX_CACHE_MAX_MB", "5"}}).cache_max_mb, 5u);
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max() >> 20;
  EXPECT_EQ(*read({{"PACXX_CACHE_MAX_MB", std::to_string(max)}}).cache_max_mb, max);
  for (const char *name : {"PACXX_POOL_MB", "PACXX_CACHE_MAX_MB"})
    for (const std::string &bad :
         std::vector<std::string>{"abc", "lots", "-3", "+3", "5MB", "1G", " 5", "5 ", "0x10", "1.5",
                                  std::to_string(max + 1), "99999999999999999999999"}) {
      std::string what = error_of({{name, bad}});
      EXPECT_EQ(what.rfind("pacxx: " + std::string(name) + "=" + bad +
                               " is not a number of megabytes; use a decimal integer from 0 to ",
                           0),
                0u)
          << what;
    }
}

TEST(Config, Device) {
  configuration c = read({{"PACXX_DEVICE", "cuda"}});
  EXPECT_EQ(c.device_backend, "cuda");
  EXPECT_EQ(c.device_index, 0u);
  c = read({{"PACXX_DEVICE", "opencl:3"}});
  EXPECT_EQ(c.device_backend, "opencl");
  EXPECT_EQ(c.device_index, 3u);
  EXPECT_EQ(c.device, "opencl:3");
  for (const char *bad : {"nosuch", "gpu", "CUDA", "cuda:", "cuda:x", "opencl:-1", "opencl:1:2",
                          ":1", "cuda:99999999999"})
    EXPECT_EQ(error_of({{"PACXX_DEVICE", bad}}),
              "pacxx: PACXX_DEVICE=" + std::string(bad) +
                  " is not a device; use cuda or opencl, optionally with :index (e.g. opencl:1)");
}

TEST(Config, CacheDirectory) {
  EXPECT_EQ(read({{"PACXX_CACHE_DIR", "/x"}, {"XDG_CACHE_HOME", "/xdg"}, {"HOME", "/h"}}).cache_dir,
            "/x");
  EXPECT_EQ(read({{"XDG_CACHE_HOME", "/xdg"}, {"HOME", "/h"}}).cache_dir, "/xdg/pacxx");
  // The XDG spec says to ignore a relative XDG_CACHE_HOME.
  EXPECT_EQ(read({{"XDG_CACHE_HOME", "rel"}, {"HOME", "/h"}}).cache_dir, "/h/.cache/pacxx");
  configuration none = read({});
  EXPECT_EQ(none.cache_dir, "");
  EXPECT_NE(none.cache_dir_why.find("HOME"), std::string::npos) << none.cache_dir_why;
}

TEST(Config, EveryBadVariableIsReportedAtOnce) {
  std::string what = error_of({{"PACXX_TRACE", "yes"},
                               {"PACXX_STAGING", "maybe"},
                               {"PACXX_CACHE_MAX_MB", "abc"},
                               {"PACXX_DUMP_DIR", "/anything/goes"}});
  EXPECT_EQ(what, "pacxx: PACXX_TRACE=yes is not a switch; use 0 (off) or 1 (on)\n"
                  "pacxx: PACXX_STAGING=maybe is not a switch; use 0 (off) or 1 (on)\n"
                  "pacxx: PACXX_CACHE_MAX_MB=abc is not a number of megabytes; use a decimal "
                  "integer from 0 to " +
                      std::to_string(std::numeric_limits<std::uint64_t>::max() >> 20));
}

TEST(Config, TraceTakesATimelineFile) {
  configuration c = read({{"PACXX_TRACE", "timeline:/tmp/t.json"}});
  EXPECT_EQ(c.timeline, "/tmp/t.json");
  EXPECT_FALSE(c.trace); // the timeline instead of the lines on stderr
  EXPECT_EQ(read({{"PACXX_TRACE", "1"}}).timeline, "");
  EXPECT_EQ(
      error_of({{"PACXX_TRACE", "timeline:"}}),
      "pacxx: PACXX_TRACE=timeline: names no file; use timeline:FILE (e.g. timeline:trace.json)");
  // Only the exact prefix: anything else is a malformed switch.
  EXPECT_EQ(error_of({{"PACXX_TRACE", "timeline"}}),
            "pacxx: PACXX_TRACE=timeline is not a switch; use 0 (off) or 1 (on)");
}

TEST(Config, ToolsLibraryIsAPath) {
  EXPECT_EQ(read({}).tools_library, "");
  EXPECT_EQ(read({{"PACXX_TOOLS_LIBRARY", "/opt/tool/libcount.so"}}).tools_library,
            "/opt/tool/libcount.so");
}
