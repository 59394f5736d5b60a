/* tests/training/test_binpack_errors.c: malformed .binpack files, crafted byte by byte, each
 * give an error that names the file, the byte offset and what was expected (never a crash: the
 * fuzz target fuzz_training goes further); records the format cannot hold are refused by the
 * writer with the record's number, and the writer goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_chess.h"
#include "support.h"
#include "training/internal.h"
#include "training_helpers.h"

static nnue_train_record record(const char *fen, const char *move, int ply, const char *result)
{
    nnue_train_record r = {.score = 10, .ply = ply};
    snprintf(r.position, sizeof r.position, "%s", fen);
    snprintf(r.move, sizeof r.move, "%s", move);
    snprintf(r.result, sizeof r.result, "%s", result);
    return r;
}

/* The 32-byte entry our writer makes for one record. */
static void entry_of(const char *fen, const char *move, unsigned char entry[32])
{
    rec_list one = {0};
    nnue_train_record r = record(fen, move, 0, "0");
    recs_add(&one, &r);
    recs_write(train_tmp("entry.binpack"), NNUE_TRAIN_BINPACK, &one);
    size_t size;
    char *bytes = test_read_file(train_tmp("entry.binpack"), &size);
    ck_assert_uint_eq(size, 8 + 34);
    memcpy(entry, bytes + 8, 32);
    free(bytes);
    recs_free(&one);
}

/* A file of one chunk: the entry, a chain count and move-list bytes, then extra bytes. */
static const char *chunk_file(const char *name, const unsigned char entry[32], unsigned count,
                              const unsigned char *moves, size_t n_moves, size_t extra)
{
    unsigned char buf[256] = {'B', 'I', 'N', 'P'};
    size_t size = 34 + n_moves + extra;
    buf[4] = (unsigned char)size;
    memcpy(buf + 8, entry, 32);
    buf[40] = (unsigned char)(count >> 8);
    buf[41] = (unsigned char)count;
    if (n_moves)
        memcpy(buf + 42, moves, n_moves);
    const char *path = train_tmp(name);
    write_bytes(path, buf, 8 + size);
    return path;
}

START_TEST(bad_chunks)
{
    unsigned char entry[32], bytes[128];
    entry_of(NNUE_CHESS_START_FEN, "a2a3", entry);
    const char *ok = chunk_file("ok.binpack", entry, 0, NULL, 0, 0);
    rec_list recs = {0};
    recs_read(ok, NNUE_TRAIN_BINPACK, &recs);
    ck_assert_uint_eq(recs.n, 1);
    recs_free(&recs);
    size_t size;
    char *good = test_read_file(ok, &size);
    ck_assert_uint_le(2 * size, sizeof bytes); /* two chunks fit below */

    memcpy(bytes, good, size);
    bytes[3] = 'X';
    write_bytes(train_tmp("magic.binpack"), bytes, size);
    expect_read_error(train_tmp("magic.binpack"), NNUE_E_FORMAT, 0, "expected a chunk starting with \"BINP\"");

    write_bytes(train_tmp("header.binpack"), "BINP\x01", 5);
    expect_read_error(train_tmp("header.binpack"), NNUE_E_FORMAT, 0, "the file ends 5 bytes into a chunk header");

    memcpy(bytes, good, size);
    bytes[4] += 10;
    write_bytes(train_tmp("past_file.binpack"), bytes, size);
    expect_read_error(train_tmp("past_file.binpack"), NNUE_E_FORMAT, 4,
                      "chunk size 44 runs past the end of the file (34 bytes follow the header)");

    write_bytes(train_tmp("huge.binpack"), "BINP\x00\x00\x00\x07", 8);
    expect_read_error(train_tmp("huge.binpack"), NNUE_E_FORMAT, 4, "is larger than 104857600 bytes");

    /* Two valid chunks, then one cut short, read from a stream of unknown size. */
    memcpy(bytes, good, size);
    memcpy(bytes + size, good, size);
    FILE *f = fmemopen(bytes, 2 * size - 5, "rb");
    nnue_train_reader *r;
    nnue_train_record rec;
    nnue_error err;
    ck_assert_int_eq(train_open_stream(f, "memory", NNUE_TRAIN_BINPACK, &r, &err), NNUE_OK);
    ck_assert_int_eq(nnue_train_next(r, &rec, &err), 1);
    ck_assert_int_eq(nnue_train_next(r, &rec, &err), -1);
    ck_assert_int_eq(err.offset, (long long)(size + 8 + 29));
    ck_assert_ptr_nonnull(strstr(err.message, "the file ends inside a chunk: 29 of its 34 bytes are there"));
    nnue_train_close(r);
    fclose(f);

    expect_read_error(chunk_file("leftover.binpack", entry, 0, NULL, 0, 5), NNUE_E_FORMAT, 42,
                      "5 bytes left in the chunk: expected a 32-byte entry and a 2-byte count (34 bytes), or the "
                      "chunk's end");
    free(good);
}
END_TEST

