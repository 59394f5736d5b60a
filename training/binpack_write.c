/* training/binpack_write.c: the .binpack writer (layout in training/binpack.h; the chaining
 * and chunking rules at the top of include/nnue_training.h). It follows nnue-pytorch's
 * CompressedTrainingDataEntryWriter step for step, so the same records give the same bytes:
 * a record that continues the previous one goes into the open chain's move list; any other
 * closes the chain (its count and move list go after its entry), writes the chunk when it
 * holds BP_CHUNK_TARGET bytes or more, and starts a chain with its own entry. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "games/chess/binpack.h"
#include "training/binpack.h"
#include "training/bitstream.h"
#include "training/internal.h"

struct binpack_writer {
    uint8_t *chunk;             /* the chunk's data so far */
    size_t len, cap;
    int chain_open;             /* an entry was written; its count and move list are pending */
    unsigned plies;             /* records chained to it */
    bp_bit_writer moves;        /* their move list */
    uint16_t last_score;        /* the next score delta's base: minus the previous score */
    int have_prev;
    uint8_t prev_after[CHESS_BP_POS_BYTES];  /* the previous record's position after its move */
    int32_t prev_ply;
    int prev_result;
    nnue_chess_pos pos;         /* scratch: the record being written */
};

struct binpack_writer *binpack_writer_new(void)
{
    return calloc(1, sizeof(struct binpack_writer));
}

void binpack_writer_free(struct binpack_writer *b)
{
    if (!b)
        return;
    free(b->chunk);
    bp_bit_writer_free(&b->moves);
    free(b);
}

static int append(struct binpack_writer *b, const uint8_t *data, size_t n)
{
    if (n == 0)
        return 0; /* data may be NULL (an empty move list) */
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *chunk = realloc(b->chunk, cap);
        if (!chunk)
            return -1;
        b->chunk = chunk;
        b->cap = cap;
    }
    memcpy(b->chunk + b->len, data, n);
    b->len += n;
    return 0;
}

static nnue_status fail(nnue_train_writer *w, nnue_error *err, nnue_status code, const char *what)
{
    return nnue_fail_at(err, code, w->name, 0, 0, "record %llu: %s", (unsigned long long)(w->records + 1), what);
}

/* The open chain's count and move list go after its entry. */
static nnue_status close_chain(nnue_train_writer *w, nnue_error *err)
{
    struct binpack_writer *b = w->bp;
    uint8_t count[2];
    if (!b->chain_open)
        return NNUE_OK;
    bp_put_be16(count, b->plies);
    if (append(b, count, 2) != 0 || append(b, b->moves.buf, b->moves.len) != 0)
        return nnue_fail(err, NNUE_E_NOMEM, "out of memory");
    b->chain_open = 0;
    return NNUE_OK;
}

static nnue_status write_chunk(nnue_train_writer *w, nnue_error *err)
{
    struct binpack_writer *b = w->bp;
    uint8_t header[BP_HEADER_BYTES] = {'B', 'I', 'N', 'P', (uint8_t)b->len, (uint8_t)(b->len >> 8),
                                       (uint8_t)(b->len >> 16), (uint8_t)(b->len >> 24)};
    if (fwrite(header, 1, sizeof header, w->f) != sizeof header || fwrite(b->chunk, 1, b->len, w->f) != b->len)
        return nnue_fail_at(err, NNUE_E_IO, w->name, 0, 0, "write error: %s", strerror(errno));
    b->len = 0;
    return NNUE_OK;
}

/* The record's fields checked and turned into the format's values. */
typedef struct checked {
    nnue_move move;
    int result;
    uint8_t packed[CHESS_BP_POS_BYTES];
} checked;

