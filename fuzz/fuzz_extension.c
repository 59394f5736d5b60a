/* fuzz/fuzz_extension.c: libFuzzer target for extension descriptors (include/nnue_extend.h; issue
 * 49). Each input:
 *  1. builds a feature set and a layer type descriptor from its bytes (names, keys, bounds,
 *     input counts, value types) and registers them: a refusal must say why. A descriptor the
 *     checks would take is registered under a name already in use (a pool of four, registered
 *     once), so runs never fill the registries: it must then be refused as taken.
 *  2. drives the pool's feature set "FuzzSet<k>" (Chess768's rule; active() and changed() give
 *     counts and indices the input may corrupt) through a random net and a few legal moves: a
 *     bad list must be refused by nnue_evaluate, naming the set; a clean run must equal a fresh
 *     state's evaluation.
 *  3. loads an architecture whose last layer is the pool's layer type "fuzz_layer<k>" with
 *     parameter values, output size and declared tensors from the input: refused with a line, or
 *     loaded, written as a random net, read back and evaluated. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "fuzz_util.h"
#include "nnue.h"
#include "nnue_extend.h"

enum { POOL = 4 };

/* What the pool's hooks do this run (set from the input). */
static struct {
    int corrupt;          /* 0 clean; 1 index past dims; 2 count past max; 3 negative count */
    int in_changed;       /* corrupt changed() instead of active() */
    uint32_t out_size;    /* the layer's outputs */
    nnue_ext_tensor tensor;
    int n_tensors;
} hooks;

static uint32_t index_of(uint8_t piece, int square, int persp)
{
    int code = NNUE_PIECE_TYPE(piece) - 1 + (NNUE_PIECE_COLOUR(piece) == persp ? 0 : 6);
    return (uint32_t)(64 * code + (persp ? square ^ 56 : square)) % 768;
}

static int spoil(uint32_t *list, int n, int max)
{
    switch (hooks.corrupt) {
    case 1: list[0] = 768 + (uint32_t)n; return n ? n : (list[0] = 768, 1);
    case 2: return max + 1;
    case 3: return -1;
    default: return n;
    }
}

static int pool_active(const nnue_board *board, int persp, uint32_t *out)
{
    int n = 0;
    for (int sq = 0; sq < 64; sq++)
        if (board->piece_on[sq])
            out[n++] = index_of(board->piece_on[sq], sq, persp);
    return hooks.in_changed ? n : spoil(out, n, 32);
}

static void pool_changed(const nnue_board *after, const nnue_delta *delta, int persp, uint32_t *removed,
                         int *n_removed, uint32_t *added, int *n_added)
{
    (void)after;
    *n_removed = *n_added = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0)
            removed[(*n_removed)++] = index_of(d->old_piece, d->old_sq, persp);
        if (d->new_sq >= 0)
            added[(*n_added)++] = index_of(d->new_piece, d->new_sq, persp);
    }
    if (hooks.in_changed)
        *n_added = spoil(added, *n_added, 8);
}

static const char *pool_shape(nnue_ext_layer *layer)
{
    if (hooks.out_size == 0)
        return "no outputs (fuzzed)";
    layer->out_size = hooks.out_size;
    return NULL;
}

static int pool_tensors(const nnue_ext_layer *layer, nnue_ext_tensor out[NNUE_EXT_MAX_TENSORS])
{
    (void)layer;
    for (int k = 0; k < hooks.n_tensors && k < NNUE_EXT_MAX_TENSORS; k++)
        out[k] = hooks.tensor;
    return hooks.n_tensors;
}

static void pool_propagate(const nnue_ext_layer *layer, const void *const *tensors, const int32_t *const *inputs,
                           int32_t *out)
{
    (void)tensors;
    for (uint32_t i = 0; i < layer->out_size; i++)
        out[i] = inputs[0][i % layer->input_sizes[0]];
}

static char set_names[POOL][16], layer_names[POOL][16];
static nnue_ext_feature_set pool_sets[POOL];
static nnue_ext_layer_type pool_layers[POOL];
static const char *const pool_keys[] = {"alpha", "beta", NULL};
static nnue_net *pool_nets[POOL];

