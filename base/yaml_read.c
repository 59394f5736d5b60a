/* base/yaml_read.c: libyaml document loading and typed, located value readers. */
#include "base/yaml_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

/* Loads the document from a parser whose input is already set; name is the file (or label). */
static nnue_status y_load(yreader *r, yaml_parser_t *parser, const char *name)
{
    nnue_status st = NNUE_OK;
    if (!yaml_parser_load(parser, &r->doc)) {
        /* libyaml marks are 0-based. */
        yaml_mark_t m = parser->problem_mark;
        st = nnue_fail_at(r->err, NNUE_E_SYNTAX, name, (int)m.line + 1, (int)m.column + 1,
                          "malformed YAML: %s%s%s", parser->problem ? parser->problem : "error",
                          parser->context ? " " : "", parser->context ? parser->context : "");
    } else if (!yaml_document_get_root_node(&r->doc)) {
        yaml_document_delete(&r->doc);
        st = nnue_fail_at(r->err, NNUE_E_SCHEMA, name, 1, 1,
                          "expected a mapping describing an architecture, found an empty document");
    }
    yaml_parser_delete(parser);
    return st;
}

nnue_status y_open(yreader *r, const char *path, nnue_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->err = err;
    FILE *f = fopen(path, "rb");
    if (!f)
        return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return nnue_fail(err, NNUE_E_NOMEM, "%s: cannot initialise the YAML parser", path);
    }
    yaml_parser_set_input_file(&parser, f);
    nnue_status st = y_load(r, &parser, path);
    fclose(f);
    return st;
}

nnue_status y_open_string(yreader *r, const char *name, const char *text, size_t len, nnue_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = name;
    r->err = err;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return nnue_fail(err, NNUE_E_NOMEM, "%s: cannot initialise the YAML parser", name);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    return y_load(r, &parser, name);
}

void y_close(yreader *r)
{
    yaml_document_delete(&r->doc);
}

yaml_node_t *y_root(yreader *r)
{
    return yaml_document_get_root_node(&r->doc);
}

const char *y_describe(yaml_node_t *node, char *buf, size_t size)
{
    if (!node)
        snprintf(buf, size, "nothing");
    else if (node->type == YAML_MAPPING_NODE)
        snprintf(buf, size, "a mapping");
    else if (node->type == YAML_SEQUENCE_NODE)
        snprintf(buf, size, "a sequence");
    else if (node->data.scalar.length == 0)
        snprintf(buf, size, "an empty value");
    else
        snprintf(buf, size, "'%.*s'", (int)(node->data.scalar.length > 60 ? 60 : node->data.scalar.length),
                 (const char *)node->data.scalar.value);
    return buf;
}

nnue_status y_fail(yreader *r, yaml_node_t *node, nnue_status code, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = node ? (int)node->start_mark.line + 1 : 1;
    int col = node ? (int)node->start_mark.column + 1 : 1;
    return nnue_fail_at(r->err, code, r->path, line, col, "%s", msg);
}

static const char *scalar(yaml_node_t *node)
{
    return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

nnue_status y_map(yreader *r, yaml_node_t *node, const yfield *fields, void *target, const char *what)
{
    char found[80];
    if (!node || node->type != YAML_MAPPING_NODE)
        return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected a mapping, found %s", what,
                      y_describe(node, found, sizeof found));
    size_t n_fields = 0;
    while (fields[n_fields].key)
        n_fields++;
    unsigned char seen[64] = {0};
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; pair++) {
        yaml_node_t *key = yaml_document_get_node(&r->doc, pair->key);
        yaml_node_t *value = yaml_document_get_node(&r->doc, pair->value);
        const char *name = scalar(key);
        if (!name)
            return y_fail(r, key, NNUE_E_SCHEMA, "%s: expected a plain key, found %s", what,
                          y_describe(key, found, sizeof found));
        size_t i = 0;
        while (i < n_fields && strcmp(fields[i].key, name) != 0)
            i++;
        if (i == n_fields) {
            char known[400] = "";
            for (size_t k = 0; k < n_fields; k++) {
                strncat(known, k ? ", " : "", sizeof known - strlen(known) - 1);
                strncat(known, fields[k].key, sizeof known - strlen(known) - 1);
            }
            return y_fail(r, key, NNUE_E_SCHEMA, "%s: unknown key '%s' (expected one of: %s)", what, name, known);
        }
        if (seen[i])
            return y_fail(r, key, NNUE_E_SCHEMA, "%s: duplicate key '%s'", what, name);
        seen[i] = 1;
        nnue_status st = fields[i].read(r, value, target);
        if (st != NNUE_OK)
            return st;
    }
    for (size_t i = 0; i < n_fields; i++)
        if (fields[i].required && !seen[i])
            return y_fail(r, node, NNUE_E_SCHEMA, "%s: missing required key '%s'", what, fields[i].key);
    return NNUE_OK;
}

