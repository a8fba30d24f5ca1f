#pragma once
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace lanescope::bench {

// Exit codes: 0 done; 1 bad arguments (usage printed); 2 an input that cannot be imported or a
// report that cannot be written (the one-line reason printed).
inline constexpr int kExitOk = 0, kExitUsage = 1, kExitBadInput = 2;

// Each subcommand reads argv[2..argc) and returns the exit code. Figures go to stdout as
// key=value lines; messages go to stderr.
int generateCommand(int argc, char** argv);
int importCommand(int argc, char** argv);
int statsCommand(int argc, char** argv);
int renderCommand(int argc, char** argv);
int compareCommand(int argc, char** argv);
int profileCommand(int argc, char** argv);
int eventsCommand(int argc, char** argv);
int openCommand(int argc, char** argv);
int cacheCommand(int argc, char** argv);
int sqlCommand(int argc, char** argv);
int pytorchCommand(int argc, char** argv);
int criticalPathCommand(int argc, char** argv);
int ncclCommand(int argc, char** argv);

// Prints "lanescope-bench: <message>" and the usage to stderr; returns kExitUsage.
int usageError(const std::string& message);

inline void printValue(const char* key, uint64_t value) { std::printf("%s=%" PRIu64 "\n", key, value); }
inline void printValue(const char* key, double value, int decimals) { std::printf("%s=%.*f\n", key, decimals, value); }

}  // namespace lanescope::bench
