#pragma once
#include <string>
#include <vector>

#include "app/gui/panels/events/EventTableModel.h"

namespace lanescope {

// Rows of the Events table as text, with the cells the table shows (model/EventTableText.h).

// Tab-separated, for the clipboard: a header line of the titles of `fields`, then one line
// per row in `rows` (rows of `contents`, in its order). Tabs and line breaks in a cell become
// spaces.
std::string eventTableTsv(const EventTableContents& contents, const std::vector<EventField>& fields,
                          const std::vector<size_t>& rows);

// Every row of `contents` as CSV (RFC 4180, UTF-8, "\n" line ends): a header of the titles of
// `fields` and then "Start (ns)", "End (ns)", "Duration (ns)" as plain integers for programs.
// Written to `path` + ".partial" and renamed to `path` once complete, so `path` is never a
// half-written file. Returns false with the reason in *error on failure (no .partial is left).
bool writeEventTableCsv(const EventTableContents& contents, const std::vector<EventField>& fields,
                        const std::string& path, std::string* error);

}  // namespace lanescope
