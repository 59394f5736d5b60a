/* layers/extension.c: layer types from outside the library (include/nnue_extend.h).
 *
 * The public descriptor (nnue_ext_layer_type) is a narrow, frozen ABI; this file turns each one
 * registered into an internal nnue_layer_type (core/arch/layer.h) whose hooks translate: the
 * YAML keys become numbers in nnue_layer.p.ext, the tensors become tensor shapes (same dtype in
 * the file and in memory, no padding), propagate gets the tensors of the selected stack. The
 * internal registry (layers/registry.c) then holds it like any built-in type. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/names.h"
#include "base/registry.h"
#include "layers/common.h"
#include "nnue_extend.h"

_Static_assert(NNUE_EXT_MAX_PARAMS == sizeof(((nnue_layer *)0)->p.ext) / sizeof(double),
               "nnue_layer.p.ext holds the public parameters");
_Static_assert(NNUE_EXT_MAX_TENSORS <= NNUE_MAX_TENSORS, "public tensors fit the internal ones");
_Static_assert(NNUE_EXT_MAX_INPUTS <= NNUE_MAX_LAYER_INPUTS, "public inputs fit the internal ones");
_Static_assert((int)NNUE_EXT_I8 == (int)NNUE_I8 && (int)NNUE_EXT_U8 == (int)NNUE_U8 &&
                   (int)NNUE_EXT_I16 == (int)NNUE_I16 && (int)NNUE_EXT_I32 == (int)NNUE_I32 &&
                   (int)NNUE_EXT_F32 == (int)NNUE_F32,
               "public dtypes are the internal ones");

/* An internal type made for one public descriptor; `type` first, so a layer's type pointer leads
 * back to its wrapper. */
typedef struct ext_wrapper {
    nnue_layer_type type;
    const nnue_ext_layer_type *ext;
    yfield fields[NNUE_EXT_MAX_PARAMS + 1];
} ext_wrapper;

static ext_wrapper wrappers[NNUE_REGISTRY_MAX];
static int n_wrappers;
static pthread_mutex_t wrappers_lock = PTHREAD_MUTEX_INITIALIZER;

static const nnue_ext_layer_type *ext_of(const nnue_layer *l)
{
    return ((const ext_wrapper *)(const void *)l->type)->ext;
}

/* The public view of an internal layer. */
static nnue_ext_layer view_of(const nnue_layer *l)
{
    nnue_ext_layer v = {.in_size = l->in_size, .out_size = l->out_size, .n_inputs = l->n_inputs};
    for (int i = 0; i < l->n_inputs && i < NNUE_EXT_MAX_INPUTS; i++)
        v.input_sizes[i] = l->input_sizes[i];
    memcpy(v.param, l->p.ext, sizeof v.param);
    return v;
}

static int param_count(const nnue_ext_layer_type *t)
{
    int n = 0;
    while (t->params && t->params[n])
        n++;
    return n;
}

static int param_required(const nnue_ext_layer_type *t, int k)
{
    return !t->param_defaults || isnan(t->param_defaults[k]);
}

static nnue_status read_param(yreader *r, yaml_node_t *v, void *target, int k)
{
    nnue_layer *l = ((nnue_layer_ctx *)target)->layer;
    const char *key = ext_of(l)->params[k];
    char *end = NULL;
    if (v->type != YAML_SCALAR_NODE)
        return y_fail(r, v, NNUE_E_SCHEMA, "layer '%s': expected a number for '%s'", l->name, key);
    const char *text = (const char *)v->data.scalar.value;
    double d = strtod(text, &end);
    if (end == text || *end || !isfinite(d))
        return y_fail(r, v, NNUE_E_SCHEMA, "layer '%s': expected a finite number for '%s', found '%s'", l->name,
                      key, text);
    l->p.ext[k] = d;
    return NNUE_OK;
}

/* One handler per parameter slot: a yfield handler does not learn its key. */
#define PARAM_READER(k) \
    static nnue_status read_param##k(yreader *r, yaml_node_t *v, void *t) { return read_param(r, v, t, k); }
PARAM_READER(0)
PARAM_READER(1)
PARAM_READER(2)
PARAM_READER(3)
PARAM_READER(4)
PARAM_READER(5)
PARAM_READER(6)
PARAM_READER(7)
static const yfield_fn param_readers[NNUE_EXT_MAX_PARAMS] = {read_param0, read_param1, read_param2, read_param3,
                                                              read_param4, read_param5, read_param6, read_param7};

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    const nnue_ext_layer_type *t = ext_of(l);
    for (int k = 0; k < NNUE_EXT_MAX_PARAMS; k++)
        l->p.ext[k] = k >= param_count(t) ? 0.0 : param_required(t, k) ? NAN : t->param_defaults[k];
}

