/* core/net/net_formats.h: the format-specific net readers, called by nnue_net_load
 * (core/net/net_load.c). Each fills net (arch and path already set) from the stream positioned at
 * byte 0, using only the common reader (core/net/net_read.h). */
#ifndef NNUE_CORE_NET_NET_FORMATS_H
#define NNUE_CORE_NET_NET_FORMATS_H

#include "core/net/net.h"
#include "core/net/net_read.h"

nnue_status nnue_net_read_stockfish(nnue_net *net, nr_stream *s);
nnue_status nnue_net_read_raw(nnue_net *net, nr_stream *s);

#endif
