// block: 128
// input: trips = trips_128.npy
// input: in = floats_1024.npy
// each thread walks its own number of steps (read from global memory) through a shared table
__global__ void data_trip_count(const int *trips, const float *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = in[i];
    __syncthreads();
    int n = trips[t];
    float acc = 0.f;
    int j = t;
    for (int k = 0; k < n; ++k) {
        acc += s[j];
        j = (j + 33) & 1023;
    }
    out[t] = acc;
}
