#include "query/VirtualTable.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace lanescope::sql {
namespace {

// The specs of one connection's tables by name: the module's client data.
using SpecsByName = std::map<std::string, std::unique_ptr<TableSpec>, std::less<>>;

// One row of a table's key index: sorted by (key, segment, row).
struct KeyRow {
    int64_t key;
    uint32_t segment;
    uint32_t row;
    auto operator<=>(const KeyRow&) const = default;
};

struct Table : sqlite3_vtab {
    const TableSpec* spec = nullptr;
    std::vector<KeyRow> keyIndex;  // built on the first equality on the key column
    bool keyIndexBuilt = false;
    // By segment column: how many values its segments hold (a thread's rows may be several
    // segments, FileOrderRows.h), counted on the first plan that uses it.
    std::map<int, size_t> segmentValues;

    size_t segmentValueCount(int column) {
        const auto [at, inserted] = segmentValues.try_emplace(column, 1);
        if (inserted) {
            std::set<std::optional<int64_t>> values;
            for (size_t s = 0; s < spec->segmentCount(); ++s) values.insert(spec->segmentValue(s, column));
            at->second = std::max<size_t>(values.size(), 1);
        }
        return at->second;
    }

    void buildKeyIndex() {
        if (keyIndexBuilt) return;
        keyIndex.reserve(spec->rowCount());
        for (size_t s = 0; s < spec->segmentCount(); ++s)
            for (uint32_t r = 0, n = spec->segmentSize(s); r < n; ++r)
                if (const auto key = spec->keyOf(s, r)) keyIndex.push_back({*key, uint32_t(s), r});
        std::sort(keyIndex.begin(), keyIndex.end());
        keyIndexBuilt = true;
    }
};

// A run of rows of one segment, [position, end); value: the sorted column at position.
struct Run {
    uint32_t segment;
    uint32_t position;
    uint32_t end;
    int64_t value;
};
// The heap's order: the smallest value on top, ties by segment.
bool runAfter(const Run& a, const Run& b) { return a.value != b.value ? a.value > b.value : a.segment > b.segment; }

struct Cursor : sqlite3_vtab_cursor {
    enum class Mode { Merge, Sequential, List } mode = Mode::Sequential;
    std::vector<Run> runs;       // Merge: a heap by runAfter; Sequential: in segment order
    size_t runIndex = 0;         // Sequential: the current run
    std::vector<KeyRow> listed;  // List: the rows an index found
    size_t listIndex = 0;
    uint32_t segment = 0, row = 0;  // the current row
    bool eof = true;
    // The plan of the last xFilter, parsed: (op, column) per argument. A join calls xFilter once
    // per outer row with the same plan, so it is parsed once.
    const char* parsedPlan = nullptr;
    std::vector<std::pair<char, int>> plan;

