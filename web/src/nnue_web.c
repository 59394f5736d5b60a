/* web/src/nnue_web.c: the C side of the JavaScript API (web/src/nnue.mjs), compiled to
 * WebAssembly with the library. Everything crosses the boundary as bytes or JSON text: nets and
 * YAML come in as byte arrays (no file system), answers go out as JSON in a buffer that stays
 * valid until the next call of this file. A failed call returns NULL or -1 and leaves the
 * library's error as JSON in nw_error() (the JavaScript side turns it into an exception). One
 * thread: the browser's main thread or a worker; the library's own rules apply (nnue_error.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "nnue.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define EXPORT
#endif

/* The answer buffer: JSON text of the last call. */
static char *answer;
static size_t answer_size, answer_len;
static nnue_error last_error;

static void out_reset(void)
{
    answer_len = 0;
    if (answer)
        answer[0] = '\0';
}

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = answer_size - answer_len;
        int n = vsnprintf(answer ? answer + answer_len : NULL, answer ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (answer && (size_t)n < room) {
            answer_len += (size_t)n;
            return;
        }
        size_t want = (answer_size ? answer_size : 4096) * 2 + (size_t)n;
        char *grown = realloc(answer, want);
        if (!grown)
            return;
        answer = grown;
        answer_size = want;
    }
}

/* A JSON string (quotes and escapes). */
static void out_str(const char *s)
{
    out("\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            out("\\%c", c);
        else if (c < 0x20)
            out("\\u%04x", c);
        else
            out("%c", c);
    }
    out("\"");
}

static const char *fail(nnue_status code, const char *message)
{
    memset(&last_error, 0, sizeof last_error);
    last_error.code = code;
    last_error.offset = -1;
    snprintf(last_error.message, sizeof last_error.message, "%s", message);
    return NULL;
}

/* The last error: {"status", "code", "file", "line", "column", "offset", "message", "text"}. */
EXPORT const char *nw_error(void)
{
    char text[1200];
    nnue_error_format(&last_error, text, sizeof text);
    out_reset();
    out("{\"status\":");
    out_str(nnue_status_name(last_error.code));
    out(",\"code\":%d,\"file\":", (int)last_error.code);
    out_str(last_error.file);
    out(",\"line\":%d,\"column\":%d,\"offset\":%lld,\"message\":", last_error.line, last_error.column,
        last_error.offset);
    out_str(last_error.message);
    out(",\"text\":");
    out_str(text);
    out("}");
    return answer;
}

EXPORT void *nw_alloc(size_t n)
{
    return malloc(n ? n : 1);
}

EXPORT void nw_free(void *p)
{
    free(p);
}

EXPORT const char *nw_version(void)
{
    out_reset();
    out("{\"version\":");
    out_str(nnue_version());
    out(",\"isa\":");
    out_str(nnue_isa_name());
    out(",\"archs\":[");
    for (int i = 0; i < nnue_arch_builtin_count(); i++) {
        out(i ? "," : "");
        out_str(nnue_arch_builtin_name(i));
    }
    out("],\"games\":[");
    for (int i = 0; i < nnue_game_count(); i++) {
        out(i ? "," : "");
        out_str(nnue_game_at(i)->name);
    }
    out("]}");
    return answer;
}

/* An architecture from YAML text (yaml_len > 0) or a built-in name (else; "" = none: NULL
 * without an error). */
static nnue_arch *arch_from(const char *name, const char *yaml, size_t yaml_len, int *failed)
{
    nnue_arch *a = NULL;
    *failed = 0;
    if (yaml && yaml_len > 0) {
        if (nnue_arch_load_string(yaml, yaml_len, name && name[0] ? name : "architecture.yaml", &a, &last_error) !=
            NNUE_OK)
            *failed = 1;
    } else if (name && name[0]) {
        if (nnue_arch_load_builtin(name, &a, &last_error) != NNUE_OK)
            *failed = 1;
    }
    return a;
}

