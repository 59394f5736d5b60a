/* formats/net_write.c: writing a net file with deterministic random weights for any architecture
 * (`nnue init`), in the arch's own format: Stockfish layout (FORMATS.md section 2, LEB128
 * blocks when format.leb128) or the raw block layout with its padding, in its container (a CBNF
 * header first, or every value as a LEB128 varint). Used to try a new YAML
 * end to end before a trained net exists, and by the tests to run every layer type through the
 * loader and every kernel set. Weight ranges are chosen so that hidden activations spread over
 * their clamp range instead of saturating: affine weights shrink with the square root of the
 * fan-in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/generated_name.h"
#include "core/arch/layer.h"
#include "base/error.h"
#include "io/atomic_file.h"
#include "formats/net_write.h"

typedef struct writer {
    FILE *f;
    uint64_t rng;
    int leb128;
    int varint;     /* raw container varint: every value a LEB128 varint (floats: unsigned, their bits) */
    int floats;     /* the values being written are float32 bit patterns */
} writer;

static uint64_t next(writer *w)
{
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    return w->rng;
}

static int32_t uniform(writer *w, int32_t lo, int32_t hi)
{
    return lo + (int32_t)(next(w) % (uint64_t)((int64_t)hi - lo + 1));
}

static void put_bytes(writer *w, const void *p, size_t n)
{
    fwrite(p, 1, n, w->f);
}

static void put_u32(writer *w, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put_bytes(w, b, 4);
}

static void put_int(writer *w, int64_t v, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        fputc((int)((uint64_t)v >> (8 * i)) & 0xFF, w->f);
}

/* Signed LEB128 of one value into buf; returns its length. */
static size_t leb128(int64_t v, unsigned char *buf)
{
    size_t n = 0;
    for (;;) {
        unsigned char byte = (unsigned char)(v & 0x7F);
        v >>= 7; /* arithmetic shift keeps the sign */
        int done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        buf[n++] = done ? byte : (unsigned char)(byte | 0x80);
        if (done)
            return n;
    }
}

/* An array of `count` values of `bytes` each from gen(); as a COMPRESSED_LEB128 block when
 * the writer says so (the payload is built in memory first to know its length). */
typedef int32_t (*value_fn)(writer *w, uint64_t i, const void *ctx);

static nnue_status put_array(writer *w, uint64_t count, size_t bytes, value_fn gen, const void *ctx, nnue_error *err)
{
    if (w->varint) {
        unsigned char buf[10];
        for (uint64_t i = 0; i < count; i++) {
            int32_t v = gen(w, i, ctx);
            size_t n = 0;
            if (w->floats)
                for (uint32_t u = (uint32_t)v;; u >>= 7) {
                    buf[n++] = (unsigned char)((u & 0x7F) | (u > 0x7F ? 0x80 : 0));
                    if (u <= 0x7F)
                        break;
                }
            else
                n = leb128(v, buf);
            put_bytes(w, buf, n);
        }
        return NNUE_OK;
    }
    if (!w->leb128) {
        for (uint64_t i = 0; i < count; i++)
            put_int(w, gen(w, i, ctx), bytes);
        return NNUE_OK;
    }
    unsigned char *payload = malloc(count * 5 + 1);
    if (!payload)
        return nnue_fail(err, NNUE_E_NOMEM, "out of memory for a LEB128 block of %llu values",
                         (unsigned long long)count);
    size_t len = 0;
    for (uint64_t i = 0; i < count; i++)
        len += leb128(gen(w, i, ctx), payload + len);
    put_bytes(w, "COMPRESSED_LEB128", 17);
    put_u32(w, (uint32_t)len);
    put_bytes(w, payload, len);
    free(payload);
    return NNUE_OK;
}

typedef struct range {
    int32_t lo, hi;
    int sparse; /* 3 in 4 values zero (FT weights are mostly zero in real nets) */
} range;

static int32_t gen_range(writer *w, uint64_t i, const void *ctx)
{
    (void)i;
    const range *r = ctx;
    if (r->sparse && next(w) % 4)
        return 0;
    return uniform(w, r->lo, r->hi);
}

