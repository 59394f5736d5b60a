/* tests/nets/sf_check.h: spot checks of a loaded Stockfish-format net against its file bytes. */
#ifndef NNUE_TESTS_NETS_SF_CHECK_H
#define NNUE_TESTS_NETS_SF_CHECK_H

#include "nets_helpers.h"

/* Loads `path` with the architecture at `arch_yaml` (source-relative) and checks: header fields,
 * alignment, FT values re-read at computed offsets (uncompressed FT: first/last bias, first/last
 * weight, PSQT values; LEB128: the first bias decoded here), every stack's hash and the first
 * and last bias and weight of each affine layer (from the end of the file), the last byte of the
 * file = the last stack's last output weight, zero padding columns, empty non-affine entries. */
void sf_check_net(const char *arch_yaml, const char *path);

#endif
