/* training/binpack_read.c: the .binpack reader (layout in training/binpack.h). One chunk is in
 * memory at a time; a chain's records come one by one, each move decoded in the position the
 * previous move left. Strict where nnue-pytorch's CompressedTrainingDataEntryReader trusts the
 * file: every size is checked against the chunk and the file, every decoded move against the
 * legal moves, and leftover bytes at a chunk's end are an error (the reference skips fewer than
 * 34). Every error says where (file, byte offset) and what was expected. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "games/chess/binpack.h"
#include "training/binpack.h"
#include "training/bitstream.h"
#include "training/internal.h"

struct binpack_reader {
    uint8_t *chunk;             /* the current chunk's data */
    size_t size, cap;
    long long chunk_at;         /* its offset in the file */
    size_t at;                  /* the next chain's offset in the chunk */
    long long file_at;          /* bytes of the file read */
    long long file_size;        /* -1: unknown (a pipe), else the bytes after the start */
    int sized;                  /* file_size was looked at */
    /* The chain being read: chained records left, their bits, the previous record. */
    unsigned left;
    size_t moves_at;            /* the move list's offset in the chunk */
    bp_bit_reader bits;
    nnue_chess_pos pos;
    nnue_move move;
    int32_t ply;
    int result;
    uint16_t last_score;
};

struct binpack_reader *binpack_reader_new(void)
{
    struct binpack_reader *b = calloc(1, sizeof *b);
    if (b)
        b->file_size = -1;
    return b;
}

void binpack_reader_free(struct binpack_reader *b)
{
    if (!b)
        return;
    free(b->chunk);
    free(b);
}

static int fail(nnue_train_reader *r, nnue_error *err, nnue_status code, long long offset, const char *fmt, ...)
    NNUE_PRINTF(5, 6);

