# An experiment, not kept (bench/README.md, "Experiments measured and not
# kept"): cl/transpose_vec4.cl with its tiles taken in diagonal order
# (Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA", against
# partition camping): the groups that run at once write to columns spread
# over the output, not to one narrow band of it.
s|    int x0 = get_group_id(0) \* VEC_TILE, y0 = get_group_id(1) \* VEC_TILE;|    const int gx = get_num_groups(0), gy = get_num_groups(1);\n    const int id = get_group_id(0) + gx * get_group_id(1);\n    const int by = id % gy, bx = (id / gy + by) % gx;\n    int x0 = bx * VEC_TILE, y0 = by * VEC_TILE;|
