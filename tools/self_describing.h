/* tools/self_describing.h: a self-describing net file written by `nnue convert --to
 * self-describing`: a header-less trainer net (bullet: Cwtch, Obsidian, ...) together with the
 * YAML that describes it, so that it loads without --arch. The container and its layout:
 * formats/self_describing.h; the library loads it (nnue_net_load_self_describing). */
#ifndef NNUE_TOOLS_SELF_DESCRIBING_H
#define NNUE_TOOLS_SELF_DESCRIBING_H

#include <stdio.h>

#include "core/net/net.h"

/* 1 if the file starts with the magic. */
int sd_is(const char *path);

/* Writes the container to f (opened by the caller, named out in messages) from the YAML file and
 * the raw net, both copied verbatim. Returns 0, or 1 after printing the error. */
int sd_write(const char *cmd, const char *yaml_path, const char *net_path, FILE *f, const char *out);

/* Loads the architecture and the net of a self-describing file. Returns 0, or 1 after printing
 * the error ("nnue CMD: FILE: byte N: ..."). */
int sd_load(const char *cmd, const char *path, nnue_net **net);

#endif
