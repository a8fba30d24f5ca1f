#include "tests/bench/Args.h"

#include <charconv>

namespace lanescope::bench {

Args parseArgs(int argc, char** argv, int first, const std::set<std::string>& options,
               const std::set<std::string>& flags) {
    Args args;
    for (int i = first; i < argc; ++i) {
        const std::string word = argv[i];
        if (!word.starts_with("--")) {
            args.positional.push_back(word);
            continue;
        }
        const std::string name = word.substr(2);
        if (flags.count(name)) {
            args.flags.insert(name);
        } else if (!options.count(name)) {
            args.error = "unknown option " + word;
        } else if (i + 1 >= argc) {
            args.error = word + " needs a value";
        } else {
            args.options[name] = argv[++i];
        }
        if (!args.error.empty()) break;
    }
    return args;
}

std::optional<uint64_t> parseCount(const std::string& text) {
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value == 0) return std::nullopt;
    return value;
}

}  // namespace lanescope::bench
