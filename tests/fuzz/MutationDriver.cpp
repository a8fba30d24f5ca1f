// Runs the fuzz target without libFuzzer: each seed file as it is, then deterministic
// damage of it (truncations at many points, bit flips, zeroed and repeated blocks). Exits
// non-zero only if the target crashes (which ends the process) — so a ctest run under
// ASan/UBSan in CI proves the importers survive all of these.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void run(const std::string& bytes) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s MUTATIONS SEED_FILE...\n", argv[0]);
        return 1;
    }
    const int mutations = std::atoi(argv[1]);
    size_t cases = 0;
    for (int a = 2; a < argc; ++a) {
        std::ifstream in(argv[a], std::ios::binary);
        const std::string seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (seed.empty()) {
            std::fprintf(stderr, "cannot read seed %s\n", argv[a]);
            return 1;
        }
        std::mt19937_64 rng(0x5eed + a);
        run(seed);
        run("");
        ++cases;
        for (int m = 0; m < mutations; ++m, ++cases) {
            std::string damaged = seed;
            switch (m % 4) {
                case 0:
                    damaged.resize(rng() % seed.size());
                    break;  // truncated
                case 1:     // bit flips
                    for (int k = 0; k < 1 + int(rng() % 16); ++k)
                        damaged[rng() % damaged.size()] ^= char(1 << (rng() % 8));
                    break;
                case 2: {  // a zeroed block
                    const size_t at = rng() % damaged.size(),
                                 len = std::min<size_t>(damaged.size() - at, 1 + rng() % 4096);
                    std::fill(damaged.begin() + long(at), damaged.begin() + long(at + len), '\0');
                    break;
                }
                default: {  // a repeated block
                    const size_t at = rng() % damaged.size(),
                                 len = std::min<size_t>(damaged.size() - at, 1 + rng() % 512);
                    damaged.insert(at, damaged.substr(at, len));
                }
            }
            run(damaged);
        }
    }
    std::printf("%zu cases, no crash\n", cases);
    return 0;
}
