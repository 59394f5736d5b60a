/* tests/shogi/test_shogi_bruteforce.c: the fast generator against a slow,
 * independent one written from the rules on the nnue_board alone (make the
 * move on a copy, reject it if the mover's king is attacked; pawn-drop mate
 * by searching the opponent's replies), over random walks from corpus A. */
#include <stdlib.h>
#include <string.h>

#include "nnue_shogi.h"
#include "shogi_helpers.h"
#include "support.h"

typedef struct bf_pos {
    uint8_t p[81];
    uint8_t hand[2][8];
    int side;
} bf_pos;

enum { P = 1, L, N, S, G, B, R, K, PP, PL, PN, PS, H, D };

static const int king8[8][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
static const int gold6[6][2] = {{0, -1}, {-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}};
static const int silver5[5][2] = {{0, -1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};

/* Squares piece (type t, colour c) on sq attacks: fills out, returns count. */
static int targets(const bf_pos *b, int sq, int c, int t, int *out)
{
    int f = sq / 9, r = sq % 9, n = 0, sgn = c ? -1 : 1;
    int steps[8][2], ns = 0, slides[8][2], nl = 0;
#define ADD(arr, cnt, df, dr) (arr[cnt][0] = (df), arr[cnt][1] = (dr), cnt++)
    switch (t) {
    case P: ADD(steps, ns, 0, -1); break;
    case L: ADD(slides, nl, 0, -1); break;
    case N: ADD(steps, ns, -1, -2); ADD(steps, ns, 1, -2); break;
    case S: for (int i = 0; i < 5; i++) ADD(steps, ns, silver5[i][0], silver5[i][1]); break;
    case G: case PP: case PL: case PN: case PS:
        for (int i = 0; i < 6; i++) ADD(steps, ns, gold6[i][0], gold6[i][1]);
        break;
    case K: for (int i = 0; i < 8; i++) ADD(steps, ns, king8[i][0], king8[i][1]); break;
    case B: case H:
        for (int i = 4; i < 8; i++) ADD(slides, nl, king8[i][0], king8[i][1]);
        if (t == H) for (int i = 0; i < 4; i++) ADD(steps, ns, king8[i][0], king8[i][1]);
        break;
    case R: case D:
        for (int i = 0; i < 4; i++) ADD(slides, nl, king8[i][0], king8[i][1]);
        if (t == D) for (int i = 4; i < 8; i++) ADD(steps, ns, king8[i][0], king8[i][1]);
        break;
    }
#undef ADD
    for (int i = 0; i < ns; i++) {
        int ff = f + steps[i][0] * sgn, rr = r + steps[i][1] * sgn;
        if (ff >= 0 && ff < 9 && rr >= 0 && rr < 9)
            out[n++] = ff * 9 + rr;
    }
    for (int i = 0; i < nl; i++)
        for (int ff = f + slides[i][0] * sgn, rr = r + slides[i][1] * sgn;
             ff >= 0 && ff < 9 && rr >= 0 && rr < 9; ff += slides[i][0] * sgn, rr += slides[i][1] * sgn) {
            out[n++] = ff * 9 + rr;
            if (b->p[ff * 9 + rr])
                break;
        }
    return n;
}

static int attacked(const bf_pos *b, int sq, int by)
{
    int out[40];
    for (int s = 0; s < 81; s++)
        if (b->p[s] && NNUE_PIECE_COLOUR(b->p[s]) == by) {
            int n = targets(b, s, by, NNUE_PIECE_TYPE(b->p[s]), out);
            for (int i = 0; i < n; i++)
                if (out[i] == sq)
                    return 1;
        }
    return 0;
}

static int king_of(const bf_pos *b, int c)
{
    for (int s = 0; s < 81; s++)
        if (b->p[s] == NNUE_PIECE(c, K))
            return s;
    return -1;
}

static int rel_rank(int c, int sq) { return c ? 8 - sq % 9 : sq % 9; }

/* Legal moves as keys: drop 100000 + type*100 + to; board move from*1000 + to*10 + promo. */
static int bf_legal(const bf_pos *b, int *keys, int stop_at_one);

static void try_move(const bf_pos *b, bf_pos *nb, int *keys, int *n, int key)
{
    int us = b->side;
    nb->side = us ^ 1;
    if (attacked(nb, king_of(nb, us), us ^ 1))
        return;
    keys[(*n)++] = key;
}

static int bf_legal(const bf_pos *b, int *keys, int stop)
{
    int us = b->side, n = 0, out[40];
    static const uint8_t promo[16] = {0, PP, PL, PN, PS, 0, H, D};
    static const uint8_t demote[16] = {0, P, L, N, S, G, B, R, K, P, L, N, S, B, R};
    for (int s = 0; s < 81 && !(stop && n); s++) {
        if (!b->p[s] || NNUE_PIECE_COLOUR(b->p[s]) != us)
            continue;
        int t = NNUE_PIECE_TYPE(b->p[s]);
        int nt = targets(b, s, us, t, out);
        for (int i = 0; i < nt; i++) {
            int to = out[i];
            if (b->p[to] && NNUE_PIECE_COLOUR(b->p[to]) == us)
                continue;
            for (int pr = 0; pr < 2; pr++) {
                if (pr && !(promo[t] && (rel_rank(us, s) <= 2 || rel_rank(us, to) <= 2)))
                    continue;
                int nt2 = pr ? promo[t] : t;
                if ((nt2 == P || nt2 == L) && rel_rank(us, to) == 0)
                    continue;
                if (nt2 == N && rel_rank(us, to) <= 1)
                    continue;
                bf_pos nb = *b;
                if (nb.p[to])
                    nb.hand[us][demote[NNUE_PIECE_TYPE(nb.p[to])]]++;
                nb.p[to] = NNUE_PIECE(us, nt2);
                nb.p[s] = 0;
                try_move(b, &nb, keys, &n, s * 1000 + to * 10 + pr);
            }
        }
    }
    for (int to = 0; to < 81 && !(stop && n); to++) {
        if (b->p[to])
            continue;
        for (int t = P; t <= R; t++) {
            if (!b->hand[us][t])
                continue;
            if ((t == P || t == L) && rel_rank(us, to) == 0)
                continue;
            if (t == N && rel_rank(us, to) <= 1)
                continue;
            if (t == P) {
                int nifu = 0;
                for (int r = 0; r < 9; r++)
                    nifu |= b->p[to / 9 * 9 + r] == NNUE_PIECE(us, P);
                if (nifu)
                    continue;
            }
            bf_pos nb = *b;
            nb.p[to] = NNUE_PIECE(us, t);
            nb.hand[us][t]--;
            int before = n;
            try_move(b, &nb, keys, &n, 100000 + t * 100 + to);
            if (n > before && t == P && attacked(&nb, king_of(&nb, us ^ 1), us)) {
                int replies[NNUE_MAX_MOVES];
                if (bf_legal(&nb, replies, 1) == 0)
                    n--;   /* pawn-drop mate */
            }
        }
    }
    return n;
}

static int key_of(nnue_move m)
{
    if (NNUE_SHOGI_MOVE_IS_DROP(m))
        return 100000 + NNUE_SHOGI_MOVE_TYPE(m) * 100 + NNUE_SHOGI_MOVE_TO(m);
    return NNUE_SHOGI_MOVE_FROM(m) * 1000 + NNUE_SHOGI_MOVE_TO(m) * 10 + NNUE_SHOGI_MOVE_IS_PROMOTE(m);
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

START_TEST(random_walks_match_bruteforce)
{
    test_require_shared("oracle/shogi/corpusA.sfen");
    shogi_lines lines = shogi_read_lines("oracle/shogi/corpusA.sfen");
    unsigned seed = 12345;
    long positions = 0;
    nnue_move moves[NNUE_MAX_MOVES];
    int fast[NNUE_MAX_MOVES], slow[NNUE_MAX_MOVES];
    for (int i = 0; i < lines.count; i += 4) {
        nnue_shogi_pos pos;
        shogi_parse_ok(&pos, lines.line[i]);
        for (int ply = 0; ply < 12; ply++) {
            bf_pos b;
            memcpy(b.p, pos.board.piece_on, 81);
            memcpy(b.hand, pos.board.hand, sizeof b.hand);
            b.side = pos.board.side_to_move;
            int n = nnue_shogi_legal_moves(&pos, moves);
            for (int k = 0; k < n; k++)
                fast[k] = key_of(moves[k]);
            int m = bf_legal(&b, slow, 0);
            qsort(fast, (size_t)n, sizeof *fast, cmp_int);
            qsort(slow, (size_t)m, sizeof *slow, cmp_int);
            if (n != m || memcmp(fast, slow, sizeof *fast * (size_t)n) != 0)
                ck_abort_msg("%s: %d legal moves, brute force finds %d", shogi_sfen(&pos), n, m);
            positions++;
            if (!n)
                break;
            seed = seed * 1103515245u + 12345u;
            nnue_shogi_make(&pos, moves[(seed >> 16) % (unsigned)n], NULL);
        }
    }
    ck_assert_int_gt(positions, 5000);
    shogi_free_lines(&lines);
}
END_TEST

START_TEST(composed_positions_match_bruteforce)
{
    /* pawn-drop mate corner cases: pinned defender, defender that can capture,
     * escape through the pawn's file, dragon behind the king, white to move */
    const char *sfens[] = {
        "3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1",
        "3lkl3/9/4G4/9/9/9/9/9/4K4 b L 1",
        "3lk4/9/4G4/9/9/9/9/9/4K4 b P 1",
        "3skl3/9/4G4/9/9/9/9/9/4K4 b P 1",
        "3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1",
        "3lklb2/9/4G4/9/9/9/9/9/4K4 b P 1",
        "2Blkl3/9/4G4/9/9/9/9/9/4K4 b P 1",
        "4k4/9/9/9/9/9/4g4/9/3LKL3 w p 1",
        "4K4/9/9/9/9/9/9/9/4k4 w Pp 1",
        "8k/9/7+R1/9/9/9/9/9/K8 b P 1",
        "7lk/9/7G1/9/9/9/9/9/K8 b P 1",
        "4k4/4r4/9/9/9/9/9/4S4/4K4 b - 1",
        "4k4/9/9/9/9/9/2b6/9/4K4 b 2P2L2N2S2GBR 1",
    };
    int fast[NNUE_MAX_MOVES], slow[NNUE_MAX_MOVES];
    nnue_move moves[NNUE_MAX_MOVES];
    for (unsigned i = 0; i < sizeof sfens / sizeof sfens[0]; i++) {
        nnue_shogi_pos pos;
        shogi_parse_ok(&pos, sfens[i]);
        bf_pos b;
        memcpy(b.p, pos.board.piece_on, 81);
        memcpy(b.hand, pos.board.hand, sizeof b.hand);
        b.side = pos.board.side_to_move;
        int n = nnue_shogi_legal_moves(&pos, moves);
        for (int k = 0; k < n; k++)
            fast[k] = key_of(moves[k]);
        int m = bf_legal(&b, slow, 0);
        qsort(fast, (size_t)n, sizeof *fast, cmp_int);
        qsort(slow, (size_t)m, sizeof *slow, cmp_int);
        ck_assert_msg(n == m && memcmp(fast, slow, sizeof *fast * (size_t)n) == 0,
                      "%s: %d legal moves, brute force finds %d", sfens[i], n, m);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shogi_bruteforce");
    TCase *tc = tcase_create("movegen");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, random_walks_match_bruteforce);
    tcase_add_test(tc, composed_positions_match_bruteforce);
    suite_add_tcase(s, tc);
    return test_run(s);
}
