#include "TestPaths.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace lanescope::test {

std::filesystem::path dataFile(const std::string& relative) {
    return std::filesystem::path(LANESCOPE_TEST_DATA) / relative;
}

std::filesystem::path sharedFile(const std::string& relative) {
    const auto path = std::filesystem::path(LANESCOPE_SHARED_CORPUS) / relative;
    return std::filesystem::exists(path) ? path : std::filesystem::path{};
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::filesystem::path tempDir(const std::string& name) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("lanescope-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace lanescope::test
