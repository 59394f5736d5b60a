/* core/eval/state.c: creating, resetting and moving through the per-thread accumulator stack. */
#include "core/eval/state.h"

#include "base/error.h"
#include "core/eval/board_check.h"
#include "core/eval/board_fit.h"

#include <stdlib.h>
#include <string.h>

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* The state runs on k: its board checks, and its copies of the sets' parameters (what the sets are
 * called with) carrying k for the sets that list with kernels (features/feature_set.h). */
static void use_kernels(nnue_state *s, const nnue_kernels *k)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    s->kernels = k;
    nnue_board_shape_use_kernels(&s->shape, k);
    for (int i = 0; i < ft->n_sets; i++) {
        s->set_params[i] = ft->sets[i].params;
        s->set_params[i].kernels = k;
    }
}

/* Two sets whose summaries are the same functions (features/feature_set.h): one is kept for both. */
static int same_summary(const nnue_feature_set *a, const nnue_feature_set *b)
{
    return a->summary == b->summary && a->summary_move == b->summary_move && a->summary_bytes == b->summary_bytes;
}

/* Adds the pairs threat set fs can read to f (every pair when it does not say), with attackers[]
 * the same pairs by victim. */
static void add_threat_pairs(nnue_threat_filter *f, const nnue_feature_set *fs, const nnue_feature_params *params)
{
    uint32_t victims[32];
    if (fs->threat_pairs)
        fs->threat_pairs(params, victims);
    else
        memset(victims, 0xFF, sizeof victims);
    for (int x = 0; x < 32; x++) {
        f->victims[x] |= victims[x];
        for (int y = 0; y < 32; y++)
            f->attackers[y] |= (victims[x] >> y & 1u) << x;
    }
}

nnue_state *nnue_state_new(const nnue_net *net, int max_ply)
{
    if (!net || max_ply < 0 || max_ply > 100000 || nnue_net_retain(net) != 0)
        return NULL;
    nnue_state *s = calloc(1, sizeof *s);
    if (!s) {
        nnue_net_release(net);
        return NULL;
    }
    const nnue_arch *a = net->arch;
    size_t acc_bytes = round_up(a->ft.width * sizeof(int16_t), 64);
    size_t psqt_bytes = round_up((a->ft.psqt_buckets ? a->ft.psqt_buckets : 1) * sizeof(int32_t), 64);
    size_t per_entry = 2 * (acc_bytes + psqt_bytes);
    s->net = net;
    s->shape = nnue_board_shape_of(a->game_desc);
    nnue_push_check_init(&s->push_check, &s->shape, &a->ft);
    s->all_sets = (1u << a->ft.n_sets) - 1;
    use_kernels(s, nnue_kernels_for(nnue_isa_current()));
    for (int k = 0; k < a->ft.n_sets; k++) {
        const nnue_feature_set *fs = a->ft.sets[k].features;
        if (fs->max_pieces && (!s->limit_set || fs->max_pieces < s->max_pieces))
            s->max_pieces = fs->max_pieces, s->limit_set = fs;
        s->push_reads_board |= fs->refresh_reads_board;
        if (fs->exact_board && !fs->changed_any_board)
            s->step_reads_board[0] |= 1u << k;
        if (fs->exact_board && !(fs->changed_threats ? fs->threats_read_kings : fs->changed_any_board))
            s->step_reads_board[1] |= 1u << k;
        s->pads |= fs->pads_to_max;
        s->takes_threats |= fs->changed_threats != NULL;
        if (fs->changed_threats)
            add_threat_pairs(&s->threat_filter, fs, &s->set_params[k]);
        s->ext_sets |= nnue_fs_is_extension(fs);
        if (fs->summary && fs->summary_move && fs->summary_bytes <= NNUE_FS_SUMMARY_BYTES) {
            int j = 0; /* the first set with the same summary keeps it for both */
            while (j < k && !(s->summary_sets >> j & 1 && same_summary(a->ft.sets[j].features, fs)))
                j++;
            s->summary_sets |= 1u << k;
            s->summary_owners |= (unsigned)(j == k) << k;
            s->summary_slot[k] = (uint8_t)j;
        }
    }
    s->cache_on = 0; /* see nnue_state_set_refresh_cache in include/nnue.h */
    nnue_refresh_cache_init(&s->cache, net);
    s->max_ply = max_ply;
    s->tpart_slot = nnue_table_parts_slot(net);
    s->entries = calloc((size_t)max_ply + 1, sizeof *s->entries);
    s->memory = aligned_alloc(64, per_entry * ((size_t)max_ply + 1));
    s->scratch_values = nnue_forward_scratch_values(net);
    s->scratch = aligned_alloc(64, round_up(s->scratch_values * sizeof(int32_t), 64));
    int exact = 0;
    for (int k = 0; k < a->ft.n_sets; k++)
        exact |= a->ft.sets[k].features->exact_board;
    if (exact)
        s->boards = malloc(sizeof *s->boards * ((size_t)max_ply + 1));
    if (a->ft.n_sets > 1)
        s->row_pool = malloc(NNUE_ROW_POOL * sizeof *s->row_pool);
    s->whole_rows = nnue_acc_whole_row_requests();
    if (s->summary_sets)
        s->summaries = calloc(((size_t)max_ply + 1) * (size_t)a->ft.n_sets, NNUE_FS_SUMMARY_BYTES);
    if (!s->entries || !s->memory || !s->scratch || (exact && !s->boards) || (a->ft.n_sets > 1 && !s->row_pool) ||
        (s->summary_sets && !s->summaries)) {
        nnue_state_free(s);
        return NULL;
    }
    char *p = s->memory;
    for (int i = 0; i <= max_ply; i++)
        for (int c = 0; c < 2; c++) {
            s->entries[i].acc[c] = (int16_t *)p;
            p += acc_bytes;
            s->entries[i].psqt[c] = (int32_t *)p;
            p += psqt_bytes;
        }
    return s;
}

