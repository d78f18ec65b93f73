set terminal svg size 640,460 dynamic noenhanced font 'sans,13' linewidth 1.5
set grid
set key below maxrows 6
set linetype 1 linecolor rgb '#0072B2' pointsize 1
set linetype 2 linecolor rgb '#D55E00' pointsize 1
set linetype 3 linecolor rgb '#009E73' pointsize 1
set linetype 4 linecolor rgb '#CC79A7' pointsize 1
set linetype 5 linecolor rgb '#E69F00' pointsize 1
set linetype 6 linecolor rgb '#56B4E9' pointsize 1
set linetype 7 linecolor rgb '#000000' pointsize 1
set linetype cycle 7
set output 'glance.svg'
set title 'each device''s best, relative to NVIDIA H100 80GB HBM3 on vm'
set xlabel ''
set ylabel 'ratio (log scale)'
set logscale y 10
set format y '%gx'
set yrange [0.0001:10]
set style data histograms
set style histogram clustered
set style fill solid 0.8
set xtics rotate by -40
set datafile missing 'NaN'
plot 'glance.dat' using 2:xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'glance.dat' using 3 linecolor 2 title 'NVIDIA H200 on vm', \
  'glance.dat' using 4 linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set autoscale xy
set format xy
set xtics norotate
set style data linespoints
set output 'coalescing-offset.svg'
set title 'coalescing: GB/s against offset'
set xlabel 'offset'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
plot 'coalescing-offset_float.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 1 pointtype 1 notitle, \
  'coalescing-offset_float.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 1 pointtype 1 notitle, \
  'coalescing-offset_float.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 1 pointtype 1 notitle, \
  'coalescing-offset_double.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 2 pointtype 2 notitle, \
  'coalescing-offset_double.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 2 pointtype 2 notitle, \
  'coalescing-offset_double.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 2 pointtype 2 notitle, \
  NaN with lines linecolor 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with lines linecolor 2 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with lines linecolor 3 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with linespoints linecolor rgb '#555555' dashtype 1 pointtype 1 title 'offset_float', \
  NaN with linespoints linecolor rgb '#555555' dashtype 2 pointtype 2 title 'offset_double'
unset logscale xy
set format xy
set output 'coalescing-stride.svg'
set title 'coalescing: GB/s against stride'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
plot 'coalescing-stride_float.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 1 pointtype 1 notitle, \
  'coalescing-stride_float.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 1 pointtype 1 notitle, \
  'coalescing-stride_float.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 1 pointtype 1 notitle, \
  'coalescing-stride_double.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 2 pointtype 2 notitle, \
  'coalescing-stride_double.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 2 pointtype 2 notitle, \
  'coalescing-stride_double.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 2 pointtype 2 notitle, \
  NaN with lines linecolor 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with lines linecolor 2 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with lines linecolor 3 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with linespoints linecolor rgb '#555555' dashtype 1 pointtype 1 title 'stride_float', \
  NaN with linespoints linecolor rgb '#555555' dashtype 2 pointtype 2 title 'stride_double'
unset logscale xy
set format xy
set output 'matmul.svg'
set title 'matmul variants (GFLOP/s at 1024, the largest size every entry ran; baseline clblast)'
set xlabel ''
set ylabel 'GFLOP/s (log scale)'
set logscale y 10
set format y '%.0s %cFLOP/s'
set yrange [1e+08:*]
set style data histograms
set style histogram clustered
set style fill solid 0.8
plot 'matmul.dat' using ($2*1e+09):xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'matmul.dat' using ($3*1e+09) linecolor 2 title 'NVIDIA H200 on vm', \
  'matmul.dat' using ($4*1e+09) linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set autoscale xy
set format xy
set style data linespoints
set output 'transpose.svg'
set title 'transpose variants (GB/s, best size each; baseline copy)'
set xlabel ''
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set yrange [1e+09:*]
set style data histograms
set style histogram clustered
set style fill solid 0.8
plot 'transpose.dat' using ($2*1e+09):xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'transpose.dat' using ($3*1e+09) linecolor 2 title 'NVIDIA H200 on vm', \
  'transpose.dat' using ($4*1e+09) linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set autoscale xy
