/* tests/training/test_text_limits.c: the text formats' bounds (issue 40's review). The reader's
 * line buffer stays within its 64 KiB line limit while reading a longer line (getline grew it to
 * the whole line first: a 200 MB line cost 509 MB before the refusal, /dev/zero grew without
 * end); nnue_train_format_record refuses a string field with no NUL in its array (it read past
 * the field, as the writer already refused). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnue_training.h"
#include "support.h"
#include "training/internal.h"

START_TEST(long_line_is_refused_within_the_limit)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/text_limits_long.plain", test_build_dir());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("fen ", f);
    for (int i = 0; i < 10 << 20; i++)
        fputc('x', f);
    fputs("\nmove e2e4\nscore 1\nply 1\nresult 0\ne\n", f);
    fclose(f);
    nnue_train_reader *r;
    nnue_error err;
    ck_assert_int_eq(nnue_train_open(path, NNUE_TRAIN_PLAIN, &r, &err), NNUE_OK);
    nnue_train_record rec;
    ck_assert_int_eq(nnue_train_next(r, &rec, &err), -1);
    ck_assert_msg(strstr(err.message, "longer than 65536 bytes"), "%s", err.message);
    ck_assert_int_eq(err.line, 1);
    ck_assert_msg(r->cap <= (64u << 10) + 1, "the line buffer grew to %zu bytes", r->cap);
    nnue_train_close(r);
    unlink(path);
}
END_TEST

START_TEST(endless_line_stops_at_the_limit)
{
    nnue_train_reader *r;
    nnue_error err;
    ck_assert_int_eq(nnue_train_open("/dev/zero", NNUE_TRAIN_BULLET, &r, &err), NNUE_OK);
    nnue_train_record rec;
    ck_assert_int_eq(nnue_train_next(r, &rec, &err), -1);
    ck_assert_msg(strstr(err.message, "longer than 65536 bytes"), "%s", err.message);
    ck_assert_uint_le(r->cap, (64u << 10) + 1);
    nnue_train_close(r);
}
END_TEST

START_TEST(format_record_refuses_unterminated_fields)
{
    nnue_train_record rec;
    memset(&rec, 0, sizeof rec);
    strcpy(rec.position, "8/8/8/8/8/8/8/K6k w - - 0 1");
    strcpy(rec.move, "a1a2");
    strcpy(rec.result, "0");
    char buf[8192];
    size_t good = nnue_train_format_record(NNUE_TRAIN_PLAIN, &rec, buf, sizeof buf);
    ck_assert_uint_gt(good, 0);
    ck_assert_ptr_nonnull(strstr(buf, "fen 8/8/8/8/8/8/8/K6k w - - 0 1\n"));
    const struct {
        char *field;
        size_t size;
    } fields[] = {{rec.position, sizeof rec.position}, {rec.move, sizeof rec.move}, {rec.result, sizeof rec.result}};
    for (int i = 0; i < 3; i++)
        for (int format = NNUE_TRAIN_BULLET; format <= NNUE_TRAIN_PLAIN; format++) {
            nnue_train_record bad = rec;
            char *field = (char *)&bad + (fields[i].field - (char *)&rec);
            memset(field, 'a', fields[i].size);
            strcpy(buf, "unchanged");
            ck_assert_uint_eq(nnue_train_format_record((nnue_train_format)format, &bad, buf, sizeof buf), 0);
            ck_assert_str_eq(buf, "");
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("text_limits");
    TCase *tc = tcase_create("text_limits");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, long_line_is_refused_within_the_limit);
    tcase_add_test(tc, format_record_refuses_unterminated_fields);
    suite_add_tcase(s, tc);
    TCase *endless = tcase_create("endless"); /* its own case: CK_RUN_CASE can leave it out */
    tcase_set_timeout(endless, 120);
    tcase_add_test(endless, endless_line_stops_at_the_limit);
    suite_add_tcase(s, endless);
    return test_run(s);
}
