/* Deterministic inputs: the same --seed gives the same data on every host. */
#include "clmem/clmem.h"

uint64_t clmem_rng_next(uint64_t *state)
{
    /* SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, well distributed. */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void clmem_fill_uniform(float *out, size_t n, float lo, float hi, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        /* 24 random bits: exactly representable in a float. */
        float u = (float)(clmem_rng_next(&state) >> 40) * (1.0f / 16777216.0f);
        out[i] = lo + (hi - lo) * u;
    }
}
