/* tools/self_describing.c: the tool's side of the self-describing container (tools/self_describing.h):
 * files read and errors printed; the container itself is formats/self_describing.c. */
#include "tools/self_describing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/self_describing.h"
#include "nnue.h"
#include "tools/tool_error.h"

int sd_is(const char *path)
{
    char magic[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int is = fread(magic, 1, 8, f) == 8 && nnue_net_is_self_describing(magic, 8);
    fclose(f);
    return is;
}

/* Whole file into memory; NULL (message printed) on failure. */
static unsigned char *slurp(const char *cmd, const char *path, uint64_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long len = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)len + 1)) && fread(data, 1, (size_t)len, f) == (size_t)len) {
        fclose(f);
        *size = (uint64_t)len;
        return data;
    }
    fprintf(stderr, "nnue %s: %s: cannot read: %s\n", cmd, path, data || len < 0 ? strerror(errno) : "out of memory");
    free(data);
    if (f)
        fclose(f);
    return NULL;
}

int sd_write(const char *cmd, const char *yaml_path, const char *net_path, FILE *f, const char *out)
{
    uint64_t yaml_len, net_len;
    unsigned char *yaml = slurp(cmd, yaml_path, &yaml_len), *net = yaml ? slurp(cmd, net_path, &net_len) : NULL;
    int rc = 1;
    if (yaml && net) {
        if (yaml_len > UINT32_MAX) {
            fprintf(stderr, "nnue %s: %s: YAML too large\n", cmd, yaml_path);
        } else {
            rc = nnue_sd_write(f, yaml, yaml_len, net, net_len);
            if (rc)
                fprintf(stderr, "nnue %s: %s: cannot write: %s\n", cmd, out, strerror(errno));
        }
    }
    free(yaml);
    free(net);
    return rc;
}

int sd_load(const char *cmd, const char *path, nnue_net **net)
{
    nnue_error err;
    if (nnue_net_load_self_describing(path, net, &err) == NNUE_OK)
        return 0;
    tool_print_error(cmd, &err);
    return 1;
}
