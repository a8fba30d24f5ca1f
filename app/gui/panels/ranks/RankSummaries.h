#pragma once
#include <QString>
#include <QStringList>
#include <vector>

#include "analysis/ranks/RankInput.h"

namespace lanescope {

// Rank summaries (`lanescope-cli summarize`, docs/rank-summary.md) read for the Ranks panel:
// per summary its RankInput, its folder and, when it is on this machine, its full report.
// Sorted as asked for; the summaries of one parent folder by folder name, numbers by value
// (rank2 before rank10).
struct SummarySet {
    std::vector<RankInput> inputs;
    QStringList dirs;     // per input: its summary folder, absolute and canonical
    QStringList reports;  // per input: its full report, canonical; "" when not on this machine
    QStringList errors;   // one line per path that gave nothing or a summary that could not be read

    size_t size() const { return inputs.size(); }
};

// Reads the summaries `paths` name: a path that is a summary folder (it holds rank-summary.json)
// gives itself, any other folder the summary folders directly inside it. Damaged, newer or
// missing summaries are left out with readRankSummary's one line in `errors`; the others are
// read. Disk work: call it off the GUI thread. O(size of the summaries).
SummarySet readSummaryFolders(const QStringList& paths);

// The full report a summary names, canonical, where it is on this machine: the recorded source
// path (a relative one from the current folder), else a file of its name beside the summary
// folder or beside the folder holding it; "" when none exists.
QString findFullReport(const RankInput& summary, const QString& summaryDir);

}  // namespace lanescope