int nnue_state_set_isa(nnue_state *s, nnue_isa isa)
{
    const nnue_kernels *k = isa <= nnue_isa_best() ? nnue_kernels_for(isa) : NULL;
    if (!k)
        return -1;
    use_kernels(s, k);
    nnue_state_invalidate(s);
    nnue_refresh_cache_clear(&s->cache);
    return 0;
}

void nnue_state_set_whole_board_checks(nnue_state *s, int on)
{
    if (s)
        s->whole_boards = on != 0;
}

void nnue_state_set_refresh_cache(nnue_state *s, int on)
{
    if (!s)
        return;
    s->cache_on = on != 0;
    nnue_refresh_cache_clear(&s->cache);
}

void nnue_state_free(nnue_state *s)
{
    if (!s)
        return;
    nnue_refresh_cache_free(&s->cache);
    free(s->entries);
    free(s->memory);
    free(s->scratch);
    free(s->boards);
    free(s->threat_stack);
    free(s->row_pool);
    free(s->summaries);
    nnue_net_release(s->net); /* the net's memory goes with its last state after nnue_net_free */
    free(s);
}

/* Checks a board the caller hands over (0 = fits): core/eval/board_fit.c. A refusal is kept in
 * s->error. */
static int check_board(nnue_state *s, const nnue_board *board)
{
    const nnue_board_limits limits = {&s->net->arch->ft, s->max_pieces, s->limit_set};
    int pieces = -1;
    int fits = nnue_board_fits_net(&s->shape, &limits, board, &pieces, &s->error);
    if (pieces >= 0) /* the game's rules passed */
        s->board_pieces = s->pads && pieces < s->max_pieces ? s->max_pieces : pieces;
    return fits;
}

/* The pieces each perspective's accumulator will hold after this move (its parent's plus the
 * pieces the delta puts on the board or in a hand, minus those it takes off: scan->change): more
 * than the net's feature sets take is refused (0 = fits), naming the entry that adds one. For
 * deltas that describe the moves between the boards (include/nnue.h) this is the count of the
 * board the deltas lead to, so no chain of moves brings an accumulator past the active features
 * the weights' ranges assume; deltas that contradict their boards give a defined (wrapping) value
 * of no meaning, as any other wrong delta does. */
