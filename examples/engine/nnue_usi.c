/* examples/engine/nnue_usi.c: nnue-usi, the shogi engine (USI protocol). */
#include "engine.h"

int main(void)
{
    return engine_main(&engine_rules_shogi);
}
