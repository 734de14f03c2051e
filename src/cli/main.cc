#include "ncclscope/cli/main.h"

#include <cstdio>

namespace ncclscope::cli {

int Main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  std::fprintf(stderr, "ncclscope: command line not wired yet\n");
  return 2;
}

}  // namespace ncclscope::cli