static void out_arch(const nnue_arch *a)
{
    char desc[8192];
    uint32_t file_hash, ft_hash, network_hash;
    nnue_arch_describe(a, desc, sizeof desc);
    nnue_arch_hashes(a, &file_hash, &ft_hash, &network_hash);
    out("\"name\":");
    out_str(nnue_arch_name(a));
    out(",\"game\":");
    out_str(nnue_arch_game(a)->name);
    out(",\"description\":");
    out_str(desc);
    out(",\"file_hash\":\"0x%08X\",\"ft_hash\":\"0x%08X\",\"network_hash\":\"0x%08X\"", file_hash, ft_hash,
        network_hash);
    nnue_arch_layout layout;
    nnue_arch_layout_get(a, &layout, sizeof layout);
    out(",\"parameters\":%llu,\"file_size\":%llu", (unsigned long long)layout.parameters,
        (unsigned long long)layout.file_size);
}

/* `nnue arch` for YAML text or a built-in name: its description and hashes as JSON. */
EXPORT const char *nw_arch_info(const char *name, const char *yaml, size_t yaml_len)
{
    int failed;
    nnue_arch *a = arch_from(name, yaml, yaml_len, &failed);
    if (!a)
        return failed ? NULL : fail(NNUE_E_ARG, "no architecture given (a built-in name or YAML text)");
    out_reset();
    out("{");
    out_arch(a);
    out("}");
    nnue_arch_free(a);
    return answer;
}

/* A net from size bytes; its architecture from yaml (yaml_len > 0), a built-in name, or the
 * header (neither). NULL on failure. */
EXPORT nnue_net *nw_net_load(const void *data, size_t size, const char *label, const char *arch_name,
                             const char *yaml, size_t yaml_len)
{
    int failed;
    nnue_arch *a = arch_from(arch_name, yaml, yaml_len, &failed);
    if (failed)
        return NULL;
    nnue_net *net = NULL;
    nnue_status st = a ? nnue_net_load_memory(a, data, size, label, &net, &last_error)
                       : nnue_net_load_auto_memory(data, size, label, &net, &last_error);
    nnue_arch_free(a);
    return st == NNUE_OK ? net : NULL;
}

EXPORT void nw_net_free(nnue_net *net)
{
    nnue_net_free(net);
}

/* Random weights as `nnue init --seed SEED` writes them, for an architecture: the file's bytes
 * (nnue_net_random_memory; the caller frees with nw_free, the module having one allocator),
 * *size set; NULL on failure. */
EXPORT uint8_t *nw_net_random(const char *arch_name, const char *yaml, size_t yaml_len, double seed, size_t *size)
{
    int failed;
    nnue_arch *a = arch_from(arch_name, yaml, yaml_len, &failed);
    if (!a)
        return failed ? NULL : (uint8_t *)fail(NNUE_E_ARG, "no architecture given (a built-in name or YAML text)");
    /* seed comes from a JS number: a whole number 0..2^53 - 1, else the conversion below is
     * undefined (NaN, negative, fractional or past 2^64) */
    if (!(seed >= 0 && seed <= 9007199254740991.0 && floor(seed) == seed)) {
        nnue_arch_free(a);
        char why[160];
        snprintf(why, sizeof why, "seed: expected a whole number from 0 to 2^53 - 1, found %.17g", seed);
        return (uint8_t *)fail(NNUE_E_ARG, why);
    }
    void *bytes = NULL;
    if (nnue_net_random_memory(a, (uint64_t)seed, &bytes, size, &last_error) != NNUE_OK)
        bytes = NULL;
    nnue_arch_free(a);
    return bytes;
}

/* `nnue info`: the architecture's identity, the load warning, the centipawn rule (sha256: the
 * file's SHA-256 in hex, computed by the caller; "" when unknown). */
EXPORT const char *nw_net_info(const nnue_net *net, const char *sha256)
{
    if (!net)
        return fail(NNUE_E_ARG, "no net (NULL: it was freed)");
    const nnue_arch *a = nnue_net_arch(net);
    nnue_cp_rule rule;
    nnue_cp_rule_for(a, sha256, &rule);
    out_reset();
    out("{");
    out_arch(a);
    out(",\"warning\":");
    const char *w = nnue_net_warning(net);
    if (w)
        out_str(w);
    else
        out("null");
    out(",\"centipawns\":");
    if (rule.kind == NNUE_CP_NONE)
        out("null");
    else
        out_str(rule.engine[0] ? rule.engine : "the net's output scale");
    out("}");
    return answer;
}

/* Which architecture the bytes are (nnue_arch_choose_memory, the library's one chooser: the same
 * rules as loadNet without an architecture, docs/detection.md): {"kind", "chosen" (the name or
 * null), "named", "candidates": [{"name", "source", "size_fits", "expected_bytes"}], "error" (why
 * none was chosen, naming the file, or null)}. NULL when the bytes cannot be judged at all. */
