// block: 128
// input: text = text_4096.npy
// tokenizer: 4096 bytes of text in shared memory, 32 consecutive bytes a thread (byte loads 32
// bytes apart across the lanes); a switch classifies each byte (space, comma, full stop, newline,
// other), a word starts after a delimiter; per-thread counts, a shared scan of the token counts,
// then each thread writes its token start positions in order
__global__ void tokenizer(const unsigned char *text, int *token_starts, int *class_counts, int *num_tokens) {
    __shared__ __align__(4) unsigned char s[4096];
    __shared__ int classes[5];
    __shared__ int scan[128];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) ((unsigned int *)s)[i] = ((const unsigned int *)text)[i];
    if (t < 5) classes[t] = 0;
    __syncthreads();
    int cls[5] = {0, 0, 0, 0, 0}, tokens = 0;
    unsigned char before = t > 0 ? s[t * 32 - 1] : ' ';
    bool prev_delim = before == ' ' || before == ',' || before == '.' || before == '\n';
    for (int i = 0; i < 32; ++i) {
        bool delim = true;
        switch (s[t * 32 + i]) {
            case ' ': cls[0]++; break;
            case ',': cls[1]++; break;
            case '.': cls[2]++; break;
            case '\n': cls[3]++; break;
            default: cls[4]++; delim = false;
        }
        if (!delim && prev_delim) ++tokens;
        prev_delim = delim;
    }
    for (int c = 0; c < 5; ++c) if (cls[c]) atomicAdd(&classes[c], cls[c]);
    scan[t] = tokens;
    __syncthreads();
    for (int o = 1; o < 128; o <<= 1) {  // Hillis-Steele inclusive scan of the token counts
        int y = t >= o ? scan[t - o] : 0;
        __syncthreads();
        scan[t] += y;
        __syncthreads();
    }
    int k = scan[t] - tokens;
    prev_delim = before == ' ' || before == ',' || before == '.' || before == '\n';
    for (int i = 0; i < 32; ++i) {
        unsigned char c = s[t * 32 + i];
        bool delim = c == ' ' || c == ',' || c == '.' || c == '\n';
        if (!delim && prev_delim) token_starts[k++] = t * 32 + i;
        prev_delim = delim;
    }
    if (t < 5) class_counts[t] = classes[t];
    if (t == 127) num_tokens[0] = scan[127];
}
