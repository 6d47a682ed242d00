// Each program under compile_errors/ holds one construct a GPU cannot run, marked
// `// expect-error: <message>` on its line. pacxx++ must reject it there.
#include <gtest/gtest.h>

#include "run_command.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

using pacxx_test::result;
using pacxx_test::run;

class CompileError : public ::testing::TestWithParam<const char *> {};

TEST_P(CompileError, RejectedAtTheUsersLine) {
  std::string file = std::string(PACXX_TEST_SOURCE_DIR) + "/compile_errors/" + GetParam() + ".cpp";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  std::string line, expected;
  int line_no = 0, expected_line = 0;
  while (std::getline(in, line)) {
    ++line_no;
    auto at = line.find("// expect-error: ");
    if (at != std::string::npos) {
      expected = line.substr(at + 17);
      expected_line = line_no;
    }
  }
  ASSERT_GT(expected_line, 0) << "no expect-error marker in " << file;

  std::string out = std::string(PACXX_TEST_BINARY_DIR) + "/compile_error_" + GetParam();
  std::remove(out.c_str());
  result r = run(std::string(PACXX_CXX) + " -O1 -std=c++14 " + file + " -o " + out);
  EXPECT_NE(r.status, 0) << "pacxx++ accepted a program that cannot run on a GPU:\n" << r.output;
  std::string where = file + ":" + std::to_string(expected_line) + ":";
  EXPECT_NE(r.output.find(where), std::string::npos)
      << "expected a diagnostic at " << where << ", got:\n"
      << r.output;
  EXPECT_NE(r.output.find("error: pacxx: kernel '(lambda at " + file), std::string::npos)
      << "the diagnostic must name the kernel:\n"
      << r.output;
  EXPECT_NE(r.output.find(expected), std::string::npos) << "expected '" << expected << "' in:\n"
                                                        << r.output;
  std::ifstream produced(out);
  EXPECT_FALSE(produced) << "no program may be left behind";
}

INSTANTIATE_TEST_SUITE_P(Constructs, CompileError,
                         ::testing::Values("virtual_call", "function_pointer", "throw", "try_catch",
                                           "mutable_global", "long_double", "inline_asm",
                                           "missing_body", "library_not_provided",
                                           "stage_thread_id", "stage_device_memory"));

// Without an input file pacxx++ must say so, like clang, rather than link its runtime
// alone and fail with "undefined reference to main".
TEST(Driver, NoInputFiles) {
  const std::string out = std::string(PACXX_TEST_BINARY_DIR) + "/no_input_program";
  std::remove(out.c_str());
  for (const std::string &args : std::vector<std::string>{"", " -O2 -o " + out}) {
    result r = run(std::string(PACXX_CXX) + args);
    EXPECT_NE(r.status, 0) << args << ":\n" << r.output;
    EXPECT_NE(r.output.find("pacxx++: error: no input files"), std::string::npos) << args << ":\n"
                                                                                  << r.output;
    EXPECT_EQ(r.output.find("undefined reference"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(std::ifstream(out)) << "no program may be left behind";
  // A missing file is clang's own error, not "no input files".
  result r = run(std::string(PACXX_CXX) + " /nonexistent/pacxx_input.cpp -o " + out);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("no such file or directory"), std::string::npos) << r.output;
}

} // namespace
