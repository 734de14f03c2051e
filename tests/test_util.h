// Helpers shared by the tests: paths into testdata/ and whole-file reads.
#ifndef NCCLSCOPE_TESTS_TEST_UTIL_H_
#define NCCLSCOPE_TESTS_TEST_UTIL_H_

#include <string>
#include <string_view>
#include <vector>

namespace ncclscope::testing {

/// Absolute path of a file under testdata/.
std::string TestData(std::string_view relative);
/// Whole file as a string; fails the current test if unreadable.
std::string ReadFileOrDie(const std::string& path);
/// The lines of `text` as owned strings (ncclscope::SplitLines: without their newlines and a
/// CRLF's CR, no empty line after a final newline).
std::vector<std::string> SplitLines(const std::string& text);
/// Path of the built ncclscope binary.
std::string BinaryPath();

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_TEST_UTIL_H_
