#include "app/gui/panels/calltree/CallTreeModel.h"

#include <QColor>
#include <QFont>
#include <QLocale>
#include <algorithm>

#include "timeline/QtText.h"

namespace lanescope {
namespace {

// The file name of a module path ("/usr/lib/libc.so.6" -> "libc.so.6").
QString baseName(std::string_view path) {
    const size_t slash = path.find_last_of('/');
    return qs(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

QString percentText(uint64_t part, uint64_t whole) {
    return QString::number(whole ? 100.0 * double(part) / double(whole) : 0.0, 'f', 1) + " %";
}

CallTree CallTree::fromRows(std::vector<CallTreeRow> rows, uint64_t samples) {
    CallTree t;
    t.samples = samples;
    t.parent.assign(rows.size(), kNoParent);
    std::vector<uint32_t> open;  // the current path: open[d] = the last node seen at depth d
    for (uint32_t n = 0; n < rows.size(); ++n) {
        const uint32_t d = rows[n].depth;
        open.resize(d);
        if (d > 0 && d <= open.size()) t.parent[n] = open[d - 1];
        open.push_back(n);
        t.max_depth = std::max(t.max_depth, d);
    }
    t.rows = std::move(rows);
    return t;
}

CallTreeModel::CallTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void CallTreeModel::setTree(std::shared_ptr<const Report> report, CallTree tree) {
    beginResetModel();
    report_ = std::move(report);
    tree_ = std::move(tree);
    arrange();
    endResetModel();
}

void CallTreeModel::setSearch(const QString& text) {
    if (text == search_) return;
    search_ = text;
    rearrangeKeepingIndexes();
}

void CallTreeModel::sort(int column, Qt::SortOrder order) {
    sortColumn_ = column;
    sortOrder_ = order;
    rearrangeKeepingIndexes();
}

void CallTreeModel::rearrangeKeepingIndexes() {
    // A layout change, not a reset: the view keeps its expanded nodes (they are persistent
    // indexes, moved here to their new rows; those of nodes now hidden become invalid).
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    arrange();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& index : before) {
        const uint32_t node = nodeOf(index);
        after << (node < shown_.size() && shown_[node] ? createIndex(int(row_[node]), index.column(), quintptr(node))
                                                       : QModelIndex());
    }
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

bool CallTreeModel::less(uint32_t a, uint32_t b) const {
    const CallTreeRow &ra = tree_.rows[a], &rb = tree_.rows[b];
    const CallStacks& s = report_->stacks;
    switch (sortColumn_) {
        case Function:
            return report_->str(s.frame_function[ra.frame]) < report_->str(s.frame_function[rb.frame]);
        case Self:
        case SelfPercent:
            return ra.self < rb.self;
        case Total:
        case TotalPercent:
            return ra.total < rb.total;
        case Module:
            return report_->str(s.frame_module[ra.frame]) < report_->str(s.frame_module[rb.frame]);
        default:
            return false;
    }
}

void CallTreeModel::arrange() {
    const auto n = uint32_t(tree_.rows.size());
    match_.assign(n, 0);
    shown_.assign(n, 1);
    if (!search_.isEmpty() && report_) {
        // Each frame's name is tested once; a node shows when it or one below it matches (a
        // child's index is larger than its parent's, so one backward pass carries it up).
        std::vector<int8_t> frameMatch(report_->stacks.frameCount(), -1);
        std::fill(shown_.begin(), shown_.end(), 0);
        for (uint32_t i = n; i-- > 0;) {
            const uint32_t f = tree_.rows[i].frame;
            if (frameMatch[f] < 0)
                frameMatch[f] =
                    qs(report_->str(report_->stacks.frame_function[f])).contains(search_, Qt::CaseInsensitive);
            match_[i] = uint8_t(frameMatch[f]);
            shown_[i] |= match_[i];
            if (shown_[i] && tree_.parent[i] != CallTree::kNoParent) shown_[tree_.parent[i]] = 1;
        }
    }
    offset_.assign(size_t(n) + 2, 0);  // segment n: the roots
    for (uint32_t i = 0; i < n; ++i)
        if (shown_[i]) ++offset_[(tree_.parent[i] == CallTree::kNoParent ? n : tree_.parent[i]) + 1];
    for (size_t s = 1; s < offset_.size(); ++s) offset_[s] += offset_[s - 1];
    child_.assign(offset_.back(), 0);
    std::vector<uint32_t> fill(offset_.begin(), offset_.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
        if (shown_[i]) child_[fill[tree_.parent[i] == CallTree::kNoParent ? n : tree_.parent[i]]++] = i;
    row_.assign(n, 0);
    for (size_t s = 0; s + 1 < offset_.size(); ++s) {
        const auto first = child_.begin() + offset_[s], last = child_.begin() + offset_[s + 1];
        // Ties keep the tree's own order (total descending, then name).
        if (sortColumn_ >= 0 && last - first > 1)
            std::stable_sort(first, last, [this](uint32_t a, uint32_t b) {
                return sortOrder_ == Qt::AscendingOrder ? less(a, b) : less(b, a);
            });
        for (auto it = first; it != last; ++it) row_[*it] = uint32_t(it - first);
    }
}

std::vector<uint32_t> CallTreeModel::matches() const {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < match_.size(); ++i)
        if (match_[i]) out.push_back(i);
    return out;
}

QString CallTreeModel::functionName(uint32_t node) const {
    return qs(report_->str(report_->stacks.frame_function[tree_.rows[node].frame]));
}

QString CallTreeModel::moduleName(uint32_t node) const {
    return qs(report_->str(report_->stacks.frame_module[tree_.rows[node].frame]));
}

uint32_t CallTreeModel::segmentOf(const QModelIndex& parent) const {
    return parent.isValid() ? nodeOf(parent) : uint32_t(tree_.rows.size());
}

QModelIndex CallTreeModel::indexOf(uint32_t node, int column) const {
    if (node >= shown_.size() || !shown_[node]) return {};
    return createIndex(int(row_[node]), column, quintptr(node));
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0)) return {};
    const uint32_t s = segmentOf(parent);
    if (s + 1 >= offset_.size() || uint32_t(row) >= offset_[s + 1] - offset_[s]) return {};
    return createIndex(row, column, quintptr(child_[offset_[s] + uint32_t(row)]));
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const uint32_t p = tree_.parent[nodeOf(child)];
    return p == CallTree::kNoParent ? QModelIndex() : createIndex(int(row_[p]), 0, quintptr(p));
}

int CallTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    const uint32_t s = segmentOf(parent);
    return s + 1 < offset_.size() ? int(offset_[s + 1] - offset_[s]) : 0;
}

int CallTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant CallTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !report_) return {};
    const uint32_t node = nodeOf(index);
    const CallTreeRow& row = tree_.rows[node];
    const uint64_t whole = tree_.samples;
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case Function:
                    return functionName(node);
                case Self:
                    return QLocale().toString(qulonglong(row.self));
                case SelfPercent:
                    return percentText(row.self, whole);
                case Total:
                    return QLocale().toString(qulonglong(row.total));
                case TotalPercent:
                    return percentText(row.total, whole);
                case Module:
                    return baseName(report_->str(report_->stacks.frame_module[row.frame]));
                default:
                    return {};
            }
        case kValueRole:
            switch (column) {
                case Self:
                    return qulonglong(row.self);
                case Total:
                    return qulonglong(row.total);
                case SelfPercent:
                    return whole ? 100.0 * double(row.self) / double(whole) : 0.0;
                case TotalPercent:
                    return whole ? 100.0 * double(row.total) / double(whole) : 0.0;
                default:
                    return data(index, Qt::DisplayRole);
            }
        case kShareRole: {
            const uint64_t part = column == Self || column == SelfPercent ? row.self : row.total;
            return whole ? double(part) / double(whole) : 0.0;
        }
        case kFrameRole:
            return row.frame;
        case kMatchRole:
            return bool(match_[node]);
        case Qt::TextAlignmentRole:
            return column == Function || column == Module ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                          : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (match_[node]) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::BackgroundRole:
            return match_[node] && column == Function ? QVariant(QColor(255, 222, 110)) : QVariant();
        case Qt::ForegroundRole:
            return match_[node] && column == Function ? QVariant(QColor(Qt::black)) : QVariant();
        case Qt::ToolTipRole:
            return QString("<b>%1</b><br>%2<br>Self %3 (%4), Total %5 (%6) of %7 samples")
                .arg(functionName(node).toHtmlEscaped(), moduleName(node).toHtmlEscaped(),
                     QLocale().toString(qulonglong(row.self)), percentText(row.self, whole),
                     QLocale().toString(qulonglong(row.total)), percentText(row.total, whole),
                     QLocale().toString(qulonglong(whole)));
        default:
            return {};
    }
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const names[] = {"Function", "Self", "Self %", "Total", "Total %", "Module"};
    static const char* const tips[] = {
        "The function (frame); in the trees, expand a row for its callees (top-down) or callers (bottom-up)",
        "Samples whose stack ends here (the function was running)",
        "Self, of all selected samples",
        "Samples through this node (flat: with the function anywhere in their stack, once each)",
        "Total, of all selected samples",
        "The module (library) of the function; its full path in the tooltip"};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return names[section];
    if (role == Qt::ToolTipRole) return tips[section];
    if (role == Qt::TextAlignmentRole)
        return section == Function || section == Module ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

}  // namespace lanescope
