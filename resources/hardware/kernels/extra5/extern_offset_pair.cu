// block: 32, 8
// extern-size: 8448
// two 32x32 tiles carved from one dynamic buffer: a padded (stride 33), b unpadded right after it
__global__ void extern_pair(const float *in, float *out) {
    extern __shared__ float smem[];
    float *a = smem;
    float *b = smem + 33 * 32;
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 8) {
        a[(y + j) * 33 + x] = in[(y + j) * 32 + x];
        b[(y + j) * 32 + x] = in[1024 + (y + j) * 32 + x];
    }
    __syncthreads();
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * 32 + x] = a[x * 33 + y + j] - b[x * 32 + y + j];
}
