/* layers/affine.c: fully connected layer y = W x + b (dense and sparse-input forms).
 *
 * Stockfish stores per output row: biases (out x i32), then weights
 * (out x padded_in x i8), rows padded to a multiple of 32 with zero columns
 * (FORMATS.md section 2). Hash step: (0xCC03DAE4 + out) ^ (p >> 1) ^ (p << 31).
 * "affine_sparse" is the same math with a kernel hint that the input is mostly zero. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    l->p.affine.weight_type = NNUE_I8;
    l->p.affine.bias_type = NNUE_I32;
    l->p.affine.pad_to = arch->format.kind == NNUE_FORMAT_STOCKFISH ? 32 : 1;
    l->p.affine.order = NNUE_ROW_MAJOR;
    l->p.affine.sum_divisor = 1;
    l->out_size = 0;
}

Y_INT_FIELD(read_outputs, nnue_layer_ctx, c->layer->out_size, 1, 65536, "affine 'outputs'")

static nnue_status read_dtype(yreader *r, yaml_node_t *v, nnue_dtype *out, const char *what)
{
    int i;
    nnue_status st = y_enum(r, v, nnue_dtype_names, &i, what);
    *out = (nnue_dtype)i;
    return st;
}

static nnue_status read_weight_type(yreader *r, yaml_node_t *v, void *t)
{
    nnue_layer *l = ((nnue_layer_ctx *)t)->layer;
    nnue_status st = read_dtype(r, v, &l->p.affine.weight_type, "affine 'weight_type'");
    if (st == NNUE_OK && l->p.affine.weight_type != NNUE_I8 && l->p.affine.weight_type != NNUE_I16 &&
        l->p.affine.weight_type != NNUE_I32)
        return y_fail(r, v, NNUE_E_SCHEMA, "affine 'weight_type': expected i8, i16 or i32, found %s",
                      nnue_dtype_name(l->p.affine.weight_type));
    return st;
}

static nnue_status read_bias_type(yreader *r, yaml_node_t *v, void *t)
{
    nnue_layer *l = ((nnue_layer_ctx *)t)->layer;
    nnue_status st = read_dtype(r, v, &l->p.affine.bias_type, "affine 'bias_type'");
    if (st == NNUE_OK && l->p.affine.bias_type != NNUE_I16 && l->p.affine.bias_type != NNUE_I32 &&
        l->p.affine.bias_type != NNUE_NONE)
        return y_fail(r, v, NNUE_E_SCHEMA, "affine 'bias_type': expected i16, i32 or none, found %s",
                      nnue_dtype_name(l->p.affine.bias_type));
    return st;
}

Y_INT_FIELD(read_pad_to, nnue_layer_ctx, c->layer->p.affine.pad_to, 1, 256, "affine 'pad_to'")

Y_INT_FIELD(read_sum_divisor, nnue_layer_ctx, c->layer->p.affine.sum_divisor, 1, 1 << 20, "affine 'sum_divisor'")
Y_INT_FIELD(read_sum_shift, nnue_layer_ctx, c->layer->p.affine.sum_shift, 0, 31, "affine 'sum_shift'")

static const yfield fields[] = {
    {"outputs", 1, read_outputs},
    {"weight_type", 0, read_weight_type},
    {"bias_type", 0, read_bias_type},
    {"pad_to", 0, read_pad_to},
    {"sum_divisor", 0, read_sum_divisor},
    {"sum_shift", 0, read_sum_shift},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    uint32_t pad = l->p.affine.pad_to;
    if (l->p.affine.sum_shift && l->p.affine.sum_divisor != 1) {
        snprintf(buf, size, "expected sum_shift or sum_divisor, found both");
        return buf;
    }
    l->p.affine.padded_in = (l->in_size + pad - 1) / pad * pad;
    if ((uint64_t)l->p.affine.padded_in * l->out_size > (1u << 28)) {
        snprintf(buf, size, "expected at most 2^28 weights, found %u x %u", l->out_size, l->p.affine.padded_in);
        return buf;
    }
    return NULL;
}

static uint32_t hash(const nnue_layer *l, uint32_t p)
{
    return (0xCC03DAE4u + l->out_size) ^ (p >> 1) ^ (p << 31);
}

static void describe_as(const nnue_layer *l, const char *head, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s[%u<-%u", head, l->out_size, l->in_size);
    if (l->p.affine.weight_type != NNUE_I8 || l->p.affine.bias_type != NNUE_I32)
        n += snprintf(buf + n, size - (size_t)n, ";w=%s,b=%s", nnue_dtype_name(l->p.affine.weight_type),
                      nnue_dtype_name(l->p.affine.bias_type));
    if (l->p.affine.sum_divisor != 1)
        n += snprintf(buf + n, size - (size_t)n, ";sum/%d", l->p.affine.sum_divisor);
    if (l->p.affine.sum_shift)
        n += snprintf(buf + n, size - (size_t)n, ";sum>>%d", l->p.affine.sum_shift);
    snprintf(buf + n, size - (size_t)n, "]");
}

static void describe_dense(const nnue_layer *l, char *buf, size_t size)
{
    describe_as(l, "AffineTransform", buf, size);
}

static void describe_sparse(const nnue_layer *l, char *buf, size_t size)
{
    describe_as(l, "AffineTransformSparseInput", buf, size);
}

static uint64_t parameters(const nnue_layer *l)
{
    return (uint64_t)l->out_size * l->in_size + (l->p.affine.bias_type == NNUE_NONE ? 0 : l->out_size);
}

static uint64_t file_bytes(const nnue_layer *l)
{
    return (uint64_t)l->out_size * nnue_dtype_size(l->p.affine.bias_type) +
           (uint64_t)l->out_size * l->p.affine.padded_in * nnue_dtype_size(l->p.affine.weight_type);
}

/* y[o] = bias[o] + sum_j w[o][j] x[j]; with sum_divisor d (bullet): y[o] = sum / d + bias[o], the
 * division truncating toward zero; with sum_shift k (Stormphrax's L1): y[o] = (sum >> k) + bias[o],
 * an arithmetic (floor) shift of the int32 sum. The sum is taken in 64 bits, wrapping (unsigned)
 * so a crafted net cannot overflow it: without a divisor y[o] is then the exact sum modulo 2^32,
 * as the engines' int32 sums and our SIMD kernels give it; real nets never leave int32. i32
 * weights (Stormphrax's L2 and L3): each product is taken modulo 2^64 like the sum. */
