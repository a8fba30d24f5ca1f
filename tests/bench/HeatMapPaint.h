#pragma once

namespace lanescope::bench {

// The Ranks panel's heat map of 1,024 ranks x 100 steps (a synthetic comparison: step times
// with a few slow ranks and collective waits), painted offscreen in a widget tall enough to
// show every rank: prints heatmap_cells=, heatmap_paint_ms= (median of the paints, wall clock),
// heatmap_paint_ms_p95= and heatmap_paint_cpu_ms= (median CPU time of a paint: the same on a
// busy machine). In a child process, with a QApplication of its own. False when it could not run.
bool printHeatMapPaint();

}  // namespace lanescope::bench
