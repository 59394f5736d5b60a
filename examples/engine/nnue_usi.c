/* examples/engine/nnue_usi.c: nnue-usi, the shogi engine (USI protocol). */
#include "engine.h"

int main(int argc, char **argv)
{
    return engine_main(&engine_rules_shogi, argc, argv);
}