yaml_node_t *y_lookup(yreader *r, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        const char *name = scalar(yaml_document_get_node(&r->doc, pair->key));
        if (name && strcmp(name, key) == 0)
            return yaml_document_get_node(&r->doc, pair->value);
    }
    return NULL;
}

nnue_status y_int(yreader *r, yaml_node_t *node, int64_t min, int64_t max, int64_t *out, const char *what)
{
    char found[80];
    const char *s = scalar(node);
    if (!s || !*s)
        return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected an integer, found %s", what,
                      y_describe(node, found, sizeof found));
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 0); /* accepts 0x... hex for versions and hashes */
    if (*end || errno == ERANGE)
        return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected an integer, found %s", what,
                      y_describe(node, found, sizeof found));
    if (v < min || v > max)
        return y_fail(r, node, NNUE_E_SHAPE, "%s: expected an integer from %" PRId64 " to %" PRId64 ", found %lld",
                      what, min, max, v);
    *out = v;
    return NNUE_OK;
}

nnue_status y_int_pair(yreader *r, yaml_node_t *node, int64_t min0, int64_t max0, int64_t min1, int64_t max1,
                       int64_t out[2], const char *what)
{
    int n;
    nnue_status st = y_seq(r, node, &n, what);
    if (st != NNUE_OK)
        return st;
    if (n != 2)
        return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected [numerator, denominator], found %d values", what, n);
    if ((st = y_int(r, y_item(r, node, 0), min0, max0, &out[0], what)) != NNUE_OK)
        return st;
    return y_int(r, y_item(r, node, 1), min1, max1, &out[1], what);
}

nnue_status y_bool(yreader *r, yaml_node_t *node, int *out, const char *what)
{
    char found[80];
    const char *s = scalar(node);
    if (s && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)) {
        *out = s[0] == 't';
        return NNUE_OK;
    }
    return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected true or false, found %s", what,
                  y_describe(node, found, sizeof found));
}

nnue_status y_string(yreader *r, yaml_node_t *node, char *out, size_t size, const char *what)
{
    char found[80];
    const char *s = scalar(node);
    if (!s || !*s)
        return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected a text value, found %s", what,
                      y_describe(node, found, sizeof found));
    if (strlen(s) >= size)
        return y_fail(r, node, NNUE_E_SHAPE, "%s: expected at most %zu characters, found %zu", what, size - 1,
                      strlen(s));
    memcpy(out, s, strlen(s) + 1);
    return NNUE_OK;
}

nnue_status y_enum(yreader *r, yaml_node_t *node, const char *const *names, int *out, const char *what)
{
    char found[80];
    const char *s = scalar(node);
    for (int i = 0; s && names[i]; i++)
        if (strcmp(names[i], s) == 0) {
            *out = i;
            return NNUE_OK;
        }
    char known[300] = "";
    for (int i = 0; names[i]; i++) {
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, names[i], sizeof known - strlen(known) - 1);
    }
    return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected one of %s, found %s", what, known,
                  y_describe(node, found, sizeof found));
}

nnue_status y_seq(yreader *r, yaml_node_t *node, int *count, const char *what)
{
    char found[80];
    if (!node || node->type != YAML_SEQUENCE_NODE)
        return y_fail(r, node, NNUE_E_SCHEMA, "%s: expected a sequence, found %s", what,
                      y_describe(node, found, sizeof found));
    *count = (int)(node->data.sequence.items.top - node->data.sequence.items.start);
    return NNUE_OK;
}

yaml_node_t *y_item(yreader *r, yaml_node_t *seq, int i)
{
    return yaml_document_get_node(&r->doc, seq->data.sequence.items.start[i]);
}
