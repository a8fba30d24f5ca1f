#pragma once

namespace lanescope::cli {

// Each returns the process exit code; argv[first] is the first word after the subcommand.
int runInfo(int argc, char** argv, int first);
int runStats(int argc, char** argv, int first);
int runAnalyze(int argc, char** argv, int first);
int runExport(int argc, char** argv, int first);
int runSql(int argc, char** argv, int first);
int runCompare(int argc, char** argv, int first);
int runSummarize(int argc, char** argv, int first);
int runDiff(int argc, char** argv, int first);
int runCriticalPath(int argc, char** argv, int first);
int runNccl(int argc, char** argv, int first);
int runProfile(int argc, char** argv, int first);
int runPytorch(int argc, char** argv, int first);
int runRender(int argc, char** argv, int first);  // needs the GUI build (Qt)

}  // namespace lanescope::cli
