// Each program under compile_errors/ holds one construct a GPU cannot run, marked
// `// expect-error: <message>` on its line. pacxx++ must reject it there. A kernel of the
// GPU STL is named by its algorithm: the program marks the algorithm's call with
// `// expect-note: <note>` (the note must be at that line), or its expected message names
// the kernel itself ("kernel 'gpu::sort' ..."); a raw pacxx::kernel is named by the user's
// lambda.
#include <gtest/gtest.h>

#include "run_command.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using pacxx_test::result;
using pacxx_test::run;

// The output line that starts with `where` and contains `text`, or "".
std::string line_at(const std::string &output, const std::string &where, const std::string &text) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(where, 0) == 0 && line.find(text) != std::string::npos)
      return line;
  return "";
}

class CompileError : public ::testing::TestWithParam<const char *> {};

TEST_P(CompileError, RejectedAtTheUsersLine) {
  std::string file = std::string(PACXX_TEST_SOURCE_DIR) + "/compile_errors/" + GetParam() + ".cpp";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  std::string line, expected, note;
  int line_no = 0, expected_line = 0, note_line = 0;
  while (std::getline(in, line)) {
    ++line_no;
    auto at = line.find("// expect-error: ");
    if (at != std::string::npos) {
      expected = line.substr(at + 17);
      expected_line = line_no;
    }
    at = line.find("// expect-note: ");
    if (at != std::string::npos) {
      note = line.substr(at + 16);
      note_line = line_no;
    }
  }
  ASSERT_GT(expected_line, 0) << "no expect-error marker in " << file;

  std::string out = std::string(PACXX_TEST_BINARY_DIR) + "/compile_error_" + GetParam();
  std::remove(out.c_str());
  result r = run(std::string(PACXX_CXX) + " -O1 -std=c++14 " + file + " -o " + out);
  EXPECT_NE(r.status, 0) << "pacxx++ accepted a program that cannot run on a GPU:\n" << r.output;
  std::string where = file + ":" + std::to_string(expected_line) + ":";
  EXPECT_NE(line_at(r.output, where, "error: pacxx: kernel '"), "")
      << "expected a diagnostic at " << where << ", got:\n"
      << r.output;
  if (expected.find("kernel '") == std::string::npos) {
    EXPECT_NE(r.output.find("error: pacxx: kernel '(lambda at " + file), std::string::npos)
        << "the diagnostic must name the kernel:\n"
        << r.output;
  }
  EXPECT_NE(line_at(r.output, where, expected), "")
      << "expected '" << expected << "' at " << where << " in:\n"
      << r.output;
  if (note_line) {
    std::string note_at = file + ":" + std::to_string(note_line) + ":";
    EXPECT_NE(line_at(r.output, note_at, ": note: " + note), "")
        << "expected the note '" << note << "' at " << note_at << " in:\n"
        << r.output;
    // Nothing of it points into pacxx's headers or names a mangled kernel.
    EXPECT_EQ(r.output.find("/include/pacxx/"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("_ZN"), std::string::npos) << r.output;
  }
  std::ifstream produced(out);
  EXPECT_FALSE(produced) << "no program may be left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Constructs, CompileError,
    ::testing::Values("virtual_call", "function_pointer", "throw", "try_catch", "mutable_global",
                      "long_double", "inline_asm", "missing_body", "library_not_provided",
                      "stage_thread_id", "stage_device_memory",
                      // In the GPU STL: the user's line, the algorithm.
                      "transform_virtual_call", "reduce_throw", "sort_comparator_missing_body",
                      "stencil_function_pointer", "sort_function_pointer_comparator"));

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
