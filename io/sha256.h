/* io/sha256.h: the SHA-256 of a file or of bytes in memory as 64 lowercase hex digits (nettle's
 * implementation): what names a release net (Stockfish's nn-<first 12 digits>.nnue) and checks a
 * download. */
#ifndef NNUE_IO_SHA256_H
#define NNUE_IO_SHA256_H

#include <stddef.h>

/* SHA-256 of a whole file as 64 lowercase hex digits (nettle's implementation). Returns 0, or -1
 * with errno set when the file cannot be read. */
int file_sha256_hex(const char *path, char hex[65]);

/* SHA-256 of size bytes in memory, as 64 lowercase hex digits. */
void memory_sha256_hex(const void *data, size_t size, char hex[65]);

#endif
