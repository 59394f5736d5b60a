/* formats/self_describing.h: the self-describing net container ("NNUEYAML", written by
 * `nnue convert --to self-describing`): a header-less trainer net (bullet: Cwtch, Obsidian, ...)
 * together with the YAML that describes it, so that it loads without naming an architecture
 * (nnue_net_load_self_describing, include/nnue.h). Layout (little-endian):
 *   8 bytes "NNUEYAML", u32 container version (1), u32 YAML bytes, the YAML text,
 *   u64 net bytes, the net file exactly as the trainer wrote it.
 * Bytes only: the caller loads the architecture and the net from the parts. */
#ifndef NNUE_CORE_FORMATS_SELF_DESCRIBING_H
#define NNUE_CORE_FORMATS_SELF_DESCRIBING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue_error.h"

#define NNUE_SD_MAGIC "NNUEYAML"

/* 1 when the n bytes at head start with the magic. */
int nnue_sd_is(const void *head, size_t n);

/* Where a container's parts lie inside its bytes. */
typedef struct nnue_sd_parts {
    const char *yaml;
    uint64_t yaml_bytes;
    const unsigned char *net;
    uint64_t net_bytes;
    uint64_t net_at;  /* the net's first byte in the container */
} nnue_sd_parts;

/* Finds the parts of the size bytes at data (name labels them in messages): NNUE_E_FORMAT at
 * byte 0 without the magic and version 1, or when the lengths do not add up to size. */
nnue_status nnue_sd_split(const void *data, uint64_t size, const char *name, nnue_sd_parts *parts, nnue_error *err);

/* Writes a container of the YAML text and the net's bytes (both copied verbatim) to f; 0, or
 * nonzero on a write error (errno says why). */
int nnue_sd_write(FILE *f, const void *yaml, uint64_t yaml_bytes, const void *net, uint64_t net_bytes);

#endif
