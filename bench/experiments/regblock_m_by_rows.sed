# An experiment, not kept (bench/README.md, "Experiments measured and not
# kept"): regblock's share of M's tile taken by rows (consecutive
# work-items, consecutive rows of M), so that STORE's transposed scalar
# writes to local memory hit 32 banks, where cl/matmul_regblock.cl gives two
# work-items each row (a two-way conflict) and reads whole 32-byte sectors
# of M.
s|a_next\[i\] = load4(M, offsetM + idx / (TSK / 4), (tileK) + (idx % (TSK / 4)) \* 4, rows, |a_next[i] = load4(M, offsetM + idx % TSM, (tileK) + (idx / TSM) * 4, rows,            |
s|const int m = idx / (TSK / 4), k = (idx % (TSK / 4)) \* 4;                              |const int m = idx % TSM, k = (idx / TSM) * 4;                                           |
