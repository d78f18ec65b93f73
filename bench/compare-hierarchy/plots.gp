set terminal svg size 720,520 dynamic noenhanced font 'sans,13' linewidth 1.5
set grid
set key below maxrows 6
set style fill solid 0.85 noborder
set linetype 1 linecolor rgb '#0072B2' dashtype 1 pointtype 7 pointsize 1
set linetype 2 linecolor rgb '#D55E00' dashtype (8,4) pointtype 5 pointsize 1
set linetype 3 linecolor rgb '#009E73' dashtype (2,3) pointtype 9 pointsize 1
set linetype 4 linecolor rgb '#CC79A7' dashtype (10,3,2,3) pointtype 11 pointsize 1
set linetype 5 linecolor rgb '#E69F00' dashtype (4,4) pointtype 13 pointsize 1
set linetype 6 linecolor rgb '#56B4E9' dashtype (16,5) pointtype 6 pointsize 1
set linetype 7 linecolor rgb '#000000' dashtype (10,3,2,3,2,3) pointtype 4 pointsize 1
set linetype 8 linecolor rgb '#882255' dashtype (1,2) pointtype 8 pointsize 1
set linetype 9 linecolor rgb '#44AA99' dashtype (6,2,1,2) pointtype 10 pointsize 1
set linetype 10 linecolor rgb '#999933' dashtype (20,4,4,4) pointtype 12 pointsize 1
set linetype 11 linecolor rgb '#332288' dashtype 1 pointtype 1 pointsize 1
set linetype 12 linecolor rgb '#AA4499' dashtype (8,4) pointtype 2 pointsize 1
set linetype cycle 12
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'glance.svg'
set title 'each device against NVIDIA H100 80GB HBM3 on vm'
set xlabel ''
set ylabel 'ratio to the baseline (log scale)'
set logscale y 10
set format y '%gx'
set yrange [0.0001:10]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set xtics rotate by -35 left
set datafile missing 'NaN'
plot 'glance.dat' using 3:xtic(1) linecolor 2 title 'NVIDIA H200 on vm', \
  'glance.dat' using 4 linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  'glance.dat' using 5 linecolor 4 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  1 with lines linecolor rgb '#000000' dashtype 2 notitle
unset logscale xy
set autoscale xy
set format xy
set xtics norotate center
set style data linespoints
set terminal svg size 720,525 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 5
set output 'hierarchy-stride.svg'
set title 'hierarchy: GB/s against stride'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
plot 'hierarchy-local_stride.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'hierarchy-local_stride.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'hierarchy-local_stride.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'hierarchy-local_stride.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm'
unset logscale xy
set format xy
set rmargin 4
set terminal svg size 720,567 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 7
set output 'hierarchy-size.svg'
set title 'hierarchy: Gload/s against size'
set xlabel 'size'
set ylabel 'Gload/s (log scale)'
set logscale y 10
set format y '%.0s %cload/s'
set logscale x 2
set format x '%.0b %B'
plot 'hierarchy-size.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'hierarchy-size.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'hierarchy-size.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'hierarchy-size.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'hierarchy-size.dat' index 4 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'hierarchy-size.dat' index 5 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'hierarchy-size.dat' index 6 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'hierarchy-size.dat' index 7 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'chase_global', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'chase_local'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set terminal svg size 720,567 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 7
set output 'hierarchy-size-2.svg'
set title 'hierarchy: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'hierarchy-size-2.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 4 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'hierarchy-size-2.dat' index 5 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'hierarchy-size-2.dat' index 6 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'hierarchy-size-2.dat' index 7 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  'hierarchy-size-2.dat' index 8 using 1:($2*1e+09) with linespoints linetype 1 dashtype 3 notitle, \
  'hierarchy-size-2.dat' index 9 using 1:($2*1e+09) with linespoints linetype 2 dashtype 3 notitle, \
  'hierarchy-size-2.dat' index 10 using 1:($2*1e+09) with linespoints linetype 3 dashtype 3 notitle, \
  'hierarchy-size-2.dat' index 11 using 1:($2*1e+09) with linespoints linetype 4 dashtype 3 notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'read_ws', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'map', \
  NaN with lines linecolor rgb '#555555' dashtype 3 linewidth 2 title 'buffer_read'
