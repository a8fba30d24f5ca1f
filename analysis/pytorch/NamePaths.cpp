// Paths of names, each stored once.
#include "analysis/pytorch/NamePaths.h"

namespace lanescope {

uint32_t NamePaths::child(uint32_t parent, uint32_t name) {
    const auto [it, added] = byPath_.try_emplace(uint64_t{parent} << 32 | name, static_cast<uint32_t>(nodes_.size()));
    if (added) nodes_.push_back({parent, name, nodes_[parent].depth + 1});
    return it->second;
}

}  // namespace lanescope