START_TEST(bad_entries)
{
    unsigned char entry[32], bad[32];
    entry_of(NNUE_CHESS_START_FEN, "a2a3", entry);

    memcpy(bad, entry, 32);
    memcpy(bad, "\xff\xff\xff\xff\x01\x00\x00\x00", 8);
    expect_read_error(chunk_file("33.binpack", bad, 0, NULL, 0, 0), NNUE_E_FORMAT, 8,
                      "33 occupied squares (at most 32 fit");
    /* The white king (e1: the fifth piece, low nibble of byte 10) made a queen. */
    memcpy(bad, entry, 32);
    ck_assert_uint_eq(bad[10] & 15, 10);
    bad[10] = (unsigned char)((bad[10] & 0xf0) | 8);
    expect_read_error(chunk_file("no_king.binpack", bad, 0, NULL, 0, 0), NNUE_E_FORMAT, 8,
                      "packed position: not a legal position (rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w "
                      "KQkq - 0 1): ");
    /* b1's knight made a castling rook, then a pawn with en passant behind it. */
    memcpy(bad, entry, 32);
    bad[8] = (unsigned char)((bad[8] & 0x0f) | 13 << 4);
    expect_read_error(chunk_file("rook_b1.binpack", bad, 0, NULL, 0, 0), NNUE_E_FORMAT, 8,
                      "nibble 13 (a white rook with its castling right) on b1: expected a1 or h1");
    bad[8] = (unsigned char)((bad[8] & 0x0f) | 12 << 4);
    expect_read_error(chunk_file("ep_b1.binpack", bad, 0, NULL, 0, 0), NNUE_E_FORMAT, 8,
                      "nibble 12 (a pawn with en passant behind it) on b1: expected one, on rank 4 or 5");
    /* e2e5, the null move, a promotion bit on a plain move. */
    memcpy(bad, entry, 32);
    bad[24] = 12, bad[25] = 36 << 2;
    expect_read_error(chunk_file("e2e5.binpack", bad, 0, NULL, 0, 0), NNUE_E_ILLEGAL, 32,
                      "packed move 0x0c90 (e2 to e5) is not a legal move of rnbqkbnr/");
    bad[24] = bad[25] = 0;
    expect_read_error(chunk_file("null.binpack", bad, 0, NULL, 0, 0), NNUE_E_ILLEGAL, 32, "packed move 0x0000");
    memcpy(bad, entry, 32);
    bad[25] |= 1;
    expect_read_error(chunk_file("extra.binpack", bad, 0, NULL, 0, 0), NNUE_E_ILLEGAL, 32, "is not a legal move");
    /* Result bits 3 (the values are 0 draw, 1 loss, 2 win). */
    memcpy(bad, entry, 32);
    bad[28] |= 0xc0;
    expect_read_error(chunk_file("result.binpack", bad, 0, NULL, 0, 0), NNUE_E_FORMAT, 36, "result bits 3");
    /* Review finding: a stem at the last ply (16383) with a chain after it gave records of ply
     * 16384, which no writer takes; refused at the chain count. */
    memcpy(bad, entry, 32);
    bad[28] = (unsigned char)((bad[28] & 0xc0) | 0x3f), bad[29] = 0xff;
    const unsigned char one_move[2] = {0, 0};
    expect_read_error(chunk_file("ply.binpack", bad, 1, one_move, 2, 0), NNUE_E_FORMAT, 40,
                      "a chain of 1 moves after ply 16383 runs past ply 16383");
}
END_TEST

