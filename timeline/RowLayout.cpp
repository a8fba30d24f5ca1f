#include "timeline/RowLayout.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "model/Report.h"
#include "timeline/DeferredLanes.h"

namespace lanescope {

RowLayout::Node RowLayout::makeNode(const Row& row, const std::string& parentKey) const {
    Node node{parentKey + "/" + row.label, row, {}};
    for (const Row& child : row.children) node.children.push_back(makeNode(child, node.key));
    // The user's sibling order first, the model's order for the rest.
    auto order = siblingOrder_.find(node.key);
    if (order != siblingOrder_.end()) {
        auto rank = [&](const Node& n) {
            auto it = std::find(order->second.begin(), order->second.end(), n.key);
            return it == order->second.end() ? order->second.size() : size_t(it - order->second.begin());
        };
        std::stable_sort(node.children.begin(), node.children.end(),
                         [&](const Node& a, const Node& b) { return rank(a) < rank(b); });
    }
    return node;
}

void RowLayout::setReports(std::vector<std::shared_ptr<const Report>> reports, RowOrder order, size_t loading) {
    reports_ = std::move(reports);
    loading_ = std::min(loading, reports_.size());
    order_ = order;
    rebuild();
}

void RowLayout::renameKeys(const std::string& from, const std::string& to) {
    if (from == to) return;
    const auto renamed = [&](const std::string& key) -> std::optional<std::string> {
        if (key == from) return to;
        if (key.starts_with(from) && key[from.size()] == '/') return to + key.substr(from.size());
        return std::nullopt;
    };
    for (std::set<std::string>* keys : {&collapsed_, &expanded_, &hidden_}) {
        std::set<std::string> moved;
        for (auto it = keys->begin(); it != keys->end();)
            if (auto key = renamed(*it)) {
                moved.insert(*key);
                it = keys->erase(it);
            } else {
                ++it;
            }
        keys->merge(moved);
    }
    std::map<std::string, std::vector<std::string>> order;
    for (auto& [parent, children] : siblingOrder_) {
        for (std::string& child : children) child = renamed(child).value_or(child);
        order[renamed(parent).value_or(parent)] = std::move(children);
    }
    siblingOrder_ = std::move(order);
    rebuild();
}

void RowLayout::setOrder(RowOrder order) {
    order_ = order;
    rebuild();
}

void RowLayout::setFilter(const QString& text, bool regex) {
    filtering_ = !text.trimmed().isEmpty();
    filter_ =
        QRegularExpression(regex ? text : QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption);
    filterValid_ = filter_.isValid();
    if (!filterValid_) filtering_ = false;
    rebuild();
}

bool RowLayout::isExpanded(const std::string& key) const {
    const bool reportGroup = std::any_of(roots_.begin(), roots_.end(), [&](const Node& n) { return n.key == key; });
    return isExpanded(key, reportGroup);
}

bool RowLayout::isExpanded(const std::string& key, bool reportGroup) const {
    if (collapsed_.count(key)) return false;
    if (expanded_.count(key)) return true;
    return !reportGroup || reports_.size() <= kExpandedReportsMax;
}

void RowLayout::toggleExpanded(const std::string& key) { setExpanded(key, !isExpanded(key)); }

void RowLayout::setExpanded(const std::string& key, bool expanded) {
    if (expanded) {
        collapsed_.erase(key);
        expanded_.insert(key);
    } else {
        collapsed_.insert(key);
        expanded_.erase(key);
    }
    rebuild();
}

void RowLayout::hide(const std::string& key) {
    hidden_.insert(key);
    rebuild();
}

void RowLayout::showAll() {
    hidden_.clear();
    rebuild();
}

void RowLayout::showOnly(const std::string& key) {
    // Hide every row that is neither the chosen one, nor an ancestor, nor a descendant.
    hidden_.clear();
    std::function<void(const Node&)> visit = [&](const Node& n) {
        const bool related = key.starts_with(n.key + "/") || n.key == key || n.key.starts_with(key + "/");
        if (!related) {
            hidden_.insert(n.key);
            return;
        }
        for (const Node& c : n.children) visit(c);
    };
    for (const Node& root : roots_) visit(root);
    rebuild();
}

bool RowLayout::moveBefore(const std::string& key, const std::string& before) {
    const auto parentOf = [](const std::string& k) { return k.substr(0, k.rfind('/')); };
    if (key == before || parentOf(key) != parentOf(before)) return false;
    std::vector<std::string> order;
    std::function<bool(const Node&)> find = [&](const Node& n) {
        if (n.key == parentOf(key)) {
            for (const Node& c : n.children) order.push_back(c.key);
            return true;
        }
        return std::any_of(n.children.begin(), n.children.end(), find);
    };
    if (!std::any_of(roots_.begin(), roots_.end(), find)) return false;
    order.erase(std::remove(order.begin(), order.end(), key), order.end());
    order.insert(std::find(order.begin(), order.end(), before), key);
    siblingOrder_[parentOf(key)] = order;
    rebuild();
    return true;
}

bool RowLayout::matches(const Node& node) const {
    return !filtering_ || filter_.match(QString::fromStdString(node.row.label)).hasMatch();
}

bool RowLayout::subtreeMatches(const Node& node) const {
    return matches(node) ||
           std::any_of(node.children.begin(), node.children.end(), [&](const Node& c) { return subtreeMatches(c); });
}

void RowLayout::collectLanes(const Node& node, std::vector<int>& lanes) const {
    if (node.row.type == Row::Type::Lane) {
        lanes.push_back(node.row.index);
        if (node.row.merged_lane >= 0) lanes.push_back(node.row.merged_lane);
    }
    for (const Node& c : node.children)
        if (!hidden_.count(c.key)) collectLanes(c, lanes);
}

int RowLayout::rowHeight(const Node& node, int report, bool expanded) const {
    switch (node.row.type) {
        case Row::Type::Lane: {
            const Report& r = *reports_[report];
            int depths = shownLane(r, size_t(node.row.index)).depth_count;
            if (node.row.merged_lane >= 0)
                depths = std::max<int>(depths, r.lanes[size_t(node.row.merged_lane)].depth_count);
            return std::max(1, depths) * kDepthPx + kPaddingPx;
        }
        case Row::Type::Counter:
            return kCounterPx;
        case Row::Type::Report:
            return expanded ? kGroupPx : kReportSummaryPx;
        default:
            return expanded ? kGroupPx : kDepthPx + kPaddingPx;  // a collapsed group shows a summary
    }
}

void RowLayout::appendRows(const Node& node, int level, int report, bool ancestorMatched) {
    if (hidden_.count(node.key)) return;
    const bool selfMatch = ancestorMatched || matches(node);
    if (!selfMatch && !subtreeMatches(node)) return;
    LayoutRow row;
    row.key = node.key;
    row.label = node.row.label;
    row.type = node.row.type;
    row.level = level;
    row.report = report;
    row.loading = size_t(report) + loading_ >= reports_.size();
    row.index = node.row.index;
    row.events = node.row.events;
    row.expandable = !node.children.empty();
    // While filtering, groups open so that matches show.
    row.expanded = row.expandable && (isExpanded(node.key, level == 0) || (filtering_ && !selfMatch));
    row.y = rows_.empty() ? 0 : rows_.back().y + rows_.back().height;
    row.height = rowHeight(node, report, row.expanded);
    if (row.type == Row::Type::Gpu) {
        // A GPU's row always shows the work of all its streams, merged on one line.
        collectLanes(node, row.lanes);
        const Report& r = *reports_[report];
        std::erase_if(row.lanes, [&](int lane) { return r.lanes[lane].kind != LaneKind::GpuStream; });
        row.height = RowLayout::kDepthPx + RowLayout::kPaddingPx;
    } else if (row.type == Row::Type::Lane || !row.expanded) {
        collectLanes(node, row.lanes);
        // A collapsed report shows its GPU work when it has any: its ranks' activity at a glance.
        const Report& r = *reports_[report];
        const auto cpuSide = [&](int lane) { return r.lanes[lane].kind != LaneKind::GpuStream; };
        if (row.type == Row::Type::Report && !std::all_of(row.lanes.begin(), row.lanes.end(), cpuSide))
            std::erase_if(row.lanes, cpuSide);
    }
    rows_.push_back(std::move(row));
    if (rows_.back().expanded)
        for (const Node& c : node.children) appendRows(c, level + 1, report, selfMatch);
}

void RowLayout::rebuild() {
    roots_.clear();
    for (size_t r = 0; r < reports_.size(); ++r) {
        const Report& report = *reports_[r];
        // "rank 1 · ddp_rank1.sqlite" when the rank is known, to tell the ranks of a job apart.
        const bool loading = r + loading_ >= reports_.size();
        Row top{Row::Type::Report, reportTitle(report), -1, 0, buildRowTree(report, order_, loading)};
        for (const Row& c : top.children) top.events += c.events;
        roots_.push_back(makeNode(top, std::to_string(r)));
    }
    rows_.clear();
    for (size_t r = 0; r < roots_.size(); ++r) appendRows(roots_[r], 0, static_cast<int>(r), false);
}

const LayoutRow* RowLayout::rowAt(int y) const {
    auto it = std::upper_bound(rows_.begin(), rows_.end(), y, [](int v, const LayoutRow& r) { return v < r.y; });
    if (it == rows_.begin()) return nullptr;
    --it;
    return y < it->y + it->height ? &*it : nullptr;
}

}  // namespace lanescope
