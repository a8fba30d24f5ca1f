#include "importers/StackInterner.h"

namespace lanescope {
namespace {
uint64_t pairKey(uint32_t a, uint32_t b) { return (uint64_t{a} << 32) | b; }
}  // namespace

uint32_t StackInterner::frame(uint32_t function, uint32_t module) {
    auto [it, inserted] = frames_.try_emplace(pairKey(function, module), static_cast<uint32_t>(stacks_.frameCount()));
    if (inserted) {
        stacks_.frame_function.push_back(function);
        stacks_.frame_module.push_back(module);
    }
    return it->second;
}

uint32_t StackInterner::node(uint32_t parent, uint32_t frameIndex) {
    auto [it, inserted] =
        nodes_.try_emplace(pairKey(parent + 1, frameIndex), static_cast<uint32_t>(stacks_.nodeCount()));
    if (inserted) {
        stacks_.node_frame.push_back(frameIndex);
        stacks_.node_parent.push_back(parent);
    }
    return it->second;
}

uint32_t StackInterner::intern(std::span<const FrameName> leafFirst) {
    uint32_t at = kNoStack;
    for (auto it = leafFirst.rbegin(); it != leafFirst.rend(); ++it) at = node(at, frame(it->function, it->module));
    return at;
}

CallStacks StackInterner::release() {
    frames_ = {};
    nodes_ = {};
    CallStacks out = std::move(stacks_);
    stacks_ = {};
    return out;
}

}  // namespace lanescope
