set terminal svg size 900,560 dynamic
set grid
set key below
set output 'coalescing-offset.svg'
set title 'bandwidth against offset (float)'
set xlabel 'offset'
set ylabel 'GB/s (log scale)'
set logscale y 2
plot 'coalescing-offset_float.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3', 'coalescing-offset_float.dat' index 1 using 1:2 with linespoints title 'cpu-skylake-avx512-Intel(R) Xeon(R) Processor'
unset logscale xy
set output 'coalescing-stride.svg'
set title 'bandwidth against stride (float)'
set xlabel 'stride'
set ylabel 'GB/s (log scale)'
set logscale y 2
plot 'coalescing-stride_float.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3', 'coalescing-stride_float.dat' index 1 using 1:2 with linespoints title 'cpu-skylake-avx512-Intel(R) Xeon(R) Processor'
unset logscale xy
set output 'transpose.svg'
set title 'transpose variants (GB/s)'
set xlabel ''
set ylabel 'GB/s (log scale)'
set logscale y 2
set style data histograms
set style histogram clustered
set style fill solid 0.8
set key autotitle columnheader
plot 'transpose.dat' using 2:xtic(1), '' using 3, '' using 4, '' using 5
unset logscale xy
set style data linespoints
set key noautotitle
set output 'matmul-tiled.svg'
set title 'matmul tiled_bounds (Fig 4.20)'
set xlabel 'N'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
plot 'matmul-tiled_bounds.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3', 'matmul-tiled_bounds.dat' index 1 using 1:2 with linespoints title 'cpu-skylake-avx512-Intel(R) Xeon(R) Processor'
unset logscale xy
set output 'matmul-regblock.svg'
set title 'matmul regblock'
set xlabel 'N'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
plot 'matmul-regblock.dat' index 0 using 1:2 with linespoints title 'NVIDIA H100 80GB HBM3', 'matmul-regblock.dat' index 1 using 1:2 with linespoints title 'cpu-skylake-avx512-Intel(R) Xeon(R) Processor'
unset logscale xy
set output 'roofline-0.svg'
set title 'roofline: NVIDIA H100 80GB HBM3'
set xlabel 'flops per byte'
set ylabel 'GFLOP/s'
set logscale xy 2
set xrange [0.125:1024]
set yrange [62.4657:127930]
plot (x * 2628.01 < 63964.9 ? x * 2628.01 : 63964.9) title 'measured peaks (2628 GB/s, 63965 GFLOP/s)' with lines, 'roofline-0.dat' using 1:2 with points pointtype 7 title 'matmul variants'
unset logscale xy
set autoscale xy
set output 'roofline-1.svg'
set title 'roofline: cpu-skylake-avx512-Intel(R) Xeon(R) Processor'
set xlabel 'flops per byte'
set ylabel 'GFLOP/s'
set logscale xy 2
set xrange [0.125:1024]
set yrange [0.55455:1135.72]
plot (x * 135.753 < 567.859 ? x * 135.753 : 567.859) title 'measured peaks (136 GB/s, 568 GFLOP/s)' with lines, 'roofline-1.dat' using 1:2 with points pointtype 7 title 'matmul variants'
unset logscale xy
set autoscale xy