    const TableSpec& spec() const { return *static_cast<Table*>(pVtab)->spec; }
};

// The plan xBestIndex chose, as idxStr: one token per argument of xFilter, in order:
// "<op><column>," where op is one of the characters below.
// idxNum: the rows are wanted in the sorted column's order across segments.
constexpr int kMergeInOrder = 1;
constexpr char kStartEq = 'e', kStartGt = 'g', kStartGe = 'G', kStartLt = 'l', kStartLe = 'L', kKeyEq = 'k',
               kSegmentEq = 's';

char startOp(unsigned char op) {
    switch (op) {
        case SQLITE_INDEX_CONSTRAINT_EQ:
            return kStartEq;
        case SQLITE_INDEX_CONSTRAINT_GT:
            return kStartGt;
        case SQLITE_INDEX_CONSTRAINT_GE:
            return kStartGe;
        case SQLITE_INDEX_CONSTRAINT_LT:
            return kStartLt;
        case SQLITE_INDEX_CONSTRAINT_LE:
            return kStartLe;
        default:
            return 0;
    }
}

// A constraint's value as an integer column compares it (numeric affinity first): nullopt when it
// can equal no integer. exact: it is an integer; else `number` holds the real value.
struct Operand {
    bool isNull = false, isText = false, exact = false;
    int64_t integer = 0;
    double number = 0;
};
Operand operandOf(sqlite3_value* v) {
    Operand o;
    switch (sqlite3_value_numeric_type(v)) {
        case SQLITE_NULL:
            o.isNull = true;
            break;
        case SQLITE_INTEGER:
            o.exact = true, o.integer = sqlite3_value_int64(v);
            break;
        case SQLITE_FLOAT:
            o.number = sqlite3_value_double(v);
            break;
        default:
            o.isText = true;
            break;  // text and blobs sort after every number
    }
    return o;
}

// Integer bounds [low, high) of a sorted column from its constraints; empty when low >= high.
struct Bounds {
    int64_t low = std::numeric_limits<int64_t>::min();
    int64_t high = std::numeric_limits<int64_t>::max();
    bool none = false;  // no row can match
    void atLeast(int64_t v) { low = std::max(low, v); }
    void below(int64_t v) { high = std::min(high, v); }
};
int64_t clampedFloor(double x) {
    if (std::isnan(x)) return 0;
    if (x <= -9.2e18) return std::numeric_limits<int64_t>::min();
    if (x >= 9.2e18) return std::numeric_limits<int64_t>::max() - 1;
    return int64_t(std::floor(x));
}
void addBound(Bounds& b, char op, const Operand& o) {
    if (o.isNull) return void(b.none = true);
    if (o.isText) {  // every integer is less than text
        if (op == kStartEq || op == kStartGt || op == kStartGe) b.none = true;
        return;
    }
    // The smallest integer >= x and the smallest integer > x, for x = the operand.
    const int64_t ceilX = o.exact ? o.integer : clampedFloor(o.number) + (std::floor(o.number) == o.number ? 0 : 1);
    const int64_t aboveX = o.exact ? (o.integer == std::numeric_limits<int64_t>::max() ? o.integer : o.integer + 1)
                                   : clampedFloor(o.number) + 1;
    switch (op) {
        case kStartEq:
            if (!o.exact && std::floor(o.number) != o.number) b.none = true;
            b.atLeast(ceilX), b.below(aboveX);
            break;
        case kStartGt:
            b.atLeast(aboveX);
            break;
        case kStartGe:
            b.atLeast(ceilX);
            break;
        case kStartLt:
            b.below(ceilX);
            break;
        case kStartLe:
            b.below(aboveX);
            break;
        default:
            break;
    }
}
std::optional<int64_t> exactInteger(const Operand& o) {
    if (o.exact) return o.integer;
    if (!o.isNull && !o.isText && std::floor(o.number) == o.number && std::abs(o.number) < 9.2e18)
        return int64_t(o.number);
    return std::nullopt;
}

int xConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err) {
    auto& specs = *static_cast<SpecsByName*>(aux);
    const auto it = argc >= 3 ? specs.find(std::string_view(argv[2])) : specs.end();
    if (it == specs.end()) {
        *err = sqlite3_mprintf("no Lanescope table named %s", argc >= 3 ? argv[2] : "");
        return SQLITE_ERROR;
    }
    const int rc = sqlite3_declare_vtab(db, createTableSql("x", it->second->columns()).c_str());
    if (rc != SQLITE_OK) return rc;
    auto* table = new Table();
    table->spec = it->second.get();
    *out = table;
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab* vtab) {
    delete static_cast<Table*>(vtab);
    return SQLITE_OK;
}

int xBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
    const TableSpec& spec = *static_cast<Table*>(vtab)->spec;
    std::string plan;
    int argument = 0;
    bool byKey = false;
    int startBounds = 0, startEquals = 0;
    std::vector<int> segmentColumns;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (!c.usable || c.iColumn < 0) continue;
        char op = 0;
        if (c.iColumn == spec.sortedColumn() && startOp(c.op)) {
            op = startOp(c.op);
            (op == kStartEq ? startEquals : startBounds) += 1;
        } else if (c.iColumn == spec.keyColumn() && c.op == SQLITE_INDEX_CONSTRAINT_EQ && !byKey) {
            op = kKeyEq, byKey = true;
        } else if (spec.isSegmentColumn(c.iColumn) && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
            op = kSegmentEq, segmentColumns.push_back(c.iColumn);
        }
        if (!op) continue;
        info->aConstraintUsage[i].argvIndex = ++argument;
        info->aConstraintUsage[i].omit = 1;
        plan += op;
        plan += std::to_string(c.iColumn);
        plan += ',';
    }
    const double rows = double(std::max<size_t>(spec.rowCount(), 1));
    double estimate = rows;
    if (byKey) {
        estimate = spec.keyIsRowNumber() ? 1 : 4;
        if (spec.keyIsRowNumber()) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
        info->estimatedCost = std::log2(rows + 1) + estimate;
    } else {
        if (startEquals > 0) estimate /= 1000;
        for (int b = 0; b < startBounds; ++b) estimate /= 4;
        size_t segmentValues = 1;  // an equality on each of these keeps the segments of one value of each
        for (const int column : segmentColumns)
            segmentValues = std::max(segmentValues, static_cast<Table*>(vtab)->segmentValueCount(column));
        estimate /= double(segmentValues);
        estimate = std::max(estimate, 1.0);
        info->estimatedCost = estimate + (startBounds + startEquals > 0 ? std::log2(rows + 1) : 0);
    }
    info->estimatedRows = sqlite3_int64(estimate);
    // An ORDER BY on the sorted column alone needs no sort: the rows are merged across segments
    // in its order (kMergeInOrder; a one-segment table keyed by row number is in key order as it
    // is). Without one, rows come segment by segment, each in its own order, which is cheaper.
    if (info->nOrderBy == 1 && !info->aOrderBy[0].desc && !byKey) {
        const int column = info->aOrderBy[0].iColumn;
        if (column >= 0 && column == spec.sortedColumn()) {
            info->orderByConsumed = 1;
            info->idxNum = kMergeInOrder;
        } else if (column >= 0 && spec.keyIsRowNumber() && column == spec.keyColumn()) {
            info->orderByConsumed = 1;
        }
    }
    info->idxStr = sqlite3_mprintf("%s", plan.c_str());
    info->needToFreeIdxStr = 1;
    return SQLITE_OK;
}

int xOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
    *out = new Cursor();
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor* cursor) {
    delete static_cast<Cursor*>(cursor);
    return SQLITE_OK;
}

// Moves the cursor to its next row from its runs or list; sets eof after the last.
void advance(Cursor& c) {
    const TableSpec& spec = c.spec();
    switch (c.mode) {
        case Cursor::Mode::List:
            if (c.listIndex >= c.listed.size()) return void(c.eof = true);
            c.segment = c.listed[c.listIndex].segment, c.row = c.listed[c.listIndex].row;
            ++c.listIndex;
            return;
        case Cursor::Mode::Sequential:
            while (c.runIndex < c.runs.size() && c.runs[c.runIndex].position >= c.runs[c.runIndex].end) ++c.runIndex;
            if (c.runIndex >= c.runs.size()) return void(c.eof = true);
            c.segment = c.runs[c.runIndex].segment, c.row = c.runs[c.runIndex].position++;
            return;
        case Cursor::Mode::Merge: {
            if (c.runs.empty()) return void(c.eof = true);
            std::pop_heap(c.runs.begin(), c.runs.end(), runAfter);
            Run& top = c.runs.back();
            c.segment = top.segment, c.row = top.position++;
            if (top.position < top.end) {
                top.value = spec.sortedValue(top.segment, top.position);
                std::push_heap(c.runs.begin(), c.runs.end(), runAfter);
            } else {
                c.runs.pop_back();
            }
            return;
        }
    }
}

