/* tests/training/training_helpers.c: see training_helpers.h. */
#include "training_helpers.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support.h"

void recs_add(rec_list *l, const nnue_train_record *rec)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->r = realloc(l->r, l->cap * sizeof *l->r);
        ck_assert_ptr_nonnull(l->r);
    }
    l->r[l->n++] = *rec;
}

void recs_free(rec_list *l)
{
    free(l->r);
    l->r = NULL;
    l->n = l->cap = 0;
}

static void fail_with(const char *what, const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    ck_abort_msg("%s: %s", what, msg);
}

void recs_read(const char *path, nnue_train_format format, rec_list *out)
{
    nnue_train_reader *r;
    nnue_error err;
    nnue_train_record rec;
    if (nnue_train_open(path, format, &r, &err) != NNUE_OK)
        fail_with("open", &err);
    int rc;
    while ((rc = nnue_train_next(r, &rec, &err)) == 1)
        recs_add(out, &rec);
    if (rc < 0)
        fail_with("read", &err);
    nnue_train_close(r);
}

void recs_write(const char *path, nnue_train_format format, const rec_list *in)
{
    nnue_train_writer *w;
    nnue_error err;
    if (nnue_train_writer_open(path, format, &w, &err) != NNUE_OK)
        fail_with("writer open", &err);
    for (size_t i = 0; i < in->n; i++)
        if (nnue_train_write(w, &in->r[i], &err) != NNUE_OK)
            fail_with("write", &err);
    if (nnue_train_writer_close(w, &err) != NNUE_OK)
        fail_with("writer close", &err);
}

char *recs_plain_text(const rec_list *l)
{
    size_t cap = 512 * (l->n + 1), len = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    text[0] = 0;
    for (size_t i = 0; i < l->n; i++)
        len += nnue_train_format_record(NNUE_TRAIN_PLAIN, &l->r[i], text + len, cap - len);
    return text;
}

const char *train_tmp(const char *name)
{
    static char bufs[8][4096];
    static int next;
    char *b = bufs[next++ % 8];
    snprintf(b, sizeof bufs[0], "%s/training", test_build_dir());
    mkdir(b, 0777);
    snprintf(b, sizeof bufs[0], "%s/training/%s", test_build_dir(), name);
    return b;
}

void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

void expect_read_error(const char *path, nnue_status code, long long offset, const char *fragment)
{
    nnue_train_reader *r;
    nnue_error err;
    nnue_train_record rec;
    ck_assert_int_eq(nnue_train_open(path, NNUE_TRAIN_BINPACK, &r, &err), NNUE_OK);
    int rc;
    while ((rc = nnue_train_next(r, &rec, &err)) == 1)
        ;
    ck_assert_msg(rc == -1, "%s: expected an error, the reader gave %d", path, rc);
    char msg[1200], where[64];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(err.code == code, "%s: code %d (%s), expected %d", path, err.code, msg, code);
    ck_assert_msg(err.offset == offset, "%s: offset %lld (%s), expected %lld", path, err.offset, msg, offset);
    ck_assert_msg(strstr(err.message, fragment), "%s: '%s' lacks '%s'", path, msg, fragment);
    snprintf(where, sizeof where, ": byte %lld: ", offset);
    ck_assert_msg(strstr(msg, path) == msg && strstr(msg, where), "%s: '%s' names no file and offset", path, msg);
    /* After an error the reader stays failed. */
    ck_assert_int_eq(nnue_train_next(r, &rec, &err), -1);
    nnue_train_close(r);
}
