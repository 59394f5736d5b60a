/* tests/extend/outside/toy_extension.c: an extension as a user outside the tree writes it, with
 * the installed headers only (include/nnue_extend.h), built into a shared object by
 * tests/extend/outside/test_outside.sh with pkg-config. It registers:
 *  - "Toy768", a chess feature set: own pieces P..K = 0..5, the other side's = 6..11, index =
 *    64 * code + square, squares flipped vertically (^ 56) for black; both kings included, so no
 *    move forces a refresh. (The same numbers as the built-in Chess768 without buckets, written
 *    here from that rule alone: the test compares the two.)
 *  - "toy_affine", an integer affine layer with a YAML parameter: out[i] = sign * (bias[i] +
 *    sum_j weight[i][j] * in[j]), tensors "biases" (int32, 1 x outputs) and "weights" (int8,
 *    outputs x inputs), in that order (the built-in affine layer's file order). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue_extend.h"

/* ---- the feature set ---- */

static uint32_t toy_index(uint8_t piece, int square, int persp)
{
    int code = NNUE_PIECE_TYPE(piece) - 1 + (NNUE_PIECE_COLOUR(piece) == persp ? 0 : 6);
    return (uint32_t)(64 * code + (persp ? square ^ 56 : square));
}

static int toy_active(const nnue_board *board, int persp, uint32_t *out)
{
    int n = 0;
    for (int sq = 0; sq < 64; sq++)
        if (board->piece_on[sq])
            out[n++] = toy_index(board->piece_on[sq], sq, persp);
    return n;
}

static void toy_changed(const nnue_board *after, const nnue_delta *delta, int persp, uint32_t *removed,
                        int *n_removed, uint32_t *added, int *n_added)
{
    (void)after;
    *n_removed = *n_added = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0)
            removed[(*n_removed)++] = toy_index(d->old_piece, d->old_sq, persp);
        if (d->new_sq >= 0)
            added[(*n_added)++] = toy_index(d->new_piece, d->new_sq, persp);
    }
}

static const nnue_ext_feature_set toy768 = {
    .abi = NNUE_EXTEND_ABI, .name = "Toy768", .game = "chess", .dimensions = 768, .max_active = 32,
    .max_changed = 3, .max_pieces = 32, .active = toy_active, .changed = toy_changed,
};

/* ---- the layer type ---- */

static const char *const affine_params[] = {"outputs", "sign", NULL};
static const double affine_defaults[] = {NAN, 1.0}; /* outputs: required */

static const char *affine_shape(nnue_ext_layer *layer)
{
    double outputs = layer->param[0], sign = layer->param[1];
    if (outputs < 1 || outputs > 4096 || outputs != (int)outputs)
        return "'outputs' must be a whole number from 1 to 4096";
    if (sign != 1 && sign != -1)
        return "'sign' must be 1 or -1";
    layer->out_size = (uint32_t)outputs;
    return NULL;
}

static int affine_tensors(const nnue_ext_layer *layer, nnue_ext_tensor out[NNUE_EXT_MAX_TENSORS])
{
    out[0] = (nnue_ext_tensor){"biases", NNUE_EXT_I32, 1, layer->out_size};
    out[1] = (nnue_ext_tensor){"weights", NNUE_EXT_I8, layer->out_size, layer->in_size};
    return 2;
}

static void affine_propagate(const nnue_ext_layer *layer, const void *const *tensors, const int32_t *const *inputs,
                             int32_t *out)
{
    const int32_t *biases = tensors[0];
    const int8_t *weights = tensors[1];
    const int32_t *in = inputs[0];
    int32_t sign = (int32_t)layer->param[1];
    for (uint32_t i = 0; i < layer->out_size; i++) {
        int32_t sum = biases[i];
        for (uint32_t j = 0; j < layer->in_size; j++)
            sum += weights[(size_t)i * layer->in_size + j] * in[j];
        out[i] = sign * sum;
    }
}

static const nnue_ext_layer_type toy_affine = {
    .abi = NNUE_EXTEND_ABI, .name = "toy_affine", .min_inputs = 1, .max_inputs = 1, .input = NNUE_EXT_INT32,
    .output = NNUE_EXT_INT32, .params = affine_params, .param_defaults = affine_defaults, .shape = affine_shape,
    .tensors = affine_tensors, .propagate = affine_propagate, .hash_step = 0x70796a31u,
};

/* ---- the entry point the library looks for ---- */

nnue_status nnue_extension_init(nnue_error *err);

nnue_status nnue_extension_init(nnue_error *err)
{
    nnue_status st = nnue_register_feature_set(&toy768, err);
    return st != NNUE_OK ? st : nnue_register_layer_type(&toy_affine, err);
}
