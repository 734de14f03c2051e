// The ncclscope executable: arguments in, one call to the library, exit code out.
#include "ncclscope/cli/main.h"

int main(int argc, char** argv) { return ncclscope::cli::Main(argc, argv); }
