/* nnue_netfile.h: net files as files (included by nnue.h): which architecture a file is (the one
 * chooser the library, the tool, Python and the browser share; its rules in docs/detection.md),
 * the facts of its header, and writing nets (formats, zstd, the self-describing container), each
 * file written under a temporary name and renamed (never half a file at the destination).
 * Errors name the file and say why; the library never prints. */
#ifndef NNUE_NETFILE_H
#define NNUE_NETFILE_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nnue_arch nnue_arch;
typedef struct nnue_net nnue_net;

/* ---- Which architecture a net file is ---------------------------------------------------- */

/* How the choice was made (or why none was: nnue_choice_result's error then says it in words). */
typedef enum nnue_choice_kind {
    NNUE_CHOICE_NO_HASH,         /* no candidate has the header's version and file hash */
    NNUE_CHOICE_SIZE_MISMATCH,   /* some have them, none the file's size (truncated or damaged) */
    NNUE_CHOICE_ONLY,            /* exactly one fits */
    NNUE_CHOICE_KNOWN_NET,       /* several fit; the file's SHA-256 names a known release net */
    NNUE_CHOICE_WRITTEN_FOR,     /* several fit; the description names one (`nnue init` nets) */
    NNUE_CHOICE_DEFAULT,         /* several fit, unknown file: the documented default (SFNNv5 over v4) */
    NNUE_CHOICE_AMBIGUOUS,       /* several fit and nothing tells them apart */
    NNUE_CHOICE_NAMED_MISSING,   /* the description names an architecture that is no candidate */
    NNUE_CHOICE_NAMED_SIZE,      /* the description names a candidate whose file size is another */
    NNUE_CHOICE_SELF_DESCRIBING, /* an "NNUEYAML" container: the architecture of its YAML */
    NNUE_CHOICE_RAW              /* no Stockfish header: a CBNF header, or a header-less file */
} nnue_choice_kind;

typedef struct nnue_choice nnue_choice;

/* Flags of nnue_arch_choose. */
#define NNUE_CHOOSE_BESIDE_NET 1u /* a net whose description names its architecture (nnue init's)
                                     also finds NAME.yaml files in the net's own folder */
#define NNUE_CHOOSE_SHA256 2u     /* compute the file's SHA-256 even when one architecture fits
                                     (on a helper thread where allowed; nnue_choice_sha256 waits) */

/* Chooses the architecture of the net file at path among the built-in architectures and the
 * architecture YAML files (*.yaml) of the n_dirs folders (a built-in name first, then the
 * folders in order: the first of a name wins, unless only a later one of that name fits the
 * file's size). NNUE_OK with *out (free with nnue_choice_free) whether or not one was chosen;
 * an error only when the file cannot be read (NNUE_E_IO, NNUE_E_FORMAT for an empty file, ...)
 * or for bad arguments. The rules, in order:
 *  1. an "NNUEYAML" container: the architecture of its YAML;
 *  2. a first word that no built-in Stockfish-format architecture has as its version: a raw net
 *     (a CBNF header fitting one built-in; a header-less file: none, the candidates its size
 *     allows named in the error);
 *  3. candidates: same version and file hash; YaneuraOu's generated shapes only where the
 *     description names them, and the shape a description names when no candidate is one;
 *  4. a description naming its architecture (`nnue init`): that one only (missing: NAMED_MISSING;
 *     another size: NAMED_SIZE, even when another candidate has the file's size);
 *  5. the size of an uncompressed file: none fits (SIZE_MISMATCH), one (ONLY), or several:
 *     the known net of that SHA-256, else the documented default, else AMBIGUOUS. */
nnue_status nnue_arch_choose(const char *path, const char *const *dirs, int n_dirs, unsigned flags,
                             nnue_choice **out, nnue_error *err);
/* The same for size bytes in memory (name labels them; "<memory>" when NULL): built-ins only. */
nnue_status nnue_arch_choose_memory(const void *data, size_t size, const char *name, unsigned flags,
                                    nnue_choice **out, nnue_error *err);
void nnue_choice_free(nnue_choice *choice);

nnue_choice_kind nnue_choice_kind_of(const nnue_choice *choice);
/* The chosen architecture: NNUE_OK and *arch (a copy, free with nnue_arch_free), or why none was
 * chosen (NNUE_E_HASH: no candidate, or the named one missing; NNUE_E_FORMAT: the size fits no
 * candidate or not the named one, "truncated or damaged?"; NNUE_E_AMBIGUOUS naming them), the
 * message naming the file. */
nnue_status nnue_choice_result(const nnue_choice *choice, nnue_arch **arch, nnue_error *err);
/* The candidates (the header's version and file hash; one for rules 1 and 2): count, each one's
 * architecture (owned by the choice), where it came from ("built-in (archs/NAME.yaml)", a YAML
 * path, "generated from the description's name", "embedded YAML", "CBNF header"), whether the
 * file's size fits it and the size it expects; the chosen index or -1. */
