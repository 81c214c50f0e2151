/*--------------------------------------------------------------------*/
/*--- ws: the events the core tells.                  ws_events.c ---*/
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

/* Owns who listens to what (ws_core.h, "Events"): a fixed table of a
   few listeners per event, filled at start-up, read when the core
   tells.  Nothing here knows a listener by name; the core's modules
   tell, and never ask what a listener did. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"

#include "ws_core.h"

static WS_Listener listeners[WS_N_EVENTS][WS_MAX_LISTENERS];
UInt WS_(n_listeners)[WS_N_EVENTS];

void WS_(listen)(WS_EventKind what, WS_Listener fn)
{
   tl_assert(what < WS_N_EVENTS);
   tl_assert(WS_(n_listeners)[what] < WS_MAX_LISTENERS);
   listeners[what][WS_(n_listeners)[what]++] = fn;
}

void WS_(tell)(const WS_Event* ev)
{
   UInt i;
   for (i = 0; i < WS_(n_listeners)[ev->what]; i++)
      listeners[ev->what][i](ev);
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_events.c ---*/
/*--------------------------------------------------------------------*/
