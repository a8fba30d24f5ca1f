#include "model/CallStacks.h"

namespace lanescope {

std::vector<uint32_t> CallStacks::framesOf(uint32_t stack) const {
    std::vector<uint32_t> frames;
    for (uint32_t node = stack; node != kNoStack && node < node_frame.size(); node = node_parent[node])
        frames.push_back(node_frame[node]);
    return frames;
}

size_t CallStacks::memoryBytes() const {
    return (frame_function.capacity() + frame_module.capacity() + node_frame.capacity() + node_parent.capacity()) *
           sizeof(uint32_t);
}

}  // namespace lanescope