static nnue_status check_record(nnue_train_writer *w, const nnue_train_record *rec, checked *c, nnue_error *err)
{
    struct binpack_writer *b = w->bp;
    char what[1024];
    nnue_error e;
    if (nnue_chess_parse_fen(&b->pos, rec->position, &e) != NNUE_OK) {
        snprintf(what, sizeof what, "FEN \"%.200s\", column %d: %s", rec->position, e.column, e.message);
        return fail(w, err, NNUE_E_SYNTAX, what);
    }
    if (chess_bp_pack_pos(&b->pos, c->packed, what, sizeof what) != 0)
        return fail(w, err, NNUE_E_ARG, what);
    if (nnue_chess_parse_uci(&b->pos, rec->move, &c->move, &e) != NNUE_OK) {
        snprintf(what, sizeof what, "move: %s", e.message);
        return fail(w, err, e.code, what);
    }
    if (rec->score < INT16_MIN || rec->score > INT16_MAX) {
        snprintf(what, sizeof what, "score %d outside -32768..32767 (the format's 16 bits)", rec->score);
        return fail(w, err, NNUE_E_ARG, what);
    }
    if (rec->ply < 0 || rec->ply > BP_MAX_PLY) {
        snprintf(what, sizeof what, "ply %d outside 0..%d (the format's 14 bits)", rec->ply, BP_MAX_PLY);
        return fail(w, err, NNUE_E_ARG, what);
    }
    c->result = strcmp(rec->result, "1") == 0 ? 1 : strcmp(rec->result, "0") == 0 ? 0
                : strcmp(rec->result, "-1") == 0 ? -1 : 2;
    if (c->result == 2) {
        snprintf(what, sizeof what, "result \"%.8s\": expected -1, 0 or 1 (the side to move's view, as in .plain)",
                 rec->result);
        return fail(w, err, NNUE_E_ARG, what);
    }
    return NNUE_OK;
}

static void put_entry(const struct binpack_writer *b, const nnue_train_record *rec, const checked *c,
                      uint8_t out[BP_ENTRY_BYTES])
{
    memcpy(out, c->packed, CHESS_BP_POS_BYTES);
    bp_put_be16(out + BP_MOVE_AT, chess_bp_pack_move(&b->pos, c->move));
    bp_put_be16(out + BP_SCORE_AT, bp_to_unsigned((int16_t)rec->score));
    bp_put_be16(out + BP_PLY_AT, (unsigned)rec->ply | (unsigned)bp_to_unsigned((int16_t)c->result) << 14);
    bp_put_be16(out + BP_RULE50_AT, b->pos.halfmove > 0xFFFF ? 0xFFFF : b->pos.halfmove);
}

/* The move and the score delta of a chained record. */
static int put_chained(struct binpack_writer *b, const nnue_train_record *rec, nnue_move move)
{
    unsigned piece, n_pieces, index, n_moves;
    chess_bp_move_index(&b->pos, move, &piece, &n_pieces, &index, &n_moves);
    uint16_t delta = (uint16_t)((uint16_t)rec->score - b->last_score);
    if (bp_put_bits(&b->moves, piece, bp_index_bits(n_pieces)) != 0 ||
        bp_put_bits(&b->moves, index, bp_index_bits(n_moves)) != 0 ||
        bp_put_score(&b->moves, bp_to_unsigned((int16_t)delta)) != 0)
        return -1;
    return 0;
}

nnue_status binpack_write(nnue_train_writer *w, const nnue_train_record *rec, nnue_error *err)
{
    struct binpack_writer *b = w->bp;
    checked c;
    nnue_status st = check_record(w, rec, &c, err);
    if (st != NNUE_OK)
        return st;
    int chained = b->have_prev && b->chain_open && b->plies < BP_MAX_CHAIN && b->prev_result == -c.result &&
                  b->prev_ply + 1 == rec->ply && memcmp(b->prev_after, c.packed, sizeof c.packed) == 0;
    if (chained) {
        if (put_chained(b, rec, c.move) != 0)
            return nnue_fail(err, NNUE_E_NOMEM, "out of memory");
        b->plies++;
    } else {
        uint8_t entry[BP_ENTRY_BYTES];
        if ((st = close_chain(w, err)) != NNUE_OK)
            return st;
        if (b->len >= BP_CHUNK_TARGET && (st = write_chunk(w, err)) != NNUE_OK)
            return st;
        put_entry(b, rec, &c, entry);
        if (append(b, entry, sizeof entry) != 0)
            return nnue_fail(err, NNUE_E_NOMEM, "out of memory");
        b->chain_open = 1;
        b->plies = 0;
        bp_bit_writer_reset(&b->moves);
    }
    b->last_score = (uint16_t)-(uint16_t)rec->score;
    nnue_chess_make(&b->pos, c.move, NULL);
    char why[256];
    b->have_prev = chess_bp_pack_pos(&b->pos, b->prev_after, why, sizeof why) == 0;
    b->prev_ply = rec->ply;
    b->prev_result = c.result;
    return NNUE_OK;
}

nnue_status binpack_finish(nnue_train_writer *w, nnue_error *err)
{
    nnue_status st = close_chain(w, err);
    if (st == NNUE_OK && w->bp->len > 0)
        st = write_chunk(w, err);
    return st;
}
