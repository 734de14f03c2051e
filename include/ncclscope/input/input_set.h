// Expands the command line's inputs: "-" or nothing = stdin, files, directories (every regular
// file inside, recursively, in sorted order). Paths that cannot be read are reported, and the
// others are still returned.
#ifndef NCCLSCOPE_INPUT_INPUT_SET_H_
#define NCCLSCOPE_INPUT_INPUT_SET_H_

#include <string>
#include <vector>

namespace ncclscope {

struct InputPath {
  std::string path;  ///< "-" for stdin.
  std::string
      name;  ///< Display name used in evidence (`name:line`): the path as given, or "<stdin>".
};

struct InputProblem {
  std::string path;
  std::string message;  ///< e.g. "No such file or directory", "Permission denied".
};

struct ExpandedInputs {
  std::vector<InputPath> inputs;
  std::vector<InputProblem> problems;
};

ExpandedInputs ExpandInputs(const std::vector<std::string>& args);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_INPUT_SET_H_