/* The declared tensors, checked; -1 with a message in buf when they are not usable. */
static int declared_tensors(const nnue_layer *l, nnue_ext_tensor out[NNUE_EXT_MAX_TENSORS], char *buf, size_t size)
{
    const nnue_ext_layer_type *t = ext_of(l);
    if (!t->tensors)
        return 0;
    nnue_ext_layer v = view_of(l);
    memset(out, 0, NNUE_EXT_MAX_TENSORS * sizeof *out);
    int n = t->tensors(&v, out);
    if (n < 0 || n > NNUE_EXT_MAX_TENSORS) {
        snprintf(buf, size, "layer type '%s' declares %d tensors (0 to %d)", t->name, n, NNUE_EXT_MAX_TENSORS);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        if (!out[k].name || !out[k].name[0] || (unsigned)out[k].dtype > NNUE_EXT_F32 || !out[k].rows ||
            !out[k].cols || (uint64_t)out[k].rows * out[k].cols > (1u << 28)) {
            snprintf(buf, size, "layer type '%s': tensor %d needs a name, a dtype and 1 to 2^28 values",
                     t->name, k);
            return -1;
        }
    }
    return n;
}

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    const nnue_ext_layer_type *t = ext_of(l);
    for (int k = 0; k < param_count(t); k++)
        if (isnan(l->p.ext[k])) {
            snprintf(buf, size, "layer type '%s' needs the key '%s'", t->name, t->params[k]);
            return buf;
        }
    nnue_ext_layer v = view_of(l);
    v.out_size = l->in_size;
    const char *problem = t->shape ? t->shape(&v) : NULL;
    if (problem) {
        snprintf(buf, size, "layer type '%s': %s", t->name, problem);
        return buf;
    }
    if (v.out_size < 1 || v.out_size > NNUE_MAX_LAYER_VALUES) {
        snprintf(buf, size, "layer type '%s' gives %u outputs (1 to %d)", t->name, v.out_size, NNUE_MAX_LAYER_VALUES);
        return buf;
    }
    l->out_size = v.out_size;
    nnue_ext_tensor tensors[NNUE_EXT_MAX_TENSORS];
    return declared_tensors(l, tensors, buf, size) < 0 ? buf : NULL;
}

static int tensors(const nnue_layer *l, nnue_tensor_shape out[NNUE_MAX_TENSORS])
{
    nnue_ext_tensor t[NNUE_EXT_MAX_TENSORS];
    char buf[160];
    int n = declared_tensors(l, t, buf, sizeof buf); /* checked by shape() */
    for (int k = 0; k < n; k++)
        out[k] = (nnue_tensor_shape){.name = t[k].name, .file = (nnue_dtype)t[k].dtype, .mem = (nnue_dtype)t[k].dtype,
                                     .rows = t[k].rows, .cols = t[k].cols, .stride = t[k].cols};
    return n < 0 ? 0 : n;
}

static uint64_t parameters(const nnue_layer *l)
{
    nnue_tensor_shape t[NNUE_MAX_TENSORS];
    uint64_t sum = 0;
    for (int k = 0, n = tensors(l, t); k < n; k++)
        sum += (uint64_t)t[k].rows * t[k].cols;
    return sum;
}

static uint64_t file_bytes(const nnue_layer *l)
{
    nnue_tensor_shape t[NNUE_MAX_TENSORS];
    uint64_t sum = 0;
    for (int k = 0, n = tensors(l, t); k < n; k++)
        sum += (uint64_t)t[k].rows * t[k].cols * nnue_dtype_size(t[k].file);
    return sum;
}

static uint32_t hash(const nnue_layer *l, uint32_t prev)
{
    return ext_of(l)->hash_step + prev;
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "%s[%u<-%u]", ext_of(l)->name, l->out_size, l->in_size);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    nnue_ext_layer v = view_of(l);
    const void *t[NNUE_EXT_MAX_TENSORS] = {w ? w->tensor[0] : NULL, w ? w->tensor[1] : NULL};
    ext_of(l)->propagate(&v, t, inputs, out);
}

static nnue_value_flow flow_of(const nnue_ext_layer_type *t)
{
    if (t->input == NNUE_EXT_FLOAT32)
        return t->output == NNUE_EXT_FLOAT32 ? NNUE_FLOW_F32 : NNUE_FLOW_F32_TO_I32;
    return t->output == NNUE_EXT_FLOAT32 ? NNUE_FLOW_I32_TO_F32 : NNUE_FLOW_I32;
}

