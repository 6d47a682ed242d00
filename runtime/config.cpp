// See config.hpp.
#include "config.hpp"

#include "environment.hpp"
#include "pacxx/error.hpp"

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <vector>

namespace pacxx::rt {

using support::all_digits;
using support::setting;

bool parse_switch(const char *name, const std::string &value) {
  if (std::optional<bool> on = support::switch_value(value))
    return *on;
  throw error(support::not_a_switch(name, value));
}

std::uint64_t parse_megabytes(const char *name, const std::string &value, std::uint64_t max_mb) {
  if (std::optional<std::uint64_t> mb = support::megabytes_value(value, max_mb))
    return *mb;
  throw error(support::not_megabytes(name, value, max_mb));
}

std::uint64_t parse_count(const char *name, const std::string &value, std::uint64_t min,
                          std::uint64_t max) {
  if (std::optional<std::uint64_t> n = support::count_value(value, min, max))
    return *n;
  throw error(support::not_a_count(name, value, min, max));
}

configuration read_configuration(const env_lookup &lookup) {
  auto get = [&](const char *name) -> std::string {
    const char *v = lookup ? lookup(name) : std::getenv(name);
    return v ? v : ""; // unset and empty are the same: the default
  };
  configuration c;
  std::vector<std::string> problems;
  // Each parser throws; collect the messages so that all bad variables show at once.
  auto attempt = [&](auto &&parse) {
    try {
      parse();
    } catch (const error &e) {
      problems.push_back(e.what());
    }
  };

  if (std::string d = get("PACXX_DEVICE"); !d.empty())
    attempt([&] {
      std::string backend = d.substr(0, d.find(':'));
      std::string index = d.find(':') == std::string::npos ? "0" : d.substr(d.find(':') + 1);
      if ((backend != "cuda" && backend != "opencl") || !all_digits(index) || index.size() > 9)
        throw error("pacxx: " + setting("PACXX_DEVICE", d) +
                    " is not a device; use cuda or opencl, optionally with :index (e.g. opencl:1)");
      c.device = d;
      c.device_backend = backend;
      c.device_index = std::stoul(index);
    });
  if (std::string v = get("PACXX_TRACE"); !v.empty())
    attempt([&] {
      const std::string timeline = "timeline:";
      if (v.compare(0, timeline.size(), timeline) != 0)
        c.trace = parse_switch("PACXX_TRACE", v);
      else if ((c.timeline = v.substr(timeline.size())).empty())
        throw error("pacxx: " + setting("PACXX_TRACE", v) +
                    " names no file; use timeline:FILE (e.g. timeline:trace.json)");
    });
  if (std::string v = get("PACXX_STAGING"); !v.empty())
    attempt([&] { c.staging = parse_switch("PACXX_STAGING", v); });
  if (std::string v = get("PACXX_UNROLL"); !v.empty())
    attempt([&] { c.unroll = parse_switch("PACXX_UNROLL", v); });
  c.dump_dir = get("PACXX_DUMP_DIR");
  c.tools_library = get("PACXX_TOOLS_LIBRARY");
  if (std::string v = get("PACXX_POOL_MB"); !v.empty())
    attempt([&] {
      c.pool_mb =
          parse_megabytes("PACXX_POOL_MB", v, std::numeric_limits<std::size_t>::max() >> 20);
    });
  if (std::string v = get("PACXX_CACHE"); !v.empty())
    attempt([&] { c.cache = parse_switch("PACXX_CACHE", v); });
  if (std::string v = get("PACXX_CACHE_MAX_MB"); !v.empty())
    attempt([&] {
      c.cache_max_mb =
          parse_megabytes("PACXX_CACHE_MAX_MB", v, std::numeric_limits<std::uint64_t>::max() >> 20);
    });
  if (std::string v = get("PACXX_PREFETCH"); !v.empty())
    attempt(
        [&] { c.prefetch_threads = parse_count("PACXX_PREFETCH", v, 0, c.max_prefetch_threads); });
  if (std::string v = get("PACXX_PREFILL"); !v.empty())
    attempt([&] { c.prefill = parse_switch("PACXX_PREFILL", v); });
  if (std::string v = get("PACXX_KERNEL_VARIANTS"); !v.empty())
    attempt([&] {
      c.kernel_variants = parse_count("PACXX_KERNEL_VARIANTS", v, 1, c.max_kernel_variants);
    });

  if (std::string v = get("PACXX_TUNE"); !v.empty())
    attempt([&] {
      if (v == "explore")
        c.tune = 2;
      else if (v == "0" || v == "1")
        c.tune = v == "1";
      else
        throw error("pacxx: " + setting("PACXX_TUNE", v) +
                    " is not a tuning mode; use 0 (built-in policies), 1 (stored results) or "
                    "explore");
    });
  if (std::string v = get("PACXX_TUNE_BUDGET_MS"); !v.empty())
    attempt([&] { c.tune_budget_ms = parse_count("PACXX_TUNE_BUDGET_MS", v, 1, 86400000); });
  c.tune_report = get("PACXX_TUNE_REPORT");

  if (std::string dir = get("PACXX_CACHE_DIR"); !dir.empty())
    c.cache_dir = dir;
  else if (std::string xdg = get("XDG_CACHE_HOME"); !xdg.empty() && xdg[0] == '/')
    c.cache_dir = (std::filesystem::path(xdg) / "pacxx").string();
  else if (std::string home = get("HOME"); !home.empty())
    c.cache_dir = (std::filesystem::path(home) / ".cache" / "pacxx").string();
  else
    c.cache_dir_why = "no directory: none of PACXX_CACHE_DIR, XDG_CACHE_HOME and HOME is set";

  if (!problems.empty()) {
    std::string msg;
    for (const std::string &p : problems)
      msg += (msg.empty() ? "" : "\n") + p;
    throw error(msg);
  }
  return c;
}

} // namespace pacxx::rt
