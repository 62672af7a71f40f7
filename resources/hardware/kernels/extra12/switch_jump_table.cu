// block: 128
// input: in = floats_1024.npy
// a switch with eight dense cases on the lane's low bits (nvcc may compile it to an indirect
// branch through a jump table, BRX): each case reads the shared tile with its own pattern
__global__ void switch_jump_table(const float *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = in[i];
    __syncthreads();
    float v;
    switch (t & 7) {
        case 0: v = s[t]; break;
        case 1: v = s[t * 2] + 1.f; break;
        case 2: v = s[(t * 3) & 1023] * 2.f; break;
        case 3: v = s[t * 32 & 1023] - s[t]; break;
        case 4: v = __fsqrt_rn(fabsf(s[1023 - t])); break;
        case 5: v = s[(t ^ 0x55) + 256] * s[t + 512]; break;
        case 6: v = s[t / 8]; break;
        default: v = s[(t * 17) & 1023] + s[(t * 33) & 1023]; break;
    }
    switch ((t >> 3) % 6) {  // a second one on the group of 8, six cases
        case 0: v += s[t * 4]; break;
        case 1: v *= s[t * 4 + 1]; break;
        case 2: v -= s[t * 4 + 2]; break;
        case 3: v = fmaxf(v, s[t * 4 + 3]); break;
        case 4: v = fminf(v, s[t * 8 & 1023]); break;
        default: v += 1.f;
    }
    out[t] = v;
}
