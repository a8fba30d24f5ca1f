#pragma once
#include <filesystem>
#include <string>

namespace lanescope::test {

// A file of tests/data (our own captures, shipped with the project).
std::filesystem::path dataFile(const std::string& relative);
// A file of ../shared/corpus (public files by others, expected CSVs); empty if absent.
std::filesystem::path sharedFile(const std::string& relative);
// Reads a whole file; throws when it cannot.
std::string readFile(const std::filesystem::path& path);
// A fresh empty folder under the temp dir, removed by the caller if wanted.
std::filesystem::path tempDir(const std::string& name);

}  // namespace lanescope::test
