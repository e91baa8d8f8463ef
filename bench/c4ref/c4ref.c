/* c4ref.c - single-threaded strong solver for Connect Four on a W x H board, for benchmarks.
 *
 * Usage: c4ref W H [-v]        (W*(H+1) <= 62 and W*H <= 32)
 * Values every position reachable from the empty board by legal play (play stops once the
 * player who just moved has 4 in a row, or the board is full), without symmetry, and prints
 * one line: positions, WIN/LOSS/TIE counts for the player to move, start value and
 * remoteness, wall seconds and peak RSS (getrusage maxrss, and Linux VmHWM). -v adds per-ply
 * counts on stderr.
 *
 * Bitboard: column c holds bits c*(H+1) .. c*(H+1)+H-1 plus an always-empty guard bit on top.
 * mask = all discs, mover = discs of the player to move; a drop in column c gives
 * mask' = mask | (mask + bottom_c), mover' = mover ^ mask. "The previous player has 4 in a
 * row" is won(mover ^ mask), by the usual shift-and tests (guard bits stop wrap-around).
 *
 * Key encoding, 4 bytes per position: mover + mask is a unique 64-bit key, and its mask part
 * is fixed by the column-height profile (h_0..h_{W-1}). So positions are grouped by profile
 * (pid = sum h_c (H+1)^c, ply p = sum h_c) and inside a group a position is only
 * code = pext(mover, mask): the mover's discs read off the p occupied cells, p <= W*H <= 32
 * bits. Each ply is one array of codes, ascending inside each group, groups in pid order;
 * gstart/gcnt[pid] locate a group. A bitmap per ply marks the terminal (won) positions.
 *
 * Moves act on codes directly: the child in column c of a parent with code x has code
 * ins0(~x, k): the players swap (complement the p bits) and the new cell, owned by the player
 * who just moved, enters as a 0 bit at its rank k among the occupied cells. A child group's
 * parents all lie in the <= W groups one disc below it.
 *
 * Forward, ply p -> p+1, with no sort: for each child group, set a bit in a 2^(p+1)-bit scratch
 * bitmap for every child of its non-terminal parents, then read the set bits back in order
 * (sorted and deduplicated for free) and test each new position for a win.
 *
 * Backward, ply N down to 0, one byte per position: LOSS in r plies = 64 + r, TIE in r plies
 * = 191 - r, WIN in r plies = 255 - r (2 bits value, 6 bits remoteness). Ordered so that a
 * parent's byte is the max over its children of conv[child byte], conv being the parent's
 * outcome through that child: WIN = 1 + min over lost children, else TIE = 1 + min over tie
 * children, else LOSS = 1 + max over children. Ends get 64 (LOSS 0) or, for a full board
 * with no win, 191 (TIE 0). For each child group, its bytes are spread into a 2^(p+1)-byte
 * scratch table indexed by code (never cleared: only members are read back), then its parent
 * groups look their children up there. Ply p+1 is freed once ply p is valued, so the peak is
 * about 4 bytes of keys + 1/8 byte of terminal bits per position, plus 2^N + 2^N/8 bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef uint32_t code_t;

#define MAXN 32
static int W, H, H1, N, verbose;
static uint64_t npid, pw[64];           /* number of profiles, (H+1)^c */
static uint64_t *pmask, *gstart, *gcnt; /* per profile: mask, group start, group size */
static uint64_t *bypid, plyoff[MAXN + 3]; /* profiles listed ply by ply */
static code_t *keys[MAXN + 1];
static uint64_t *term[MAXN + 1], nply[MAXN + 1];
static uint8_t *vals[MAXN + 1], conv[256], *tbl; /* tbl: 2^N bytes of scratch */
static uint64_t *seen;                    /* 2^N bits of scratch */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "c4ref: out of memory (%zu bytes)\n", n); exit(3); }
    return p;
}

static void *xcalloc(size_t n) {
    void *p = calloc(n ? n : 1, 1);
    if (!p) { fprintf(stderr, "c4ref: out of memory (%zu bytes)\n", n); exit(3); }
    return p;
}

static inline uint64_t deposit(uint64_t x, uint64_t m) {
#ifdef __BMI2__
    return _pdep_u64(x, m);
#else
    uint64_t r = 0;
    for (; m; m &= m - 1, x >>= 1)
        if (x & 1) r |= m & -m;
    return r;
#endif
}

