/* tests/training/test_binpack.c: Stockfish's .binpack against nnue-pytorch's own files
 * (shared/oracle/chess/training/README.md): our writer gives games.binpack byte for byte from
 * games.plain, our reader gives games.plain back from it (and games-from-binpack.plain but for
 * the fullmove number), and our own files read back equal what was written: random games with
 * castling, promotions and en passant, chains broken on purpose, more than one chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_chess.h"
#include "support.h"
#include "training_helpers.h"

#define TRAINING "oracle/chess/training/"

static void expect_same_file(const char *got, const char *want)
{
    size_t n_got, n_want;
    char *a = test_read_file(got, &n_got), *b = test_read_file(want, &n_want);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    size_t i = 0;
    while (i < n_got && i < n_want && a[i] == b[i])
        i++;
    ck_assert_msg(n_got == n_want && i == n_got, "%s (%zu bytes) and %s (%zu bytes) differ at byte %zu", got, n_got,
                  want, n_want, i);
    free(a);
    free(b);
}

START_TEST(writer_gives_the_reference_bytes)
{
    test_require_shared(TRAINING "games.binpack");
    rec_list recs = {0};
    recs_read(test_shared_path(TRAINING "games.plain"), NNUE_TRAIN_PLAIN, &recs);
    ck_assert_uint_eq(recs.n, 2882);
    recs_write(train_tmp("games.binpack"), NNUE_TRAIN_BINPACK, &recs);
    expect_same_file(train_tmp("games.binpack"), test_shared_path(TRAINING "games.binpack"));
    /* The text writer gives games.plain back too. */
    recs_write(train_tmp("games.plain"), NNUE_TRAIN_PLAIN, &recs);
    expect_same_file(train_tmp("games.plain"), test_shared_path(TRAINING "games.plain"));
    recs_free(&recs);
}
END_TEST

START_TEST(reader_gives_games_plain)
{
    test_require_shared(TRAINING "games.binpack");
    rec_list recs = {0};
    recs_read(test_shared_path(TRAINING "games.binpack"), nnue_train_format_of("x.binpack"), &recs);
    ck_assert_uint_eq(recs.n, 2882);
    ck_assert_uint_eq(recs.r[0].line, 8);   /* the first entry, after the chunk header */
    char *text = recs_plain_text(&recs), *want = test_read_file(test_shared_path(TRAINING "games.plain"), NULL);
    ck_assert_ptr_nonnull(want);
    size_t i = 0;
    while (text[i] && text[i] == want[i])
        i++;
    ck_assert_msg(!text[i] && !want[i], "the records differ from games.plain at byte %zu: ...%.80s", i, text + i);
    free(text);
    free(want);
    recs_free(&recs);
}
END_TEST

/* FEN without its last field. */
static size_t fen_head(const char *fen)
{
    return (size_t)(strrchr(fen, ' ') - fen);
}