EXPORT const char *nw_net_choose(const void *data, size_t size, const char *label)
{
    static const char *const kinds[] = {"no_hash", "size_mismatch", "only", "known_net", "written_for", "default",
                                        "ambiguous", "named_missing", "named_size", "self_describing", "raw"};
    nnue_choice *c;
    if (nnue_arch_choose_memory(data, size, label, 0, &c, &last_error) != NNUE_OK)
        return NULL;
    nnue_arch *chosen = NULL;
    nnue_error why;
    nnue_status st = nnue_choice_result(c, &chosen, &why);
    out_reset();
    out("{\"kind\":");
    out_str(kinds[nnue_choice_kind_of(c)]);
    out(",\"chosen\":");
    if (chosen)
        out_str(nnue_arch_name(chosen));
    else
        out("null");
    out(",\"named\":");
    out_str(nnue_choice_named(c));
    out(",\"candidates\":[");
    for (int i = 0; i < nnue_choice_count(c); i++) {
        out(i ? ",{\"name\":" : "{\"name\":");
        out_str(nnue_arch_name(nnue_choice_arch(c, i)));
        out(",\"source\":");
        out_str(nnue_choice_source(c, i));
        out(",\"size_fits\":%s,\"expected_bytes\":%llu}", nnue_choice_size_fits(c, i) ? "true" : "false",
            (unsigned long long)nnue_choice_expected_bytes(c, i));
    }
    out("],\"error\":");
    if (st == NNUE_OK) {
        out("null");
    } else {
        char text[1200];
        nnue_error_format(&why, text, sizeof text);
        out_str(text);
    }
    out("}");
    nnue_arch_free(chosen);
    nnue_choice_free(c);
    return answer;
}

/* An incremental evaluation state on a position of the net's game. */
typedef struct nw_state {
    const nnue_net *net;
    const nnue_game *game;
    nnue_state *state;
    nnue_cp_rule cp;
    int ply;
    nnue_move moves[1024];
    void *pos;
} nw_state;

#define NW_MAX_PLY 1024

EXPORT nw_state *nw_state_new(const nnue_net *net, const char *position, const char *sha256)
{
    if (!net)
        return (nw_state *)fail(NNUE_E_ARG, "no net (NULL: it was freed)");
    nw_state *s = calloc(1, sizeof *s);
    const nnue_game *g = nnue_arch_game(nnue_net_arch(net));
    if (!s || !(s->pos = calloc(1, g->pos_size)) || !(s->state = nnue_state_new(net, NW_MAX_PLY))) {
        if (s)
            free(s->pos);
        free(s);
        return (nw_state *)fail(NNUE_E_NOMEM, "out of memory for an evaluation state");
    }
    s->net = net;
    s->game = g;
    nnue_cp_rule_for(nnue_net_arch(net), sha256, &s->cp);
    const char *text = position && position[0] && strcmp(position, "startpos") != 0 ? position : g->start;
    if (g->parse(s->pos, text, &last_error) != 0 || nnue_state_reset(s->state, g->board(s->pos)) != 0) {
        if (last_error.code == NNUE_OK)
            last_error = *nnue_state_error(s->state);
        nnue_state_free(s->state);
        free(s->pos);
        free(s);
        return NULL;
    }
    return s;
}

EXPORT void nw_state_free(nw_state *s)
{
    if (!s)
        return;
    nnue_state_free(s->state);
    free(s->pos);
    free(s);
}

/* Plays a move in the game's protocol notation (UCI / USI): 0, or -1 with the error set. */
/* NULL (freed or never made) is refused, not followed. */
static int no_state(const nw_state *s)
{
    if (s)
        return 0;
    fail(NNUE_E_ARG, "no evaluation state (NULL: it was freed)");
    return 1;
}