/* A layer tensor's values in file order (padding columns zero): weights spread with the fan-in
 * (i8: Stockfish-like scale over sqrt(cols); i16: +-64; f32: +-1/sqrt(cols)), integer biases
 * +-2048 (Stockfish format) or +-500 (raw), float biases +-0.5. */
typedef struct tensor_ctx {
    nnue_tensor_shape t;
    int32_t scale;        /* integers: values in -scale..scale */
    int padded;           /* values come with the padding columns (Stockfish format) */
} tensor_ctx;

static int32_t float_bits(float f)
{
    int32_t v;
    memcpy(&v, &f, 4);
    return v;
}

static int32_t gen_tensor(writer *w, uint64_t i, const void *ctx)
{
    const tensor_ctx *c = ctx;
    if (c->padded && i % c->t.stride >= c->t.cols)
        return 0;
    if (c->t.file != NNUE_F32)
        return uniform(w, -c->scale, c->scale);
    float spread = c->t.rows > 1 ? 1.0f / sqrtf((float)c->t.cols) : 0.5f;
    return float_bits((float)uniform(w, -1000000, 1000000) / 1000000.0f * spread);
}

static tensor_ctx tensor_values(const nnue_tensor_shape *t, int raw)
{
    tensor_ctx c = {*t, 0, !raw};
    if (t->rows < 2)
        c.scale = raw ? 500 : 2048;
    else if (t->file == NNUE_I16)
        c.scale = 64;
    else {
        int32_t s = (int32_t)(4096.0 * 1.7 / (40.0 * sqrt((double)t->cols)));
        c.scale = s < 1 ? 1 : s > 127 ? 127 : s;
    }
    return c;
}

static nnue_status put_ft(writer *w, const nnue_arch *a, nnue_tensor t, nnue_error *err)
{
    const nnue_ft_desc *ft = &a->ft;
    int raw = a->format.kind == NNUE_FORMAT_RAW;
    range biases = {raw ? -100 : -10, raw ? 100 : 110, 0}, weights = {-32, 32, 1}, psqt = {-300, 300, 0};
    switch (t) {
    case NNUE_T_FT_BIASES: return put_array(w, ft->width, 2, gen_range, &biases, err);
    case NNUE_T_FT_WEIGHTS: return put_array(w, (uint64_t)ft->inputs * ft->width, 2, gen_range, &weights, err);
    case NNUE_T_FT_PSQT: return put_array(w, (uint64_t)ft->total_inputs * ft->psqt_buckets, 4, gen_range, &psqt, err);
    default: return NNUE_OK;
    }
}

/* Several feature sets (the SFNNv10 layout, FORMATS.md section 9): biases; each set's weights
 * in list order (i8 sets plain, i16 sets LEB128 when the format is); one PSQT array of all sets,
 * or (ft_sections: per_set, SFNNv16) each set's PSQT array right after its weights. */
static nnue_status put_ft_sets(writer *w, const nnue_arch *a, nnue_error *err)
{
    const nnue_ft_desc *ft = &a->ft;
    range biases = {-10, 110, 0}, weights = {-32, 32, 1}, psqt = {-300, 300, 0};
    int leb = w->leb128;
    nnue_status st = put_array(w, ft->width, 2, gen_range, &biases, err);
    for (int k = 0; k < ft->n_sets && st == NNUE_OK; k++) {
        int i8 = ft->sets[k].weight_type == NNUE_I8 || ft->sets[k].file_i8;
        w->leb128 = leb && !i8;
        st = put_array(w, (uint64_t)ft->sets[k].inputs * ft->width, i8 ? 1 : nnue_dtype_size(ft->sets[k].weight_type),
                       gen_range, &weights, err);
        w->leb128 = leb;
        if (st == NNUE_OK && a->format.psqt_per_set)
            st = put_array(w, (uint64_t)ft->sets[k].inputs * ft->psqt_buckets, 4, gen_range, &psqt, err);
    }
    w->leb128 = leb;
    if (st == NNUE_OK && !a->format.psqt_per_set)
        st = put_array(w, (uint64_t)ft->total_inputs * ft->psqt_buckets, 4, gen_range, &psqt, err);
    return st;
}

