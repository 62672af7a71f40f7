// block: 128
// input: pos = normal_4096.npy
// n-body accelerations of 512 bodies, 4 a thread, tiles of 128 bodies staged in shared memory as
// float3 positions (12-byte stride: three 4-byte loads each) and a separate mass array; IEEE
// sqrtf and division (no approximate intrinsics)
__global__ void nbody_float3(const float *pos, float *acc_out) {
    __shared__ float3 p[128];
    __shared__ float mass[128];
    int t = threadIdx.x;
    float3 me[4], a[4];
    for (int q = 0; q < 4; ++q) {
        int b = q * 128 + t;
        me[q] = make_float3(pos[3 * b], pos[3 * b + 1], pos[3 * b + 2]);
        a[q] = make_float3(0.f, 0.f, 0.f);
    }
    for (int tile = 0; tile < 4; ++tile) {
        int b = tile * 128 + t;
        p[t] = make_float3(pos[3 * b], pos[3 * b + 1], pos[3 * b + 2]);
        mass[t] = 1.0f + (float)(t & 3) * 0.25f;
        __syncthreads();
        for (int j = 0; j < 128; ++j) {
            float3 o = p[j];
            float mj = mass[j];
            for (int q = 0; q < 4; ++q) {
                float dx = o.x - me[q].x, dy = o.y - me[q].y, dz = o.z - me[q].z;
                float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
                float inv = 1.0f / (d2 * sqrtf(d2));
                a[q].x += mj * dx * inv; a[q].y += mj * dy * inv; a[q].z += mj * dz * inv;
            }
        }
        __syncthreads();
    }
    for (int q = 0; q < 4; ++q) {
        int b = q * 128 + t;
        acc_out[3 * b] = a[q].x; acc_out[3 * b + 1] = a[q].y; acc_out[3 * b + 2] = a[q].z;
    }
}
