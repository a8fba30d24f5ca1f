#pragma once
#include <QRegularExpression>
#include <QString>
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "model/Report.h"
#include "timeline/RowTree.h"

namespace lanescope {

// One visible row of the timeline, top to bottom. y and height in logical pixels.
struct LayoutRow {
    std::string key;  // stable path: "<report>/<label>/<label>..."
    std::string label;
    Row::Type type;
    int level = 0;         // 0 = report, 1 = GPU/process, ...
    int report = 0;        // index into the view's reports
    bool loading = false;  // a row of a report still loading: known, without events yet
    int index = -1;        // lane/counter/gpu/process/thread index by type (-1 for a report row)
    uint64_t events = 0;
    bool expandable = false;
    bool expanded = false;
    int y = 0;
    int height = 0;
    std::vector<int> lanes;  // lanes drawn in this row: its own, or its descendants' when collapsed
    // The height of the event boxes drawn in it, logical pixels: less in a slim summary row.
    int boxHeight() const;
};

// The row tree of several reports flattened into visible rows, with the user's choices:
// collapsed groups, hidden rows, a name filter, and sibling order. Choices are kept by row
// key, so they survive rebuilds.
//
// Reports still loading (row skeletons, TimelineView::setPlaceholders) come last: their threads
// and processes show before their lanes are known.
//
// Each report is a group. With more than kExpandedReportsMax reports open (the ranks of one
// job), a report's group starts collapsed into one slim summary row (kReportSummaryPx: 64
// ranks fit on a screen), which shows the report's GPU work (all its GPU streams merged; every
// lane for a report without GPU work); a group the user expanded or collapsed stays so.
class RowLayout {
public:
    static constexpr int kDepthPx = 18, kGroupPx = 22, kCounterPx = 44, kPaddingPx = 4;
    static constexpr int kReportSummaryPx = 14;
    static constexpr size_t kExpandedReportsMax = 4;

    // The last `loading` of `reports` are still loading (LayoutRow::loading).
    void setReports(std::vector<std::shared_ptr<const Report>> reports, RowOrder order, size_t loading = 0);
    void setOrder(RowOrder order);
    RowOrder order() const { return order_; }
    // The user's choices for the rows under `from` (a row key) move to the same rows under `to`:
    // a report that changes its place or its title keeps what was collapsed, hidden, ordered.
    void renameKeys(const std::string& from, const std::string& to);
    void setFilter(const QString& text, bool regex);  // case-insensitive; empty = all
    bool filterValid() const { return filterValid_; }
    void toggleExpanded(const std::string& key);
    void setExpanded(const std::string& key, bool expanded);
    void hide(const std::string& key);
    void showOnly(const std::string& key);
    void showAll();
    // Lays the rows out again: after deferred lanes were built (DeferredLanes.h), which sets
    // their rows' heights and event counts.
    void refresh() { rebuild(); }
    // Moves `key` just before `before` when both have the same parent; false otherwise.
    bool moveBefore(const std::string& key, const std::string& before);

    const std::vector<LayoutRow>& rows() const { return rows_; }
    int totalHeight() const { return rows_.empty() ? 0 : rows_.back().y + rows_.back().height; }
    const LayoutRow* rowAt(int y) const;
    int hiddenCount() const { return static_cast<int>(hidden_.size()); }
    // Keys of the groups the user collapsed (not those collapsed by default).
    const std::set<std::string>& collapsed() const { return collapsed_; }
    bool isExpanded(const std::string& key) const;  // a group's state, by default or by choice
    const std::vector<std::shared_ptr<const Report>>& reports() const { return reports_; }

private:
    struct Node {
        std::string key;
        Row row;
        std::vector<Node> children;
    };
    void rebuild();
    Node makeNode(const Row& row, const std::string& parentKey) const;
    bool matches(const Node& node) const;
    bool subtreeMatches(const Node& node) const;
    void appendRows(const Node& node, int level, int report, bool ancestorMatched);
    void collectLanes(const Node& node, std::vector<int>& lanes) const;
    int rowHeight(const Node& node, int report, bool expanded) const;
    bool isExpanded(const std::string& key, bool reportGroup) const;

    std::vector<std::shared_ptr<const Report>> reports_;
    size_t loading_ = 0;  // the last loading_ of reports_ are still loading
    RowOrder order_ = RowOrder::GpuFirst;
    std::vector<Node> roots_;                                       // one per report
    std::set<std::string> collapsed_, expanded_, hidden_;           // expanded_: report groups the user opened
    std::map<std::string, std::vector<std::string>> siblingOrder_;  // parent key -> child keys
    QRegularExpression filter_;
    bool filtering_ = false, filterValid_ = true;
    std::vector<LayoutRow> rows_;
};

inline int LayoutRow::boxHeight() const {
    return type == Row::Type::Lane ? RowLayout::kDepthPx - 2
                                   : std::min(RowLayout::kDepthPx - 2, height - RowLayout::kPaddingPx);
}

}  // namespace lanescope
