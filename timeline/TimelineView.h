#pragma once
#include <QElapsedTimer>
#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "model/Report.h"
#include "timeline/DeferredLanes.h"
#include "timeline/LaneGeometry.h"
#include "timeline/Palette.h"
#include "timeline/PathOverlay.h"
#include "timeline/RowLayout.h"
#include "timeline/TimeViewport.h"

class QScrollBar;
class QThreadPool;

namespace lanescope {

// An event of one of the view's reports.
struct ViewEvent {
    int report = -1;
    uint32_t lane = 0;
    uint32_t event = 0;
    bool operator==(const ViewEvent&) const = default;
};

// An instant (a CPU sample, an NVTX marker) of one of the view's reports:
// lanes[lane].instants[instant].
struct ViewInstant {
    int report = -1;
    uint32_t lane = 0;
    uint32_t instant = 0;
    bool operator==(const ViewInstant&) const = default;
};

// A lane of one of the view's reports.
struct ViewLane {
    int report = -1;
    uint32_t lane = 0;
    bool operator==(const ViewLane&) const = default;
};

// Samples to mark on the timeline: instants of one CpuSamples lane of one report, by their
// indexes in Lane::instants, ascending (so also in time order).
struct MarkedSamples {
    int report = -1;
    uint32_t lane = 0;
    std::vector<uint32_t> instants;
};

struct TimeMarker {
    int64_t time_ns;
    QString name;
};

// The timeline: a row header on the left, a ruler on top, and the lanes, drawn from cached
// level-of-detail geometry (LaneGeometry.h, read from the reports' summaries when zoomed out).
// The geometry is built, grouped by colour, for the visible range and half a screen on either
// side: a pan within that reuses it as it is; a zoom, a resize, new data, rows shown or
// hidden, or a theme change rebuild it.
// Mouse, as in Nsight Systems: wheel and Ctrl+wheel zoom around the cursor (Shift+wheel pans),
// left-drag on the lanes or the ruler selects a time range, middle-drag and Shift+drag pan,
// a click (no movement past a few pixels) selects an event, double-click zooms to it.
// Keys: W/S and Up/Down zoom, A/D and Left/Right pan, F fits the selection, Home fits all;
// Backspace and Ctrl+M ask (backRequested, markerRequested): the zoom history and the markers
// belong to whoever owns the view state (app/gui/ViewSession), the view only draws markers.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    // Reports still loading, drawn below the open ones as they are known so far (importers' row
    // skeletons: processes, threads, GPUs, lanes without events) with a "loading" hatch, so that
    // rows can be scrolled, collapsed and expanded before the events are read. Not part of
    // reports(): nothing selects, finds or computes on them. A report replacing its placeholder
    // at the same place keeps the rows' state by key; the view stays on the row at its top
    // wherever that row still is. Keeps the visible range while the whole span stays the same.
    void setPlaceholders(std::vector<std::shared_ptr<const Report>> placeholders);
    const std::vector<std::shared_ptr<const Report>>& placeholders() const { return placeholders_; }
    // Where each report sits on the shared timeline: ns added to its own times (the ranks of one
    // job aligned, see analysis/ranks/RankAlignment.h). Missing entries are 0. Keeps the zoom.
    void setReportOffsets(std::vector<int64_t> offsets_ns);
    int64_t reportOffset(int report) const {
        return report >= 0 && size_t(report) < offsets_.size() ? offsets_[size_t(report)] : 0;
    }
    const std::vector<std::shared_ptr<const Report>>& reports() const { return reports_; }
    RowLayout& rows() { return layout_; }
    void rowsChanged();  // after changing rows() directly
    const TimeViewport& viewport() const { return viewport_; }

    // Shows [begin, end]; with `remember` a deliberate jump: viewJumped says where it was.
    void zoomTo(int64_t begin_ns, int64_t end_ns, bool remember = true);
    void zoomAround(double factor, int64_t anchor_ns);
    void panBy(int64_t delta_ns);
    void fitAll();
    void fitSelection();

