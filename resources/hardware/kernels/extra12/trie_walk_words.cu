// block: 128
// input: trie = trie_dict.npy
// input: text = text_4096.npy
// count dictionary words in 4096 bytes of text by walking a trie held in shared memory: at each word
// start a thread follows node * 27 + letter until the letters or the trie run out; node * 27 + 26
// marks a word's end. Which entries are read, and how long each walk is, come from the text.
#define MAX_NODES 151
__device__ __forceinline__ bool is_letter(unsigned char c) { return (unsigned char)((c | 0x20) - 'a') < 26; }
__global__ void trie_walk(const int *trie, const unsigned char *text, int *node_hits, int *per_thread) {
    __shared__ int nodes[MAX_NODES * 27];
    __shared__ unsigned char s_text[4096];
    __shared__ int hits[MAX_NODES];
    int t = threadIdx.x;
    for (int i = t; i < MAX_NODES * 27; i += 128) nodes[i] = trie[i];  // unused nodes are zeros
    for (int i = t; i < 4096; i += 128) s_text[i] = text[i];
    for (int i = t; i < MAX_NODES; i += 128) hits[i] = 0;
    __syncthreads();
    int found = 0;
    for (int p = t * 32; p < t * 32 + 32; ++p) {
        if (!is_letter(s_text[p]) || (p > 0 && is_letter(s_text[p - 1]))) continue;  // not a word start
        int n = 0, q = p;
        while (q < 4096 && is_letter(s_text[q])) {
            n = nodes[n * 27 + ((s_text[q] | 0x20) - 'a')];
            if (n == 0) break;
            ++q;
        }
        bool whole = n != 0 && (q == 4096 || !is_letter(s_text[q]));
        if (whole && nodes[n * 27 + 26]) { atomicAdd(&hits[n], 1); ++found; }
    }
    per_thread[t] = found;
    __syncthreads();
    for (int i = t; i < MAX_NODES; i += 128) node_hits[i] = hits[i];
}
