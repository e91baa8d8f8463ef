/* Connect Four by null-window alpha-beta: the C reference of perfectplay's compiled search.
 *
 * The same algorithm as src/perfectplay/solvers/compiled_search.py with the rules of
 * src/perfectplay/games/connect_four/search_template.py, step for step, so that node
 * counts are equal: bitboards (stride HEIGHT + 1, a spare row on top of each column), a non-losing move
 * generator, moves ordered by the threats they make (ties centre first), a transposition
 * table of a prime number of entries >= 2^LOG_SIZE holding one bound each (uint32 partial
 * key, int8 code), and null-window narrowing of the score at the root. Written from the
 * published description of the ideas (Pascal Pons' blog); no code copied.
 *
 * Build: gcc -O2 -march=native -DWIDTH=7 -DHEIGHT=6 c4search.c -o c4search
 * Input: one position a line, as the columns played (1-based digits), e.g. 44443
 * Output: one line per position: "score nodes total_us search_us": a fresh zeroed table
 * each (mmap, huge pages advised, as numpy does), the total time with its allocation, the search alone without it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef WIDTH
#define WIDTH 7
#endif
#ifndef HEIGHT
#define HEIGHT 6
#endif
#ifndef LOG_SIZE
#define LOG_SIZE 24
#endif

#define STRIDE (HEIGHT + 1)
#define CELLS (WIDTH * HEIGHT)
#define MIN_SCORE (-((CELLS + 1) / 2))
#define MAX_SCORE ((CELLS + 1) / 2)
#define UPPERS (MAX_SCORE - MIN_SCORE + 1)
#define NOT_OVER (-(1LL << 62))

typedef int64_t i64;

static i64 BOTTOM, BOARD;
static i64 COLUMN_MASK[WIDTH];
static int ORDER[WIDTH];

typedef struct { i64 mover, mask, stones, safe; } State;

static uint64_t SIZE;
static uint32_t *keys;
static int8_t *vals;
static i64 nodes;

static inline i64 spots(i64 d0, i64 mask) {
  /* empty cells completing four for discs d0: three of a window of four held */
  uint64_t d = (uint64_t)d0, r;
  r = (d << 1) & (d << 2) & (d << 3);
  static const int dirs[3] = {STRIDE, STRIDE - 1, STRIDE + 1};
  for (int i = 0; i < 3; i++) {
    int s = dirs[i];
    uint64_t p = (d << s) & (d << 2 * s);
    r |= p & (d << 3 * s);
    r |= p & (d >> s);
    p = (d >> s) & (d >> 2 * s);
    r |= p & (d >> 3 * s);
    r |= p & (d << s);
  }
  return (i64)(r & (uint64_t)(BOARD ^ mask));
}

static inline int aligned(i64 d0) {
  uint64_t d = (uint64_t)d0;
  static const int dirs[4] = {1, STRIDE, STRIDE - 1, STRIDE + 1};
  for (int i = 0; i < 4; i++) {
    uint64_t run = d & (d >> dirs[i]);
    if (run & (run >> 2 * dirs[i])) return 1;
  }
  return 0;
}

static inline i64 end(State *st) {
  i64 mover = st->mover, mask = st->mask, m = st->stones;
  i64 other = mover ^ mask;
  if (aligned(other)) return -((CELLS + 2 - m) / 2);
  i64 possible = (mask + BOTTOM) & BOARD;
  if (spots(mover, mask) & possible) return (CELLS + 1 - m) / 2;
  i64 threats = spots(other, mask);
  i64 forced = possible & threats;
  if (forced) {
    if (forced & (forced - 1)) return -((CELLS - m) / 2);
    possible = forced;
  }
  i64 safe = possible & ~(threats >> 1);
  if (safe == 0) return -((CELLS - m) / 2);
  if (m >= CELLS - 2) return 0;
  st->safe = safe;
  return NOT_OVER;
}

static inline int gen_moves(const State *st, i64 *out) {
  int rank[WIDTH];
  int n = 0;
  for (int i = 0; i < WIDTH; i++) {
    i64 move = st->safe & COLUMN_MASK[ORDER[i]];
    if (move) {
      int r = __builtin_popcountll((uint64_t)spots(st->mover | move, st->mask | move));
      int j = n;
      while (j > 0 && rank[j - 1] < r) { rank[j] = rank[j - 1]; out[j] = out[j - 1]; j--; }
      rank[j] = r;
      out[j] = move;
      n++;
    }
  }
  return n;
}

static inline void play(const State *from, State *to, i64 move) {
  to->mover = from->mover ^ from->mask;
  to->mask = from->mask | move;
  to->stones = from->stones + 1;
}

