// The GPU STL refuses, at compile time, what cannot run on a device: host containers and
// views over them given to GPU algorithms, functions and operations holding host
// containers, pacxx::kernel closures and arguments holding them, gpu::vectors of
// non-trivial types; reads of a write-only output view (gpu::views::transform_output:
// as an input, sorted, copied to the host); views whose bounds are found by reading
// elements (take_while, drop_while, trim, delimit: sizing them would read device memory on
// the host), unbounded ranges with nothing to bound them, and view::concat (its variant
// throws). Each program under stl_compile_errors/ marks its
// offending line with `// expect-static-error: <part of the static_assert's message>`. pacxx++
// (-fsyntax-only) must fail, its first error must be that static assertion, and the
// diagnostic must lead to the user's line. stl_compile_errors/accepted.cpp, the same
// constructs written correctly, must compile.
#include <gtest/gtest.h>

#include "run_command.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>

namespace {

using pacxx_test::result;
using pacxx_test::run;

std::string source(const std::string &name) {
  return std::string(PACXX_TEST_SOURCE_DIR) + "/stl_compile_errors/" + name + ".cpp";
}

result syntax_check(const std::string &file, const char *standard) {
  return run(std::string(PACXX_CXX) + " -fsyntax-only -std=" + standard + " " + file);
}

using Param = std::tuple<const char *, const char *>; // program, language standard

class StlCompileError : public ::testing::TestWithParam<Param> {};

TEST_P(StlCompileError, RejectedWithTheStaticAssertion) {
  const std::string file = source(std::get<0>(GetParam()));
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  std::string line, expected;
  int line_no = 0, expected_line = 0;
  const std::string marker = "// expect-static-error: ";
  while (std::getline(in, line)) {
    ++line_no;
    auto at = line.find(marker);
    if (at != std::string::npos) {
      expected = line.substr(at + marker.size());
      expected_line = line_no;
    }
  }
  ASSERT_GT(expected_line, 0) << "no expect-static-error marker in " << file;
  ASSERT_FALSE(expected.empty());

  result r = syntax_check(file, std::get<1>(GetParam()));
  EXPECT_NE(r.status, 0) << "pacxx++ accepted a program that cannot run on a GPU:\n" << r.output;

  // The first error is the static assertion carrying the message.
  auto first_error = r.output.find("error: ");
  ASSERT_NE(first_error, std::string::npos) << r.output;
  auto end_of_line = r.output.find('\n', first_error);
  const std::string first = r.output.substr(first_error, end_of_line - first_error);
  EXPECT_NE(first.find("static assertion failed"), std::string::npos)
      << "the first error must be the static assertion, got:\n"
      << r.output;
  EXPECT_NE(first.find(expected), std::string::npos)
      << "expected '" << expected << "' in the first error, got:\n"
      << r.output;

  // The instantiation notes lead back to the user's line.
  const std::string where = file + ":" + std::to_string(expected_line) + ":";
  EXPECT_NE(r.output.find(where), std::string::npos)
      << "expected the diagnostic to name " << where << ", got:\n"
      << r.output;
}

std::string param_name(const ::testing::TestParamInfo<Param> &info) {
  std::string standard = std::get<1>(info.param);
  return std::string(std::get<0>(info.param)) + "_" + standard.substr(standard.size() - 2);
}

INSTANTIATE_TEST_SUITE_P(
    Cxx17, StlCompileError,
    ::testing::Combine(
        ::testing::Values(
            "reduce_host_vector", "for_each_host_vector", "transform_into_host_vector",
            "reduce_view_over_host_vector", "zip_of_device_and_host", "copy_view_over_host_vector",
            "view_function_captures_host_vector", "for_each_captures_host_vector",
            "transform_captures_host_vector", "reduce_op_captures_host_vector",
            "kernel_captures_host_vector", "kernel_argument_host_vector",
            "vector_of_host_containers", "transform_output_sorted", "transform_output_read",
            "transform_output_copied_to_host", "transform_output_captures_host_vector",
            "take_while_device_data", "drop_while_device_data", "trim_device_data",
            "delimit_device_data", "cycle_unbounded_device_data", "two_unbounded_inputs",
            "concat_device_data", "scatter_reduce_atomic_op", "scatter_reduce_atomic_short"),
        ::testing::Values("c++17")),
    param_name);

// The headers compile as C++14 too: a representative subset there.
INSTANTIATE_TEST_SUITE_P(
    Cxx14, StlCompileError,
    ::testing::Combine(::testing::Values("reduce_host_vector", "reduce_view_over_host_vector",
                                         "for_each_captures_host_vector",
                                         "kernel_captures_host_vector", "transform_output_read",
                                         "take_while_device_data", "two_unbounded_inputs",
                                         "concat_device_data"),
                       ::testing::Values("c++14")),
    param_name);

TEST(StlCompileErrors, CorrectProgramIsAccepted) {
  for (const char *standard : {"c++14", "c++17"}) {
    result r = syntax_check(source("accepted"), standard);
    EXPECT_EQ(r.status, 0) << standard << ":\n" << r.output;
  }
}

} // namespace
