/* tests/nets/nets_helpers.h: net files for the loader tests, cached in the build tree.
 *
 * Decompressed reference nets and the Stockfish 15.1 net live in BUILD/nets/ and are made
 * once (written to a temporary name, then renamed, so parallel test programs do not see a
 * partial file). Missing reference data or a missing stockfish binary exits 77 (skipped),
 * loudly. Raw byte helpers read the files independently of the loader, for spot checks. */
#ifndef NNUE_TESTS_NETS_HELPERS_H
#define NNUE_TESTS_NETS_HELPERS_H

#include <stdint.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"

/* BUILD/nets (created on demand). */
const char *nets_dir(void);
/* BUILD/nets/<name>; static buffer rotated over 8 calls. */
const char *nets_path(const char *name);

/* A shared net: decompressed into BUILD/nets/<name> when `relative` ends in .xz (unless a
 * file of `size` bytes is already there), else the shared file itself. Exits 77 when the
 * shared file is missing. Returns the path (static, rotated). */
const char *nets_shared(const char *relative, const char *name, uint64_t size);

/* The real Stockfish 15.1 net (nn-ad9b42354671, 47,001,499 bytes), written by Debian's
 * /usr/games/stockfish with `export_net` into BUILD/nets/sf151.nnue. Exits 77 if stockfish
 * is not installed. */
const char *nets_sf151(void);

/* Stockfish's own release net NAME (nn-....nnue) of size bytes, from $NNUE_NETS_DIR or
 * ~/.cache/nnue-nets, fetched there by the project's scripts/fetch_nets.py when missing; exits 77
 * (skip, loudly) when it cannot be had (offline). */
const char *nets_stockfish_release(const char *name, uint64_t size);

/* Loads an architecture (path relative to the source tree) or fails the test. */
nnue_arch *nets_arch(const char *relative);

/* Loads a net or fails the test with the formatted error. */
nnue_net *nets_load(const nnue_arch *arch, const char *path);

uint64_t nets_file_size(const char *path);
/* n bytes at offset (fails the test if they are not there). */
void nets_read_at(const char *path, uint64_t offset, void *buf, size_t n);
int64_t nets_i8_at(const char *path, uint64_t offset);
int64_t nets_i16_at(const char *path, uint64_t offset);
int64_t nets_i32_at(const char *path, uint64_t offset);
uint32_t nets_u32_at(const char *path, uint64_t offset);

/* Copies src to BUILD/nets/<name> keeping the first `keep` bytes (UINT64_MAX = all). */
const char *nets_copy(const char *src, const char *name, uint64_t keep);
void nets_patch(const char *path, uint64_t offset, const void *bytes, size_t n);
void nets_append(const char *path, const void *bytes, size_t n);

/* Loads expecting failure: the code, the byte offset (-2 = any) and a message fragment
 * (the whole formatted message must contain each of the NULL-terminated fragments). */
void nets_expect_fail(const nnue_arch *arch, const char *path, nnue_status code, long long offset, ...);

#endif