    std::optional<std::pair<int64_t, int64_t>> selectedRange() const { return range_; }
    void setSelectedRange(std::optional<std::pair<int64_t, int64_t>> range);
    std::optional<ViewEvent> selectedEvent() const { return selected_; }
    // Selects an event; with `reveal` zooms to it and scrolls its row into view.
    void selectEvent(std::optional<ViewEvent> event, bool reveal = false);
    // Rows picked by a click on their name (Ctrl+click adds or removes one, Esc clears), by row key, drawn
    // highlighted; setSelectedRows emits nothing. selectedRowLanes: the lanes of the selected
    // rows and of the rows below them (a GPU or thread row stands for all its lanes), in row order.
    const std::vector<std::string>& selectedRows() const { return selectedRows_; }
    void setSelectedRows(std::vector<std::string> keys);
    std::vector<ViewLane> selectedRowLanes() const;
    // Shows a report's rows: its group expanded and scrolled to the top of the view.
    void revealReport(int report);
    // Events drawn highlighted and joined to the selection by a line (launcher, launched).
    void setLinkedEvents(std::vector<ViewEvent> events);
    // A path drawn over the events (PathOverlay.h), after the cached geometry, replacing the one
    // set before; setReports clears it.
    void setPathOverlay(PathOverlay overlay);
    void clearPathOverlay();
    const PathOverlay& pathOverlay() const { return path_; }
    // Kernels drawn in colours of their own (Palette.h), one KernelColours per open report in
    // their order (fewer: the rest none; empty: every kernel in its usual colour); setReports
    // clears them.
    void setKernelColours(std::vector<KernelColours> byReport);

    // The instant nearest to pos (widget coordinates) within a few pixels on a lane row.
    std::optional<ViewInstant> instantAt(QPoint pos) const;
    // Its tooltip: a CPU sample with its call stack, or a marker's name; empty when there is none.
    QString instantTooltip(QPoint pos) const;
    // On a counter row: the counter's value at pos and its time; on a CUDA memory usage counter
    // also the allocations and frees that made that value, with their calls. Empty elsewhere.
    QString counterTooltip(QPoint pos) const;
    // On a GPU's row (its header or its lanes where no event is): the GPU as the report
    // describes it (model/GpuProperties.h): chip, SMs and clock, memory, limits, bus. Empty
    // elsewhere, and for a report that describes no GPU.
    QString gpuTooltip(QPoint pos) const;
    // The instant a click picked where no event was (drawn ringed); selecting an event, or
    // none, clears it.
    std::optional<ViewInstant> selectedInstant() const { return selectedInstant_; }
    void selectInstant(std::optional<ViewInstant> instant);
    // Samples drawn as bright ticks over their rows (the Call tree panel's "where is this
    // function"), replacing those marked before; when none of their rows is in sight, the view
    // scrolls to the row with the most. Esc in the view clears them.
    void setMarkedSamples(std::vector<MarkedSamples> samples);
    const std::vector<MarkedSamples>& markedSamples() const { return marked_; }
    size_t markedSampleCount() const;

    // The markers to draw, on the shared timeline.
    void setMarkers(std::vector<TimeMarker> markers);
    // What the view says while no report is open (how to open one, by default).
    void setEmptyText(const QString& text);

    // x of a time on the shared timeline in widget coordinates, and back; the lane area starts
    // at headerWidth(). A report's own time t is at xOf(t + reportOffset(report)).
    double xOf(int64_t t_ns) const;
    int64_t timeAt(double x) const;
    int headerWidth() const { return headerWidth_; }
    static constexpr int kRulerHeight = 28;
    static constexpr int kMinLabelPx = 28;     // boxes narrower than this get no label
    static constexpr int kSeparatorMinPx = 4;  // boxes wider than this are drawn 1 px short
    // The row and box under a widget point, if any (for tooltips and tests).
    std::optional<ViewEvent> eventAt(QPoint pos, uint32_t* mergedCount = nullptr) const;
    QRect eventRect(const ViewEvent& event) const;  // where an event is drawn, empty if not
    // The row an event is drawn in: its lane's own row, else a summary row showing it.
    const LayoutRow* rowShowing(const ViewEvent& event) const;

    // Computes the events of the reports' deferred lanes (model/DeferredLane.h) when their row is
    // first drawn: on a thread of the view's own, one lane's build at a time, below the GUI's
    // priority; the row is drawn empty meanwhile, then with its events (deferredLanesBuilt).
    // Without a builder, deferred lanes stay empty.
    void setDeferredLaneBuilder(DeferredLanes::Builder builder) { deferredBuilder_ = std::move(builder); }
    // For an event of an "NVTX on GPU" lane a report holds itself (a reopened model's), the NVTX
    // range it stands for, which a click on it selects; without one it selects the event.
    using ProjectedSourceReader = std::function<std::optional<EventRef>(const Report&, size_t lane, uint32_t event)>;
    void setProjectedSourceReader(ProjectedSourceReader reader) { projectedSources_ = std::move(reader); }
    int deferredLanesPending() const { return deferredPending_; }  // asked for, not built yet

