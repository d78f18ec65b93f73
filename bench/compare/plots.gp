set terminal svg size 900,600 dynamic noenhanced
set grid
set key below
set output 'coalescing-offset.svg'
set title 'coalescing: GB/s against offset'
set xlabel 'offset'
set ylabel 'GB/s (log scale)'
set logscale y 2
plot 'coalescing-offset_float.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 1 pointtype 1 title 'NVIDIA H100 80GB HBM3 on vm, offset_float', \
  'coalescing-offset_float.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 1 pointtype 1 title 'NVIDIA H200 on vm, offset_float', \
  'coalescing-offset_float.dat' index 2 using 1:2 with linespoints linecolor 3 dashtype 1 pointtype 1 title 'pthread-skylake-avx512-AMD EPYC on vm, offset_float', \
  'coalescing-offset_double.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 2 pointtype 2 title 'NVIDIA H100 80GB HBM3 on vm, offset_double', \
  'coalescing-offset_double.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 2 pointtype 2 title 'NVIDIA H200 on vm, offset_double', \
  'coalescing-offset_double.dat' index 2 using 1:2 with linespoints linecolor 3 dashtype 2 pointtype 2 title 'pthread-skylake-avx512-AMD EPYC on vm, offset_double'
unset logscale xy
set output 'coalescing-stride.svg'
set title 'coalescing: GB/s against stride'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 2
plot 'coalescing-stride_float.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 1 pointtype 1 title 'NVIDIA H100 80GB HBM3 on vm, stride_float', \
  'coalescing-stride_float.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 1 pointtype 1 title 'NVIDIA H200 on vm, stride_float', \
  'coalescing-stride_float.dat' index 2 using 1:2 with linespoints linecolor 3 dashtype 1 pointtype 1 title 'pthread-skylake-avx512-AMD EPYC on vm, stride_float', \
  'coalescing-stride_double.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 2 pointtype 2 title 'NVIDIA H100 80GB HBM3 on vm, stride_double', \
  'coalescing-stride_double.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 2 pointtype 2 title 'NVIDIA H200 on vm, stride_double', \
  'coalescing-stride_double.dat' index 2 using 1:2 with linespoints linecolor 3 dashtype 2 pointtype 2 title 'pthread-skylake-avx512-AMD EPYC on vm, stride_double'
unset logscale xy
set output 'matmul.svg'
set title 'matmul variants (GFLOP/s at 1024, the largest size every entry ran; baseline clblast)'
set xlabel ''
set ylabel 'GFLOP/s (log scale)'
set logscale y 2
set yrange [0.25:*]
set style data histograms
set style histogram clustered
set style fill solid 0.8
plot 'matmul.dat' using 2:xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'matmul.dat' using 3 linecolor 2 title 'NVIDIA H200 on vm', \
  'matmul.dat' using 4 linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set autoscale xy
set style data linespoints
set output 'transpose.svg'
set title 'transpose variants (GB/s, best size each; baseline copy)'
set xlabel ''
set ylabel 'GB/s (log scale)'
set logscale y 2
set yrange [1:*]
set style data histograms
set style histogram clustered
set style fill solid 0.8
plot 'transpose.dat' using 2:xtic(1) linecolor 1 title 'NVIDIA H100 80GB HBM3 on vm', \
  'transpose.dat' using 3 linecolor 2 title 'NVIDIA H200 on vm', \
  'transpose.dat' using 4 linecolor 3 title 'pthread-skylake-avx512-AMD EPYC on vm'
unset logscale xy
set autoscale xy
set style data linespoints
set format x '%.0f'
set rmargin 8
set output 'matmul-size.svg'
set title 'matmul: GFLOP/s against size'
set xlabel 'size'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
plot 'matmul-size.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 1 pointtype 1 title 'NVIDIA H100 80GB HBM3 on vm, regblock', \
  'matmul-size.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 1 pointtype 1 title 'NVIDIA H200 on vm, regblock', \
  'matmul-size.dat' index 2 using 1:2 with linespoints linecolor 3 dashtype 1 pointtype 1 title 'pthread-skylake-avx512-AMD EPYC on vm, regblock', \
  'matmul-size.dat' index 3 using 1:2 with linespoints linecolor 1 dashtype 2 pointtype 2 title 'NVIDIA H100 80GB HBM3 on vm, panel', \
  'matmul-size.dat' index 4 using 1:2 with linespoints linecolor 2 dashtype 2 pointtype 2 title 'NVIDIA H200 on vm, panel', \
  'matmul-size.dat' index 5 using 1:2 with linespoints linecolor 3 dashtype 2 pointtype 2 title 'pthread-skylake-avx512-AMD EPYC on vm, panel', \
  'matmul-size.dat' index 6 using 1:2 with linespoints linecolor 1 dashtype 3 pointtype 3 title 'NVIDIA H100 80GB HBM3 on vm, clblast', \
  'matmul-size.dat' index 7 using 1:2 with linespoints linecolor 2 dashtype 3 pointtype 3 title 'NVIDIA H200 on vm, clblast', \
  'matmul-size.dat' index 8 using 1:2 with linespoints linecolor 3 dashtype 3 pointtype 3 title 'pthread-skylake-avx512-AMD EPYC on vm, clblast'
unset logscale xy
set format x
set rmargin -1
set format x '%.0f'
set rmargin 8
set output 'reduce-size.svg'
set title 'reduce: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale xy 2
plot 'reduce-size.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 1 pointtype 1 title 'NVIDIA H100 80GB HBM3 on vm, interleaved', \
  'reduce-size.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 1 pointtype 1 title 'NVIDIA H200 on vm, interleaved', \
  'reduce-size.dat' index 2 using 1:2 with linespoints linecolor 1 dashtype 2 pointtype 2 title 'NVIDIA H100 80GB HBM3 on vm, sequential', \
  'reduce-size.dat' index 3 using 1:2 with linespoints linecolor 2 dashtype 2 pointtype 2 title 'NVIDIA H200 on vm, sequential', \
  'reduce-size.dat' index 4 using 1:2 with linespoints linecolor 1 dashtype 3 pointtype 3 title 'NVIDIA H100 80GB HBM3 on vm, coarsened', \
  'reduce-size.dat' index 5 using 1:2 with linespoints linecolor 2 dashtype 3 pointtype 3 title 'NVIDIA H200 on vm, coarsened'
unset logscale xy
set format x
set rmargin -1
set format x '%.0f'
set rmargin 8
set output 'dot-size.svg'
set title 'dot: GB/s against size'
set xlabel 'size'
set ylabel 'GB/s (log scale)'
set logscale xy 2
plot 'dot-size.dat' index 0 using 1:2 with linespoints linecolor 1 dashtype 1 pointtype 1 title 'NVIDIA H100 80GB HBM3 on vm, local_sums', \
  'dot-size.dat' index 1 using 1:2 with linespoints linecolor 2 dashtype 1 pointtype 1 title 'NVIDIA H200 on vm, local_sums', \
  'dot-size.dat' index 2 using 1:2 with linespoints linecolor 1 dashtype 2 pointtype 2 title 'NVIDIA H100 80GB HBM3 on vm, coarsened', \
  'dot-size.dat' index 3 using 1:2 with linespoints linecolor 2 dashtype 2 pointtype 2 title 'NVIDIA H200 on vm, coarsened'
unset logscale xy
set format x
set rmargin -1
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