START_TEST(bad_move_lists)
{
    unsigned char entry[32];
    entry_of(NNUE_CHESS_START_FEN, "a2a3", entry);
    /* After a2a3 black has 16 pieces (4-bit index): 0 is a7's pawn (a6, a5: a 1-bit index). A
     * count of 5 with no bytes, then with one record's bytes. */
    expect_read_error(chunk_file("short.binpack", entry, 5, NULL, 0, 0), NNUE_E_FORMAT, 42,
                      "the move list runs past the end of its chunk (at a piece index; 5 chained records still");
    /* 0000 0 00000: a7a6 and a score delta 0; then white's piece 0 (a1's rook: one move, a
     * 0-bit index), and the score's 5 bits are not there (6 bits are left). */
    const unsigned char a6[] = {0x00, 0x00};
    expect_read_error(chunk_file("short2.binpack", entry, 2, a6, 2, 0), NNUE_E_FORMAT, 43,
                      "runs past the end of its chunk (at a score; 1 chained records still");
    /* Piece 8 is a8's rook: no moves. Piece 12 the king: two castling indices, neither legal. */
    const unsigned char rook[] = {0x80, 0x00};
    expect_read_error(chunk_file("rook.binpack", entry, 1, rook, 2, 0), NNUE_E_FORMAT, 42,
                      "move index 0 out of range: the piece on a8 has 0 moves in rnbqkbnr/");
    const unsigned char king[] = {0xc0, 0x00};
    expect_read_error(chunk_file("king.binpack", entry, 1, king, 2, 0), NNUE_E_ILLEGAL, 42,
                      "the move e8c8 (piece 12, index 0) is not legal in rnbqkbnr/");
    /* A score delta of five 4-bit blocks: 0000 0 11111 x5. */
    const unsigned char score[] = {0x07, 0xff, 0xff, 0xfc};
    expect_read_error(chunk_file("score.binpack", entry, 1, score, 4, 0), NNUE_E_FORMAT, 42,
                      "a score delta of more than 4 blocks (16 bits)");
    /* Black with three pieces after e1e2: a 2-bit index, 3 out of range. */
    entry_of("r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1", "e1e2", entry);
    const unsigned char three[] = {0xc0, 0x00};
    expect_read_error(chunk_file("piece.binpack", entry, 1, three, 2, 0), NNUE_E_FORMAT, 42,
                      "piece index 3 out of range: the side to move has 3 pieces in r3k2r/");
}
END_TEST