EXPORT int nw_state_push(nw_state *s, const char *move)
{
    nnue_move m;
    if (no_state(s))
        return -1;
    if (s->ply >= NW_MAX_PLY) {
        fail(NNUE_E_ARG, "the state holds 1024 moves at most: pop some first");
        return -1;
    }
    if (s->game->parse_move(s->pos, move, &m, &last_error) != 0)
        return -1;
    nnue_delta delta;
    s->game->make(s->pos, m, &delta);
    int before = nnue_state_ply(s->state);
    if (nnue_state_push(s->state, s->game->board(s->pos), &delta) != 0) {
        /* A refused board or delta is still pushed (include/nnue.h): take it back too, so that
         * this wrapper's moves and the state's entries stay one for one. */
        last_error = *nnue_state_error(s->state);
        if (nnue_state_ply(s->state) > before)
            nnue_state_pop(s->state);
        s->game->unmake(s->pos, m);
        return -1;
    }
    s->moves[s->ply++] = m;
    return 0;
}

/* Takes back the last move: 0, or -1 when there is none. */
EXPORT int nw_state_pop(nw_state *s)
{
    if (no_state(s))
        return -1;
    if (s->ply == 0) {
        fail(NNUE_E_ARG, "no move to take back");
        return -1;
    }
    nnue_state_pop(s->state);
    s->game->unmake(s->pos, s->moves[--s->ply]);
    return 0;
}

/* The total alone (no JSON, no move list): what the page times. */
EXPORT int32_t nw_state_total(nw_state *s)
{
    if (no_state(s))
        return 0;
    nnue_eval_detail d;
    return nnue_evaluate(s->state, s->game->board(s->pos), &d);
}

/* The evaluation of the current position, the position itself (text, board, hands, side to
 * move) and its legal moves, as JSON. */
EXPORT const char *nw_state_eval(nw_state *s)
{
    if (no_state(s))
        return NULL;
    nnue_eval_detail d;
    const nnue_board *b = s->game->board(s->pos);
    nnue_evaluate(s->state, b, &d);
    const nnue_error *e = nnue_state_error(s->state);
    if (e->code != NNUE_OK) {
        last_error = *e;
        return NULL;
    }
    char text[512];
    s->game->format(s->pos, text, sizeof text);
    int cp;
    int has_cp = nnue_cp_convert(&s->cp, &d, text, &cp);
    out_reset();
    out("{\"bucket\":%d,\"psqt\":%d,\"positional\":%d,\"total\":%d,\"scaled\":%d,\"cp\":", d.bucket, d.psqt,
        d.positional, d.total, d.scaled);
    if (has_cp)
        out("%d", cp);
    else
        out("null");
    out(",\"position\":");
    out_str(text);
    out(",\"game\":");
    out_str(s->game->name);
    out(",\"colours\":[");
    out_str(s->game->colour_names[0]);
    out(",");
    out_str(s->game->colour_names[1]);
    out("]");
    out(",\"files\":%d,\"ranks\":%d,\"side_to_move\":%d,\"in_check\":%d,\"ply\":%d,\"squares\":[", s->game->files,
        s->game->ranks, b->side_to_move, s->game->in_check(s->pos), s->ply);
    for (int i = 0; i < b->num_squares; i++)
        out("%s%d", i ? "," : "", b->piece_on[i]);
    out("],\"hands\":[");
    for (int c = 0; c < 2; c++) {
        out(c ? ",[" : "[");
        for (int t = 0; t < NNUE_MAX_HAND_TYPES; t++)
            out("%s%d", t ? "," : "", b->hand[c][t]);
        out("]");
    }
    out("],\"piece_names\":[");
    for (int t = 0; t < s->game->piece_types; t++) {
        out(t ? "," : "");
        out_str(s->game->piece_names[t]);
    }
    out("],\"moves\":[");
    static nnue_move moves[NNUE_MAX_MOVES];
    int n = s->game->legal_moves(s->pos, moves);
    for (int i = 0; i < n; i++) {
        char m[32];
        s->game->format_move(moves[i], m, sizeof m);
        out(i ? "," : "");
        out_str(m);
    }
    /* Where each move goes, for a board that is clicked: the moving piece's squares from the
     * move's own delta (from -1: a drop from the hand, with the piece dropped). */
    out("],\"move_squares\":[");
    for (int i = 0; i < n; i++) {
        nnue_delta delta;
        s->game->make(s->pos, moves[i], &delta);
        s->game->unmake(s->pos, moves[i]);
        const nnue_dirty *d = &delta.dirty[0];
        out("%s[%d,%d,%d]", i ? "," : "", d->old_sq >= 0 ? d->old_sq : -1, d->new_sq, d->new_piece);
    }
    out("]}");
    return answer;
}
