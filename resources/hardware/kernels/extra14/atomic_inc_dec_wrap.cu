// block: 128
// input: in = ints_1024.npy
// shared atomicInc / atomicDec with wrap limits: 16 counters, each lane increments counter
// (x & 15) with limit 5 + (x & 15) (wraps to 0 past the limit), 8 counters decremented with limit
// 9 (wraps to the limit at 0); only the final values (order independent) are written, plus each
// counter's final value after a second pass that increments with limit 0 (always 0)
__global__ void atomic_inc_dec_wrap(const int *in, unsigned *out) {
    __shared__ unsigned inc[16], dec[8], z[4];
    int t = threadIdx.x;
    if (t < 16) inc[t] = 0;
    if (t < 8) dec[t] = 3;
    if (t < 4) z[t] = 7;
    __syncthreads();
    for (int i = t; i < 1024; i += 128) {
        int x = in[i];
        atomicInc(&inc[x & 15], 5u + (x & 15));
        if (x & 16) atomicDec(&dec[(x >> 5) & 7], 9u);
    }
    __syncthreads();
    if (in[t] & 1) atomicInc(&z[t & 3], 0u);
    __syncthreads();
    if (t < 16) out[t] = inc[t];
    if (t < 8) out[16 + t] = dec[t];
    if (t < 4) out[24 + t] = z[t];
}
