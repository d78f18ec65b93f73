/* Deterministic inputs: the same --seed gives the same data on every host. */
#include "base/base.h"


#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ULL

static uint64_t splitmix_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t clmem_rng_next(uint64_t *state)
{
    /* SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, well distributed. */
    return splitmix_mix(*state += SPLITMIX_GAMMA);
}

/* The fills below give element i the (i+1)-th value of clmem_rng_next from
 * `seed`: its state then is seed + (i+1) * gamma, so any piece of the array
 * can be made on its own, and the pieces on threads of their own (one
 * thread made 2 x 2^30 floats at 32768 in tens of seconds). */
struct fill_job {
    float *out;
    size_t n, parts;
    uint64_t seed;
    int integers;
    float lo, hi; /* uniform */
    int ilo;      /* integers: lo + a value below span */
    uint64_t span;
};

static int fill_part(void *arg, size_t part)
{
    const struct fill_job *job = arg;
    size_t first = (size_t)((unsigned long long)job->n * part / job->parts);
    size_t end = (size_t)((unsigned long long)job->n * (part + 1) / job->parts);
    uint64_t state = job->seed + (uint64_t)first * SPLITMIX_GAMMA;
    for (size_t i = first; i < end; i++) {
        uint64_t r = splitmix_mix(state += SPLITMIX_GAMMA);
        if (job->integers) {
            job->out[i] = (float)(job->ilo + (int)(r % job->span));
        } else {
            /* 24 random bits: exactly representable in a float. */
            float u = (float)(r >> 40) * (1.0f / 16777216.0f);
            job->out[i] = job->lo + (job->hi - job->lo) * u;
        }
    }
    return 0;
}

/* A piece per online core, none under 1 Mi values: small fills stay on
 * the calling thread. */
static void fill(struct fill_job *job)
{
    job->parts = clmem_parallel_parts(job->n / CLMEM_PARALLEL_LEAST);
    if (job->parts == 1) {
        fill_part(job, 0);
        return;
    }
    int status[CLMEM_PARALLEL_MAX];
    clmem_parallel(job->parts, fill_part, job, status);
}

void clmem_fill_uniform(float *out, size_t n, float lo, float hi, uint64_t seed)
{
    struct fill_job job = {.out = out, .n = n, .seed = seed, .lo = lo, .hi = hi};
    fill(&job);
}

void clmem_fill_integers(float *out, size_t n, int lo, int hi, uint64_t seed)
{
    struct fill_job job = {.out = out,
                           .n = n,
                           .seed = seed,
                           .integers = 1,
                           .ilo = lo,
                           .span = (uint64_t)(hi - lo) + 1};
    fill(&job);
}

void clmem_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; round++) {
        if (round > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}