/* A table variable's values (features/table_var.h): its own random rule, else zeros. */
static int32_t gen_table(writer *w, uint64_t i, const void *ctx)
{
    const nnue_table_var *tv = ctx;
    uint32_t r = (uint32_t)(next(w) >> 32);
    return tv->random_value ? tv->random_value((uint32_t)i, r) : 0;
}

static nnue_status write_stockfish(writer *w, const nnue_arch *a, uint64_t seed, nnue_error *err)
{
    /* An arch that fixes the description's length (format.description_bytes: the file size
     * then follows) gets exactly that many bytes: the text cut or padded with spaces. */
    char text[320];
    size_t len = (size_t)snprintf(text, sizeof text, "Random net for %s (seed %llu), written by nnue init.", a->name,
                                  (unsigned long long)seed);
    if (a->format.generated[0]) /* YaneuraOu's generated shapes: its writer's text, which names the shape */
        len = (size_t)nnue_generated_description(a, text, sizeof text);
    len = len < sizeof text ? len : sizeof text - 1;
    size_t bytes = a->format.description_bytes >= 0 ? (size_t)a->format.description_bytes : len;
    char *desc = malloc(bytes + 1);
    if (!desc)
        return nnue_fail(err, NNUE_E_NOMEM, "out of memory for a %zu-byte description", bytes);
    memset(desc, ' ', bytes);
    memcpy(desc, text, len < bytes ? len : bytes);
    put_u32(w, a->format.version);
    put_u32(w, a->file_hash);
    put_u32(w, (uint32_t)bytes);
    put_bytes(w, desc, bytes);
    free(desc);
    put_u32(w, a->ft_hash);
    w->leb128 = a->format.leb128;
    nnue_status st;
    if (a->ft.n_sets > 1) {
        if ((st = put_ft_sets(w, a, err)))
            return st;
    } else {
        if ((st = put_ft(w, a, NNUE_T_FT_BIASES, err)) || (st = put_ft(w, a, NNUE_T_FT_WEIGHTS, err)))
            return st;
        if (a->ft.psqt_buckets && (st = put_ft(w, a, NNUE_T_FT_PSQT, err)))
            return st;
    }
    w->leb128 = 0; /* nothing after the FT is compressed */
    for (int v = 0; v < a->selector.n_vars; v++) {
        const nnue_table_var *tv = a->selector.table_vars[v];
        if (!tv)
            continue;
        put_u32(w, tv->hash);
        if ((st = put_array(w, tv->values, 4, gen_table, tv, err)))
            return st;
    }
    for (uint32_t s = 0; s < a->stacks; s++) {
        put_u32(w, a->network_hash);
        for (int i = 0; i < a->n_layers; i++) {
            const nnue_layer *l = &a->layers[i];
            nnue_tensor_shape t[NNUE_MAX_TENSORS];
            int n = l->type->tensors ? l->type->tensors(l, t) : 0;
            for (int k = 0; k < n; k++) {
                if (t[k].file == NNUE_NONE)
                    continue;
                tensor_ctx c = tensor_values(&t[k], 0);
                if ((st = put_array(w, nnue_tensor_values(&t[k]), nnue_dtype_size(t[k].file), gen_tensor, &c, err)))
                    return st;
            }
        }
    }
    return NNUE_OK;
}

/* Stormphrax's 64-byte CBNF header (formats/net_read_cbnf.c), for an uncompressed payload. */
static void put_cbnf_header(writer *w, const nnue_arch *a)
{
    unsigned char h[64] = {'C', 'B', 'N', 'F', 1, 0};
    const nnue_cbnf_header *c = &a->format.cbnf;
    static const char name[] = "nnue init";
    h[6] = (unsigned char)(c->flags & 0xFE), h[7] = (unsigned char)(c->flags >> 8);
    h[9] = c->arch, h[10] = c->ft_activation;
    h[11] = (unsigned char)a->ft.width, h[12] = (unsigned char)(a->ft.width >> 8);
    h[13] = c->input_buckets, h[14] = (unsigned char)a->stacks, h[15] = sizeof name - 1;
    memcpy(h + 16, name, sizeof name - 1);
    put_bytes(w, h, sizeof h);
}

