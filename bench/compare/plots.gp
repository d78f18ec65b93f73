set terminal svg size 900,600 dynamic noenhanced
set grid
set key below
set output 'coalescing-offset.svg'
set title 'bandwidth against offset (float)'
set xlabel 'offset'
set ylabel 'GB/s (log scale)'
set logscale y 2
plot 'coalescing-offset_float.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3 on vm', \
  'coalescing-offset_float.dat' index 1 using 1:2 with linespoints title 'NVIDIA H200 on vm', \
  'coalescing-offset_float.dat' index 2 using 1:2 with linespoints title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set output 'coalescing-stride.svg'
set title 'bandwidth against stride (float)'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 2
plot 'coalescing-stride_float.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3 on vm', \
  'coalescing-stride_float.dat' index 1 using 1:2 with linespoints title 'NVIDIA H200 on vm', \
  'coalescing-stride_float.dat' index 2 using 1:2 with linespoints title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set output 'transpose.svg'
set title 'transpose variants (GB/s, best size each)'
set xlabel ''
set ylabel 'GB/s (log scale)'
set logscale y 2
set yrange [1:*]
set style data histograms
set style histogram clustered
set style fill solid 0.8
plot 'transpose.dat' using 2:xtic(1) title 'NVIDIA H100 80GB HBM3 on vm', \
  'transpose.dat' using 3 title 'NVIDIA H200 on vm', \
  'transpose.dat' using 4 title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set autoscale xy
set style data linespoints
set output 'matmul-tiled.svg'
set title 'matmul tiled_bounds (Fig 4.20)'
set xlabel 'N'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
plot 'matmul-tiled_bounds.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3 on vm', \
  'matmul-tiled_bounds.dat' index 1 using 1:2 with linespoints title 'NVIDIA H200 on vm', \
  'matmul-tiled_bounds.dat' index 2 using 1:2 with linespoints title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set output 'matmul-regblock.svg'
set title 'matmul regblock'
set xlabel 'N'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
plot 'matmul-regblock.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3 on vm', \
  'matmul-regblock.dat' index 1 using 1:2 with linespoints title 'NVIDIA H200 on vm', \
  'matmul-regblock.dat' index 2 using 1:2 with linespoints title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set output 'roofline-0.svg'
set title 'roofline: NVIDIA H100 80GB HBM3 on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
set xrange [0.0625:65536]
set yrange [64:262144]
set samples 400
plot (x * 2626.3644333124607 < 64210.629669899528 ? x * 2626.3644333124607 : 64210.629669899528) with lines linewidth 2 title 'measured peaks (2.63 TB/s, 64.2 TFLOP/s)', \
  'roofline-0.dat' index 0 using 1:2 with points pointtype 7 linecolor rgb '#c0392b' title 'best verified result per workload', \
  '' index 0 using 1:3:4 with labels left offset character 1,0 font ',9' notitle, \
  'roofline-0.dat' index 1 using 1:2 with points pointtype 7 linecolor rgb '#c0392b' notitle, \
  '' index 1 using 1:3:4 with labels right offset character -1,0 font ',9' notitle
unset logscale xy
set autoscale xy
set output 'roofline-1.svg'
set title 'roofline: NVIDIA H200 on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
set xrange [0.0625:65536]
set yrange [64:262144]
set samples 400
plot (x * 3542.4864864864862 < 64115.820905893073 ? x * 3542.4864864864862 : 64115.820905893073) with lines linewidth 2 title 'measured peaks (3.54 TB/s, 64.1 TFLOP/s)', \
  'roofline-1.dat' index 0 using 1:2 with points pointtype 7 linecolor rgb '#c0392b' title 'best verified result per workload', \
  '' index 0 using 1:3:4 with labels left offset character 1,0 font ',9' notitle, \
  'roofline-1.dat' index 1 using 1:2 with points pointtype 7 linecolor rgb '#c0392b' notitle, \
  '' index 1 using 1:3:4 with labels right offset character -1,0 font ',9' notitle
unset logscale xy
set autoscale xy
set output 'roofline-2.svg'
set title 'roofline: pthread-skylake-avx512-AMD EPYC on vm'
set xlabel 'flops per byte (log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
set xrange [0.0625:65536]
set yrange [0.25:512]
set samples 400
plot (x * 58.248331657432203 < 107.36531402506152 ? x * 58.248331657432203 : 107.36531402506152) with lines linewidth 2 title 'measured peaks (58.2 GB/s, 107 GFLOP/s)', \
  'roofline-2.dat' index 0 using 1:2 with points pointtype 7 linecolor rgb '#c0392b' title 'best verified result per workload', \
  '' index 0 using 1:3:4 with labels left offset character 1,0 font ',9' notitle, \
  'roofline-2.dat' index 1 using 1:2 with points pointtype 7 linecolor rgb '#c0392b' notitle, \
  '' index 1 using 1:3:4 with labels right offset character -1,0 font ',9' notitle
unset logscale xy
set autoscale xy
