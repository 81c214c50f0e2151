/* The measured loop of rel_exc.cc (wsprog.h is C). */
#include "wsprog.h"

WS_LOOP(rel_exc_touch, "movb $1, (%rdi)");
