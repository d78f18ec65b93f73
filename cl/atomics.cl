/* Race condition and atomic operations ("Race condition e operazioni
 * atomiche", CUDA course, seed 003): every work-item adds 1 to one counter.
 * The host picks WG_SIZE, the launch's local size; the default lets this
 * file build alone. */
#ifndef WG_SIZE
#define WG_SIZE 256
#endif

/* The slide's add kernel: `*a_d += 1` is a read, a modify and a write, so
 * work-items running at once overwrite each other's updates. The guard only
 * stops the work-items past N of the rounded-up NDRange. */
__kernel void add(__global int *a_d, uint n)
{
    if (get_global_id(0) < n)
        *a_d += 1;
}

/* The slide's atomic version: atomicAdd(a_d, 1), here atomic_inc, makes the
 * read-modify-write one indivisible global-memory operation. */
__kernel void addAtomic(__global int *a_d, uint n)
{
    if (get_global_id(0) < n)
        atomic_inc(a_d);
}

/* Atomics also work on shared memory: the group counts in a __local int,
 * then one work-item adds the group's count to the global counter, one
 * global atomic per group instead of one per work-item. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
addAtomicLocal(__global int *a_d, uint n)
{
    __local int count;
    if (get_local_id(0) == 0)
        count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) < n)
        atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_add(a_d, count);
}