// The first row of a segment whose sorted value is >= v.
uint32_t firstAtLeast(const TableSpec& spec, size_t segment, int64_t v) {
    uint32_t low = 0, high = spec.segmentSize(segment);
    while (low < high) {
        const uint32_t mid = low + (high - low) / 2;
        if (spec.sortedValue(segment, mid) < v)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

int xFilter(sqlite3_vtab_cursor* cursor, int idxNum, const char* idxStr, int argc, sqlite3_value** argv) {
    auto& c = *static_cast<Cursor*>(cursor);
    auto& table = *static_cast<Table*>(cursor->pVtab);
    const TableSpec& spec = *table.spec;
    c.runs.clear(), c.listed.clear(), c.runIndex = 0, c.listIndex = 0, c.eof = false;

    if (c.parsedPlan != idxStr || !idxStr) {
        c.plan.clear();
        for (const char* p = idxStr ? idxStr : ""; *p;) {
            const char op = *p++;
            char* after = nullptr;
            c.plan.emplace_back(op, int(std::strtol(p, &after, 10)));
            p = *after ? after + 1 : after;  // past ','
        }
        c.parsedPlan = idxStr;
    }
    Bounds bounds;
    std::optional<Operand> key;
    std::vector<std::pair<int, Operand>> segmentEquals;
    for (int a = 0; a < argc && size_t(a) < c.plan.size(); ++a) {
        const auto [op, column] = c.plan[size_t(a)];
        const Operand value = operandOf(argv[a]);
        if (op == kKeyEq)
            key = value;
        else if (op == kSegmentEq)
            segmentEquals.emplace_back(column, value);
        else
            addBound(bounds, op, value);
    }
    const auto segmentMatches = [&](size_t segment) {
        for (const auto& [column, value] : segmentEquals) {
            const auto wanted = exactInteger(value);
            const auto has = spec.segmentValue(segment, column);
            if (!wanted || !has || *has != *wanted) return false;
        }
        return true;
    };
    const bool sorted = spec.sortedColumn() >= 0;
    if (bounds.none || bounds.low >= bounds.high) return c.eof = true, SQLITE_OK;

    if (key) {
        c.mode = Cursor::Mode::List;
        const auto wanted = exactInteger(*key);
        if (!wanted) return c.eof = true, SQLITE_OK;
        const auto keep = [&](size_t segment, uint32_t row) {
            if (!segmentMatches(segment)) return false;
            if (!sorted) return true;
            const int64_t v = spec.sortedValue(segment, row);
            return v >= bounds.low && v < bounds.high;
        };
        if (spec.keyIsRowNumber()) {
            if (spec.segmentCount() == 1 && *wanted >= 0 && uint64_t(*wanted) < spec.segmentSize(0) &&
                keep(0, uint32_t(*wanted)))
                c.listed.push_back({*wanted, 0, uint32_t(*wanted)});
        } else {
            table.buildKeyIndex();
            const auto range = std::equal_range(table.keyIndex.begin(), table.keyIndex.end(), KeyRow{*wanted, 0, 0},
                                                [](const KeyRow& x, const KeyRow& y) { return x.key < y.key; });
            for (auto it = range.first; it != range.second; ++it)
                if (keep(it->segment, it->row)) c.listed.push_back(*it);
        }
    } else {
        const bool merge = sorted && (idxNum & kMergeInOrder) != 0;
        c.mode = merge ? Cursor::Mode::Merge : Cursor::Mode::Sequential;
        for (size_t s = 0; s < spec.segmentCount(); ++s) {
            if (!segmentMatches(s)) continue;
            const uint32_t size = spec.segmentSize(s);
            Run run{uint32_t(s), 0, size, 0};
            if (sorted) {
                run.position =
                    bounds.low == std::numeric_limits<int64_t>::min() ? 0 : firstAtLeast(spec, s, bounds.low);
                run.end =
                    bounds.high == std::numeric_limits<int64_t>::max() ? size : firstAtLeast(spec, s, bounds.high);
                if (run.position < run.end) run.value = spec.sortedValue(s, run.position);
            }
            if (run.position < run.end) c.runs.push_back(run);
        }
        if (merge) std::make_heap(c.runs.begin(), c.runs.end(), runAfter);
    }
    advance(c);
    return SQLITE_OK;
}

int xNext(sqlite3_vtab_cursor* cursor) {
    advance(*static_cast<Cursor*>(cursor));
    return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor* cursor) { return static_cast<Cursor*>(cursor)->eof ? 1 : 0; }

int xColumn(sqlite3_vtab_cursor* cursor, sqlite3_context* ctx, int column) {
    const auto& c = *static_cast<Cursor*>(cursor);
    c.spec().value(c.segment, c.row, column, ctx);
    return SQLITE_OK;
}

int xRowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
    const auto& c = *static_cast<Cursor*>(cursor);
    *rowid =
        c.spec().numbersRowsAsNsys() ? c.spec().nsysRowId(c.segment, c.row) : (sqlite3_int64(c.segment) << 32) | c.row;
    return SQLITE_OK;
}

sqlite3_module makeModule() {
    sqlite3_module m{};
    m.iVersion = 1;
    m.xCreate = xConnect;
    m.xConnect = xConnect;
    m.xBestIndex = xBestIndex;
    m.xDisconnect = xDisconnect;
    m.xDestroy = xDisconnect;
    m.xOpen = xOpen;
    m.xClose = xClose;
    m.xFilter = xFilter;
    m.xNext = xNext;
    m.xEof = xEof;
    m.xColumn = xColumn;
    m.xRowid = xRowid;
    return m;
}
const sqlite3_module kModule = makeModule();

}  // namespace

bool createVirtualTables(sqlite3* db, std::vector<std::unique_ptr<TableSpec>> specs, std::string& error) {
    auto* byName = new SpecsByName();
    std::vector<std::string> names;
    for (auto& spec : specs) {
        names.push_back(spec->name());
        (*byName)[spec->name()] = std::move(spec);
    }
    if (sqlite3_create_module_v2(db, "lanescope", &kModule, byName,
                                 [](void* p) { delete static_cast<SpecsByName*>(p); }) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    for (const auto& name : names) {
        const std::string sql = "CREATE VIRTUAL TABLE main." + name + " USING lanescope";
        char* message = nullptr;
        if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            error = message ? message : sqlite3_errmsg(db);
            sqlite3_free(message);
            return false;
        }
    }
    return true;
}

}  // namespace lanescope::sql
