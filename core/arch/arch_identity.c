/* core/arch/arch_identity.c: the public accessors of an architecture's identity (include/nnue.h),
 * for bindings that cannot read struct nnue_arch (python/nnue). A net's arch
 * (nnue_net_arch) is the net's to give: core/net/net_load.c. */
#include <string.h>

#include "core/arch/arch.h"
#include "nnue.h"

const char *nnue_arch_name(const nnue_arch *arch)
{
    return arch ? arch->name : NULL;
}

void nnue_arch_hashes(const nnue_arch *arch, uint32_t *file_hash, uint32_t *ft_hash, uint32_t *network_hash)
{
    if (file_hash)
        *file_hash = arch ? arch->file_hash : 0;
    if (ft_hash)
        *ft_hash = arch ? arch->ft_hash : 0;
    if (network_hash)
        *network_hash = arch ? arch->network_hash : 0;
}

void nnue_arch_layout_get(const nnue_arch *arch, nnue_arch_layout *out, size_t size)
{
    nnue_arch_layout l = {0};
    if (arch) {
        l.raw = arch->format.kind == NNUE_FORMAT_RAW;
        l.container = arch->format.container == NNUE_CONTAINER_CBNF     ? 1
                      : arch->format.container == NNUE_CONTAINER_VARINT ? 2
                                                                         : 0;
        l.version = arch->format.version;
        l.leb128 = arch->format.leb128;
        l.description_bytes = arch->format.description_bytes;
        l.parameters = arch->parameters;
        l.file_size = arch->file_size;
        l.feature_sets = arch->ft.n_sets;
        l.reencodable = arch->format.kind == NNUE_FORMAT_STOCKFISH && arch->ft.n_sets <= 1 &&
                        arch->ft.weight_type == NNUE_I16 && arch->ft.bias_type == NNUE_I16;
    }
    if (!out)
        return;
    memset(out, 0, size);
    memcpy(out, &l, size < sizeof l ? size : sizeof l);
}

const nnue_game *nnue_arch_game(const nnue_arch *arch)
{
    return arch ? arch->game_desc : NULL;
}
