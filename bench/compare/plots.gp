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
set terminal svg size 720,609 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 9
set output 'glance.svg'
set title 'each device against NVIDIA H100 80GB HBM3 on vm (h100-a.json)'
set xlabel ''
set ylabel 'ratio to the baseline (log scale)'
set logscale y 10
set format y '%gx'
set yrange [7.53571e-07:2.02716]
set xrange [-0.6:11.6]
set style fill solid 0.8
set xtics rotate by -35 left
set datafile missing 'NaN'
plot 'glance.dat' using ($0-0.3556):3:($0-0.4000):($0-0.3111):(column(3) < 1 ? column(3) : 1):(column(3) < 1 ? 1 : column(3)):xtic(1) with boxxyerror linecolor 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  'glance.dat' using ($0-0.2667):4:($0-0.3111):($0-0.2222):(column(4) < 1 ? column(4) : 1):(column(4) < 1 ? 1 : column(4)) with boxxyerror linecolor 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  'glance.dat' using ($0-0.1778):5:($0-0.2222):($0-0.1333):(column(5) < 1 ? column(5) : 1):(column(5) < 1 ? 1 : column(5)) with boxxyerror linecolor 4 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  'glance.dat' using ($0-0.0889):6:($0-0.1333):($0-0.0444):(column(6) < 1 ? column(6) : 1):(column(6) < 1 ? 1 : column(6)) with boxxyerror linecolor 5 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  'glance.dat' using ($0+0.0000):7:($0-0.0444):($0+0.0444):(column(7) < 1 ? column(7) : 1):(column(7) < 1 ? 1 : column(7)) with boxxyerror linecolor 6 title 'NVIDIA H200 on vm (h200-b.json)', \
  'glance.dat' using ($0+0.0889):8:($0+0.0444):($0+0.1333):(column(8) < 1 ? column(8) : 1):(column(8) < 1 ? 1 : column(8)) with boxxyerror linecolor 7 title 'NVIDIA H200 on vm (h200.json)', \
  'glance.dat' using ($0+0.1778):9:($0+0.1333):($0+0.2222):(column(9) < 1 ? column(9) : 1):(column(9) < 1 ? 1 : column(9)) with boxxyerror linecolor 8 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  'glance.dat' using ($0+0.2667):10:($0+0.2222):($0+0.3111):(column(10) < 1 ? column(10) : 1):(column(10) < 1 ? 1 : column(10)) with boxxyerror linecolor 9 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  'glance.dat' using ($0+0.3556):11:($0+0.3111):($0+0.4000):(column(11) < 1 ? column(11) : 1):(column(11) < 1 ? 1 : column(11)) with boxxyerror linecolor 10 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  1 with lines linecolor rgb '#000000' dashtype 2 notitle
unset logscale xy
set autoscale xy
set format xy
set xtics norotate center
set ytics autofreq
set style data linespoints
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'coalescing-offset.svg'
set title 'coalescing: GB/s against offset'
set xlabel 'offset'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
plot 'coalescing-offset_float.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 1 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_float.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 2 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_float.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 3 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_float.dat' index 4 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 5 using 1:($2*1e+09) with linespoints linetype 7 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 6 using 1:($2*1e+09) with linespoints linetype 8 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 8 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 6 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_float.dat' index 7 using 1:($2*1e+09) with linespoints linetype 9 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 9 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 7 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_float.dat' index 8 using 1:($2*1e+09) with linespoints linetype 10 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 8 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 10 dashtype 1 notitle, \
  'coalescing-offset_float.dat' index 8 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_double.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 0 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_double.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 4 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 5 using 1:($2*1e+09) with linespoints linetype 7 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 6 using 1:($2*1e+09) with linespoints linetype 8 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 8 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 6 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-offset_double.dat' index 7 using 1:($2*1e+09) with linespoints linetype 9 dashtype 2 notitle, \
  'coalescing-offset_double.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 9 dashtype 1 notitle, \
  'coalescing-offset_double.dat' index 7 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with linespoints linetype 7 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with linespoints linetype 8 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with linespoints linetype 9 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with linespoints linetype 10 dashtype 1 linewidth 3 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'offset_float', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'offset_double', \
  NaN with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' title 'noisy (max/min past 1.5x)'
