/* One loop of `steps` iterations, each adding in[t % 16]. */
__kernel void repro(__global float *out, __global const float *in, int steps)
{
    float acc = 0.0f;
    for (int t = 0; t < steps; t++)
        acc += in[t & 15];
    out[get_global_id(0)] = acc;
}
