/* core/arch/arch_hash.c: hashes, parameter count and file size derived from the graph alone.
 *
 * Hash rules (shared/oracle/chess/FORMATS.md section 1, shogi FORMATS.md section 1):
 *   FT hash      = feature-set hash ^ (2 * width); with several sets, the first listed set's
 *                  hash (Stockfish 18: Full_Threats, FORMATS.md section 9), or with format
 *                  ft_hash: combined h = rotl(h, 1) ^ hash over the sets in order from 0
 *                  (Stockfish 19, docs/formats-sfnnv16.md)
 *   network hash = fold of each layer's hash step, in declaration order, starting from the
 *                  input-slice hash 0xEC42E90D ^ (2 * width); affine and crelu contribute,
 *                  the other layer types pass the value through
 *   file hash    = FT hash ^ network hash, xor the hash of each table variable the selector
 *                  names (YaneuraOu's progress section: shared/oracle/shogi/yo26/FACTS.md s.2)
 * unless the YAML gives format 'hashes' (YaneuraOu's SFNN: fixed constants for every shape).
 * Note the quirk kept on purpose: the start value uses 2 * width even when a pairwise FT
 * activation halves what the first layer reads. */
#include "core/arch/arch_internal.h"
#include "core/arch/layer.h"
#include "base/arch_limits.h"

uint32_t nnue_arch_input_hash(const nnue_arch *a)
{
    return 0xEC42E90Du ^ (2u * a->ft.width);
}

uint64_t nnue_arch_stack_bytes(const nnue_arch *a)
{
    uint64_t bytes = a->format.kind == NNUE_FORMAT_STOCKFISH ? 4 : 0;
    for (int i = 0; i < a->n_layers; i++)
        bytes = nnue_sat_add(bytes, a->layers[i].type->file_bytes(&a->layers[i]));
    return bytes;
}

uint64_t nnue_arch_ft_bytes(const nnue_arch *a)
{
    const nnue_ft_desc *ft = &a->ft;
    uint64_t bytes = a->format.kind == NNUE_FORMAT_STOCKFISH ? 4 : 0;
    bytes += (uint64_t)ft->width * 2;
    for (int s = 0; s < ft->n_sets; s++)
        bytes = nnue_sat_add(bytes, nnue_sat_mul(nnue_sat_mul(ft->sets[s].inputs, ft->width),
                                                 ft->sets[s].file_i8 ? 1 : nnue_dtype_size(ft->sets[s].weight_type)));
    return nnue_sat_add(bytes, nnue_sat_mul(nnue_sat_mul(ft->total_inputs, ft->psqt_buckets), 4));
}

uint64_t nnue_arch_table_bytes(const nnue_arch *a)
{
    uint64_t bytes = 0;
    for (int v = 0; v < a->selector.n_vars; v++)
        if (a->selector.table_vars[v])
            bytes += 4 + 4 * (uint64_t)a->selector.table_vars[v]->values;
    return bytes;
}

uint64_t nnue_arch_file_bytes(const nnue_arch *a)
{
    uint64_t size = nnue_sat_add(nnue_arch_ft_bytes(a), nnue_sat_mul(nnue_arch_stack_bytes(a), a->stacks));
    size = nnue_sat_add(size, nnue_arch_table_bytes(a));
    if (a->format.kind == NNUE_FORMAT_STOCKFISH)
        return nnue_sat_add(size, 12 + (a->format.description_bytes > 0 ? (uint64_t)a->format.description_bytes : 0));
    uint64_t pad = a->format.pad_to ? a->format.pad_to : 1;
    if (a->format.container == NNUE_CONTAINER_CBNF) /* the 64-byte header (an uncompressed payload) */
        size = nnue_sat_add(size, 64);
    /* container varint: the plain size (a varint file is about as long; the zstd cap uses this) */
    return size > UINT64_MAX - pad ? UINT64_MAX : (size + pad - 1) / pad * pad;
}

void nnue_arch_derive(nnue_arch *a)
{
    a->ft_hash = nnue_feature_set_hash(a->ft.sets[0].features, &a->ft.sets[0].params);
    if (a->format.ft_hash_combined) /* Stockfish 19: rotate left by one, xor the next set's */
        for (int s = 1; s < a->ft.n_sets; s++)
            a->ft_hash = (a->ft_hash << 1 | a->ft_hash >> 31) ^
                         nnue_feature_set_hash(a->ft.sets[s].features, &a->ft.sets[s].params);
    a->ft_hash ^= 2u * a->ft.width;
    uint32_t h = nnue_arch_input_hash(a);
    for (int i = 0; i < a->n_layers; i++)
        h = a->layers[i].type->hash(&a->layers[i], h);
    a->network_hash = h;
    if (a->format.fixed_hashes) { /* format 'hashes': constants of the file format */
        a->ft_hash = a->format.fixed_ft_hash;
        a->network_hash = a->format.fixed_network_hash;
    }
    a->file_hash = a->ft_hash ^ a->network_hash;
    for (int v = 0; v < a->selector.n_vars; v++)
        if (a->selector.table_vars[v])
            a->file_hash ^= a->selector.table_vars[v]->hash;

    const nnue_ft_desc *ft = &a->ft;
    /* Bounded by the byte limits checked on load (base/arch_limits.h); saturating regardless. */
    uint64_t params = nnue_sat_add(nnue_sat_mul(ft->total_inputs, (uint64_t)ft->width + ft->psqt_buckets), ft->width);
    for (int i = 0; i < a->n_layers; i++)
        params = nnue_sat_add(params, nnue_sat_mul(a->layers[i].type->parameters(&a->layers[i]), a->stacks));
    for (int v = 0; v < a->selector.n_vars; v++)
        if (a->selector.table_vars[v])
            params = nnue_sat_add(params, a->selector.table_vars[v]->values);
    a->parameters = params;
    a->file_size = nnue_arch_file_bytes(a);
}