set format xy
set style data linespoints
set rmargin 4
set output 'matmul-size.svg'
set title 'matmul: GFLOP/s against size'
set xlabel 'size'
set ylabel 'GFLOP/s (log scale)'
set logscale y 10
set format y '%.0s %cFLOP/s'
set logscale x 2
set format x '%.0b %B'
plot 'matmul-size.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 1 pointtype 1 notitle, \
  'matmul-size.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 1 pointtype 1 notitle, \
  'matmul-size.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 1 pointtype 1 notitle, \
  'matmul-size.dat' index 3 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 2 pointtype 2 notitle, \
  'matmul-size.dat' index 4 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 2 pointtype 2 notitle, \
  'matmul-size.dat' index 5 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 2 pointtype 2 notitle, \
  'matmul-size.dat' index 6 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 3 pointtype 3 notitle, \
  'matmul-size.dat' index 7 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 3 pointtype 3 notitle, \
  'matmul-size.dat' index 8 using 1:($2*1e+09) with linespoints linecolor 3 dashtype 3 pointtype 3 notitle, \
  NaN with lines linecolor 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with lines linecolor 2 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with lines linecolor 3 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with linespoints linecolor rgb '#555555' dashtype 1 pointtype 1 title 'regblock', \
  NaN with linespoints linecolor rgb '#555555' dashtype 2 pointtype 2 title 'panel', \
  NaN with linespoints linecolor rgb '#555555' dashtype 3 pointtype 3 title 'clblast'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set output 'reduce-size.svg'
set title 'reduce: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'reduce-size.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 1 pointtype 1 notitle, \
  'reduce-size.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 1 pointtype 1 notitle, \
  'reduce-size.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 2 pointtype 2 notitle, \
  'reduce-size.dat' index 3 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 2 pointtype 2 notitle, \
  'reduce-size.dat' index 4 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 3 pointtype 3 notitle, \
  'reduce-size.dat' index 5 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 3 pointtype 3 notitle, \
  NaN with lines linecolor 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with lines linecolor 2 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with linespoints linecolor rgb '#555555' dashtype 1 pointtype 1 title 'interleaved', \
  NaN with linespoints linecolor rgb '#555555' dashtype 2 pointtype 2 title 'sequential', \
  NaN with linespoints linecolor rgb '#555555' dashtype 3 pointtype 3 title 'coarsened'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set output 'dot-size.svg'
set title 'dot: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'dot-size.dat' index 0 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 1 pointtype 1 notitle, \
  'dot-size.dat' index 1 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 1 pointtype 1 notitle, \
  'dot-size.dat' index 2 using 1:($2*1e+09) with linespoints linecolor 1 dashtype 2 pointtype 2 notitle, \
  'dot-size.dat' index 3 using 1:($2*1e+09) with linespoints linecolor 2 dashtype 2 pointtype 2 notitle, \
  NaN with lines linecolor 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with lines linecolor 2 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with linespoints linecolor rgb '#555555' dashtype 1 pointtype 1 title 'local_sums', \
  NaN with linespoints linecolor rgb '#555555' dashtype 2 pointtype 2 title 'coarsened'
unset logscale xy
set format xy
set rmargin -1
set output 'roofline-0.svg'
set title 'roofline: NVIDIA H100 80GB HBM3 on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 2626.3644333124607 < 64210.629669899528 ? x * 2626.3644333124607 : 64210.629669899528) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 2.63 TB/s, FMA 64.2 TFLOP/s', \
  'roofline-0.dat' index 0 using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' index 0 using 1:($5 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' index 0 using 1:($3*1e9):4 with labels left offset character 1,0 font ',10' notitle, \
  'roofline-0.dat' index 1 using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' notitle, \
  '' index 1 using 1:($5 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' notitle, \
  '' index 1 using 1:($3*1e9):4 with labels right offset character -1,0 font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set output 'roofline-1.svg'
set title 'roofline: NVIDIA H200 on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 3542.4864864864862 < 64115.820905893073 ? x * 3542.4864864864862 : 64115.820905893073) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 3.54 TB/s, FMA 64.1 TFLOP/s', \
  'roofline-1.dat' index 0 using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' index 0 using 1:($5 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' index 0 using 1:($3*1e9):4 with labels left offset character 1,0 font ',10' notitle, \
  'roofline-1.dat' index 1 using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' notitle, \
  '' index 1 using 1:($5 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' notitle, \
  '' index 1 using 1:($3*1e9):4 with labels right offset character -1,0 font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set output 'roofline-2.svg'
set title 'roofline: pthread-skylake-avx512-AMD EPYC on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:512]
set yrange [2.5e+08:5.12e+11]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 58.248331657432203 < 107.36531402506152 ? x * 58.248331657432203 : 107.36531402506152) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 58.2 GB/s, FMA 107 GFLOP/s', \
  'roofline-2.dat' index 0 using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' index 0 using 1:($5 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' notitle, \
  '' index 0 using 1:($3*1e9):4 with labels left offset character 1,0 font ',10' notitle, \
  'roofline-2.dat' index 1 using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' notitle, \
  '' index 1 using 1:($5 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' notitle, \
  '' index 1 using 1:($3*1e9):4 with labels right offset character -1,0 font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
