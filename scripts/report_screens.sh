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
page="file://$(realpath "$report")"

run_chrome() {
    profile=$(mktemp -d "$work/profile.XXXXXX")
    "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --no-first-run --hide-scrollbars \
        --allow-file-access-from-files --user-data-dir="$profile" "$@" 2>>"$work/chrome.log"
}

# The report inside a frame exactly WIDTH px wide (a headless window is at
# least 500 px wide, so the window alone cannot show 420): the frame's
# page lays out at that width; its script writes the width the page takes
# (document.scrollingElement.scrollWidth) into the DOM for --dump-dom.
wrapper() {
    cat >"$work/frame-$1.html" <<EOT
<!DOCTYPE html><html><head><meta charset="utf-8"></head>
<body style="margin:0;overflow:hidden">
<iframe src="$page" style="border:0;display:block;width:$1px;height:$2px"
 onload="document.body.setAttribute('data-scroll-width', String(this.contentDocument.scrollingElement.scrollWidth))"></iframe>
</body></html>
EOT
}

status=0
for size in 1400,1000 420,900; do
    width=${size%,*}
    height=${size#*,}
    wrapper "$width" "$height"
    run_chrome --window-size="$size" --virtual-time-budget=5000 \
        --screenshot="$outdir/report-$width.png" "file://$work/frame-$width.html" >/dev/null
    sw=$(run_chrome --window-size="$size" --virtual-time-budget=5000 --dump-dom \
        "file://$work/frame-$width.html" |
        sed -n 's/.*data-scroll-width="\([0-9]*\)".*/\1/p' | head -n 1)
    if [ -z "$sw" ]; then
        echo "report_screens: could not measure the page at $width px; chromium said:" >&2
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