static int pieces_after(nnue_state *s, nnue_acc_entry *e, const nnue_delta *delta, const nnue_delta_scan *scan)
{
    int change = scan->change, adds = scan->adds;
    for (int p = 0; p < 2; p++)
        e->pieces[p] = e[-1].pieces[p] + change;
    int most = e->pieces[0] > e->pieces[1] ? e->pieces[0] : e->pieces[1];
    if (!s->max_pieces || most <= s->max_pieces || change <= 0)
        return 0;
    const nnue_feature_set *fs = s->limit_set;
    const nnue_dirty *d = &delta->dirty[adds];
    nnue_fail_at(&s->error, NNUE_E_ARG, "nnue_delta", 0, 0,
                 "%d pieces after this move (board and hands, kings included%s): the net's feature set %s "
                 "takes at most %d; dirty[%d] adds piece 0x%02x (to square %d) and takes none off",
                 most, s->pads ? ", the padding of a feature list counted" : "", fs->name, s->max_pieces, adds,
                 d->new_piece, d->new_sq);
    return -1;
}

/* An entry whose board, delta or threats did not fit: never applied, both perspectives refresh
 * from the board (which evaluate() checks whole first). */
static void mark_bad(nnue_acc_entry *e)
{
    memset(&e->delta, 0, sizeof e->delta);
    e->pieces[0] = e[-1].pieces[0];
    e->pieces[1] = e[-1].pieces[1];
    e->has_threats = 0;
    e->refresh[0] = e->refresh[1] = 0xff;
    e->computed[0] = e->computed[1] = 0;
}

/* 1 (with s->error set) when the state's net was freed under it: include/nnue.h's lifetime rule. */
static int net_gone(nnue_state *s)
{
    if (!nnue_net_is_freed(s->net))
        return 0;
    nnue_fail(&s->error, NNUE_E_ARG,
              "this state's net was freed (nnue_net_free) while the state was alive: free its states first");
    return 1;
}

/* Entry i's board summaries (features/feature_set.h): from the board when fresh (a root, an entry
 * that did not fit, or the child of one), else from entry i - 1's and the move. */
static void take_summaries(nnue_state *s, int i, const nnue_board *board, const nnue_delta *delta, int fresh)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    for (unsigned m = s->summary_owners; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        const nnue_feature_set *fs = ft->sets[k].features;
        if (fresh)
            fs->summary(&s->set_params[k], board, nnue_state_summary(s, i, k));
        else
            fs->summary_move(&s->set_params[k], board, delta, nnue_state_summary(s, i - 1, k),
                             nnue_state_summary(s, i, k));
    }
}

int nnue_state_reset(nnue_state *s, const nnue_board *board)
{
    if (!s || net_gone(s))
        return -1;
    s->ply = 0;
    s->bad_deltas = 0;
    s->entries[0].computed[0] = s->entries[0].computed[1] = 0;
    s->entries[0].tpart_ok[0] = s->entries[0].tpart_ok[1] = 0;
    s->entries[0].has_threats = 0;
    s->entries[0].threats_at = 0;
    s->error.code = NNUE_OK;
    s->bad_root = check_board(s, board) != 0;
    s->entries[0].pieces[0] = s->entries[0].pieces[1] = s->bad_root ? 0 : s->board_pieces;
    s->root_summary = board && !s->bad_root;
    if (s->root_summary)
        take_summaries(s, 0, board, NULL, 1);
    return s->bad_root ? -1 : 0;
}

