// block: 128
// input: in = stream_4096.npy
// each thread keeps the 8 largest of its 32 values in a min-heap in shared memory (its 8 slots
// side by side: heap[t][k]): the first 8 are inserted with a sift-up, later ones replace the root
// and sift down when larger. Which slot each lane touches (so the banks), and how many, come from
// the values.
#define K 8
__global__ void heap_topk(const int *in, int *out) {
    __shared__ int heap[128][K];
    int t = threadIdx.x;
    for (int i = 0; i < 32; ++i) {
        int v = in[i * 128 + t];
        if (i < K) {  // insert: put it at the end, move it up while smaller than its parent
            int c = i;
            while (c > 0) {
                int p = (c - 1) / 2;
                int pv = heap[t][p];
                if (pv <= v) break;
                heap[t][c] = pv;
                c = p;
            }
            heap[t][c] = v;
        } else if (v > heap[t][0]) {  // replace the minimum, move it down
            int c = 0;
            while (true) {
                int l = 2 * c + 1;
                if (l >= K) break;
                int r = l + 1, m = l;
                if (r < K && heap[t][r] < heap[t][l]) m = r;
                if (heap[t][m] >= v) break;
                heap[t][c] = heap[t][m];
                c = m;
            }
            heap[t][c] = v;
        }
    }
    for (int k = 0; k < K; ++k) out[t * K + k] = heap[t][k];
}