START_TEST(reader_matches_the_reference_reader_but_fullmove)
{
    test_require_shared(TRAINING "games-from-binpack.plain");
    rec_list ours = {0}, ref = {0};
    recs_read(test_shared_path(TRAINING "games.binpack"), NNUE_TRAIN_BINPACK, &ours);
    recs_read(test_shared_path(TRAINING "games-from-binpack.plain"), NNUE_TRAIN_PLAIN, &ref);
    ck_assert_uint_eq(ours.n, ref.n);
    int differ = 0;
    for (size_t i = 0; i < ours.n; i++) {
        const nnue_train_record *a = &ours.r[i], *b = &ref.r[i];
        size_t head = fen_head(a->position);
        ck_assert_msg(head == fen_head(b->position) && memcmp(a->position, b->position, head) == 0,
                      "record %zu: %s vs %s", i, a->position, b->position);
        ck_assert_str_eq(a->move, b->move);
        ck_assert_int_eq(a->score, b->score);
        ck_assert_int_eq(a->ply, b->ply);
        ck_assert_str_eq(a->result, b->result);
        /* Ours: the real fullmove ply / 2 + 1; the reference reader's: (ply + 1) / 2. */
        ck_assert_int_eq(atoi(a->position + head + 1), a->ply / 2 + 1);
        ck_assert_int_eq(atoi(b->position + head + 1), (a->ply + 1) / 2);
        differ += strcmp(a->position, b->position) != 0;
    }
    ck_assert_int_eq(differ, 1447);   /* the white-to-move records */
    recs_free(&ours);
    recs_free(&ref);
}
END_TEST

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next_rand(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

/* Random games from start positions rich in castling, promotions and en passant: each record
 * the position, a random legal move, a random score (the 16-bit extremes included), the ply and
 * the game's result from the side to move. Some records are dropped, or get an unrelated
 * result, to start new chains (only where no en-passant square is set: a chain's first position
 * keeps one only when the capture is legal, see include/nnue_training.h). */
static void random_games(rec_list *out, int games)
{
    static const char *const starts[] = {
        NNUE_CHESS_START_FEN,
        "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
        "7k/PPP5/8/8/8/8/5ppp/K7 w - - 0 1",
        "4k3/8/8/8/1p1p1p1p/8/P1P1P1P1/4K3 w - - 0 1",
        "r3k2r/1pp1pp2/8/3P4/8/8/1PP1PP2/R3K2R b KQkq - 0 1",
    };
    static const int16_t extremes[] = {-32768, 32767, 0, -1, 1};
    nnue_chess_pos pos;
    nnue_error err;
    for (int g = 0; g < games; g++) {
        ck_assert_int_eq(nnue_chess_parse_fen(&pos, starts[g % 5], &err), NNUE_OK);
        int white_result = (int)(next_rand() % 3) - 1;
        for (int ply = pos.board.side_to_move; ply < 160; ply++) {
            nnue_move moves[NNUE_MAX_MOVES];
            int n = nnue_chess_legal_moves(&pos, moves);
            if (n == 0)
                break;
            nnue_move m = moves[next_rand() % (unsigned)n];
            nnue_train_record rec = {0};
            nnue_chess_to_fen(&pos, rec.position, sizeof rec.position);
            nnue_chess_move_to_uci(m, rec.move, sizeof rec.move);
            uint32_t r = next_rand();
            rec.score = r % 16 == 0 ? extremes[r / 16 % 5] : (int32_t)(r % 2001) - 1000;
            rec.ply = ply;
            int result = pos.board.side_to_move ? -white_result : white_result;
            int breaks = pos.ep < 0 && next_rand() % 23 == 0;
            if (breaks && next_rand() % 2)
                result = (result + 2) % 3 - 1;   /* not the negation of the previous one */
            snprintf(rec.result, sizeof rec.result, "%d", result);
            if (!(breaks && next_rand() % 2 == 0 && pos.ep < 0))
                recs_add(out, &rec);
            nnue_chess_make(&pos, m, NULL);
        }
    }
}

static void expect_same_records(const rec_list *got, const rec_list *want)
{
    ck_assert_uint_eq(got->n, want->n);
    for (size_t i = 0; i < got->n; i++) {
        const nnue_train_record *a = &got->r[i], *b = &want->r[i];
        ck_assert_msg(strcmp(a->position, b->position) == 0 && strcmp(a->move, b->move) == 0 &&
                      a->score == b->score && a->ply == b->ply && strcmp(a->result, b->result) == 0,
                      "record %zu: got %s %s %d %d %s, wrote %s %s %d %d %s", i, a->position, a->move, a->score,
                      a->ply, a->result, b->position, b->move, b->score, b->ply, b->result);
    }
}

START_TEST(own_files_read_back)
{
    rec_list wrote = {0}, got = {0};
    random_games(&wrote, 60);
    int castles = 0, promotions = 0, ep_squares = 0, ep_moves = 0;
    for (size_t i = 0; i < wrote.n; i++) {
        nnue_chess_pos pos;
        nnue_move m;
        nnue_error err;
        ck_assert_int_eq(nnue_chess_parse_fen(&pos, wrote.r[i].position, &err), NNUE_OK);
        ck_assert_int_eq(nnue_chess_parse_uci(&pos, wrote.r[i].move, &m, &err), NNUE_OK);
        castles += NNUE_CHESS_MOVE_KIND(m) == NNUE_CHESS_MOVE_CASTLE;
        ep_moves += NNUE_CHESS_MOVE_KIND(m) == NNUE_CHESS_MOVE_EP;
        promotions += NNUE_CHESS_MOVE_PROMO(m) != 0;
        ep_squares += pos.ep >= 0;
    }
    ck_assert_msg(castles >= 5 && promotions >= 20 && ep_squares >= 20 && ep_moves >= 2,
                  "castles %d, promotions %d, en-passant squares %d, captures %d", castles, promotions, ep_squares,
                  ep_moves);
    recs_write(train_tmp("random.binpack"), NNUE_TRAIN_BINPACK, &wrote);
    recs_read(train_tmp("random.binpack"), NNUE_TRAIN_BINPACK, &got);
    expect_same_records(&got, &wrote);
    recs_free(&wrote);
    recs_free(&got);
}
END_TEST

/* The reference writer's chunking: a chunk is written when a new chain starts and it holds
 * 1 MiB or more. 40000 unrelated records (each a chain of its own, 34 bytes): the first chunk
 * ends after 30841 of them (34 * 30841 = 1048594 >= 1048576), the second holds the rest. */
START_TEST(chunks_of_one_mebibyte)
{
    rec_list wrote = {0}, got = {0};
    nnue_train_record rec = {.move = "e2e4", .ply = 0, .result = "0"};
    snprintf(rec.position, sizeof rec.position, "%s", NNUE_CHESS_START_FEN);
    for (int i = 0; i < 40000; i++) {
        rec.score = i % 30000;
        recs_add(&wrote, &rec);
    }
    recs_write(train_tmp("chunks.binpack"), NNUE_TRAIN_BINPACK, &wrote);
    size_t size;
    unsigned char *bytes = (unsigned char *)test_read_file(train_tmp("chunks.binpack"), &size);
    ck_assert_uint_eq(size, 8 + 1048594 + 8 + 34 * (40000 - 30841));
    ck_assert_int_eq(memcmp(bytes, "BINP", 4), 0);
    ck_assert_uint_eq(bytes[4] | bytes[5] << 8 | bytes[6] << 16 | (unsigned)bytes[7] << 24, 1048594);
    ck_assert_int_eq(memcmp(bytes + 8 + 1048594, "BINP", 4), 0);
    free(bytes);
    recs_read(train_tmp("chunks.binpack"), NNUE_TRAIN_BINPACK, &got);
    expect_same_records(&got, &wrote);
    ck_assert_uint_eq(got.r[30841].line, 8 + 1048594 + 8);
    recs_free(&wrote);
    recs_free(&got);
}
END_TEST

/* The documented conversions: a chain's first position keeps an en-passant square only when the
 * capture is legal (here the capturer is pinned), later ones follow include/nnue_chess.h; the
 * fullmove number becomes ply / 2 + 1 whatever the FEN said; a chained record's halfmove clock
 * is counted by the moves. */
START_TEST(documented_conversions)
{
    nnue_train_record before = {.position = "4k3/2p5/8/KP5r/8/8/8/8 b - - 7 30", .move = "c7c5", .score = 5,
                                .ply = 1, .result = "1"};
    nnue_train_record after = {.position = "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 31", .move = "a5a4", .score = -7,
                               .ply = 2, .result = "-1"};
    rec_list chain = {0}, alone = {0}, got = {0};
    recs_add(&chain, &before);
    recs_add(&chain, &after);
    recs_add(&alone, &after);
    recs_write(train_tmp("pinned_chain.binpack"), NNUE_TRAIN_BINPACK, &chain);
    recs_read(train_tmp("pinned_chain.binpack"), NNUE_TRAIN_BINPACK, &got);
    ck_assert_uint_eq(got.n, 2);
    ck_assert_str_eq(got.r[0].position, "4k3/2p5/8/KP5r/8/8/8/8 b - - 7 1");
    ck_assert_str_eq(got.r[1].position, "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2");
    ck_assert_uint_eq(got.r[1].line, 8 + 34);   /* its move's first bit: the move list's first byte */
    recs_free(&got);
    recs_write(train_tmp("pinned_alone.binpack"), NNUE_TRAIN_BINPACK, &alone);
    recs_read(train_tmp("pinned_alone.binpack"), NNUE_TRAIN_BINPACK, &got);
    ck_assert_uint_eq(got.n, 1);
    ck_assert_str_eq(got.r[0].position, "4k3/8/8/KPp4r/8/8/8/8 w - - 0 2");
    ck_assert_str_eq(got.r[0].move, "a5a4");
    ck_assert_int_eq(got.r[0].score, -7);
    recs_free(&got);
    recs_free(&chain);
    recs_free(&alone);
}
END_TEST

START_TEST(format_names)
{
    nnue_train_format f;
    nnue_error err;
    ck_assert_int_eq(nnue_train_format_of("a/b.binpack"), NNUE_TRAIN_BINPACK);
    ck_assert_int_eq(nnue_train_format_of("a.plain"), NNUE_TRAIN_PLAIN);
    ck_assert_int_eq(nnue_train_format_of("a.txt"), NNUE_TRAIN_BULLET);
    ck_assert_int_eq(nnue_train_format_of("binpack"), NNUE_TRAIN_BULLET);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(nnue_train_format_parse(nnue_train_format_name((nnue_train_format)i), &f, &err), NNUE_OK);
        ck_assert_int_eq(f, i);
    }
    ck_assert_str_eq(nnue_train_format_name(NNUE_TRAIN_BINPACK), "binpack");
    ck_assert_str_eq(nnue_train_format_name((nnue_train_format)7), "");
    ck_assert_int_eq(nnue_train_format_parse("bin", &f, &err), NNUE_E_ARG);
    ck_assert_ptr_nonnull(strstr(err.message, "expected bullet, plain or binpack"));
    char buf[8] = "x";
    nnue_train_record rec = {0};
    ck_assert_uint_eq(nnue_train_format_record(NNUE_TRAIN_BINPACK, &rec, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("binpack");
    TCase *tc = tcase_create("binpack");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, format_names);
    tcase_add_test(tc, own_files_read_back);
    tcase_add_test(tc, chunks_of_one_mebibyte);
    tcase_add_test(tc, documented_conversions);
    tcase_add_test(tc, writer_gives_the_reference_bytes);
    tcase_add_test(tc, reader_gives_games_plain);
    tcase_add_test(tc, reader_matches_the_reference_reader_but_fullmove);
    suite_add_tcase(s, tc);
    return test_run(s);
}
