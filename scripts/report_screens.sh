#!/bin/sh
# Renders a comparison report (clmem compare's report.html) in headless
# Chromium at 1400 and 420 px wide: a PNG screenshot of each
# (OUTDIR/report-WIDTH.png) and the page's width measured there
# (document.scrollingElement.scrollWidth). Exits 1 when the page is wider
# than its window at either width (it would scroll sideways), 2 on a usage
# or set-up error.
#   scripts/report_screens.sh REPORT_DIR OUTDIR
# Chromium: Debian's `chromium` package (apt-get install chromium).
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 REPORT_DIR OUTDIR" >&2
    exit 2
fi
report=$1/report.html
outdir=$2
[ -f "$report" ] || { echo "report_screens: no '$report'" >&2; exit 2; }
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || { echo "report_screens: chromium not found (apt-get install chromium)" >&2; exit 2; }
mkdir -p "$outdir"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
# A copy of the page with a script at its end that writes the width the
# page lays out at into the DOM, for --dump-dom to show.
sed 's|</body>|<script>document.body.setAttribute("data-scroll-width", String(document.scrollingElement.scrollWidth));</script></body>|' \
    "$report" >"$work/measure.html"

run_chrome() {
    profile=$(mktemp -d "$work/profile.XXXXXX")
    "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --no-first-run --hide-scrollbars \
        --user-data-dir="$profile" "$@" 2>>"$work/chrome.log"
}

status=0
for size in 1400,1000 420,900; do
    width=${size%,*}
    run_chrome --window-size="$size" --screenshot="$outdir/report-$width.png" "file://$(realpath "$report")" >/dev/null
    # A full-height picture: chromium's --screenshot takes the window only.
    sw=$(run_chrome --window-size="$size" --dump-dom "file://$work/measure.html" |
        sed -n 's/.*data-scroll-width="\([0-9]*\)".*/\1/p' | head -n 1)
    if [ -z "$sw" ]; then
        echo "report_screens: could not measure the page at $width px (see chromium's messages below)" >&2
        tail -n 5 "$work/chrome.log" >&2
        exit 2
    fi
    if [ "$sw" -le "$width" ]; then
        echo "$width px: scrollWidth $sw <= $width: fits ($outdir/report-$width.png)"
    else
        echo "$width px: scrollWidth $sw > $width: the page scrolls sideways ($outdir/report-$width.png)"
        status=1
    fi
done
exit $status