static inline int won(uint64_t b) {
    uint64_t m;
    m = b & (b >> 1);
    if (m & (m >> 2)) return 1;
    m = b & (b >> H1);
    if (m & (m >> 2 * H1)) return 1;
    m = b & (b >> (H1 - 1));
    if (m & (m >> 2 * (H1 - 1))) return 1;
    m = b & (b >> (H1 + 1));
    return (m & (m >> 2 * (H1 + 1))) != 0;
}

/* insert a 0 bit at position k */
static inline uint64_t ins0(uint64_t y, int k) {
    uint64_t lo = y & ((1ULL << k) - 1);
    return ((y ^ lo) << 1) | lo;
}

static inline int bit(const uint64_t *t, uint64_t i) { return (t[i >> 6] >> (i & 63)) & 1; }

static inline int height(uint64_t pid, int c) { return (int)(pid / pw[c] % H1); }

/* rank among the occupied cells of the cell at height h of column c, in profile mask m */
static inline int rank_of(uint64_t m, int c, int h) {
    return __builtin_popcountll(m & ((1ULL << (c * H1 + h)) - 1));
}

/* build ply p+1 from ply p: per child group, mark the children of its <= W parent groups in
 * the bitmap seen, then read them back in ascending order (clearing seen as we go) */
static void forward(int p) {
    uint64_t cap = (uint64_t)W * nply[p], n = 0, full = (1ULL << p) - 1;
    uint64_t words = ((1ULL << (p + 1)) + 63) / 64;
    code_t *out = xmalloc(cap * sizeof(code_t)); /* untouched pages cost no RSS */
    uint64_t *t = xcalloc((cap + 63) / 64 * 8);
    for (uint64_t e = plyoff[p + 1]; e < plyoff[p + 2]; e++) {
        uint64_t q = bypid[e], M = pmask[q];
        gstart[q] = n;
        for (int c = 0; c < W; c++) {
            int h = height(q, c);
            if (h == 0 || gcnt[q - pw[c]] == 0) continue;
            uint64_t pq = q - pw[c], g = gstart[pq], cnt = gcnt[pq];
            const code_t *a = keys[p] + g;
            int k = rank_of(M, c, h - 1);
            for (uint64_t i = 0; i < cnt; i++)
                if (!bit(term[p], g + i)) {
                    uint64_t y = ins0(~(uint64_t)a[i] & full, k);
                    seen[y >> 6] |= 1ULL << (y & 63);
                }
        }
        for (uint64_t w = 0; w < words; w++) {
            uint64_t x = seen[w];
            if (!x) continue;
            for (seen[w] = 0; x; x &= x - 1) {
                uint64_t y = w * 64 + (uint64_t)__builtin_ctzll(x);
                if (won(deposit(y, M) ^ M)) t[n >> 6] |= 1ULL << (n & 63);
                out[n++] = (code_t)y;
            }
        }
        gcnt[q] = n - gstart[q];
    }
    keys[p + 1] = realloc(out, (n ? n : 1) * sizeof(code_t));
    term[p + 1] = realloc(t, (n + 63) / 64 * 8 + 8);
    nply[p + 1] = n;
}

/* value ply p from ply p+1: per child group, spread its bytes into the table tbl (indexed by
 * code; only members are ever read back), then update its <= W parent groups */