static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    const int32_t *x = inputs[0];
    uint32_t in = l->in_size, stride = l->p.affine.padded_in;
    for (uint32_t o = 0; o < l->out_size; o++) {
        uint64_t sum = 0; /* each product fits int64 (|w| < 2^15, |x| <= 2^31) */
        if (l->p.affine.weight_type == NNUE_I8) {
            const int8_t *row = (const int8_t *)w->weights + (size_t)o * stride;
            for (uint32_t j = 0; j < in; j++)
                sum += (uint64_t)((int64_t)row[j] * x[j]);
        } else if (l->p.affine.weight_type == NNUE_I16) {
            const int16_t *row = (const int16_t *)w->weights + (size_t)o * stride;
            for (uint32_t j = 0; j < in; j++)
                sum += (uint64_t)((int64_t)row[j] * x[j]);
        } else {
            const int32_t *row = (const int32_t *)w->weights + (size_t)o * stride;
            for (uint32_t j = 0; j < in; j++)
                sum += (uint64_t)((int64_t)row[j] * x[j]); /* |product| <= 2^62 */
        }
        if (l->p.affine.sum_divisor != 1)
            sum = (uint64_t)((int64_t)sum / l->p.affine.sum_divisor);
        if (l->p.affine.sum_shift) /* the int32 sum, shifted arithmetically (floor) */
            sum = (uint64_t)(int64_t)((int32_t)(uint32_t)sum >> l->p.affine.sum_shift);
        out[o] = (int32_t)(uint32_t)(sum + (uint64_t)(int64_t)((const int32_t *)w->biases)[o]);
    }
}

/* biases (out x int32 in memory; i16 or i32 in the file, or none: zeros), then weights
 * (out rows of padded_in values). */
static int tensors(const nnue_layer *l, nnue_tensor_shape t[NNUE_MAX_TENSORS])
{
    t[0] = (nnue_tensor_shape){"biases", l->p.affine.bias_type, NNUE_I32, 1, l->out_size, l->out_size};
    t[1] = (nnue_tensor_shape){"weights", l->p.affine.weight_type, l->p.affine.weight_type, l->out_size, l->in_size,
                               l->p.affine.padded_in};
    return 2;
}

static const char *adopt_dtype(nnue_layer *l, int k, nnue_dtype d, char *buf, size_t size)
{
    if (k == 1 && (d == NNUE_I8 || d == NNUE_I16 || d == NNUE_I32)) {
        l->p.affine.weight_type = d;
        return NULL;
    }
    if (k == 0 && (d == NNUE_I16 || d == NNUE_I32)) {
        l->p.affine.bias_type = d;
        return NULL;
    }
    snprintf(buf, size, "expected dtype %s for an affine layer's %s, found %s", k ? "i8, i16 or i32" : "i16 or i32",
             k ? "weights" : "biases", nnue_dtype_name(d));
    return buf;
}

const nnue_layer_type nnue_layer_affine = {
    .name = "affine", .min_inputs = 1, .max_inputs = 1, .is_affine = 1, .fields = fields, .defaults = defaults,
    .shape = shape, .hash = hash, .describe = describe_dense, .parameters = parameters, .file_bytes = file_bytes,
    .propagate = propagate, .tensors = tensors, .adopt_dtype = adopt_dtype,
};

static void defaults_sparse(nnue_layer *l, const nnue_arch *arch)
{
    defaults(l, arch);
    l->p.affine.sparse = 1;
}

const nnue_layer_type nnue_layer_affine_sparse = {
    .name = "affine_sparse", .min_inputs = 1, .max_inputs = 1, .is_affine = 1, .fields = fields,
    .defaults = defaults_sparse, .shape = shape, .hash = hash, .describe = describe_sparse, .parameters = parameters,
    .file_bytes = file_bytes, .propagate = propagate, .tensors = tensors, .adopt_dtype = adopt_dtype,
};