int nnue_state_push(nnue_state *s, const nnue_board *board, const nnue_delta *delta)
{
    if (!s || net_gone(s))
        return -1;
    s->error.code = NNUE_OK;
    if (s->ply >= s->max_ply) {
        nnue_fail(&s->error, NNUE_E_ARG, "state full: %d moves pushed, max_ply %d (nothing pushed)", s->ply,
                  s->max_ply);
        return -1;
    }
    nnue_acc_entry *e = &s->entries[++s->ply];
    const nnue_ft_desc *ft = &s->net->arch->ft;
    /* Push checks what it reads: the delta, the kings and side to move (needs_refresh()), the
     * whole board only when a set's needs_refresh() reads it or every board is to be checked;
     * evaluate() checks the board whole wherever it reads it. A board or delta that does not fit
     * is kept out of every update (needs_refresh() reads both): the entry forces both
     * perspectives to refresh from the board, which evaluate() checks first. */
    nnue_delta_scan scan;
    e->bad_delta = (s->whole_boards || s->push_reads_board ? check_board(s, board)
                                                            : nnue_board_check_kings(&s->shape, board, &s->error)) != 0 ||
                   nnue_push_delta_scan(&s->push_check, &s->shape, delta, &scan, &s->error) != 0 ||
                   pieces_after(s, e, delta, &scan) != 0;
    s->bad_deltas += e->bad_delta;
    e->has_threats = 0;
    e->threats_at = e[-1].threats_at + (e[-1].has_threats ? e[-1].n_threats_removed + e[-1].n_threats_added : 0u);
    if (e->bad_delta) {
        mark_bad(e);
        if (board) /* its children's summaries start from this board's */
            take_summaries(s, s->ply, board, NULL, 1);
        return -1;
    }
    e->delta = *delta;
    if (s->summary_sets) {
        take_summaries(s, s->ply, board, delta, e[-1].bad_delta || (s->ply == 1 && !s->root_summary));
        nnue_state_summaries_of_move(s, s->ply);
    }
    for (int p = 0; p < 2; p++) {
        /* The sets that may force a refresh: all of them after a move of p's own king, else those
         * whose rule is not that move alone (push_check.h king_only). */
        unsigned ask = scan.king_moved[p] ? s->all_sets : s->all_sets & ~(unsigned)s->push_check.king_only;
        uint8_t refresh = 0; /* every set asked: the update may rebuild only those that need it */
        for (; ask; ask &= ask - 1) {
            int k = __builtin_ctz(ask);
            refresh |= (uint8_t)((ft->sets[k].features->needs_refresh(&s->set_params[k], board, delta, p) != 0) << k);
        }
        e->refresh[p] = refresh;
        e->computed[p] = 0;
        e->tpart_ok[p] = 0;
    }
    return 0;
}

/* Room for n more threats in the stack after `at` (grown by doubling); 0, or -1 when memory runs
 * out (the move is then pushed without them). */
static int threat_room(nnue_state *s, size_t at, size_t n)
{
    if (s->threat_stack && at + n <= s->threat_cap)
        return 0; /* (allocated even for empty lists: no arithmetic on a null stack) */
    size_t cap = s->threat_cap ? 2 * s->threat_cap : 4 * NNUE_MAX_THREATS;
    while (cap < at + n)
        cap *= 2;
    nnue_threat *grown = realloc(s->threat_stack, cap * sizeof *grown);
    if (!grown)
        return -1;
    s->threat_stack = grown;
    s->threat_cap = cap;
    return 0;
}

int nnue_state_push_threats(nnue_state *s, const nnue_board *board, const nnue_delta *delta,
                            const nnue_threats *threats)
{
    int r = nnue_state_push(s, board, delta);
    if (r != 0 || !threats)
        return r;
    nnue_acc_entry *e = &s->entries[s->ply];
    size_t nr = threats->n_removed, na = threats->n_added;
    /* Checked as they are copied into the stack; not kept when no set of this net reads them, nor
     * when memory runs out (the sets then list them from the boards), nor past a list's bound (the
     * check refuses those). */
    int keep = s->takes_threats && nr <= NNUE_MAX_THREATS && na <= NNUE_MAX_THREATS &&
               threat_room(s, e->threats_at, nr + na) == 0;
    if (nnue_push_threats_check(&s->push_check, &s->shape, &s->net->arch->ft, threats,
                                keep ? s->threat_stack + e->threats_at : NULL, &s->error) != 0) {
        e->bad_delta = 1;
        s->bad_deltas++;
        mark_bad(e);
        return -1;
    }
    if (!keep)
        return 0;
    e->n_threats_removed = (uint16_t)nr;
    e->n_threats_added = (uint16_t)na;
    e->has_threats = 1;
    return 0;
}

