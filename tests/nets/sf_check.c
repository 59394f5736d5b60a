/* tests/nets/sf_check.c: see sf_check.h. Offsets follow shared/oracle/chess/FORMATS.md section 2. */
#include "sf_check.h"

#include <stdlib.h>
#include <string.h>

#include "core/arch/layer.h"
#include "support.h"

#define ALIGNED(p) ck_assert_msg(((uintptr_t)(p) & 63) == 0, "%s is not 64-byte aligned", #p)

/* Decodes one signed LEB128 value at offset (independent of the loader). */
static int64_t leb128_at(const char *path, uint64_t offset)
{
    unsigned char b[8];
    nets_read_at(path, offset, b, 5);
    uint64_t v = 0;
    int shift = 0;
    for (int i = 0; i < 5; i++) {
        v |= (uint64_t)(b[i] & 0x7f) << shift;
        shift += 7;
        if (!(b[i] & 0x80)) {
            if (b[i] & 0x40)
                v |= ~(uint64_t)0 << shift;
            return (int64_t)v;
        }
    }
    ck_abort_msg("LEB128 value at %llu longer than 5 bytes", (unsigned long long)offset);
    return 0;
}

static int64_t weight(const nnue_layer *l, const void *w, uint64_t i)
{
    return l->p.affine.weight_type == NNUE_I16 ? ((const int16_t *)w)[i] : ((const int8_t *)w)[i];
}

void sf_check_net(const char *arch_yaml, const char *path)
{
    nnue_arch *a = nets_arch(arch_yaml);
    nnue_net *net = nets_load(a, path);
    uint64_t size = nets_file_size(path);
    const nnue_ft_desc *ft = &a->ft;

    /* Header, also through nnue_net_read_header. */
    uint32_t d = nets_u32_at(path, 8);
    ck_assert_uint_eq(net->version, nets_u32_at(path, 0));
    ck_assert_uint_eq(net->file_hash, a->file_hash);
    ck_assert_uint_eq(net->file_bytes, size);
    ck_assert_uint_eq(strlen(net->description), d);
    ck_assert_ptr_ne(net->arch, a);
    ck_assert_uint_eq(net->arch->file_hash, a->file_hash);
    nnue_net_header h;
    char *desc = NULL;
    nnue_error err;
    ck_assert_int_eq(nnue_net_read_header(path, &h, &desc, &err), NNUE_OK);
    ck_assert_uint_eq(h.version, a->format.version);
    ck_assert_uint_eq(h.file_hash, a->file_hash);
    ck_assert_uint_eq(h.ft_hash, a->ft_hash);
    ck_assert_uint_eq(h.description_bytes, d);
    ck_assert_uint_eq(h.file_bytes, size);
    ck_assert_int_eq(h.leb128, a->format.leb128);
    ck_assert_str_eq(desc, net->description);
    free(desc);

    ALIGNED(net->ft_biases);
    ALIGNED(net->ft_weights);
    ck_assert_int_eq(net->ft_psqt != NULL, ft->psqt_buckets > 0);
    if (net->ft_psqt)
        ALIGNED(net->ft_psqt);

    /* Feature transformer. */
    uint64_t ft_at = 12 + (uint64_t)d + 4, nw = (uint64_t)ft->inputs * ft->width;
    ck_assert_uint_eq(nets_u32_at(path, ft_at - 4), a->ft_hash);
    if (!a->format.leb128) {
        uint64_t w_at = ft_at + (uint64_t)ft->width * 2, p_at = w_at + nw * 2;
        ck_assert_int_eq(net->ft_biases[0], nets_i16_at(path, ft_at));
        ck_assert_int_eq(net->ft_biases[ft->width - 1], nets_i16_at(path, w_at - 2));
        ck_assert_int_eq(net->ft_weights[0], nets_i16_at(path, w_at));
        ck_assert_int_eq(net->ft_weights[nw - 1], nets_i16_at(path, w_at + (nw - 1) * 2));
        uint64_t mid = (uint64_t)(ft->inputs / 2) * ft->width + 7;
        ck_assert_int_eq(net->ft_weights[mid], nets_i16_at(path, w_at + mid * 2));
        if (ft->psqt_buckets) {
            uint64_t np = (uint64_t)ft->inputs * ft->psqt_buckets, pi = (uint64_t)(ft->inputs / 3) * ft->psqt_buckets + 5;
            ck_assert_int_eq(net->ft_psqt[0], nets_i32_at(path, p_at));
            ck_assert_int_eq(net->ft_psqt[pi], nets_i32_at(path, p_at + pi * 4));
            ck_assert_int_eq(net->ft_psqt[np - 1], nets_i32_at(path, p_at + (np - 1) * 4));
        }
    } else {
        char magic[18] = {0};
        nets_read_at(path, ft_at, magic, 17);
        ck_assert_str_eq(magic, "COMPRESSED_LEB128");
        ck_assert_int_eq(net->ft_biases[0], leb128_at(path, ft_at + 21));
    }

    /* Stacks, located from the end of the file. */
    uint64_t stack_bytes = nnue_arch_stack_bytes(a);
    uint64_t at = size - stack_bytes * a->stacks;
    const void *last_w = NULL;
    const nnue_layer *last_l = NULL;
    for (uint32_t k = 0; k < a->stacks; k++) {
        ck_assert_uint_eq(nets_u32_at(path, at), a->network_hash);
        at += 4;
        for (int i = 0; i < a->n_layers; i++) {
            const nnue_layer *l = &a->layers[i];
            const nnue_layer_weights *lw = &net->layer_weights[(size_t)k * a->n_layers + i];
            if (!l->type->is_affine) {
                ck_assert_ptr_null(lw->biases);
                ck_assert_ptr_null(lw->weights);
                continue;
            }
            ALIGNED(lw->biases);
            ALIGNED(lw->weights);
            uint32_t out = l->out_size, padded = l->p.affine.padded_in;
            ck_assert_int_eq(((const int32_t *)lw->biases)[0], nets_i32_at(path, at));
            ck_assert_int_eq(((const int32_t *)lw->biases)[out - 1], nets_i32_at(path, at + (out - 1) * 4));
            at += (uint64_t)out * 4;
            ck_assert_int_eq(weight(l, lw->weights, 0), nets_i8_at(path, at));
            uint64_t li = (uint64_t)(out - 1) * padded + l->in_size - 1;
            ck_assert_int_eq(weight(l, lw->weights, li), nets_i8_at(path, at + li));
            for (uint32_t o = 0; o < out; o++)
                for (uint32_t c = l->in_size; c < padded; c++)
                    ck_assert_msg(weight(l, lw->weights, (uint64_t)o * padded + c) == 0,
                                  "stack %u %s: padding column %u of row %u is not zero", k, l->name, c, o);
            at += (uint64_t)out * padded;
            last_w = lw->weights;
            last_l = l;
        }
    }
    ck_assert_uint_eq(at, size);
    /* The last stack's last output weight is the file's last byte. */
    ck_assert_ptr_nonnull(last_l);
    ck_assert_int_eq(weight(last_l, last_w, (uint64_t)last_l->out_size * last_l->p.affine.padded_in - 1),
                     nets_i8_at(path, size - 1));
    nnue_net_free(net);
    nnue_arch_free(a);
}
