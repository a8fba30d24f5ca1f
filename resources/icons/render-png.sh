#!/usr/bin/env bash
# Renders the committed PNG sizes of the application icon from lanescope.svg.
# Run it after editing the SVG; it needs rsvg-convert (Debian package librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
for size in 16 22 24 32 48 64 128 256; do
  rsvg-convert -w "$size" -h "$size" lanescope.svg -o "lanescope-$size.png"
done