static void register_pool(void)
{
    for (int k = 0; k < POOL; k++) {
        nnue_error err;
        snprintf(set_names[k], sizeof set_names[k], "FuzzSet%d", k);
        snprintf(layer_names[k], sizeof layer_names[k], "fuzz_layer%d", k);
        pool_sets[k] = (nnue_ext_feature_set){NNUE_EXTEND_ABI, set_names[k], "chess", 768, 0, 32, 8, 32,
                                              pool_active, pool_changed, NULL};
        pool_layers[k] = (nnue_ext_layer_type){NNUE_EXTEND_ABI, layer_names[k], 1, 1, NNUE_EXT_INT32, NNUE_EXT_INT32,
                                               pool_keys, NULL, pool_shape, pool_tensors, pool_propagate, 0};
        if (nnue_register_feature_set(&pool_sets[k], &err) != NNUE_OK ||
            nnue_register_layer_type(&pool_layers[k], &err) != NNUE_OK) {
            fprintf(stderr, "fuzz_extension: pool %d: %s\n", k, err.message);
            abort();
        }
    }
}

static uint8_t next(const uint8_t **p, const uint8_t *end)
{
    return *p < end ? *(*p)++ : 0;
}

/* A name from the input (length byte, then bytes); one the rule takes becomes a pool name. */
static const char *fuzzed_name(const uint8_t **p, const uint8_t *end, char *buf, size_t size, const char *pool)
{
    size_t n = next(p, end), avail = (size_t)(end - *p);
    if (n > avail)
        n = avail;
    if (n > size - 1)
        n = size - 1;
    memcpy(buf, *p, n);
    buf[n] = 0;
    *p += n;
    char why[256];
    return nnue_name_problem("fuzz", buf, why, sizeof why) ? buf : pool;
}

static void refused_with_reason(nnue_status st, const nnue_error *err)
{
    if (st == NNUE_OK || !err->message[0])
        __builtin_trap(); /* a fuzzed descriptor under a taken name, or a bad one: refused, saying why */
}

static void descriptors(const uint8_t **p, const uint8_t *end, int k)
{
    static char name[300], key[NNUE_EXT_MAX_PARAMS + 2][64];
    nnue_error err;
    nnue_ext_feature_set fs = {NNUE_EXTEND_ABI, NULL, "chess", 768, 0, 32, 8, 32, pool_active, pool_changed, NULL};
    fs.name = fuzzed_name(p, end, name, sizeof name, set_names[k]);
    uint8_t b = next(p, end);
    fs.dimensions = b & 1 ? 0 : 1u + next(p, end) * 97u;
    fs.max_active = (uint16_t)(next(p, end) * 2);
    fs.max_changed = (uint16_t)next(p, end);
    if (b & 2)
        fs.game = b & 4 ? "go" : "xiangqi";
    if (b & 8)
        fs.abi = 2;
    refused_with_reason(nnue_register_feature_set(&fs, &err), &err);

    nnue_ext_layer_type lt = {NNUE_EXTEND_ABI, NULL, 1, 1, NNUE_EXT_INT32, NNUE_EXT_INT32, NULL, NULL,
                              pool_shape, pool_tensors, pool_propagate, 0};
    lt.name = fuzzed_name(p, end, name, sizeof name, layer_names[k]);
    b = next(p, end);
    lt.min_inputs = b & 7;
    lt.max_inputs = (b >> 3) & 7;
    lt.input = (nnue_ext_value)(next(p, end) % 3);
    lt.output = (nnue_ext_value)(next(p, end) % 3);
    static const char *keys[NNUE_EXT_MAX_PARAMS + 2];
    int n_keys = next(p, end) % (NNUE_EXT_MAX_PARAMS + 2);
    for (int i = 0; i < n_keys; i++)
        keys[i] = fuzzed_name(p, end, key[i], sizeof key[i], i & 1 ? "inputs" : "alpha");
    keys[n_keys] = NULL;
    lt.params = n_keys ? keys : NULL;
    refused_with_reason(nnue_register_layer_type(&lt, &err), &err);
}

static nnue_net *pool_net(int k)
{
    if (pool_nets[k])
        return pool_nets[k];
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "name: fuzz-set\ngame: chess\nformat:\n  kind: raw\n  blocks:\n    - {tensor: ft.weights, dtype: i16}\n"
             "    - {tensor: ft.biases, dtype: i16}\n    - {tensor: out.weights, dtype: i8}\n"
             "    - {tensor: out.biases, dtype: i32}\nfeature_transformer:\n  features: %s\n  width: 8\n"
             "  activation: {type: clamp, max: 127}\nlayers:\n  - {name: out, type: affine, outputs: 1}\n"
             "output: {divisor: 16}\n",
             set_names[k]);
    nnue_arch *a;
    nnue_error err;
    char tag[16];
    snprintf(tag, sizeof tag, "extset%d", k);
    const char *out = fuzz_temp_file(1, tag, "", 0);
    hooks.corrupt = 0;
    if (!out || nnue_arch_load_string(yaml, strlen(yaml), "fuzz-set.yaml", &a, &err) != NNUE_OK ||
        nnue_net_write_random(a, out, 11, &err) != NNUE_OK || nnue_net_load(a, out, &pool_nets[k], &err) != NNUE_OK) {
        fprintf(stderr, "fuzz_extension: set net %d: %s\n", k, err.message);
        abort();
    }
    remove(out);
    nnue_arch_free(a);
    return pool_nets[k];
}

