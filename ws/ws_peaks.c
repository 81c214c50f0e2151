/*--------------------------------------------------------------------*/
/*--- ws: the online peak detector.                   ws_peaks.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of ws, a Valgrind tool that measures a program's
   instruction and data working sets over time.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

/* Owns peak detection: which samples stand out, and what is recorded
   about them (the running thread's stack, the data window by owner). */

#include "pub_tool_basics.h"

#include "ws_global.h"

void WS_(set_peak_thresh)(ULong thresh)
{
   WS_(clo_peak_thresh) = thresh;
   WS_(out_event)("set peak-thresh %llu", thresh);
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_peaks.c ---*/
/*--------------------------------------------------------------------*/