    double lastFrameMs() const { return lastFrameMs_; }
    // How many times the geometry was built for a new window (tests: a pan reuses it).
    size_t geometryBuilds() const { return geometryBuilds_; }

signals:
    void eventSelected(std::optional<lanescope::ViewEvent> event);
    void instantSelected(std::optional<lanescope::ViewInstant> instant);
    void rangeSelected(std::optional<std::pair<int64_t, int64_t>> range);
    void rowsSelected();  // a click on a row name changed selectedRows()
    void viewportChanged();
    // A remembered jump (zoomTo, a burst of wheel zooming, a double-click fit): the range shown before.
    void viewJumped(std::pair<int64_t, int64_t> shownBefore);
    void backRequested();                   // Backspace, "Zoom back"
    void markerRequested(int64_t time_ns);  // Ctrl+M, at the cursor
    void markedSamplesCleared();            // Esc cleared the marked samples
    // A frame was painted, showing `rows` rows (0 while nothing is open).
    void framePainted(int rows);
    // The deferred lanes asked for by a frame were built, and are drawn from the next one.
    void deferredLanesBuilt();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void clickAt(QPoint pos);
    // The lane as drawn: a deferred lane's computed events once built, else the report's own.
    const Lane& shownLane(int report, int lane) const;
    // What selecting `event` selects: for an event of an "NVTX on GPU" lane, deferred or the
    // report's own, the NVTX range it stands for.
    ViewEvent selectable(const ViewEvent& event) const;
    void requestDeferredLane(int report, int lane);
    void startDeferredBuild(const std::shared_ptr<const Report>& shown, int lane);  // on the view's pool
    void deferredLaneBuilt(const std::shared_ptr<const Report>& shown);             // back on the GUI thread
    void settleShownReports() const;  // DeferredLanes::settle() of every report shown
    // A lane's boxes for the built window (x relative to builtWindow_), as LaneGeometry emits them.
    struct LaneCache {
        std::vector<Box> boxes;
    };
    // A box to fill or label, in the lane's own ns (Box::start_ns, end_ns), placed on each frame.
    struct TimeBox {
        int64_t start_ns, end_ns;
        uint8_t depth;
    };
    struct LabelBox {
        TimeBox box;
        QRgb color;
        const Lane* lane;
        uint32_t event;
    };
    // A lane row's boxes for the built window grouped by fill colour, colours ascending (so
    // that overlapping edges are painted in the same order however the window was built), and
    // the single events wide enough for a label.
    struct RowPaint {
        std::vector<std::pair<QRgb, std::vector<TimeBox>>> fills;
        std::vector<LabelBox> labels;
    };
    struct Drag {
        enum class Kind { None, Pan, Select, MoveRow, ResizeHeader } kind = Kind::None;
        QPoint origin;
        int64_t originBegin = 0;
        int64_t anchorTime = 0;
        Qt::MouseButton button = Qt::NoButton;
        bool onRuler = false;  // a Select drag that began on the ruler
        bool moved = false;    // a Select drag past the click slop: a range, not a click
        bool toggle = false;   // Ctrl held: a click on a row name adds or removes it
        std::string rowKey;
    };