START_TEST(writer_refuses_what_the_format_cannot_hold)
{
    const char *path = train_tmp("refused.binpack");
    nnue_train_writer *w;
    nnue_error err;
    ck_assert_int_eq(nnue_train_writer_open(path, NNUE_TRAIN_BINPACK, &w, &err), NNUE_OK);
    nnue_train_record good = record(NNUE_CHESS_START_FEN, "e2e4", 0, "1");
    ck_assert_int_eq(nnue_train_write(w, &good, &err), NNUE_OK);
    struct {
        nnue_train_record rec;
        nnue_status code;
        const char *fragment;
    } bad[] = {
        {record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "e2e4", 0, "0"), NNUE_E_SYNTAX,
         "record 2: FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\", column 45: field 2"},
        {record(NNUE_CHESS_START_FEN, "e2e5", 0, "0"), NNUE_E_ILLEGAL, "record 2: move: "},
        {record(NNUE_CHESS_START_FEN, "", 0, "0"), NNUE_E_SYNTAX, "record 2: move: "},
        {record(NNUE_CHESS_START_FEN, "e2e4", -1, "0"), NNUE_E_ARG, "record 2: ply -1 outside 0..16383"},
        {record(NNUE_CHESS_START_FEN, "e2e4", 16384, "0"), NNUE_E_ARG, "record 2: ply 16384 outside 0..16383"},
        {record(NNUE_CHESS_START_FEN, "e2e4", 0, "0.5"), NNUE_E_ARG, "record 2: result \"0.5\": expected -1, 0 or 1"},
        {record("bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1", "e2e4", 0, "0"), NNUE_E_ARG,
         "record 2: castling right 'K' of a Chess960 position"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(nnue_train_write(w, &bad[i].rec, &err), bad[i].code);
        ck_assert_str_eq(err.file, path);
        ck_assert_msg(strstr(err.message, bad[i].fragment), "case %zu: '%s' lacks '%s'", i, err.message,
                      bad[i].fragment);
    }
    nnue_train_record score = record(NNUE_CHESS_START_FEN, "e2e4", 0, "0");
    score.score = 32768;
    ck_assert_int_eq(nnue_train_write(w, &score, &err), NNUE_E_ARG);
    ck_assert_ptr_nonnull(strstr(err.message, "record 2: score 32768 outside -32768..32767"));
    /* The writer goes on: the next record continues the first one's chain. */
    nnue_train_record next = record("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e7e5", 1, "-1");
    ck_assert_int_eq(nnue_train_write(w, &next, &err), NNUE_OK);
    ck_assert_int_eq(nnue_train_writer_close(w, &err), NNUE_OK);
    rec_list got = {0};
    recs_read(path, NNUE_TRAIN_BINPACK, &got);
    ck_assert_uint_eq(got.n, 2);
    ck_assert_str_eq(got.r[1].move, "e7e5");
    ck_assert_uint_eq(got.r[1].line, 8 + 34);
    recs_free(&got);
}
END_TEST

START_TEST(abort_leaves_the_old_file)
{
    const char *path = train_tmp("kept.binpack");
    write_bytes(path, "old", 3);
    nnue_train_writer *w;
    nnue_error err;
    ck_assert_int_eq(nnue_train_writer_open(path, NNUE_TRAIN_BINPACK, &w, &err), NNUE_OK);
    nnue_train_record good = record(NNUE_CHESS_START_FEN, "e2e4", 0, "1");
    ck_assert_int_eq(nnue_train_write(w, &good, &err), NNUE_OK);
    nnue_train_writer_abort(w);
    size_t size;
    char *text = test_read_file(path, &size);
    ck_assert_uint_eq(size, 3);
    ck_assert_str_eq(text, "old");
    free(text);
    ck_assert_int_eq(nnue_train_writer_open(train_tmp("no/such/folder.binpack"), NNUE_TRAIN_BINPACK, &w, &err),
                     NNUE_E_IO);
    ck_assert_ptr_null(w);
    ck_assert_int_eq(nnue_train_writer_open(path, (nnue_train_format)9, &w, &err), NNUE_E_ARG);
}
END_TEST

