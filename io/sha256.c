/* io/sha256.c: see io/sha256.h. */
#include "io/sha256.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>

static void digest_hex(struct sha256_ctx *ctx, char hex[65])
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

int file_sha256_hex(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned char buf[1 << 15];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&ctx, n, buf);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        errno = EIO;
        return -1;
    }
    digest_hex(&ctx, hex);
    return 0;
}

void memory_sha256_hex(const void *data, size_t size, char hex[65])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, size, data);
    digest_hex(&ctx, hex);
}