int nnue_state_ply(const nnue_state *s)
{
    return s ? s->ply : 0;
}

int nnue_state_takes_threats(const nnue_state *s)
{
    return s ? s->takes_threats : 0;
}

const nnue_threat_filter *nnue_state_threat_filter(const nnue_state *s)
{
    return s && s->takes_threats ? &s->threat_filter : NULL;
}

void nnue_state_pop(nnue_state *s)
{
    if (s && s->ply > 0)
        s->bad_deltas -= s->entries[s->ply--].bad_delta;
}

void nnue_state_invalidate(nnue_state *s)
{
    if (s) {
        s->entries[s->ply].computed[0] = s->entries[s->ply].computed[1] = 0;
        s->entries[s->ply].tpart_ok[0] = s->entries[s->ply].tpart_ok[1] = 0;
    }
}

/* 1 when this evaluation may read more of its board than the king squares and the side to move:
 * a refresh, several moves to apply, or a one-move step of a set that reads the board after the
 * move (step_reads_board: Full_Threats listing a move's threats from the boards, not when they
 * were handed in). */
static int reads_whole_board(const nnue_state *s)
{
    const nnue_acc_entry *cur = &s->entries[s->ply];
    for (int p = 0; p < 2; p++)
        if (!cur->computed[p] && (s->ply == 0 || cur->refresh[p] || !cur[-1].computed[p]))
            return 1;
    if (cur->computed[0] && cur->computed[1])
        return 0;
    /* one move below computed parents: the sets' steps read what they declare */
    return s->step_reads_board[cur->has_threats] != 0;
}

int32_t nnue_evaluate(nnue_state *s, const nnue_board *board, nnue_eval_detail *detail)
{
    /* The board given here need not be the one pushed (include/nnue.h): every byte the update
     * and the forward pass will read is checked first, the whole board when a refresh or a set
     * reads it all (an incremental step of the other sets reads only the kings and the side to
     * move: O(1)). */
    if (!s || net_gone(s)) {
        if (detail)
            *detail = (nnue_eval_detail){-1, 0, 0, 0, 0};
        return 0;
    }
    int whole = s->whole_boards || reads_whole_board(s);
    if (whole ? check_board(s, board) != 0 : nnue_board_check_kings(&s->shape, board, &s->error) != 0) {
        if (detail)
            *detail = (nnue_eval_detail){-1, 0, 0, 0, 0};
        return 0;
    }
    s->error.code = NNUE_OK;
    char fault[256];
    if (s->ext_sets)
        nnue_fs_extension_fault(fault, sizeof fault); /* one left by other callers is not this one's */
    nnue_state_update(s, board);
    if (s->tpart_slot >= 0) /* a selector table kept by moves (table_parts.c); most nets: none */
        nnue_table_parts_update(s, board);
    if (s->ext_sets && nnue_fs_extension_fault(fault, sizeof fault)) {
        /* an extension set's hook gave a bad list (replaced by an empty one): no value from it */
        for (int i = 0; i <= s->ply; i++)
            s->entries[i].computed[0] = s->entries[i].computed[1] = 0;
        nnue_fail(&s->error, NNUE_E_ARG, "%s", fault);
        if (detail)
            *detail = (nnue_eval_detail){-1, 0, 0, 0, 0};
        return 0;
    }
    return nnue_forward(s->net, s->kernels, &s->entries[s->ply], board, s->scratch, detail);
}

const nnue_error *nnue_state_error(const nnue_state *s)
{
    static const nnue_error no_state = {.code = NNUE_E_ARG, .offset = -1,
                                        .message = "nnue_state_error: the state is NULL"};
    return s ? &s->error : &no_state;
}