static i64 negamax(State *st, int p, i64 alpha, i64 beta) {
  /* recursive here (depth <= CELLS); the Python engine runs the same on a stack */
  nodes++;
  State *s = &st[p];
  i64 e = end(s);
  if (e != NOT_OVER) return e;
  i64 lo = -((CELLS - 2 - s->stones) / 2), hi = (CELLS - 1 - s->stones) / 2;
  if (alpha < lo) { alpha = lo; if (alpha >= beta) return alpha; }
  if (beta > hi) { beta = hi; if (alpha >= beta) return beta; }
  i64 k = s->mover + s->mask;
  uint64_t slot = (uint64_t)k % SIZE;
  i64 code = keys[slot] == (uint32_t)k ? vals[slot] : 0;
  if (code > UPPERS) {
    i64 bound = code - UPPERS + MIN_SCORE - 1;
    if (alpha < bound) { alpha = bound; if (alpha >= beta) return alpha; }
  } else if (code > 0) {
    i64 bound = code + MIN_SCORE - 1;
    if (beta > bound) { beta = bound; if (alpha >= beta) return beta; }
  }
  i64 moves[WIDTH];
  int n = gen_moves(s, moves);
  for (int i = 0; i < n; i++) {
    play(s, &st[p + 1], moves[i]);
    i64 score = -negamax(st, p + 1, -beta, -alpha);
    if (score >= beta) {
      keys[slot] = (uint32_t)k;
      vals[slot] = (int8_t)(score - MIN_SCORE + 1 + UPPERS);
      return score;
    }
    if (score > alpha) alpha = score;
  }
  keys[slot] = (uint32_t)k;
  vals[slot] = (int8_t)(alpha - MIN_SCORE + 1);
  return alpha;
}

static i64 half(i64 x) { return x / 2; } /* C rounds toward zero */

static i64 solve(State *st) {
  i64 first = end(&st[0]);
  if (first != NOT_OVER) { nodes = 1; return first; }
  i64 lo = -((CELLS - 2 - st[0].stones) / 2), hi = (CELLS - 1 - st[0].stones) / 2;
  while (lo < hi) {
    i64 med = lo + (hi - lo) / 2;
    if (med <= 0 && half(lo) < med) med = half(lo);
    else if (med >= 0 && half(hi) > med) med = half(hi);
    i64 r = negamax(st, 0, med, med + 1);
    if (r <= med) hi = r; else lo = r;
  }
  return lo;
}

static void *table(size_t bytes) {
  /* zeroed pages from the system, in huge pages where it allows: as numpy does for the
   * large arrays of perfectplay's table, so both programs pay the same for memory */
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) { perror("mmap"); exit(1); }
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

static int is_prime(uint64_t n) {
  if (n < 2) return 0;
  for (uint64_t d = 2; d * d <= n; d++) if (n % d == 0) return 0;
  return 1;
}

int main(void) {
  BOTTOM = 0;
  for (int c = 0; c < WIDTH; c++) {
    BOTTOM |= (i64)1 << (c * STRIDE);
    COLUMN_MASK[c] = (((i64)1 << HEIGHT) - 1) << (c * STRIDE);
    ORDER[c] = WIDTH / 2 + (1 - 2 * (c % 2)) * ((c + 1) / 2);
  }
  BOARD = BOTTOM * (((i64)1 << HEIGHT) - 1);
  SIZE = (uint64_t)1 << LOG_SIZE;
  while (!is_prime(SIZE)) SIZE++;
  char line[256];
  State st[CELLS + 2];
  while (fgets(line, sizeof line, stdin)) {
    memset(st, 0, sizeof st);
    int bad = 0;
    for (char *c = line; *c && *c != '\n' && *c != ' '; c++) {
      int col = *c - '1';
      if (col < 0 || col >= WIDTH || (st[0].mask >> (col * STRIDE + HEIGHT - 1)) & 1) { bad = 1; break; }
      i64 move = (st[0].mask + ((i64)1 << (col * STRIDE))) & COLUMN_MASK[col];
      State next;
      play(&st[0], &next, move);
      st[0] = next;
    }
    if (bad) { printf("bad\n"); fflush(stdout); continue; }
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    keys = table(SIZE * sizeof *keys);
    vals = table(SIZE * sizeof *vals);
    nodes = 0;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    i64 score = solve(st);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    munmap(keys, SIZE * sizeof *keys);
    munmap(vals, SIZE * sizeof *vals);
    double us = (t2.tv_sec - t0.tv_sec) * 1e6 + (t2.tv_nsec - t0.tv_nsec) / 1e3;
    double search_us = (t2.tv_sec - t1.tv_sec) * 1e6 + (t2.tv_nsec - t1.tv_nsec) / 1e3;
    printf("%lld %lld %.1f %.1f\n", (long long)score, (long long)nodes, us, search_us);
    fflush(stdout);
  }
  return 0;
}
