#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lanescope::bench {

// The words after a subcommand: positional arguments, `--name value` options and flags.
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;  // by name, without the dashes
    std::set<std::string> flags;                 // without the dashes
    std::string error;                           // set when the words do not parse

    bool has(const std::string& name) const { return options.count(name) || flags.count(name); }
};

// Parses argv[first..argc). Options take the next word as their value; flags take none; any
// other word starting with "--" is an error.
Args parseArgs(int argc, char** argv, int first, const std::set<std::string>& options,
               const std::set<std::string>& flags = {});

// A positive decimal count such as "2000000"; nullopt for anything else.
std::optional<uint64_t> parseCount(const std::string& text);

}  // namespace lanescope::bench