int nnue_choice_count(const nnue_choice *choice);
const nnue_arch *nnue_choice_arch(const nnue_choice *choice, int index);
const char *nnue_choice_source(const nnue_choice *choice, int index);
int nnue_choice_size_fits(const nnue_choice *choice, int index);
uint64_t nnue_choice_expected_bytes(const nnue_choice *choice, int index);
int nnue_choice_chosen(const nnue_choice *choice);
/* The architecture the description names (nnue init's nets), or "". */
const char *nnue_choice_named(const nnue_choice *choice);
/* The file's SHA-256 (64 hex digits) or "" when not computed (see NNUE_CHOOSE_SHA256); the known
 * net it is ("Stockfish 15.1 default net") or NULL, its architecture in *arch when arch is not
 * NULL. Both wait for a helper thread still computing the digest. */
const char *nnue_choice_sha256(nnue_choice *choice);
const char *nnue_choice_known_net(nnue_choice *choice, const char **arch);

/* The facts of a Stockfish-format header (rule 3's input), as `nnue info` prints them. Later
 * versions may add fields at the end: pass sizeof *out. */
typedef struct nnue_net_header_facts {
    uint32_t version, file_hash, ft_hash;
    uint32_t description_bytes;
    uint64_t file_bytes;  /* of the file, decompressed when it is one zstd frame */
    int leb128;           /* the feature transformer starts with a COMPRESSED_LEB128 block */
    int zstd;             /* the whole file is one zstd frame */
} nnue_net_header_facts;
/* Fills the first size bytes of *out from the choice's header (zeros for rules 1 and 2) and
 * returns the description (owned by the choice; "" when none). */
const char *nnue_choice_header(const nnue_choice *choice, nnue_net_header_facts *out, size_t size);

/* The header facts of the file at path without choosing (NNUE_E_FORMAT and zeros when it has
 * no Stockfish-format header; zstd is set for a zstd frame all the same). */
nnue_status nnue_net_header_read(const char *path, nnue_net_header_facts *out, size_t size, nnue_error *err);

/* nnue_net_load, the feature transformer read in the encoding the file has (plain or
 * COMPRESSED_LEB128) whatever the architecture's YAML says: the layout is the same (as
 * nnue_net_load_auto reads it). */
nnue_status nnue_net_load_as_encoded(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err);

/* ---- Writing net files --------------------------------------------------------------------- */

typedef enum nnue_net_encoding {
    NNUE_WRITE_PLAIN,           /* Stockfish format, feature transformer uncompressed */
    NNUE_WRITE_LEB128,          /* Stockfish format, feature transformer as COMPRESSED_LEB128 */
    NNUE_WRITE_ZSTD,            /* the whole file as one zstd frame that records its size */
    NNUE_WRITE_UNZSTD,          /* one zstd frame decompressed */
    NNUE_WRITE_SELF_DESCRIBING  /* an "NNUEYAML" container: arch_yaml (the file) and the net */
} nnue_net_encoding;

/* Writes the net file in_path of arch in another encoding to out_path (a temporary file beside
 * it, renamed over it on success; on failure out_path is untouched). PLAIN and LEB128 re-encode
 * the feature transformer of a Stockfish-format net with one feature set of i16 weights and copy
 * every other byte (plain -> leb128 -> plain gives the same bytes); ZSTD and UNZSTD take any net
 * (UNZSTD refuses more than twice the architecture's plain size and 1 MiB); SELF_DESCRIBING
 * needs arch_yaml, the path of the YAML file that describes the header-less net (arch may then
 * be NULL). Errors name the file and, for reading errors, the byte offset. The written file is
 * not loaded back: `nnue convert` does that. */
nnue_status nnue_net_convert(const nnue_arch *arch, const char *in_path, nnue_net_encoding to, const char *arch_yaml,
                             const char *out_path, nnue_error *err);
/* The same written to file (a FILE * open for writing; not closed): errors name out_name. */
nnue_status nnue_net_convert_stream(const nnue_arch *arch, const char *in_path, nnue_net_encoding to,
                                    const char *arch_yaml, void *file, const char *out_name, nnue_error *err);

/* A file written under a temporary name in the destination's folder and renamed over path on
 * commit (an existing destination keeps its permission bits; a symbolic link stays one): never
 * seen half-written. Write with nnue_file_stream (a FILE *) between open and commit/abort. */
typedef struct nnue_atomic_writer nnue_atomic_writer;
nnue_status nnue_atomic_writer_open(const char *path, nnue_atomic_writer **out, nnue_error *err);
void *nnue_atomic_writer_stream(nnue_atomic_writer *w);
/* The temporary file's path (for messages while writing). */
const char *nnue_atomic_writer_temp_path(const nnue_atomic_writer *w);
/* Flushes, syncs, renames and frees w; on failure (err says why) the temporary file is removed. */
nnue_status nnue_atomic_writer_commit(nnue_atomic_writer *w, nnue_error *err);
/* Removes the temporary file and frees w (NULL: nothing). */
void nnue_atomic_writer_abort(nnue_atomic_writer *w);

#ifdef __cplusplus
}
#endif
#endif
