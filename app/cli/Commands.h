#pragma once

namespace lanescope::cli {

// Each returns the process exit code; argv[first] is the first word after the subcommand.
int runInfo(int argc, char** argv, int first);
int runStats(int argc, char** argv, int first);

}  // namespace lanescope::cli
