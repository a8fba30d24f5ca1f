#pragma once
#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/panels/ranks/RankSummaries.h"
#include "importers/Importer.h"
#include "model/Report.h"
#include "timeline/TimelineView.h"

class QLineEdit;
class QTextBrowser;
class QMenu;
class QListWidget;
class QLabel;
class QTimer;
class QActionGroup;

namespace lanescope {

class CorrelationIndex;
class ImportQueue;
class FindBar;
class StatsPanel;
class GapsPanel;
class CriticalPathPanel;
class CommunicationPanel;
class BusbwColouring;
class RulesPanel;
class UtilizationChart;
class ComparePanel;
class DiffPanel;
class DiagnosticsPanel;
class NoticeBar;
class LoadingBar;
class EventsPanel;
class CallTreePanel;
class QueryPanel;
class PytorchPanel;
class ShortcutsOverlay;
class ViewSession;

// The viewer's main window: the timeline with a row filter, a details panel for the
// selected event (or the report), a list of markers, and a find bar. Imports run off the
// GUI thread; meanwhile the loading bar above the timeline says how far they are (with
// Cancel, and Esc while no report is open), and each file's rows show on the timeline as its
// importer finds them (a placeholder per file in flight, usable: scrolled, collapsed,
// expanded) until its report replaces it. What is open and how it is viewed is the session's (ViewSession); the panels
// follow it and never see a placeholder.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow();
    ~MainWindow() override;
    // Opens reports; an .nsys-rep is read natively unless `reader` asks for nsys export. A
    // folder is read as rank summaries (readSummaryFolders: a summary folder, or a folder of
    // them), compared in the Ranks panel.
    void openFiles(const QStringList& paths, NsysReader reader = NsysReader::Native);
    // Called once every requested file and folder has loaded or failed (true when all loaded).
    void setAllLoadedCallback(std::function<void(bool)> callback) { allLoaded_ = std::move(callback); }
    TimelineView* timeline() const { return timeline_; }
    // Every panel on screen shows what it was asked for (the Statistics panel: its shown table;
    // the others: no computation under way). Panels hidden behind a tab do not count.
    bool shownPanelsReady() const;
    ViewSession* session() const { return session_; }
    // The time range to show once the first reports have loaded (command line --range).
    void setInitialRange(int64_t begin_ns, int64_t end_ns) { initialRange_ = {begin_ns, end_ns}; }
    // The Query panel in front (View > Query); with `sql`, that query runs once a report is open
    // (command line --sql).
    void showQuery(const QString& sql = {});
    // The PyTorch panel in front (View > PyTorch), on the tab of view `view` ("operators", ...) when given.
    void showPytorch(const QString& view = {});

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildDocks();
    void openDialog();
    void openSummariesDialog();
    void readSummaries(const QStringList& paths);  // off the GUI thread, then to the Ranks panel
    void addSummaries(SummarySet set, const QStringList& paths);
    void finishOpening(bool ok);  // an import run or a summary read ended
    void raiseRanks();            // the Ranks panel in front, tall enough for its heat map
    void showWhatIsOpen();        // the window's title, and what the timeline says when it is empty
    void closeReports();
    void exportPng();
    void exportPerfetto();
    void chooseNsys();
    void chooseMemoryLimit();
    // Keeps finished models in ~/.cache/lanescope for fast reopening, or not (a setting).
    void useModelCache(bool keep);
    void buildThemeMenu(QMenu* view);
    void setRowOrder(RowOrder order);
    // Row presets per report format ("rows/<format>/order" and ".../collapsed"): an Nsight
    // report and a PyTorch trace have different rows, so each keeps its own.
    // `row`: the report's place on the timeline (a placeholder's too); the order is taken from
    // the preset of the first, the collapsed groups only when `collapse`.
    void applyRowPreset(int row, const Report& report, bool collapse = true);
    void saveRowPresets();
    const Report& shownReport(int row) const;  // an open report, or after them a placeholder
    void connectImports();
    // A file's rows as its importer knows them so far, as its placeholder on the timeline.
    void showPlaceholder(uint64_t id, std::shared_ptr<const Report> rows);
    // Removes a file's placeholder and returns it (null when it has none). Unless its report
    // `replaced` it (taking its place), the rows' state of those after it moves up with them.
    std::shared_ptr<const Report> dropPlaceholder(uint64_t id, bool replaced);
    void showPlaceholders();        // placeholders_ on the timeline; while no report is open, in Details
    static QString noReportHtml();  // Details with nothing open or opening
    QString openingHtml() const;    // Details while only placeholders are shown: the files opening
    // `replaces`: the placeholder it replaces, whose rows' state it keeps (null: none).
    // `fromSavedModel`: read from the cache, which the status bar says.
    void addReport(std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation,
                   const Report* replaces = nullptr, bool fromSavedModel = false);
    void showDetails(std::optional<ViewEvent> event);
    void updateStatus();
    void updateMarkers();
    void watchSavedModels();  // says once when a mapped saved model was cut short on disk
    const std::vector<std::shared_ptr<const Report>>& reports() const;
    void rememberRecent(const QString& path);
    void updateRecentMenu();

    ViewSession* session_;
    ImportQueue* imports_;
    TimelineView* timeline_;
    QLineEdit* rowFilter_;
    FindBar* findBar_;
    StatsPanel* stats_;
    GapsPanel* gaps_;
    CriticalPathPanel* criticalPath_;
    CommunicationPanel* communication_;
    BusbwColouring* busbwColouring_;  // View > Colour NCCL by bus bandwidth
    RulesPanel* rules_;
    UtilizationChart* utilization_;
    ComparePanel* compare_;
    DiffPanel* diff_;
    DiagnosticsPanel* diagnostics_;
    NoticeBar* notice_;
    LoadingBar* loading_;
    EventsPanel* events_;
    CallTreePanel* callTree_;
    QueryPanel* query_;
    PytorchPanel* pytorch_;
    QTextBrowser* details_;
    QListWidget* markers_;
    QLabel* rangeLabel_;
    QTimer* savedModelCheck_ = nullptr;  // from the first report reopened from its saved model
    ShortcutsOverlay* shortcuts_;
    QActionGroup* rowOrder_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    // A placeholder per file in flight that has given rows, by id ascending (the order the
    // files were asked for, which is the order their reports are added in).
    struct Placeholder {
        uint64_t id = 0;
        std::shared_ptr<const Report> rows;
    };
    std::vector<Placeholder> placeholders_;
    std::function<void(bool)> allLoaded_;
    int summaryReads_ = 0;   // summary reads under way
    bool openedAll_ = true;  // nothing failed since the last time everything was done
    std::optional<std::pair<int64_t, int64_t>> initialRange_;
};

}  // namespace lanescope
