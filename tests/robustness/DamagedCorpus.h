// The damaged-file corpus: files generated at test time from the real reports in tests/data
// (truncated, bit-flipped, renamed, re-compressed, edited with SQL) plus small hand-made
// hostile traces, each with what lanescope-cli must do with it.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace lanescope::test {

enum class Expect {
    OpensOrRefused,  // either is right: exit 0, or exit 2 with one line
    Opens,           // the content is a readable report: exit 0
    Refused,         // nothing usable in it: exit 2 with one line
};

struct DamagedCase {
    std::string name;  // what was done, for messages
    std::filesystem::path file;
    Expect expect = Expect::OpensOrRefused;
    std::string diagnostic;              // when it opens, this diagnostic must be named (empty: none required)
    std::filesystem::path sameCountsAs;  // when set: the event counts must equal this original's
};

// Writes every case into dir (which must exist and be empty); pftrace is a real Perfetto trace.
std::vector<DamagedCase> makeDamagedCorpus(const std::filesystem::path& dir, const std::filesystem::path& pftrace);

// Parts of the corpus, one per source format (DamagedBytes.cpp, DamagedSqlite.cpp, DamagedJson.cpp).
void addByteDamage(std::vector<DamagedCase>& cases, const std::filesystem::path& dir,
                   const std::filesystem::path& original, const std::string& stem, bool partialIsRefused);
void addSqliteEdits(std::vector<DamagedCase>& cases, const std::filesystem::path& dir,
                    const std::filesystem::path& original);
void addJsonCases(std::vector<DamagedCase>& cases, const std::filesystem::path& dir, const std::filesystem::path& json,
                  const std::filesystem::path& gz);

// Small helpers shared by the generators.
void writeBytes(const std::filesystem::path& path, const std::string& bytes);
std::string gzipBytes(const std::string& bytes);

}  // namespace lanescope::test
