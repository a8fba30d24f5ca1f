#pragma once
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "model/CallStacks.h"

namespace lanescope {

// One frame as a report or chunk names it: function and module string ids.
struct FrameName {
    uint32_t function = 0;
    uint32_t module = 0;
};

// Builds a CallStacks while importing: each stack handed in once per event, stored once.
// Owns what it builds; take it with `release()`.
class StackInterner {
public:
    // The stack id of `leafFirst` (frames from the innermost to the outermost); kNoStack for none.
    uint32_t intern(std::span<const FrameName> leafFirst);
    // Adds every stack of `other` (whose frames name strings through `resolve`) and returns, per
    // node of `other`, this interner's node.
    template <class Resolve>
    std::vector<uint32_t> merge(const CallStacks& other, Resolve resolve) {
        std::vector<uint32_t> frameMap(other.frameCount());
        for (size_t f = 0; f < frameMap.size(); ++f)
            frameMap[f] = frame(resolve(other.frame_function[f]), resolve(other.frame_module[f]));
        std::vector<uint32_t> nodeMap(other.nodeCount());
        for (size_t n = 0; n < nodeMap.size(); ++n) {  // parents come first
            const uint32_t parent = other.node_parent[n];
            nodeMap[n] = node(parent == kNoStack ? kNoStack : nodeMap[parent], frameMap[other.node_frame[n]]);
        }
        return nodeMap;
    }
    const CallStacks& stacks() const { return stacks_; }
    CallStacks release();

private:
    uint32_t frame(uint32_t function, uint32_t module);
    uint32_t node(uint32_t parent, uint32_t frame);

    CallStacks stacks_;
    std::unordered_map<uint64_t, uint32_t> frames_;  // (function, module) -> frame
    std::unordered_map<uint64_t, uint32_t> nodes_;   // (parent + 1, frame) -> node
};

}  // namespace lanescope