static int32_t fresh_total(const nnue_net *net, const nnue_board *b)
{
    nnue_state *s = nnue_state_new(net, 0);
    nnue_state_reset(s, b);
    int32_t v = nnue_evaluate(s, b, NULL);
    nnue_state_free(s);
    return v;
}

static void play(const uint8_t **p, const uint8_t *end, int k)
{
    const nnue_net *net = pool_net(k);
    const nnue_game *game = nnue_game_find("chess");
    void *pos = calloc(1, game->pos_size);
    nnue_move *moves = malloc(sizeof *moves * NNUE_MAX_MOVES);
    nnue_error err;
    if (!pos || !moves || game->parse(pos, game->start, &err) != 0)
        abort();
    nnue_state *s = nnue_state_new(net, 8);
    nnue_state_reset(s, game->board(pos));
    for (int ply = 0; ply < 6 && *p < end; ply++) {
        uint8_t b = next(p, end);
        hooks.corrupt = b & 3;
        hooks.in_changed = (b >> 2) & 1;
        int n = game->legal_moves(pos, moves);
        if (n == 0)
            break;
        nnue_delta delta;
        game->make(pos, moves[next(p, end) % n], &delta);
        nnue_state_push(s, game->board(pos), &delta);
        int32_t v = nnue_evaluate(s, game->board(pos), NULL);
        const nnue_error *e = nnue_state_error(s);
        if (e->code != NNUE_OK) {
            if (!hooks.corrupt || !strstr(e->message, set_names[k]))
                __builtin_trap(); /* only a bad list is refused, and the refusal names the set */
        } else {
            /* no fault: every list the hooks gave was good (a spoiled hook was not called), exact */
            hooks.corrupt = 0;
            if (v != fresh_total(net, game->board(pos)))
                __builtin_trap();
        }
    }
    hooks.corrupt = 0;
    nnue_state_free(s);
    free(moves);
    free(pos);
}

static void layer_arch(const uint8_t **p, const uint8_t *end, int k)
{
    hooks.out_size = next(p, end) % 5;
    hooks.n_tensors = next(p, end) % 4;
    uint8_t b = next(p, end);
    static const char *const tnames[] = {"weights", "", NULL, "biases"};
    hooks.tensor = (nnue_ext_tensor){tnames[b & 3], (nnue_ext_dtype)((b >> 2) % 6), next(p, end) % 5, next(p, end) % 9};
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "name: fuzz-layer\ngame: chess\nformat:\n  kind: raw\n  blocks:\n    - {tensor: ft.weights, dtype: i16}\n"
             "    - {tensor: ft.biases, dtype: i16}\nfeature_transformer:\n  features: Chess768\n  width: 8\n"
             "  activation: {type: clamp, max: 127}\nlayers:\n  - {name: out, type: %s, alpha: %d, beta: %d}\n"
             "output: {divisor: 16}\n",
             layer_names[k], (int8_t)next(p, end), (int8_t)next(p, end));
    nnue_arch *a;
    nnue_error err;
    if (nnue_arch_load_string(yaml, strlen(yaml), "fuzz-layer.yaml", &a, &err) != NNUE_OK) {
        if (!err.message[0])
            __builtin_trap();
        return;
    }
    /* a net of it, written and read back (its raw blocks name only the FT: a layer with tensors
     * is refused by the format's block list, which must say so) */
    const char *out = fuzz_temp_file(2, "extlayer", "", 0);
    nnue_net *net;
    if (out && nnue_net_write_random(a, out, 3, &err) == NNUE_OK && nnue_net_load(a, out, &net, &err) == NNUE_OK) {
        fuzz_evaluate_start(net);
        nnue_net_free(net);
    } else if (!err.message[0]) {
        __builtin_trap();
    }
    if (out)
        remove(out);
    nnue_arch_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        register_pool();
        ready = 1;
    }
    if (size < 1)
        return 0;
    const uint8_t *p = data + 1, *end = data + size;
    int k = data[0] % POOL;
    descriptors(&p, end, k);
    play(&p, end, k);
    layer_arch(&p, end, k);
    return 0;
}