unset logscale xy
set format xy
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'coalescing-stride.svg'
set title 'coalescing: GB/s against stride'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
plot 'coalescing-stride_float.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 4 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 5 using 1:($2*1e+09) with linespoints linetype 7 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 6 using 1:($2*1e+09) with linespoints linetype 8 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 8 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 6 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-stride_float.dat' index 7 using 1:($2*1e+09) with linespoints linetype 9 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 9 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 7 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-stride_float.dat' index 8 using 1:($2*1e+09) with linespoints linetype 10 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 8 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 10 dashtype 1 notitle, \
  'coalescing-stride_float.dat' index 8 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-stride_double.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 4 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 5 using 1:($2*1e+09) with linespoints linetype 7 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 6 using 1:($2*1e+09) with linespoints linetype 8 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 8 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 6 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'coalescing-stride_double.dat' index 7 using 1:($2*1e+09) with linespoints linetype 9 dashtype 2 notitle, \
  'coalescing-stride_double.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 9 dashtype 1 notitle, \
  'coalescing-stride_double.dat' index 7 using 1:($5 > 0 ? $4*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with linespoints linetype 7 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with linespoints linetype 8 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with linespoints linetype 9 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with linespoints linetype 10 dashtype 1 linewidth 3 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'stride_float', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'stride_double', \
  NaN with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' title 'noisy (max/min past 1.5x)'
unset logscale xy
set format xy
set terminal svg size 720,651 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 11
set output 'hierarchy-stride.svg'
set title 'hierarchy: GB/s against stride'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
plot 'hierarchy-local_stride.dat' index 0 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'hierarchy-local_stride.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)'
unset logscale xy
set format xy
set terminal svg size 1020,588 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 8
set output 'matmul.svg'
set title 'matmul variants at 1024 (GFLOP/s)'
set xlabel ''
set ylabel 'GFLOP/s (log scale)'
set logscale y 10
set format y '%.0s %cFLOP/s'
set yrange [1e+08:*]
set xrange [-0.6:9.6]
set style fill solid 0.8
set xtics rotate by -35 left
set datafile missing 'NaN'
plot 'matmul.dat' using ($0-0.3500):($2*1e+09):($0-0.4000):($0-0.3000):(1e+08):($2*1e+09):xtic(1) with boxxyerror linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  '' using ($0-0.3500):($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0-0.2500):($6*1e+09):($0-0.3000):($0-0.2000):(1e+08):($6*1e+09) with boxxyerror linecolor 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  '' using ($0-0.2500):($7*1e+09):(0):(($8-$7)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0-0.1500):($10*1e+09):($0-0.2000):($0-0.1000):(1e+08):($10*1e+09) with boxxyerror linecolor 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  '' using ($0-0.1500):($11*1e+09):(0):(($12-$11)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0-0.0500):($14*1e+09):($0-0.1000):($0+0.0000):(1e+08):($14*1e+09) with boxxyerror linecolor 4 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  '' using ($0-0.0500):($15*1e+09):(0):(($16-$15)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0+0.0500):($18*1e+09):($0+0.0000):($0+0.1000):(1e+08):($18*1e+09) with boxxyerror linecolor 5 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  '' using ($0+0.0500):($19*1e+09):(0):(($20-$19)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0+0.1500):($22*1e+09):($0+0.1000):($0+0.2000):(1e+08):($22*1e+09) with boxxyerror linecolor 6 title 'NVIDIA H200 on vm (h200-b.json)', \
  '' using ($0+0.1500):($23*1e+09):(0):(($24-$23)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0+0.2500):($26*1e+09):($0+0.2000):($0+0.3000):(1e+08):($26*1e+09) with boxxyerror linecolor 7 title 'NVIDIA H200 on vm (h200.json)', \
  '' using ($0+0.2500):($27*1e+09):(0):(($28-$27)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'matmul.dat' using ($0+0.3500):($30*1e+09):($0+0.3000):($0+0.4000):(1e+08):($30*1e+09) with boxxyerror linecolor 8 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  '' using ($0+0.3500):($31*1e+09):(0):(($32-$31)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle
unset logscale xy
set autoscale xy
set format xy
set xtics norotate center
set style data linespoints
set terminal svg size 720,651 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 11
set output 'transpose.svg'
set title 'transpose variants, each variant at its best size (GB/s)'
set xlabel ''
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set yrange [1e+07:*]
set xrange [-0.6:4.6]
set style fill solid 0.8
set xtics rotate by -35 left
set datafile missing 'NaN'
plot 'transpose.dat' using ($0-0.3600):($2*1e+09):($0-0.4000):($0-0.3200):(1e+07):($2*1e+09):xtic(1) with boxxyerror linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  '' using ($0-0.3600):($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0-0.2800):($6*1e+09):($0-0.3200):($0-0.2400):(1e+07):($6*1e+09) with boxxyerror linecolor 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  '' using ($0-0.2800):($7*1e+09):(0):(($8-$7)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0-0.2000):($10*1e+09):($0-0.2400):($0-0.1600):(1e+07):($10*1e+09) with boxxyerror linecolor 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  '' using ($0-0.2000):($11*1e+09):(0):(($12-$11)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0-0.1200):($14*1e+09):($0-0.1600):($0-0.0800):(1e+07):($14*1e+09) with boxxyerror linecolor 4 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  '' using ($0-0.1200):($15*1e+09):(0):(($16-$15)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0-0.0400):($18*1e+09):($0-0.0800):($0+0.0000):(1e+07):($18*1e+09) with boxxyerror linecolor 5 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  '' using ($0-0.0400):($19*1e+09):(0):(($20-$19)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0+0.0400):($22*1e+09):($0+0.0000):($0+0.0800):(1e+07):($22*1e+09) with boxxyerror linecolor 6 title 'NVIDIA H200 on vm (h200-b.json)', \
  '' using ($0+0.0400):($23*1e+09):(0):(($24-$23)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0+0.1200):($26*1e+09):($0+0.0800):($0+0.1600):(1e+07):($26*1e+09) with boxxyerror linecolor 7 title 'NVIDIA H200 on vm (h200.json)', \
  '' using ($0+0.1200):($27*1e+09):(0):(($28-$27)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0+0.2000):($30*1e+09):($0+0.1600):($0+0.2400):(1e+07):($30*1e+09) with boxxyerror linecolor 8 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  '' using ($0+0.2000):($31*1e+09):(0):(($32-$31)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  '' using ($0+0.2000):($33 > 0 ? $32*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0+0.2800):($34*1e+09):($0+0.2400):($0+0.3200):(1e+07):($34*1e+09) with boxxyerror linecolor 9 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  '' using ($0+0.2800):($35*1e+09):(0):(($36-$35)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  '' using ($0+0.2800):($37 > 0 ? $36*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  'transpose.dat' using ($0+0.3600):($38*1e+09):($0+0.3200):($0+0.4000):(1e+07):($38*1e+09) with boxxyerror linecolor 10 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  '' using ($0+0.3600):($39*1e+09):(0):(($40-$39)*1e+09) with vectors heads size screen 0.008,90 linecolor rgb '#000000' notitle, \
  '' using ($0+0.3600):($41 > 0 ? $40*1e+09 : NaN) with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' notitle, \
  NaN with points pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000' title 'noisy (max/min past 1.5x)'
unset logscale xy
set autoscale xy
set format xy
set xtics norotate center
set style data linespoints
set rmargin 4
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'matmul-size.svg'
set title 'matmul: GFLOP/s against size'
set xlabel 'size'
set ylabel 'GFLOP/s (log scale)'
set logscale y 10
set format y '%.0s %cFLOP/s'
set logscale x 2
set format x '%.0b %B'
plot 'matmul-size.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'matmul-size.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'matmul-size.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'matmul-size.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'matmul-size.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'matmul-size.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'matmul-size.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'matmul-size.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'matmul-size.dat' index 4 using 1:($2*1e+09) with linespoints linetype 5 dashtype 1 notitle, \
  'matmul-size.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'matmul-size.dat' index 5 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'matmul-size.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'matmul-size.dat' index 6 using 1:($2*1e+09) with linespoints linetype 7 dashtype 1 notitle, \
  'matmul-size.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'matmul-size.dat' index 7 using 1:($2*1e+09) with linespoints linetype 8 dashtype 1 notitle, \
  'matmul-size.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 8 dashtype 1 notitle, \
  'matmul-size.dat' index 8 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'matmul-size.dat' index 8 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'matmul-size.dat' index 9 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'matmul-size.dat' index 9 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'matmul-size.dat' index 10 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'matmul-size.dat' index 10 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'matmul-size.dat' index 11 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  'matmul-size.dat' index 11 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'matmul-size.dat' index 12 using 1:($2*1e+09) with linespoints linetype 5 dashtype 2 notitle, \
  'matmul-size.dat' index 12 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'matmul-size.dat' index 13 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'matmul-size.dat' index 13 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'matmul-size.dat' index 14 using 1:($2*1e+09) with linespoints linetype 7 dashtype 2 notitle, \
  'matmul-size.dat' index 14 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'matmul-size.dat' index 15 using 1:($2*1e+09) with linespoints linetype 8 dashtype 2 notitle, \
  'matmul-size.dat' index 15 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 8 dashtype 1 notitle, \
  'matmul-size.dat' index 16 using 1:($2*1e+09) with linespoints linetype 5 dashtype 3 notitle, \
  'matmul-size.dat' index 16 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'matmul-size.dat' index 17 using 1:($2*1e+09) with linespoints linetype 6 dashtype 3 notitle, \
  'matmul-size.dat' index 17 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with linespoints linetype 5 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with linespoints linetype 7 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with linespoints linetype 8 dashtype 1 linewidth 3 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'regblock', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'panel', \
  NaN with lines linecolor rgb '#555555' dashtype 3 linewidth 2 title 'regblock_padded'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'reduce-size.svg'
set title 'reduce: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'reduce-size.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'reduce-size.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'reduce-size.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'reduce-size.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'reduce-size.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'reduce-size.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'reduce-size.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'reduce-size.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'reduce-size.dat' index 4 using 1:($2*1e+09) with linespoints linetype 5 dashtype 1 notitle, \
  'reduce-size.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'reduce-size.dat' index 5 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'reduce-size.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'reduce-size.dat' index 6 using 1:($2*1e+09) with linespoints linetype 7 dashtype 1 notitle, \
  'reduce-size.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'reduce-size.dat' index 7 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'reduce-size.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'reduce-size.dat' index 8 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'reduce-size.dat' index 8 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'reduce-size.dat' index 9 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'reduce-size.dat' index 9 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'reduce-size.dat' index 10 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  'reduce-size.dat' index 10 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'reduce-size.dat' index 11 using 1:($2*1e+09) with linespoints linetype 5 dashtype 2 notitle, \
  'reduce-size.dat' index 11 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'reduce-size.dat' index 12 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'reduce-size.dat' index 12 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'reduce-size.dat' index 13 using 1:($2*1e+09) with linespoints linetype 7 dashtype 2 notitle, \
  'reduce-size.dat' index 13 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'reduce-size.dat' index 14 using 1:($2*1e+09) with linespoints linetype 5 dashtype 3 notitle, \
  'reduce-size.dat' index 14 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'reduce-size.dat' index 15 using 1:($2*1e+09) with linespoints linetype 6 dashtype 3 notitle, \
  'reduce-size.dat' index 15 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with linespoints linetype 5 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with linespoints linetype 7 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'sequential', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'coarsened', \
  NaN with lines linecolor rgb '#555555' dashtype 3 linewidth 2 title 'one_pass'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'dot-size.svg'
set title 'dot: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'dot-size.dat' index 0 using 1:($2*1e+09) with linespoints linetype 1 dashtype 1 notitle, \
  'dot-size.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'dot-size.dat' index 1 using 1:($2*1e+09) with linespoints linetype 2 dashtype 1 notitle, \
  'dot-size.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'dot-size.dat' index 2 using 1:($2*1e+09) with linespoints linetype 3 dashtype 1 notitle, \
  'dot-size.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'dot-size.dat' index 3 using 1:($2*1e+09) with linespoints linetype 4 dashtype 1 notitle, \
  'dot-size.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'dot-size.dat' index 4 using 1:($2*1e+09) with linespoints linetype 5 dashtype 1 notitle, \
  'dot-size.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'dot-size.dat' index 5 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'dot-size.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'dot-size.dat' index 6 using 1:($2*1e+09) with linespoints linetype 7 dashtype 1 notitle, \
  'dot-size.dat' index 6 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'dot-size.dat' index 7 using 1:($2*1e+09) with linespoints linetype 1 dashtype 2 notitle, \
  'dot-size.dat' index 7 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 1 dashtype 1 notitle, \
  'dot-size.dat' index 8 using 1:($2*1e+09) with linespoints linetype 2 dashtype 2 notitle, \
  'dot-size.dat' index 8 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 2 dashtype 1 notitle, \
  'dot-size.dat' index 9 using 1:($2*1e+09) with linespoints linetype 3 dashtype 2 notitle, \
  'dot-size.dat' index 9 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 3 dashtype 1 notitle, \
  'dot-size.dat' index 10 using 1:($2*1e+09) with linespoints linetype 4 dashtype 2 notitle, \
  'dot-size.dat' index 10 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 4 dashtype 1 notitle, \
  'dot-size.dat' index 11 using 1:($2*1e+09) with linespoints linetype 5 dashtype 2 notitle, \
  'dot-size.dat' index 11 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'dot-size.dat' index 12 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'dot-size.dat' index 12 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'dot-size.dat' index 13 using 1:($2*1e+09) with linespoints linetype 7 dashtype 2 notitle, \
  'dot-size.dat' index 13 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 7 dashtype 1 notitle, \
  'dot-size.dat' index 14 using 1:($2*1e+09) with linespoints linetype 5 dashtype 3 notitle, \
  'dot-size.dat' index 14 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'dot-size.dat' index 15 using 1:($2*1e+09) with linespoints linetype 6 dashtype 3 notitle, \
  'dot-size.dat' index 15 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 1 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with linespoints linetype 2 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with linespoints linetype 3 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with linespoints linetype 4 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with linespoints linetype 5 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with linespoints linetype 7 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'local_sums', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'coarsened', \
  NaN with lines linecolor rgb '#555555' dashtype 3 linewidth 2 title 'one_pass'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set terminal svg size 720,714 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 14
set output 'blur-size.svg'
set title 'blur: GB/s against size'
set xlabel 'size (geometric mean of the dimensions)'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'blur-size.dat' index 0 using 1:($2*1e+09) with linespoints linetype 5 dashtype 1 notitle, \
  'blur-size.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'blur-size.dat' index 1 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'blur-size.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'blur-size.dat' index 2 using 1:($2*1e+09) with linespoints linetype 5 dashtype 2 notitle, \
  'blur-size.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'blur-size.dat' index 3 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'blur-size.dat' index 3 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'blur-size.dat' index 4 using 1:($2*1e+09) with linespoints linetype 5 dashtype 3 notitle, \
  'blur-size.dat' index 4 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 5 dashtype 1 notitle, \
  'blur-size.dat' index 5 using 1:($2*1e+09) with linespoints linetype 6 dashtype 3 notitle, \
  'blur-size.dat' index 5 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 5 dashtype 1 linewidth 3 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'naive', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'tiled', \
  NaN with lines linecolor rgb '#555555' dashtype 3 linewidth 2 title 'coarsened'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'hierarchy-size.svg'
set title 'hierarchy: Gload/s against size'
set xlabel 'size'
set ylabel 'Gload/s (log scale)'
set logscale y 10
set format y '%.0s %cload/s'
set logscale x 2
set format x '%.0b %B'
plot 'hierarchy-size.dat' index 0 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'hierarchy-size.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)'
unset logscale xy
set format xy
set rmargin -1
set rmargin 4
set terminal svg size 720,714 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 14
set output 'hierarchy-size-2.svg'
set title 'hierarchy: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale y 10
set format y '%.0s %cB/s'
set logscale x 2
set format x '%.0b %B'
plot 'hierarchy-size-2.dat' index 0 using 1:($2*1e+09) with linespoints linetype 6 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 1 using 1:($2*1e+09) with linespoints linetype 6 dashtype 2 notitle, \
  'hierarchy-size-2.dat' index 1 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  'hierarchy-size-2.dat' index 2 using 1:($2*1e+09) with linespoints linetype 6 dashtype 3 notitle, \
  'hierarchy-size-2.dat' index 2 using 1:($3*1e+09):(0):(($4-$3)*1e+09) with vectors heads size screen 0.008,90 linetype 6 dashtype 1 notitle, \
  NaN with linespoints linetype 6 dashtype 1 linewidth 3 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with lines linecolor rgb '#555555' dashtype 1 linewidth 2 title 'read_ws', \
  NaN with lines linecolor rgb '#555555' dashtype 2 linewidth 2 title 'image_read', \
  NaN with lines linecolor rgb '#555555' dashtype 3 linewidth 2 title 'buffer_read'
unset logscale xy
set format xy
set rmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-0.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H100 80GB HBM3 on vm (h100-a.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 2626.3644333124607 < 64210.629669899528 ? x * 2626.3644333124607 : 64210.629669899528) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 2.63 TB/s, FMA 64.2 TFLOP/s', \
  'roofline-0.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-1.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H100 80GB HBM3 on vm (h100-b.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 2671.5312101910831 < 64085.20739647538 ? x * 2671.5312101910831 : 64085.20739647538) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 2.67 TB/s, FMA 64.1 TFLOP/s', \
  'roofline-1.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-2.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H100 80GB HBM3 on vm (h100-c.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 2621.4400000000001 < 64203.183556322212 ? x * 2621.4400000000001 : 64203.183556322212) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 2.62 TB/s, FMA 64.2 TFLOP/s', \
  'roofline-2.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-3.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H100 80GB HBM3 on vm (h100-d.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 2589.0765432098765 < 64173.41636361002 ? x * 2589.0765432098765 : 64173.41636361002) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 2.59 TB/s, FMA 64.2 TFLOP/s', \
  'roofline-3.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-4.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H100 80GB HBM3 on vm (h100-energy.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 3010.7837322506111 < 63920.582808982283 ? x * 3010.7837322506111 : 63920.582808982283) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 3.01 TB/s, FMA 63.9 TFLOP/s', \
  (x * 2985.3678193644469 < 63920.582808982283 ? x * 2985.3678193644469 : 63920.582808982283) * 1e9 with lines linewidth 2 dashtype 2 linecolor rgb '#555555' title 'read roof 2.99 TB/s', \
  'roofline-4.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-5.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H200 on vm (h200-b.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 4259.2576796141166 < 64228.321113689097 ? x * 4259.2576796141166 : 64228.321113689097) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 4.26 TB/s, FMA 64.2 TFLOP/s', \
  (x * 4256.6475143642274 < 64228.321113689097 ? x * 4256.6475143642274 : 64228.321113689097) * 1e9 with lines linewidth 2 dashtype 2 linecolor rgb '#555555' title 'read roof 4.26 TB/s', \
  'roofline-5.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-6.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: NVIDIA H200 on vm (h200.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:4096]
set yrange [6.4e+10:2.62144e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 3542.4864864864862 < 64115.820905893073 ? x * 3542.4864864864862 : 64115.820905893073) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 3.54 TB/s, FMA 64.1 TFLOP/s', \
  'roofline-6.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-7.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:512]
set yrange [2.5e+08:5.12e+11]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 58.248331657432203 < 107.36531402506152 ? x * 58.248331657432203 : 107.36531402506152) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 58.2 GB/s, FMA 107 GFLOP/s', \
  'roofline-7.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-8.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.0625:32]
set yrange [3.125e+07:2.56e+11]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 4.8148292651008369 < 51.680669318737465 ? x * 4.8148292651008369 : 51.680669318737465) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 4.81 GB/s, FMA 51.7 GFLOP/s', \
  (x * 39.179318796892211 < 51.680669318737465 ? x * 39.179318796892211 : 51.680669318737465) * 1e9 with lines linewidth 2 dashtype 2 linecolor rgb '#555555' title 'read roof 39.2 GB/s', \
  'roofline-8.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,483 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 3
set output 'roofline-9.svg'
set lmargin at screen 0.222222
set rmargin at screen 0.958333
set tmargin at screen 0.917184
set bmargin at screen 0.296066
set title 'roofline: llvmpipe (LLVM 15.0.6, 256 bits) on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.03125:16]
set yrange [1.95312e+06:2.5e+08]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 0.29177731689551134 < 0.060484065099895741 ? x * 0.29177731689551134 : 0.060484065099895741) * 1e9 with lines linewidth 2 linecolor rgb '#000000' title 'copy roof 292 MB/s, FMA 60.5 MFLOP/s', \
  (x * 0.46074217671978562 < 0.060484065099895741 ? x * 0.46074217671978562 : 0.060484065099895741) * 1e9 with lines linewidth 2 dashtype 2 linecolor rgb '#555555' title 'read roof 461 MB/s', \
  'roofline-9.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead linecolor rgb '#888888' linewidth 0.75 notitle, \
  '' using 1:($2*1e9) with points pointtype 7 linecolor rgb '#D55E00' title 'best verified result per workload', \
  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 pointsize 2.5 linecolor rgb '#000000' title 'above its roof', \
  '' using 3:($4*1e9):5 with labels left font ',10' notitle
unset logscale xy
set autoscale xy
set format xy
set lmargin -1
set rmargin -1
set tmargin -1
set bmargin -1
set terminal svg size 720,798 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 18
set output 'roofline-all.svg'
set title 'every device''s roofline'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale x 2
set logscale y 10
set xrange [0.03125:4096]
set yrange [1.95312e+06:1.31072e+14]
set samples 400
set format y '%.0s %cFLOP/s'
plot (x * 2626.3644333124607 < 64210.629669899528 ? x * 2626.3644333124607 : 64210.629669899528) * 1e9 with lines linetype 1 linewidth 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  'roofline-all.dat' index 0 using 1:($2*1e9):3 with points linecolor 1 pointtype variable pointsize 1.2 notitle, \
  (x * 2671.5312101910831 < 64085.20739647538 ? x * 2671.5312101910831 : 64085.20739647538) * 1e9 with lines linetype 2 linewidth 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  'roofline-all.dat' index 1 using 1:($2*1e9):3 with points linecolor 2 pointtype variable pointsize 1.2 notitle, \
  (x * 2621.4400000000001 < 64203.183556322212 ? x * 2621.4400000000001 : 64203.183556322212) * 1e9 with lines linetype 3 linewidth 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  'roofline-all.dat' index 2 using 1:($2*1e9):3 with points linecolor 3 pointtype variable pointsize 1.2 notitle, \
  (x * 2589.0765432098765 < 64173.41636361002 ? x * 2589.0765432098765 : 64173.41636361002) * 1e9 with lines linetype 4 linewidth 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  'roofline-all.dat' index 3 using 1:($2*1e9):3 with points linecolor 4 pointtype variable pointsize 1.2 notitle, \
  (x * 3010.7837322506111 < 63920.582808982283 ? x * 3010.7837322506111 : 63920.582808982283) * 1e9 with lines linetype 5 linewidth 2 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  'roofline-all.dat' index 4 using 1:($2*1e9):3 with points linecolor 5 pointtype variable pointsize 1.2 notitle, \
  (x * 4259.2576796141166 < 64228.321113689097 ? x * 4259.2576796141166 : 64228.321113689097) * 1e9 with lines linetype 6 linewidth 2 title 'NVIDIA H200 on vm (h200-b.json)', \
  'roofline-all.dat' index 5 using 1:($2*1e9):3 with points linecolor 6 pointtype variable pointsize 1.2 notitle, \
  (x * 3542.4864864864862 < 64115.820905893073 ? x * 3542.4864864864862 : 64115.820905893073) * 1e9 with lines linetype 7 linewidth 2 title 'NVIDIA H200 on vm (h200.json)', \
  'roofline-all.dat' index 6 using 1:($2*1e9):3 with points linecolor 7 pointtype variable pointsize 1.2 notitle, \
  (x * 58.248331657432203 < 107.36531402506152 ? x * 58.248331657432203 : 107.36531402506152) * 1e9 with lines linetype 8 linewidth 2 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  'roofline-all.dat' index 7 using 1:($2*1e9):3 with points linecolor 8 pointtype variable pointsize 1.2 notitle, \
  (x * 4.8148292651008369 < 51.680669318737465 ? x * 4.8148292651008369 : 51.680669318737465) * 1e9 with lines linetype 9 linewidth 2 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  'roofline-all.dat' index 8 using 1:($2*1e9):3 with points linecolor 9 pointtype variable pointsize 1.2 notitle, \
  (x * 0.29177731689551134 < 0.060484065099895741 ? x * 0.29177731689551134 : 0.060484065099895741) * 1e9 with lines linetype 10 linewidth 2 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  'roofline-all.dat' index 9 using 1:($2*1e9):3 with points linecolor 10 pointtype variable pointsize 1.2 notitle, \
  NaN with points linecolor rgb '#555555' pointtype 7 title 'matmul', \
  NaN with points linecolor rgb '#555555' pointtype 5 title 'transpose', \
  NaN with points linecolor rgb '#555555' pointtype 9 title 'reduce', \
  NaN with points linecolor rgb '#555555' pointtype 11 title 'dot', \
  NaN with points linecolor rgb '#555555' pointtype 13 title 'blur', \
  NaN with points linecolor rgb '#555555' pointtype 6 title 'constmem', \
  NaN with points linecolor rgb '#555555' pointtype 4 title 'coalescing', \
  NaN with points linecolor rgb '#555555' pointtype 8 title 'pitched'
unset logscale xy
set autoscale xy
set format xy
set terminal svg size 720,714 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 14
set output 'matmul-pp.svg'
set title 'matmul: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'matmul-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'matmul-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'matmul-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'matmul-pp.dat' index 3 using 1:3 with lines linecolor rgb '#333333' dashtype 4 linewidth 2 notitle, \
  '' index 3 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'regblock (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'clblast (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'panel (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 4 linewidth 2 title 'regblock_padded (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,714 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 14
set output 'transpose-pp.svg'
set title 'transpose: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'transpose-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'transpose-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'transpose-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'transpose-pp.dat' index 3 using 1:3 with lines linecolor rgb '#333333' dashtype 4 linewidth 2 notitle, \
  '' index 3 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'copy (PP 0.82)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'padded (PP 0.45)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'coalesced (PP 0.36)', \
  NaN with lines linecolor rgb '#333333' dashtype 4 linewidth 2 title 'naive (PP 0.18)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'pi-pp.svg'
set title 'pi: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'pi-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'pi-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'pi-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'host_rng_global (PP 0.75)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'local_reduce (PP 0.26)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'device_rng (PP 0.09)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,672 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 12
set output 'atomics-pp.svg'
set title 'atomics: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'atomics-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'atomics-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'atomic_local (PP 0.97)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'atomic_global (PP 0.16)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,714 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 14
set output 'reduce-pp.svg'
set title 'reduce: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'reduce-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'reduce-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'reduce-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'reduce-pp.dat' index 3 using 1:3 with lines linecolor rgb '#333333' dashtype 4 linewidth 2 notitle, \
  '' index 3 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'coarsened (PP 0.94)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'sequential (PP 0.20)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'interleaved (PP 0.12)', \
  NaN with lines linecolor rgb '#333333' dashtype 4 linewidth 2 title 'one_pass (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'dot-pp.svg'
set title 'dot: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'dot-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'dot-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'dot-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'coarsened (PP 1.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'local_sums (PP 0.42)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'one_pass (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'blur-pp.svg'
set title 'blur: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'blur-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'blur-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'blur-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'naive (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'tiled (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'coarsened (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'constmem-pp.svg'
set title 'constmem: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'constmem-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'constmem-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'constmem-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'global_filter (PP 0.27)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'constant_filter (PP 0.25)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'coarsened (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,714 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 14
set output 'coalescing-pp.svg'
set title 'coalescing: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'coalescing-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'coalescing-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'coalescing-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'coalescing-pp.dat' index 3 using 1:3 with lines linecolor rgb '#333333' dashtype 4 linewidth 2 notitle, \
  '' index 3 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'offset_float (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'offset_double (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'stride_float (PP 0.00)', \
  NaN with lines linecolor rgb '#333333' dashtype 4 linewidth 2 title 'stride_double (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
set terminal svg size 720,693 dynamic noenhanced font 'sans,13' linewidth 1.5
set key below horizontal maxcols 1 maxrows 13
set output 'pitched-pp.svg'
set title 'pitched: application efficiency, most efficient device first'
set xlabel 'devices, most efficient first'
set ylabel 'efficiency; PP of the first k (lines)'
set xrange [0.5:10.5]
set yrange [0:1.05]
set xtics 1
plot 'pitched-pp.dat' index 0 using 1:3 with lines linecolor rgb '#333333' dashtype 1 linewidth 2 notitle, \
  '' index 0 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'pitched-pp.dat' index 1 using 1:3 with lines linecolor rgb '#333333' dashtype 2 linewidth 2 notitle, \
  '' index 1 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  'pitched-pp.dat' index 2 using 1:3 with lines linecolor rgb '#333333' dashtype 3 linewidth 2 notitle, \
  '' index 2 using 1:2:4 with points linecolor variable pointtype 7 pointsize 1.3 notitle, \
  NaN with points linecolor 1 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-a.json)', \
  NaN with points linecolor 2 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-b.json)', \
  NaN with points linecolor 3 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-c.json)', \
  NaN with points linecolor 4 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-d.json)', \
  NaN with points linecolor 5 pointtype 7 title 'NVIDIA H100 80GB HBM3 on vm (h100-energy.json)', \
  NaN with points linecolor 6 pointtype 7 title 'NVIDIA H200 on vm (h200-b.json)', \
  NaN with points linecolor 7 pointtype 7 title 'NVIDIA H200 on vm (h200.json)', \
  NaN with points linecolor 8 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-2core.json)', \
  NaN with points linecolor 9 pointtype 7 title 'pthread-skylake-avx512-AMD EPYC on vm (pocl-loaded.json)', \
  NaN with points linecolor 10 pointtype 7 title 'llvmpipe (LLVM 15.0.6, 256 bits) on vm', \
  NaN with lines linecolor rgb '#333333' dashtype 1 linewidth 2 title 'pitched (PP 0.89)', \
  NaN with lines linecolor rgb '#333333' dashtype 2 linewidth 2 title 'unpadded (PP 0.83)', \
  NaN with lines linecolor rgb '#333333' dashtype 3 linewidth 2 title 'vec4 (PP 0.00)'
unset xrange
unset yrange
set xtics autofreq
set autoscale xy
