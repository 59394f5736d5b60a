/* base/yaml_read.h: table-driven reading of libyaml documents with file:line:col errors.
 *
 * A mapping is read against a table of {key, required, handler}; unknown keys,
 * duplicate keys and missing required keys are schema errors. Every error names
 * the file and the 1-based line and column of the offending node, what was
 * expected and what was found. */
#ifndef NNUE_BASE_YAML_READ_H
#define NNUE_BASE_YAML_READ_H

#include <stdint.h>
#include <yaml.h>

#include "nnue_error.h"

typedef struct yreader {
    yaml_document_t doc;
    const char *path;
    nnue_error *err;
} yreader;

typedef nnue_status (*yfield_fn)(yreader *r, yaml_node_t *value, void *target);

typedef struct yfield {
    const char *key;
    int required;
    yfield_fn read;
} yfield;

/* Parses the file into r->doc. On failure the document need not be freed. */
nnue_status y_open(yreader *r, const char *path, nnue_error *err);
/* The same from len bytes of YAML text in memory; name labels the text in error messages. */
nnue_status y_open_string(yreader *r, const char *name, const char *text, size_t len, nnue_error *err);
void y_close(yreader *r);

yaml_node_t *y_root(yreader *r);

/* Reads a mapping against fields (terminated by a {NULL} entry). `what` names the mapping in
 * messages ("architecture", "layer 'fc0'"). */
nnue_status y_map(yreader *r, yaml_node_t *node, const yfield *fields, void *target, const char *what);

/* Finds the value of key in a mapping (NULL if absent); does not check the schema. */
yaml_node_t *y_lookup(yreader *r, yaml_node_t *map, const char *key);

/* Scalars. `what` names the value in messages. */
nnue_status y_int(yreader *r, yaml_node_t *node, int64_t min, int64_t max, int64_t *out, const char *what);
/* A two-integer sequence [a, b] with a in [min0, max0] and b in [min1, max1]. */
nnue_status y_int_pair(yreader *r, yaml_node_t *node, int64_t min0, int64_t max0, int64_t min1, int64_t max1,
                       int64_t out[2], const char *what);
nnue_status y_bool(yreader *r, yaml_node_t *node, int *out, const char *what);
nnue_status y_string(yreader *r, yaml_node_t *node, char *out, size_t size, const char *what);
/* One of the NULL-terminated names; *out = its index. */
nnue_status y_enum(yreader *r, yaml_node_t *node, const char *const *names, int *out, const char *what);

/* Sequence items: count and item i. Fails with a schema error when node is not a sequence. */
nnue_status y_seq(yreader *r, yaml_node_t *node, int *count, const char *what);
yaml_node_t *y_item(yreader *r, yaml_node_t *seq, int i);

/* Defines a yfield handler `fn` that reads an integer in [lo, hi] into `lvalue`, an expression
 * over `c`, the handler's target cast to ctx_type*. One line per numeric key, e.g.
 *   Y_INT_FIELD(read_width, load_state, c->arch->ft.width, 1, 65536, "feature_transformer 'width'") */
#define Y_INT_FIELD(fn, ctx_type, lvalue, lo, hi, what)                          \
    static nnue_status fn(yreader *r, yaml_node_t *v, void *target)            \
    {                                                                           \
        ctx_type *c = target;                                                   \
        int64_t n;                                                              \
        nnue_status st = y_int(r, v, (lo), (hi), &n, (what));                   \
        if (st == NNUE_OK)                                                      \
            (lvalue) = (__typeof__(lvalue))n;                                   \
        return st;                                                              \
    }

/* Error at a node: "expected <expected>, found <description of node>". */
nnue_status y_fail(yreader *r, yaml_node_t *node, nnue_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Short description of a node for messages: "a mapping", "a sequence", "'abc'". */
const char *y_describe(yaml_node_t *node, char *buf, size_t size);

#endif
