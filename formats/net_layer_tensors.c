/* formats/net_layer_tensors.c: the layers' tensors of a net being read, whatever the format: every
 * stack's tensors allocated (zeroed: a tensor the file leaves out stays zero), padding columns
 * zeroed and counted, float values checked to be finite. The format readers
 * (formats/net_read_stockfish.c, formats/net_read_raw.c) ask the layer types for their tensors
 * (core/arch/layer.h) and call these; none of them names a layer type. */
#include <math.h>
#include <string.h>

#include "core/arch/layer.h"
#include "base/error.h"
#include "formats/net_layer_tensors.h"

typedef unsigned long long ull;

nnue_status nr_layer_tensors_alloc(nnue_weights *w, nr_stream *s)
{
    const nnue_arch *a = w->arch;
    char what[NNUE_NAME_MAX + 64];
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        nnue_tensor_shape t[NNUE_MAX_TENSORS];
        int n = l->type->tensors ? l->type->tensors(l, t) : 0;
        for (uint32_t k = 0; k < a->stacks; k++)
            for (int j = 0; j < n; j++) {
                uint64_t bytes = nnue_tensor_values(&t[j]) * nnue_dtype_size(t[j].mem);
                void *p;
                snprintf(what, sizeof what, "stack %u %s %s", k, l->name, t[j].name);
                nnue_status st = nr_alloc_for(s, &p, bytes, what);
                if (st != NNUE_OK)
                    return st;
                memset(p, 0, (size_t)bytes);
                w->layer_weights[(size_t)k * a->n_layers + i].tensor[j] = p;
            }
    }
    return NNUE_OK;
}

void nr_zero_padding(nnue_weights *w, const nnue_tensor_shape *t, void *data)
{
    size_t size = nnue_dtype_size(t->mem);
    for (uint32_t r = 0; r < t->rows; r++)
        for (uint32_t c = t->cols; c < t->stride; c++) {
            unsigned char *v = (unsigned char *)data + ((size_t)r * t->stride + c) * size;
            for (size_t b = 0; b < size; b++)
                if (v[b]) {
                    w->padding_nonzero++;
                    memset(v, 0, size);
                    break;
                }
        }
}

nnue_status nr_check_finite(nr_stream *s, const float *v, uint64_t count, uint64_t start, const char *section)
{
    for (uint64_t i = 0; i < count; i++)
        if (!isfinite(v[i]))
            return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(start + i * 4),
                                    "%s: value %llu is %s; expected a finite float32", section, (ull)i,
                                    isnan(v[i]) ? "NaN" : "infinite");
    return NNUE_OK;
}
