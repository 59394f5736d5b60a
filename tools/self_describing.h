/* tools/self_describing.h: the tool's side of a self-describing net (the "NNUEYAML" container of
 * `nnue convert --to self-describing`: a header-less trainer net together with the YAML that
 * describes it, so that it loads without --arch). The library reads and writes the container
 * (nnue_net_load_self_describing, nnue_net_convert). */
#ifndef NNUE_TOOLS_SELF_DESCRIBING_H
#define NNUE_TOOLS_SELF_DESCRIBING_H

#include "nnue.h"

/* 1 if the file starts with the magic. */
int sd_is(const char *path);

/* Loads the architecture and the net of a self-describing file. Returns 0, or 1 after printing
 * the error ("nnue CMD: FILE: byte N: ..."). */
int sd_load(const char *cmd, const char *path, nnue_net **net);

#endif