/* What is wrong with a descriptor (in buf), or NULL. */
static const char *check_descriptor(const nnue_ext_layer_type *t, char *buf, size_t size)
{
    static const char *const reserved[] = {"name", "type", "input", "inputs", "input_size", NULL};
    if (t->abi != NNUE_EXTEND_ABI) {
        snprintf(buf, size, "a layer type built for extension ABI %u; this library reads ABI %d", t->abi,
                 NNUE_EXTEND_ABI);
        return buf;
    }
    if (!t->name || !t->name[0] || !t->propagate)
        return "a layer type needs a name and propagate";
    if (nnue_name_problem("layer type", t->name, buf, size))
        return buf;
    if (t->min_inputs < 1 || t->max_inputs > NNUE_EXT_MAX_INPUTS || t->min_inputs > t->max_inputs) {
        snprintf(buf, size, "layer type '%s': inputs %d..%d (expected 1 <= min <= max <= %d)", t->name,
                 t->min_inputs, t->max_inputs, NNUE_EXT_MAX_INPUTS);
        return buf;
    }
    if ((unsigned)t->input > NNUE_EXT_FLOAT32 || (unsigned)t->output > NNUE_EXT_FLOAT32) {
        snprintf(buf, size, "layer type '%s': input and output are NNUE_EXT_INT32 or NNUE_EXT_FLOAT32", t->name);
        return buf;
    }
    for (int k = 0; t->params && t->params[k]; k++) {
        if (k >= NNUE_EXT_MAX_PARAMS || !t->params[k][0]) {
            snprintf(buf, size, "layer type '%s': at most %d parameter keys, none empty", t->name, NNUE_EXT_MAX_PARAMS);
            return buf;
        }
        char what[NNUE_NAME_MAX + 32];
        snprintf(what, sizeof what, "layer type '%s': parameter key %d", t->name, k);
        if (nnue_name_problem(what, t->params[k], buf, size))
            return buf;
        for (int j = 0; reserved[j]; j++)
            if (strcmp(t->params[k], reserved[j]) == 0) {
                snprintf(buf, size, "layer type '%s': the key '%s' belongs to every layer", t->name, reserved[j]);
                return buf;
            }
        for (int j = 0; j < k; j++)
            if (strcmp(t->params[k], t->params[j]) == 0) {
                snprintf(buf, size, "layer type '%s': the key '%s' twice", t->name, t->params[k]);
                return buf;
            }
    }
    return NULL;
}

nnue_status nnue_register_layer_type(const nnue_ext_layer_type *ext, nnue_error *err)
{
    nnue_error_clear(err);
    if (!ext)
        return nnue_fail(err, NNUE_E_ARG, "nnue_register_layer_type: type is NULL");
    char buf[256];
    const char *problem = check_descriptor(ext, buf, sizeof buf);
    if (problem)
        return nnue_fail(err, NNUE_E_ARG, "nnue_register_layer_type: %s", problem);
    pthread_mutex_lock(&wrappers_lock);
    nnue_status st = NNUE_OK;
    int i = 0;
    while (i < n_wrappers && wrappers[i].ext != ext)
        i++;
    if (i < n_wrappers) { /* registered before: the registry makes it a no-op */
        st = nnue_register_internal_layer_type(&wrappers[i].type, err);
    } else if (n_wrappers == NNUE_REGISTRY_MAX) {
        st = nnue_fail(err, NNUE_E_ARG, "nnue_register_layer_type: %d layer types are registered already",
                       NNUE_REGISTRY_MAX);
    } else {
        ext_wrapper *w = &wrappers[n_wrappers];
        memset(w, 0, sizeof *w);
        w->ext = ext;
        int n = param_count(ext);
        for (int k = 0; k < n; k++)
            w->fields[k] = (yfield){ext->params[k], param_required(ext, k), param_readers[k]};
        w->fields[n] = (yfield){NULL, 0, NULL};
        w->type = (nnue_layer_type){
            .name = ext->name, .min_inputs = ext->min_inputs, .max_inputs = ext->max_inputs, .fields = w->fields,
            .defaults = defaults, .shape = shape, .hash = hash, .describe = describe, .parameters = parameters,
            .file_bytes = file_bytes, .propagate = propagate, .flow = flow_of(ext), .tensors = tensors,
        };
        st = nnue_register_internal_layer_type(&w->type, err);
        if (st == NNUE_OK)
            n_wrappers++;
    }
    pthread_mutex_unlock(&wrappers_lock);
    return st;
}

/* The older name (include/nnue_extend.h: deprecated, kept exported). */
nnue_status nnue_ext_register_layer_type(const nnue_ext_layer_type *ext, nnue_error *err)
{
    return nnue_register_layer_type(ext, err);
}
