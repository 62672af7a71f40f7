// block: 128
struct Particles {
    float x[128];
    float y[128];
};
__global__ void soa_forces(const float *px, const float *py, float *fx, float *fy) {
    __shared__ Particles p;
    int t = threadIdx.x;
    p.x[t] = px[t];
    p.y[t] = py[t];
    __syncthreads();
    float ax = 0.f, ay = 0.f;
    float mx = p.x[t], my = p.y[t];
    for (int j = 0; j < 128; j += 4) {
        float dx = p.x[j] - mx;
        float dy = p.y[j] - my;
        float inv = rsqrtf(dx * dx + dy * dy + 1e-3f);
        ax += dx * inv;
        ay += dy * inv;
    }
    fx[t] = ax + p.x[(t + 1) & 127];
    fy[t] = ay + p.y[(t * 2) & 127];
}