/* Text writers refuse what their reader would not give back as written. */
START_TEST(text_writers_refuse_what_would_not_read_back)
{
    struct {
        nnue_train_format format;
        nnue_train_record rec;
        const char *fragment;
    } bad[] = {
        {NNUE_TRAIN_BULLET, record("8/8/8/8/8/8/6k1/4K2R w K - 0 1 | x", "", -1, "1.0"),
         "the position holds a '|' (bullet's field separator)"},
        {NNUE_TRAIN_BULLET, record("#8/8/8/8/8/8/6k1/4K2R w K - 0 1", "", -1, "1.0"), "starts with '#'"},
        {NNUE_TRAIN_BULLET, record("8/8/8/8/8/8/6k1/4K2R w K - 0 1", "", -1, ""), "the result is empty"},
        {NNUE_TRAIN_PLAIN, record("8/8/8/8/8/8/6k1/4K2R w K - 0 1", "", 0, "1"), "the move is empty"},
        {NNUE_TRAIN_PLAIN, record("8/8/8/8/8/8/6k1/4K2R w K - 0 1\ne", "e1e2", 0, "1"), "holds a line break"},
        {NNUE_TRAIN_PLAIN, record("8/8/8/8/8/8/6k1/4K2R w K - 0 1 ", "e1e2", 0, "1"), "ends with a space"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nnue_train_writer *w;
        nnue_error err;
        ck_assert_int_eq(nnue_train_writer_open(train_tmp("text.out"), bad[i].format, &w, &err), NNUE_OK);
        ck_assert_int_eq(nnue_train_write(w, &bad[i].rec, &err), NNUE_E_ARG);
        ck_assert_msg(strstr(err.message, "record 1: ") && strstr(err.message, bad[i].fragment), "case %zu: %s", i,
                      err.message);
        nnue_train_writer_abort(w);
    }
}
END_TEST

/* Review finding: a string field filling its whole array (no NUL) was read past its end by the
 * writers (strlen, %s); it is refused in every format, and NULL arguments are refused too. */
START_TEST(unterminated_fields_and_null_are_refused)
{
    const nnue_train_format formats[] = {NNUE_TRAIN_BULLET, NNUE_TRAIN_PLAIN, NNUE_TRAIN_BINPACK};
    for (size_t i = 0; i < 3; i++) {
        nnue_train_record rec = record(NNUE_CHESS_START_FEN, "e2e4", 0, "0");
        nnue_train_writer *w;
        nnue_error err;
        ck_assert_int_eq(nnue_train_writer_open(train_tmp("nul.out"), formats[i], &w, &err), NNUE_OK);
        memset(rec.position, 'x', sizeof rec.position);
        ck_assert_int_eq(nnue_train_write(w, &rec, &err), NNUE_E_ARG);
        ck_assert_msg(strstr(err.message, "the position fills its whole array of 256 bytes"), "%s", err.message);
        rec = record(NNUE_CHESS_START_FEN, "e2e4", 0, "0");
        memset(rec.move, 'e', sizeof rec.move);
        ck_assert_int_eq(nnue_train_write(w, &rec, &err), NNUE_E_ARG);
        ck_assert_msg(strstr(err.message, "the move fills its whole array of 16 bytes"), "%s", err.message);
        ck_assert_int_eq(nnue_train_write(w, NULL, &err), NNUE_E_ARG);
        ck_assert_int_eq(nnue_train_write(NULL, &rec, &err), NNUE_E_ARG);
        nnue_train_writer_abort(w);
    }
    nnue_train_record rec;
    nnue_error err;
    ck_assert_int_eq(nnue_train_next(NULL, &rec, &err), -1);
    ck_assert_int_eq(err.code, NNUE_E_ARG);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("binpack_errors");
    TCase *tc = tcase_create("binpack_errors");
    tcase_add_test(tc, bad_chunks);
    tcase_add_test(tc, bad_entries);
    tcase_add_test(tc, bad_move_lists);
    tcase_add_test(tc, writer_refuses_what_the_format_cannot_hold);
    tcase_add_test(tc, abort_leaves_the_old_file);
    tcase_add_test(tc, text_writers_refuse_what_would_not_read_back);
    tcase_add_test(tc, unterminated_fields_and_null_are_refused);
    suite_add_tcase(s, tc);
    return test_run(s);
}
