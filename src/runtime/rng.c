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

void clmem_fill_integers(float *out, size_t n, int lo, int hi, uint64_t seed)
{
    uint64_t state = seed;
    uint64_t span = (uint64_t)(hi - lo) + 1;
    for (size_t i = 0; i < n; i++)
        out[i] = (float)(lo + (int)(clmem_rng_next(&state) % span));
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