unset logscale xy
set format xy
set rmargin -1
set terminal svg size 720,546 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 6
set output 'hierarchy-pp.svg'
set title 'hierarchy: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:4.5]
set yrange [0:1.05]
set xtics 1
plot 'hierarchy-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'hierarchy-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H200 on vm', \
  NaN with points linecolor 3 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with points linecolor 4 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'chase_global (PP 1.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'chase_local (PP 1.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,588 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 8
set output 'hierarchy-pp-2.svg'
set title 'hierarchy: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:4.5]
set yrange [0:1.05]
set xtics 1
plot 'hierarchy-pp-2.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'hierarchy-pp-2.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'hierarchy-pp-2.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'hierarchy-pp-2.dat' index 3 using 1:3 with lines linecolor rgb '#333333' dashtype 4 linewidth 2 notitle, \
  '' index 3 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H200 on vm', \
  NaN with points linecolor 3 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with points linecolor 4 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'read_ws (PP 1.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'private_registers (PP 0.47)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'global_broadcast (PP 0.09)', \
  NaN with lines linecolor rgb '#333333' dashtype 4 linewidth 2 title 'constant_broadcast (PP 0.07)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,567 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 7
set output 'hierarchy-pp-3.svg'
set title 'hierarchy: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:4.5]
set yrange [0:1.05]
set xtics 1
plot 'hierarchy-pp-3.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'hierarchy-pp-3.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'hierarchy-pp-3.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H200 on vm', \
  NaN with points linecolor 3 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  NaN with points linecolor 4 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'atomic_local (PP 0.99)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'atomic_global (PP 0.57)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'atomic_contended (PP 0.06)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 900,462 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 2 maxrows 2
set output 'hierarchy-staircase.svg'
set title 'Latency staircase: a dependent load over one random cycle (pointer chase)'
set xlabel 'working set (log scale)'
set ylabel 'ns a load (log scale)'
set logscale x 2
set logscale y 10
set format x '%.0b %B'
set format y '%g'
set xrange [682.667:1.61061e+09]
set yrange [0.73835:2708.33]
plot 'hierarchy-staircase.dat' index 0 using 1:2 with linespoints linetype 1 linewidth 2 pointsize 0.6 title 'NVIDIA H100 80GB HBM3 on vm', \
  'hierarchy-staircase.dat' index 1 using 1:2 with points linetype 1 pointsize 1.8 notitle, \
  'hierarchy-staircase.dat' index 2 using 1:2 with linespoints linetype 2 linewidth 2 pointsize 0.6 title 'NVIDIA H200 on vm', \
  'hierarchy-staircase.dat' index 3 using 1:2 with points linetype 2 pointsize 1.8 notitle, \
  'hierarchy-staircase.dat' index 4 using 1:2 with linespoints linetype 3 linewidth 2 pointsize 0.6 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  'hierarchy-staircase.dat' index 5 using 1:2 with points linetype 3 pointsize 1.8 notitle, \
  'hierarchy-staircase.dat' index 6 using 1:2 with linespoints linetype 4 linewidth 2 pointsize 0.6 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  'hierarchy-staircase.dat' index 7 using 1:2 with points linetype 4 pointsize 1.8 notitle
unset logscale xy
set autoscale xy
set format xy
set terminal svg size 720,504 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 4
set output 'hierarchy-levels-latency.svg'
set title 'Latency of each level (ns a load)'
set xlabel ''
set ylabel 'ns (log scale)'
set logscale y 10
set format y '%g'
set yrange [1:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
plot 'hierarchy-levels-latency.dat' using 2:xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'hierarchy-levels-latency.dat' using 3 linecolor 2 title 'NVIDIA H200 on vm', \
  'hierarchy-levels-latency.dat' using 4 linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  'hierarchy-levels-latency.dat' using 5 linecolor 4 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm'
unset logscale xy
set autoscale xy
set format xy
set style data linespoints
set terminal svg size 720,504 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 4
set output 'hierarchy-levels-bandwidth.svg'
set title 'Read bandwidth of each level (GB/s)'
set xlabel ''
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%g'
set yrange [0.1:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
plot 'hierarchy-levels-bandwidth.dat' using 2:xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'hierarchy-levels-bandwidth.dat' using 3 linecolor 2 title 'NVIDIA H200 on vm', \
  'hierarchy-levels-bandwidth.dat' using 4 linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm', \
  'hierarchy-levels-bandwidth.dat' using 5 linecolor 4 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm'
unset logscale xy
set autoscale xy
set format xy
set style data linespoints