static void backward(int p) {
    vals[p] = xmalloc(nply[p]);
    for (uint64_t i = 0; i < nply[p]; i++)
        vals[p][i] = bit(term[p], i) ? 64 : (p == N ? 191 : 0);
    if (p == N) return;
    uint64_t full = (1ULL << p) - 1;
    for (uint64_t e = plyoff[p + 1]; e < plyoff[p + 2]; e++) {
        uint64_t cq = bypid[e], M = pmask[cq];
        const code_t *b = keys[p + 1] + gstart[cq];
        const uint8_t *bv = vals[p + 1] + gstart[cq];
        for (uint64_t j = 0; j < gcnt[cq]; j++) tbl[b[j]] = bv[j];
        for (int c = 0; c < W; c++) {
            int h = height(cq, c);
            if (h == 0 || gcnt[cq - pw[c]] == 0) continue;
            uint64_t q = cq - pw[c], cnt = gcnt[q];
            const code_t *a = keys[p] + gstart[q];
            uint8_t *v = vals[p] + gstart[q];
            int k = rank_of(M, c, h - 1);
            for (uint64_t i = 0; i < cnt; i++) {
                if (v[i] == 64) continue; /* terminal: only ends have byte 64 */
                uint8_t u = conv[tbl[ins0(~(uint64_t)a[i] & full, k)]];
                if (u > v[i]) v[i] = u;
            }
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: c4ref W H [-v]\n"); return 2; }
    W = atoi(argv[1]);
    H = atoi(argv[2]);
    verbose = argc > 3 && strcmp(argv[3], "-v") == 0;
    H1 = H + 1;
    N = W * H;
    if (W < 1 || H < 1 || W * H1 > 62 || N > (int)(8 * sizeof(code_t))) {
        fprintf(stderr, "c4ref: need W*(H+1) <= 62 and W*H <= %d\n", (int)(8 * sizeof(code_t)));
        return 2;
    }
    double t0 = now();
    npid = 1;
    for (int c = 0; c < W; c++) {
        pw[c] = npid;
        if (npid > (1ULL << 28) / H1) { fprintf(stderr, "c4ref: too many profiles\n"); return 2; }
        npid *= H1;
    }
    pmask = xmalloc(npid * 8);
    gstart = xcalloc(npid * 8);
    gcnt = xcalloc(npid * 8);
    bypid = xmalloc(npid * 8);
    uint8_t *pply = xmalloc(npid);
    for (uint64_t q = 0; q < npid; q++) {
        uint64_t m = 0;
        int s = 0;
        for (int c = 0; c < W; c++) {
            int h = height(q, c);
            s += h;
            m |= ((1ULL << h) - 1) << (c * H1);
        }
        pmask[q] = m;
        pply[q] = (uint8_t)s;
        plyoff[s + 2]++;
    }
    for (int p = 0; p <= N; p++) plyoff[p + 2] += plyoff[p + 1];
    for (uint64_t q = 0; q < npid; q++) bypid[plyoff[pply[q] + 1]++] = q;
    free(pply); /* plyoff[p] is now the first entry of ply p */

    for (int b = 64; b < 256; b++) /* child's byte -> parent's byte through that child */
        conv[b] = (uint8_t)(b < 128 ? 318 - b : b < 192 ? b - 1 : 320 - b);

    seen = xcalloc(((1ULL << N) + 63) / 64 * 8);
    tbl = xmalloc(1ULL << N);
    keys[0] = xcalloc(sizeof(code_t));
    term[0] = xcalloc(8);
    nply[0] = 1;
    gcnt[0] = 1;
    uint64_t total = 1;
    for (int p = 0; p < N; p++) {
        forward(p);
        total += nply[p + 1];
    }
    double t1 = now();

    uint64_t cnt[4] = {0, 0, 0, 0};
    for (int p = N; p >= 0; p--) {
        backward(p);
        uint64_t c[4] = {0, 0, 0, 0};
        for (uint64_t i = 0; i < nply[p]; i++) c[vals[p][i] >> 6]++;
        for (int k = 0; k < 4; k++) cnt[k] += c[k];
        if (verbose)
            fprintf(stderr, "ply %2d: %12llu positions  win %llu loss %llu tie %llu\n", p,
                    (unsigned long long)nply[p], (unsigned long long)c[3],
                    (unsigned long long)c[1], (unsigned long long)c[2]);
        if (c[0]) { fprintf(stderr, "c4ref: unvalued position at ply %d\n", p); return 1; }
        if (p < N) { free(keys[p + 1]); free(term[p + 1]); free(vals[p + 1]); }
    }
    uint8_t s = vals[0][0];
    const char *name = s >= 192 ? "WIN" : s >= 128 ? "TIE" : "LOSS";
    int rem = s >= 192 ? 255 - s : s >= 128 ? 191 - s : s - 64;
    double t2 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    /* maxrss survives exec, so under a fat parent it has a floor; Linux's VmHWM does not */
    long hwm = 0;
    char ln[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(ln, sizeof ln, f))
        if (sscanf(ln, "VmHWM: %ld", &hwm) == 1) break;
    if (f) fclose(f);
    printf("W=%d H=%d positions=%llu win=%llu loss=%llu tie=%llu start=%s remoteness=%d "
           "seconds=%.3f forward_seconds=%.3f maxrss_kb=%ld hwm_kb=%ld\n",
           W, H, (unsigned long long)total, (unsigned long long)cnt[3],
           (unsigned long long)cnt[1], (unsigned long long)cnt[2], name, rem, t2 - t0, t1 - t0,
           ru.ru_maxrss, hwm);
    return 0;
}