static int fail(nnue_train_reader *r, nnue_error *err, nnue_status code, long long offset, const char *fmt, ...)
{
    char what[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    nnue_fail_offset(err, code, r->name, offset, "%s", what);
    return -1;
}

/* The bytes the file has left, for a regular file (-1 otherwise). */
static void look_at_size(nnue_train_reader *r)
{
    struct binpack_reader *b = r->bp;
    struct stat st;
    b->sized = 1;
    int fd = fileno(r->f);
    long start = ftell(r->f);
    if (fd >= 0 && start >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        b->file_size = (long long)st.st_size - start;
}

/* Reads the next chunk: 1, 0 at the end of the file, -1 on an error. */
static int read_chunk(nnue_train_reader *r, nnue_error *err)
{
    struct binpack_reader *b = r->bp;
    uint8_t h[BP_HEADER_BYTES];
    if (!b->sized)
        look_at_size(r);
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got == 0 && !ferror(r->f))
        return 0;
    if (got < sizeof h)
        return ferror(r->f) ? fail(r, err, NNUE_E_IO, b->file_at, "read error: %s", strerror(errno))
                            : fail(r, err, NNUE_E_FORMAT, b->file_at, "the file ends %zu bytes into a chunk header "
                                   "(expected 8 bytes: \"BINP\" and the chunk's size)", got);
    if (memcmp(h, "BINP", 4) != 0)
        return fail(r, err, NNUE_E_FORMAT, b->file_at, "expected a chunk starting with \"BINP\", found bytes "
                    "%02x %02x %02x %02x (not a .binpack file, or a chunk size that was wrong)", h[0], h[1], h[2], h[3]);
    uint32_t size = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
    long long data_at = b->file_at + BP_HEADER_BYTES;
    if (size > BP_MAX_CHUNK)
        return fail(r, err, NNUE_E_FORMAT, b->file_at + 4, "chunk size %u is larger than %u bytes (the "
                    "reference reader's limit; a malformed file?)", size, BP_MAX_CHUNK);
    if (b->file_size >= 0 && data_at + size > b->file_size)
        return fail(r, err, NNUE_E_FORMAT, b->file_at + 4, "chunk size %u runs past the end of the file "
                    "(%lld bytes follow the header)", size, b->file_size - data_at);
    if (size > b->cap) {
        uint8_t *chunk = realloc(b->chunk, size);
        if (!chunk)
            return fail(r, err, NNUE_E_NOMEM, b->file_at, "out of memory for a chunk of %u bytes", size);
        b->chunk = chunk;
        b->cap = size;
    }
    got = fread(b->chunk, 1, size, r->f);
    if (got < size)
        return ferror(r->f) ? fail(r, err, NNUE_E_IO, data_at + (long long)got, "read error: %s", strerror(errno))
                            : fail(r, err, NNUE_E_FORMAT, data_at + (long long)got, "the file ends inside a "
                                   "chunk: %zu of its %u bytes are there", got, size);
    b->file_at = data_at + size;
    b->chunk_at = data_at;
    b->size = size;
    b->at = 0;
    return 1;
}

static void fill_record(struct binpack_reader *b, nnue_train_record *rec, int16_t score, long long offset)
{
    b->pos.fullmove = (uint32_t)(b->ply / 2 + 1);
    nnue_chess_to_fen(&b->pos, rec->position, sizeof rec->position);
    nnue_chess_move_to_uci(b->move, rec->move, sizeof rec->move);
    rec->score = score;
    rec->ply = b->ply;
    snprintf(rec->result, sizeof rec->result, "%d", b->result);
    rec->line = (uint64_t)offset;
}

/* A chain's first record: its 32-byte entry and the count of records chained to it. */
static int read_stem(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    struct binpack_reader *b = r->bp;
    const uint8_t *e = b->chunk + b->at;
    long long at = b->chunk_at + (long long)b->at;
    char why[600], fen[128];
    if (b->size - b->at < BP_STEM_BYTES)
        return fail(r, err, NNUE_E_FORMAT, at, "%zu bytes left in the chunk: expected a 32-byte entry and a 2-byte "
                    "count (34 bytes), or the chunk's end", b->size - b->at);
    unsigned pr = bp_be16(e + BP_PLY_AT), packed_move = bp_be16(e + BP_MOVE_AT);
    int16_t score = bp_to_signed((uint16_t)bp_be16(e + BP_SCORE_AT));
    int result = bp_to_signed((uint16_t)(pr >> 14));
    if (result < -1 || result > 1)
        return fail(r, err, NNUE_E_FORMAT, at + BP_PLY_AT, "result bits %u: expected 0 (draw), 1 (loss) or 2 (win)",
                    pr >> 14);
    b->ply = (int32_t)(pr & BP_MAX_PLY);
    b->result = result;
    if (chess_bp_unpack_pos(e, bp_be16(e + BP_RULE50_AT), (unsigned)(b->ply / 2 + 1), &b->pos, why, sizeof why))
        return fail(r, err, NNUE_E_FORMAT, at, "packed position: %s", why);
    if (!(b->move = chess_bp_unpack_move(&b->pos, (uint16_t)packed_move))) {
        nnue_chess_to_fen(&b->pos, fen, sizeof fen);
        return fail(r, err, NNUE_E_ILLEGAL, at + BP_MOVE_AT, "packed move 0x%04x (%s%c%d to %c%d) is not a legal "
                    "move of %s", packed_move, (const char *[]){"", "promotion ", "castling ", "en passant "}
                    [packed_move >> 14], 'a' + ((packed_move >> 8) & 7), 1 + ((packed_move >> 11) & 7),
                    'a' + ((packed_move >> 2) & 7), 1 + ((packed_move >> 5) & 7), fen);
    }
    b->left = bp_be16(e + BP_ENTRY_BYTES);
    if (b->ply + b->left > BP_MAX_PLY) /* the chain's plies must fit the format's 14 bits too */
        return fail(r, err, NNUE_E_FORMAT, at + BP_ENTRY_BYTES, "a chain of %u moves after ply %d runs past ply %d",
                    b->left, b->ply, BP_MAX_PLY);
    fill_record(b, rec, score, at);
    b->at += BP_STEM_BYTES;
    if (b->left) {
        b->moves_at = b->at;
        b->bits = (bp_bit_reader){b->chunk + b->at, b->size - b->at, 0};
        b->last_score = (uint16_t)-(uint16_t)score;
    }
    return 1;
}

static int past_end(nnue_train_reader *r, nnue_error *err, long long at, const char *what)
{
    struct binpack_reader *b = r->bp;
    return fail(r, err, NNUE_E_FORMAT, at, "the move list runs past the end of its chunk (at %s; %u chained records "
                "still expected)", what, b->left);
}

/* The next record of a chain: the previous move played, then this record's move and score. */
static int read_chained(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    struct binpack_reader *b = r->bp;
    bp_bit_reader *bits = &b->bits;
    const long long base = b->chunk_at + (long long)b->moves_at;
    long long at = base + (long long)(bits->bit / 8);
    char fen[128], sq[3];
    nnue_chess_make(&b->pos, b->move, NULL);
    unsigned n_pieces = chess_bp_piece_count(&b->pos), piece, index;
    if (bp_get_bits(bits, bp_index_bits(n_pieces), &piece) != 0)
        return past_end(r, err, at, "a piece index");
    if (piece >= n_pieces) {
        nnue_chess_to_fen(&b->pos, fen, sizeof fen);
        return fail(r, err, NNUE_E_FORMAT, at, "piece index %u out of range: the side to move has %u pieces in %s",
                    piece, n_pieces, fen);
    }
    unsigned n_moves = chess_bp_move_count(&b->pos, piece);
    long long index_at = base + (long long)(bits->bit / 8);
    if (bp_get_bits(bits, bp_index_bits(n_moves), &index) != 0)
        return past_end(r, err, index_at, "a move index");
    if (index >= n_moves) {
        uint64_t own = b->pos.by_colour[b->pos.board.side_to_move];
        for (unsigned i = 0; i < piece; i++)
            own &= own - 1;
        int from = __builtin_ctzll(own);
        sq[0] = (char)('a' + from % 8), sq[1] = (char)('1' + from / 8), sq[2] = 0;
        nnue_chess_to_fen(&b->pos, fen, sizeof fen);
        return fail(r, err, NNUE_E_FORMAT, index_at, "move index %u out of range: the piece on %s has %u moves "
                    "in %s", index, sq, n_moves, fen);
    }
    nnue_move move = chess_bp_move_at(&b->pos, piece, index);
    if (!chess_bp_is_legal(&b->pos, move)) {
        char uci[8];
        nnue_chess_move_to_uci(move, uci, sizeof uci);
        nnue_chess_to_fen(&b->pos, fen, sizeof fen);
        return fail(r, err, NNUE_E_ILLEGAL, index_at, "the move %s (piece %u, index %u) is not legal in %s", uci,
                    piece, index, fen);
    }
    uint16_t delta;
    long long score_at = base + (long long)(bits->bit / 8);
    int rc = bp_get_score(bits, &delta);
    if (rc == -1)
        return past_end(r, err, score_at, "a score");
    if (rc == -2)
        return fail(r, err, NNUE_E_FORMAT, score_at, "a score delta of more than 4 blocks (16 bits)");
    int16_t score = (int16_t)(uint16_t)(b->last_score + (uint16_t)bp_to_signed(delta));
    b->last_score = (uint16_t)-(uint16_t)score;
    b->move = move;
    b->ply++;
    b->result = -b->result;
    fill_record(b, rec, score, at);
    if (--b->left == 0)
        b->at = b->moves_at + bp_bytes_read(bits);
    return 1;
}

int binpack_next(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    struct binpack_reader *b = r->bp;
    if (b->left)
        return read_chained(r, rec, err);
    while (b->at >= b->size) {
        int rc = read_chunk(r, err);
        if (rc <= 0)
            return rc;
    }
    return read_stem(r, rec, err);
}
