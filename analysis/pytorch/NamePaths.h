#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace lanescope {

// Paths of names from a root (a module's enclosing modules, an operator's Python frames),
// each stored once as a node: its last name and the node of the path without it. Node 0 is the
// empty path (the root); the others are numbered in the order they were first added, so a
// path's parent always has a smaller number.
class NamePaths {
public:
    static constexpr uint32_t kRoot = 0;

    NamePaths() : nodes_{{UINT32_MAX, UINT32_MAX, 0}} {}
    // The node of `parent`'s path followed by `name` (a string id), added when new.
    uint32_t child(uint32_t parent, uint32_t name);
    uint32_t parentOf(uint32_t node) const { return nodes_[node].parent; }  // UINT32_MAX for the root
    uint32_t nameOf(uint32_t node) const { return nodes_[node].name; }      // UINT32_MAX for the root
    uint32_t depthOf(uint32_t node) const { return nodes_[node].depth; }    // names on the path
    size_t size() const { return nodes_.size(); }

private:
    struct Node {
        uint32_t parent, name, depth;
    };
    std::vector<Node> nodes_;                        // by node number
    std::unordered_map<uint64_t, uint32_t> byPath_;  // node by (parent << 32 | name)
};

}  // namespace lanescope
