#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace lanescope::bench {

// The StringIds table of a synthetic report: ids are dense, from 0, in order of first intern().
class StringIdTable {
public:
    int64_t intern(const std::string& text) {
        auto [it, inserted] = ids_.try_emplace(text, static_cast<int64_t>(values_.size()));
        if (inserted) values_.push_back(text);
        return it->second;
    }
    // Every string, indexed by id.
    const std::vector<std::string>& values() const { return values_; }

private:
    std::unordered_map<std::string, int64_t> ids_;
    std::vector<std::string> values_;
};

}  // namespace lanescope::bench
