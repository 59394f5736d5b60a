/* tools/self_describing.c: the tool's side of the self-describing container (tools/self_describing.h):
 * errors printed; the container itself is the library's (formats/self_describing.c). */
#include "tools/self_describing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int sd_load(const char *cmd, const char *path, nnue_net **net)
{
    nnue_error err;
    if (nnue_net_load_self_describing(path, net, &err) == NNUE_OK)
        return 0;
    tool_print_error(cmd, &err);
    return 1;
}
