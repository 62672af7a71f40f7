// block: 128
struct P { float x, y, z; };
__global__ void aos(const float *in, float *out) {
    __shared__ P pts[128];
    int t = threadIdx.x;
    pts[t].x = in[t];
    pts[t].y = in[t + 128];
    pts[t].z = in[t + 256];
    __syncthreads();
    P p = pts[(t * 5) % 128];
    out[t] = p.x + p.y * p.z;
}
