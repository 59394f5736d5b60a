/* core/net/net.h: a loaded net: its architecture plus weights, in the layout the kernels use.
 *
 * Weights are read once (formats/net_read_*.c) and then never change, so one nnue_net can be
 * shared read-only by any number of threads. Layout (after loading, whatever the file order):
 *   ft_biases  [width]                 i16
 *   ft_weights [inputs][width]         i16, feature-major (one row per feature)
 *   ft_psqt    [inputs][psqt_buckets]  i32 (NULL without PSQT)
 *   (several feature sets: each set's rows in set_weights[s], i8 or i16; PSQT rows of all sets
 *    one after the other in ft_psqt, set_psqt[s] pointing at set s's first row)
 *   stack s, layer i (affine layers only): layer_weights[s * n_layers + i]
 *     biases  [out]                    i32 (widened from the file's i16/i32)
 *     weights [out][padded_in]         row-major, dtype = layer->p.affine.weight_type (i8 or i16),
 *                                      padding columns zero. Input-major files are transposed.
 * All arrays are 64-byte aligned. */
#ifndef NNUE_CORE_NET_NET_H
#define NNUE_CORE_NET_NET_H

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arch/arch.h"
#include "core/arch/layer_weights.h"
#include "formats/net_header.h"
#include "formats/net_write.h"
#include "nnue_error.h"

/* One value of an i8 row that did not fit: the i16 weight is the row's i8 value plus delta. */
typedef struct nnue_row_patch {
    uint16_t col;
    int16_t delta;
} nnue_row_patch;

/* A feature set's rows as i8 values (an i16 set's each clamped to -128..127; an i8 set's as they
 * are, without patches), and per row the
 * patches that restore the clamped ones: row r's are patches[patch_start[r] .. patch_start[r + 1]).
 * patch_start is NULL when every value fits. first[r] is row r's first patch with
 * NNUE_PATCH_MORE set in its column when more follow (a patch adding 0 to column r % width when
 * the row has none), so that the update reads patch_start only for the few rows with more; bit r
 * of patched[] says whether row r has any: the update patches only those rows, picked without a
 * branch (core/eval/accumulator.c). */
typedef struct nnue_narrow_rows {
    int8_t *rows;      /* in the kernels' paired byte order (simd/paired_i8.h) */
    uint32_t *patch_start;
    nnue_row_patch *patches;
    nnue_row_patch *first;
    uint64_t *patched; /* bit r of word r / 64: row r has patches (a 64th of first[]'s size) */
    int16_t *widened;  /* an i8 set of a width that is no multiple of 64: its rows as i16 (rows NULL;
                          an i8 set of another width is paired in place: nnue_net.i8_paired) */
} nnue_narrow_rows;

#define NNUE_PATCH_MORE 0x8000u /* in nnue_row_patch.col of first[]: the row has more patches */

/* Where the accumulator update reads feature set s's rows (core/eval/accumulator.c), resolved once
 * at load with narrow[] (core/net/net_narrow.c): row r at rows + r * row_bytes (the narrowed i8 copy
 * where built), i8 or i16 values; its PSQT row at psqt + r * psqt_bytes (psqt NULL: no PSQT); patched:
 * the narrowed rows have patches. */
typedef struct nnue_row_table {
    const char *rows, *psqt;
    uint32_t row_bytes, psqt_bytes;
    uint8_t i8, patched;
} nnue_row_table;