static nnue_status write_raw(writer *w, const nnue_arch *a, nnue_error *err)
{
    uint64_t written = 0;
    if (a->format.container == NNUE_CONTAINER_CBNF)
        put_cbnf_header(w, a);
    w->varint = a->format.container == NNUE_CONTAINER_VARINT;
    for (int b = 0; b < a->format.n_blocks; b++) {
        const nnue_block *blk = &a->format.blocks[b];
        long before = ftell(w->f);
        nnue_status st = NNUE_OK;
        w->floats = blk->dtype == NNUE_F32;
        if (blk->tensor == NNUE_T_LAYER) {
            const nnue_layer *l = &a->layers[blk->layer];
            nnue_tensor_shape t[NNUE_MAX_TENSORS];
            l->type->tensors(l, t);
            tensor_ctx c = tensor_values(&t[blk->index], 1);
            st = put_array(w, (uint64_t)t[blk->index].rows * t[blk->index].cols * a->stacks,
                           nnue_dtype_size(blk->dtype), gen_tensor, &c, err);
        } else if (blk->tensor == NNUE_T_FT_WEIGHTS && a->ft.n_sets > 1) { /* one set's rows */
            const nnue_ft_set *set = &a->ft.sets[blk->set];
            range weights = {-32, 32, 1};
            st = put_array(w, (uint64_t)set->inputs * a->ft.width, nnue_dtype_size(blk->dtype), gen_range, &weights,
                           err);
        } else {
            st = put_ft(w, a, blk->tensor, err);
        }
        if (st != NNUE_OK)
            return st;
        written += (uint64_t)(ftell(w->f) - before);
    }
    size_t len = strlen(a->format.pad_text);
    uint64_t pad = a->format.pad_to && !w->varint ? a->format.pad_to : 1;
    for (uint64_t i = 0; (written + i) % pad; i++)
        fputc(len ? a->format.pad_text[i % len] : 0, w->f);
    return NNUE_OK;
}

nnue_status nnue_net_write_random(const nnue_arch *arch, const char *path, uint64_t seed, nnue_error *err)
{
    nnue_error_clear(err);
    if (!arch || !path)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_write_random: expected an architecture and a path");
    nnue_atomic_file af;
    nnue_status st = nnue_atomic_open(&af, path, err);
    if (st != NNUE_OK)
        return st;
    writer w = {.f = af.f, .rng = seed * 0x9E3779B97F4A7C15ull + 1};
    st = arch->format.kind == NNUE_FORMAT_RAW ? write_raw(&w, arch, err) : write_stockfish(&w, arch, seed, err);
    if (st != NNUE_OK) {
        nnue_atomic_abort(&af);
        return st;
    }
    return nnue_atomic_commit(&af, err); /* never a half-written file at path */
}

nnue_status nnue_net_random_memory(const nnue_arch *arch, uint64_t seed, void **data, size_t *size, nnue_error *err)
{
    nnue_error_clear(err);
    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!arch || !data || !size)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_random_memory: expected an architecture and two output pointers");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return nnue_fail(err, NNUE_E_NOMEM, "nnue_net_random_memory: out of memory");
    writer w = {.f = f, .rng = seed * 0x9E3779B97F4A7C15ull + 1};
    nnue_status st = arch->format.kind == NNUE_FORMAT_RAW ? write_raw(&w, arch, err) : write_stockfish(&w, arch, seed, err);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        free(buf);
        return st != NNUE_OK ? st : nnue_fail(err, NNUE_E_NOMEM, "nnue_net_random_memory: out of memory");
    }
    if (st != NNUE_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    *size = len;
    return NNUE_OK;
}

void nnue_bytes_free(void *data)
{
    free(data);
}

static int32_t gen_from_array(writer *w, uint64_t i, const void *ctx)
{
    (void)w;
    const nnue_values *v = ctx;
    return v->type == NNUE_I16 ? ((const int16_t *)v->data)[i] : ((const int32_t *)v->data)[i];
}

nnue_status nnue_net_write_values(FILE *f, int leb128, const nnue_values *values, nnue_error *err)
{
    writer w = {.f = f, .leb128 = leb128};
    size_t bytes = values->type == NNUE_I16 ? 2 : 4;
    nnue_status st = put_array(&w, values->count, bytes, gen_from_array, values, err);
    if (st == NNUE_OK && ferror(f))
        return nnue_fail(err, NNUE_E_IO, "write error");
    return st;
}