    PixelMapping mapping() const;
    PixelMapping mapping(int report) const;  // for the report's own times
    const LaneCache& geometry(int report, int lane, int maxDepths) const;
    const RowPaint& rowPaint(const LayoutRow& row) const;
    const std::vector<MarkerBox>& laneMarkers(int report, int lane) const;  // for the visible range
    // Moves the built window over the visible range, dropping the cached geometry, unless the
    // visible range already lies within it at the same scale and width.
    void fitBuiltWindow() const;
    void dropGeometry();                         // after a change of data, rows or colours
    PixelMapping builtWindow(int report) const;  // for the report's own times
    double builtX(double laneX) const;           // x in the lane area -> x in the built window
    QRect laneArea() const;
    int scrollY() const;
    void updateScrollBars();
    void viewportMoved();
    // The viewport's whole extent: every report and placeholder, offsets applied; a placeholder
    // span (kGuessedSpanNs, no ruler ticks) while only placeholders recording none are shown.
    void updateWhole();
    void relayout();  // the layout of reports_ then placeholders_
    void captureScrollAnchor();
    void restoreScrollAnchor();
    void paintLoadingRow(QPainter& p, const LayoutRow& row, int top);
    void paintRuler(QPainter& p, const struct RulerTicks& ticks);
    void paintRow(QPainter& p, const LayoutRow& row, int top);
    void paintLaneRow(QPainter& p, const LayoutRow& row, int top);
    void paintCounterRow(QPainter& p, const LayoutRow& row, int top);
    void paintSampleDensity(const Lane& lane, const std::vector<MarkerBox>& markers, int top, int height,
                            std::vector<QRect>& out);
    int64_t samplePeriod(const Lane& lane);  // of a CpuSamples lane, estimated once
    void paintHeader(QPainter& p, const LayoutRow& row, int top);
    void paintOverlays(QPainter& p);
    void paintPathOverlay(QPainter& p);
    void paintMarkedSamples(QPainter& p, const LayoutRow& row, int top);
    void showTooltip(QPoint pos);
    int64_t rangeEndClamp(int64_t t) const;

    // The row at the top of the lanes and how far into it the view is scrolled (logical pixels),
    // taken on each scroll: a change of the rows brings that row back to the top where it still is.
    struct ScrollAnchor {
        std::string key;
        int offset = 0;
    };
    static constexpr int64_t kGuessedSpanNs = 1'000'000'000;

    std::vector<std::shared_ptr<const Report>> reports_;       // open, as setReports gave them
    std::vector<std::shared_ptr<const Report>> placeholders_;  // still loading, as setPlaceholders gave them
    std::optional<ScrollAnchor> anchor_;
    bool restoringScroll_ = false;
    bool spanKnown_ = true;  // false: the whole span is a guess, the ruler shows no times
    RowLayout layout_;
    TimeViewport viewport_;
    TimelinePalette palette_;
    std::vector<std::unique_ptr<class EventColors>> colors_;        // per open report
    std::vector<int64_t> offsets_;                                  // per report, ns (setReportOffsets)
    std::unordered_map<const Lane*, int64_t> samplePeriods_;        // ns, per CpuSamples lane of the open reports
    mutable std::map<std::tuple<int, int, int>, LaneCache> cache_;  // by report, lane, depths drawn
    mutable std::unordered_map<std::string, RowPaint> rowPaint_;    // by row key
    mutable std::map<std::pair<int, int>, std::vector<MarkerBox>> markerCache_;  // by report, lane
    std::unique_ptr<class TextCache> textCache_;
    mutable PixelMapping builtWindow_{};     // on the shared timeline; width 0: nothing built
    mutable int builtViewWidth_ = 0;         // the lane area's width it was built for
    mutable PixelMapping markersMapping_{};  // the shared mapping the markers were built for
    mutable size_t geometryBuilds_ = 0;
    std::vector<QRect> frameRects_;  // scratch, reused by every frame
    QScrollBar* vertical_;
    QScrollBar* horizontal_;
    int headerWidth_ = 280;
    Drag drag_;
    std::optional<std::pair<int64_t, int64_t>> range_;
    std::optional<ViewEvent> selected_, hovered_;
    std::optional<ViewInstant> selectedInstant_;
    std::vector<ViewEvent> linked_;
    PathOverlay path_;                       // setPathOverlay; empty: none
    std::vector<std::string> selectedRows_;  // row keys, in the order picked
    std::vector<TimeMarker> markers_;        // drawn only (setMarkers)
    std::vector<MarkedSamples> marked_;      // by report and lane, as given (setMarkedSamples)
    QElapsedTimer lastWheel_;
    double lastFrameMs_ = 0;
    bool showFrameTime_ = false;
    QString emptyText_ = "Open a report: File > Open (Ctrl+O), or drop it here";
    bool updatingScrollBars_ = false;
    DeferredLanes::Builder deferredBuilder_;
    ProjectedSourceReader projectedSources_;
    std::set<std::pair<const Report*, int>> deferredRequested_;  // (report, lane) asked for, built or not
    int deferredPending_ = 0;
    std::unique_ptr<QThreadPool> deferredPool_;  // one thread; waited for on destruction
};

}  // namespace lanescope
