/* tests/core/test_error.c: error values format with their location. */
#include <string.h>

#include "base/error.h"
#include "support.h"

START_TEST(text_location_is_file_line_column)
{
    nnue_error err;
    char buf[1024];
    ck_assert_int_eq(nnue_fail_at(&err, NNUE_E_SCHEMA, "a.yaml", 3, 7, "expected %s", "int"),
                     NNUE_E_SCHEMA);
    nnue_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "a.yaml:3:7: expected int");
}
END_TEST

START_TEST(binary_location_is_byte_offset)
{
    nnue_error err;
    char buf[1024];
    nnue_fail_offset(&err, NNUE_E_FORMAT, "n.nnue", 190, "truncated");
    nnue_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "n.nnue: byte 190: truncated");
    ck_assert_int_eq(err.line, 0);
}
END_TEST

START_TEST(no_location_is_message_only)
{
    nnue_error err;
    char buf[1024];
    nnue_fail(&err, NNUE_E_ARG, "bad");
    nnue_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "bad");
    ck_assert_int_eq(err.offset, -1);
    ck_assert_str_eq(nnue_status_name(NNUE_E_HASH), "hash mismatch");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("error");
    TCase *tc = tcase_create("format");
    tcase_add_test(tc, text_location_is_file_line_column);
    tcase_add_test(tc, binary_location_is_byte_offset);
    tcase_add_test(tc, no_location_is_message_only);
    suite_add_tcase(s, tc);
    return test_run(s);
}
