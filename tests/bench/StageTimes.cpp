#include "tests/bench/StageTimes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "tests/bench/Measure.h"

namespace lanescope::bench {

namespace {

double wallNow() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

StageTimes::StageTimes() : current_("starting"), currentWall_(wallNow()), currentCpu_(processCpuNow()) {}

void StageTimes::close(double wall, double cpu) {
    auto it = std::find_if(stages_.begin(), stages_.end(), [&](const Stage& s) { return s.name == current_; });
    if (it == stages_.end()) it = stages_.insert(stages_.end(), Stage{current_});
    it->wall_s += wall - currentWall_;
    it->cpu_s += cpu - currentCpu_;
    currentWall_ = wall;
    currentCpu_ = cpu;
}

void StageTimes::progress(std::string_view stage, uint64_t, uint64_t) {
    const std::lock_guard lock(mutex_);
    if (stage == current_) return;
    close(wallNow(), processCpuNow());
    current_ = std::string(stage);
}

std::vector<StageTimes::Stage> StageTimes::finish() {
    const std::lock_guard lock(mutex_);
    close(wallNow(), processCpuNow());
    current_.clear();
    return stages_;
}

std::string StageTimes::encode(const std::vector<Stage>& stages) {
    std::string out;
    for (const Stage& s : stages) {
        std::string name = s.name;
        std::replace(name.begin(), name.end(), ' ', '_');
        std::replace(name.begin(), name.end(), ';', '_');
        std::replace(name.begin(), name.end(), '=', '_');
        char times[64];
        std::snprintf(times, sizeof times, "=%.6f=%.6f;", s.wall_s, s.cpu_s);
        out += name + times;
    }
    return out;
}

std::vector<StageTimes::Stage> StageTimes::decode(std::string_view text) {
    std::vector<Stage> stages;
    while (!text.empty()) {
        const size_t end = std::min(text.find(';'), text.size());
        const std::string_view item = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        const size_t a = item.find('='), b = item.find('=', a + 1);
        if (a == std::string_view::npos || b == std::string_view::npos) continue;
        stages.push_back({std::string(item.substr(0, a)), std::stod(std::string(item.substr(a + 1, b - a - 1))),
                          std::stod(std::string(item.substr(b + 1)))});
    }
    return stages;
}

}  // namespace lanescope::bench
