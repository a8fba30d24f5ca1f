// Byte-level damage to any report: empty, truncated at many points, bits flipped (seeded, so
// every run makes the same files).
#include <random>

#include "DamagedCorpus.h"
#include "TestPaths.h"

namespace lanescope::test {
namespace {

// "train_1gpu.pt.trace.json.gz" -> ".pt.trace.json.gz": every suffix, so .json.gz stays one.
std::string suffixes(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    return name.substr(name.find('.'));
}

std::string flipBits(std::string bytes, uint64_t seed, size_t flips, size_t within) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<size_t> position(0, std::min(within, bytes.size()) * 8 - 1);
    for (size_t i = 0; i < flips; ++i) {
        const size_t bit = position(rng);
        bytes[bit / 8] = static_cast<char>(bytes[bit / 8] ^ (1 << (bit % 8)));
    }
    return bytes;
}

}  // namespace

void addByteDamage(std::vector<DamagedCase>& cases, const std::filesystem::path& dir,
                   const std::filesystem::path& original, const std::string& stem, bool partialIsRefused) {
    const std::string bytes = readFile(original);
    const std::string ext = suffixes(original);
    auto add = [&](const std::string& what, const std::string& content, Expect expect) {
        const auto path = dir / (stem + "-" + what + ext);
        writeBytes(path, content);
        cases.push_back({stem + " " + what, path, expect, {}, {}});
    };

    add("empty", "", Expect::Refused);
    add("first-byte-only", bytes.substr(0, 1), Expect::Refused);
    const Expect partial = partialIsRefused ? Expect::Refused : Expect::OpensOrRefused;
    for (int percent : {1, 10, 50, 90, 99}) {
        const size_t keep = bytes.size() * percent / 100;
        add("truncated-" + std::to_string(percent) + "pct", bytes.substr(0, keep), partial);
    }
    add("last-byte-missing", bytes.substr(0, bytes.size() - 1), partial);

    // Seeded flips anywhere, and in the first 100 bytes where headers and magic numbers live.
    for (uint64_t seed : {1, 2, 3}) {
        const size_t flips = size_t{1} << (3 * seed);  // 8, 64, 512
        add("flip" + std::to_string(flips) + "-seed" + std::to_string(seed), flipBits(bytes, seed, flips, bytes.size()),
            Expect::OpensOrRefused);
    }
    add("flip-header", flipBits(bytes, 42, 4, 100), Expect::OpensOrRefused);
}

}  // namespace lanescope::test