typedef struct nnue_net {
    nnue_arch *arch;                  /* owned copy */
    char path[256];
    uint32_t version, file_hash;      /* from the header (stockfish format), else 0 */
    char *description;                /* from the header, NUL-terminated ("" for raw) */
    uint64_t file_bytes;              /* size of the file that was read */
    int16_t *ft_biases;
    int16_t *ft_weights;              /* the last listed feature set's rows (the only set of most nets) */
    int32_t *ft_psqt;                 /* [total inputs][buckets]: every set's PSQT rows, in set order */
    /* Per feature set s (arch->ft.sets[s]): its weight rows ([inputs][width] of the set's
     * weight_type; the last set's are ft_weights) and PSQT rows (inside ft_psqt). */
    const void *set_weights[NNUE_MAX_FT_SETS];
    const int32_t *set_psqt[NNUE_MAX_FT_SETS];
    /* Set s's i16 rows again as i8 plus patches for the few values that do not fit, owned
     * (core/net/net_narrow.c; rows NULL when not built): the accumulator update reads these (about
     * half the bytes, same sums). */
    nnue_narrow_rows narrow[NNUE_MAX_FT_SETS];
    /* 1: set s's own i8 rows (set_weights[s]) were put in the kernels' paired byte order at load
     * (simd/paired_i8.h; core/net/net_narrow.c): read their values through it. */
    uint8_t i8_paired[NNUE_MAX_FT_SETS];
    void *ft_extra[NNUE_MAX_FT_SETS]; /* owned weight arrays of the sets before the last */
    nnue_layer_weights *layer_weights; /* [stacks * n_layers]; non-affine entries are {NULL, NULL} */
    /* The selector's table variables (features/table_var.h): tables[v] for slot v of
     * arch->selector when it is one (the file's values, then the derived ones), else NULL. */
    int32_t *tables[NNUE_EXPR_MAX_VARS];
    void *kernel_data;                /* nnue_plan (layers/plan.h) or NULL: scalar forward only */
    /* The worst-case ranges and the warning they give, computed on first use (nnue_net_warning,
     * nnue_net_range_report: core/net/net_ranges.c), once, under ranges_lock. */
    char *warning;                    /* NULL when none */
    struct nnue_net_ranges *ranges;   /* owned; NULL when out of memory */
    pthread_mutex_t ranges_lock;
    atomic_int ranges_done;
    uint64_t padding_nonzero;         /* padding-column weights the file held non-zero (zeroed on load) */
    /* Lifetime (include/nnue.h): the caller's reference plus one per live state; the memory goes
     * with the last. freed: nnue_net_free was called, so states refuse to evaluate. */
    atomic_int refs, freed;
    nnue_row_table row_table[NNUE_MAX_FT_SETS]; /* per set, filled with narrow[] (above) */
} nnue_net;

/* A state's reference to its net (core/eval/state.c): taken by nnue_state_new, given back by
 * nnue_state_free; the net is destroyed when nnue_net_free and every state are done with it.
 * retain returns -1 (and takes nothing) when nnue_net_free was already called. */
int nnue_net_retain(const nnue_net *net);
void nnue_net_release(const nnue_net *net);
/* Inline: states read it at every push and evaluation (an atomic load, relaxed: a state racing
 * nnue_net_free breaks include/nnue.h's lifetime rule either way). */
static inline int nnue_net_is_freed(const nnue_net *net)
{
    return atomic_load_explicit(&((nnue_net *)net)->freed, memory_order_relaxed);
}

/* Reads a net file for the given architecture (copied into the net). Checks version, hashes,
 * every section size, padding columns and the end of file. Errors carry the file name and the
 * byte offset, the section, what was expected and what was found. */
nnue_status nnue_net_load(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err);
void nnue_net_free(nnue_net *net);

/* Fills narrow[], then row_table[] (core/net/net_narrow.c); called by nnue_net_load before the layers' planner
 * (nnue_plan_make, layers/plan.h) makes kernel_data. A failed allocation, or too many values
 * beyond i8, only leaves an i16 set on its i16 rows; -1 when an i8 set's copy (paired or
 * widened) could not be allocated: the net cannot be evaluated then. */
int nnue_net_narrow_rows(nnue_net *net);
void nnue_net_narrow_free(nnue_net *net);

/* The most a zstd net of this architecture may decompress to (core/net/net_load.c): its plain size (a LEB128 block
 * takes at most 1.5 times its plain bytes) twice over, plus 1 MiB for a description; at most
 * NNUE_MAX_NET_BYTES. NZ_ARCH_CAP says so in messages. */
uint64_t nz_cap_for_arch(const nnue_arch *arch);
#define NZ_ARCH_CAP "twice the architecture's plain net size and 1 MiB"

/* Loads a net from size bytes in memory (nnue.h). */
/* The argument rule of every call that reads a net's bytes from memory: *name defaults to
 * "<memory>"; 0 bytes are refused as an empty file is (a format error naming *name), whatever the
 * pointer, when the call's other arguments are there (others_given); then missing bytes or
 * arguments are an argument error "fn: expected WHAT". NNUE_OK when the call may go on. */
nnue_status nnue_memory_args(const char *fn, const char *what, const void *data, size_t size, int others_given,
                             const char **name, nnue_error *err);

nnue_status nnue_net_load_memory(const nnue_arch *arch, const void *data, size_t size, const char *name,
                                 nnue_net **out, nnue_error *err);

/* 1 if a Stockfish-format header fits the architecture: same version and file hash and, for
 * uncompressed formats, exactly the file size the architecture predicts (core/net/arch_candidates.c). */
int nnue_arch_fits_header(const nnue_arch *arch, const nnue_net_header *header);
/* YaneuraOu's generated shapes (core/arch/generated_name.h) share every hash: 1 unless the
 * architecture has format 'generated' and the description does not name its shape; and the
 * architecture a description's Network=NAME names when NAME is a generated name (caller frees),
 * else NULL (core/net/arch_candidates.c). */
int nnue_arch_fits_description(const nnue_arch *arch, const char *description);
nnue_arch *nnue_arch_from_description(const char *description);

#endif
