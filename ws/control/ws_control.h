/*--------------------------------------------------------------------*/
/*--- ws: options and the doors onto the control API. ws_control.h ---*/
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

/* The control layer's header: the command line (ws_options.c), the
   one control API (ws_control.c) and its doors, the client requests
   (ws_clientreq.c) and the monitor commands (ws_monitor.c), and the
   break conditions that stop the program in gdb (ws_break.c).  It sits
   on the analyses (ws_analyses.h), which sit on the output layer and
   the core. */

#ifndef __WS_CONTROL_H
#define __WS_CONTROL_H

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- The command line (ws_options.c)                      ---*/
/*------------------------------------------------------------*/

/* Registered with VG_(needs_command_line_options): every option at
   start-up (into WS_(clo), or the settable parameters' modules), the
   settable parameters also through v.clo and VALGRIND_CLO_CHANGE; the
   usage text.  Then, from post_clo_init, what follows from them all
   (the page size's shift; heap usage only with --ws-heap=yes). */
Bool WS_(process_cmd_line_option)(const HChar* arg);
void WS_(print_usage)(void);
void WS_(print_debug_usage)(void);
void WS_(post_clo_check)(void);

/*------------------------------------------------------------*/
/*--- Break conditions (ws_break.c)                        ---*/
/*------------------------------------------------------------*/

/* At most this many at once; N up to the pages of 64 bytes in 47 bits. */
#define WS_MAX_BREAKS      8
#define WS_BREAK_MAX_PAGES (1ULL << 41)
typedef enum {
   WS_Break_OK,
   WS_Break_Empty,        /* no condition */
   WS_Break_Unknown,      /* not data>=, insn>=, rise>= or peak */
   WS_Break_NoNumber,     /* data>= and nothing after */
   WS_Break_BadNumber,    /* N not from 1 to WS_BREAK_MAX_PAGES */
   WS_Break_TooMany,      /* WS_MAX_BREAKS set already */
   WS_Break_NoGdb,        /* --vgdb=no: nothing could stop the program */
   WS_Break_NoDetector    /* peak with --ws-peak-detect=no */
} WS_BreakResult;
/* Adds the condition |text| (data>=N, insn>=N, rise>=N or peak); its
   number into |*n| (if not NULL).  Nothing changes unless WS_Break_OK. */
WS_BreakResult WS_(break_add)(const HChar* text, UInt* n);
/* Why a condition was refused, in words (no newline). */
const HChar*   WS_(break_why)(WS_BreakResult r);
/* Whether a peak condition is set (it needs --ws-peak-detect=yes,
   known only once every option is). */
Bool WS_(break_needs_detector)(void);
/* Removes break |n| (False: there is none), or all (how many). */
Bool WS_(break_delete)(UInt n);
UInt WS_(break_delete_all)(void);
/* "  <n>  <cond>" per break into |f|; how many. */
UInt WS_(break_list)(WS_File* f);
/* At start-up, after the peaks': registers for the samples and the
   boundaries' ends. */
void WS_(breaks_init)(void);

/*------------------------------------------------------------*/
/*--- The window on one screen (ws_screen.c)               ---*/
/*------------------------------------------------------------*/

/* "ws dump": event "dump monitor", then on the gdb/vgdb output a
   summary of the current window in at most 40 lines (its sizes, its
   largest owners, its most accessed pages); a look, as below. */
void WS_(screen_dump)(void);
/* "ws since": the data pages that entered the window since the last
   look and are in it now, by owner, with the lines that brought them
   in; a look itself. */
void WS_(screen_since)(void);
/* A look, named |what| ("ws dump", ...): "ws since" counts the data
   entries after the |entry|th (WS_(entries)), taken at time |t|; a look
   now. */
void WS_(since_mark)(ULong entry, ULong t, const HChar* what);
void WS_(since_look)(const HChar* what);

/*------------------------------------------------------------*/
/*--- Control (ws_control.c, ws_clientreq.c, ws_monitor.c) ---*/
/*------------------------------------------------------------*/

/* What a request through any door (client request, monitor command,
   v.clo) comes to.  The doors say why in their own words. */
typedef enum {
   WS_Ctl_OK,
   WS_Ctl_RegionBegun,    /* start while measuring: a region begins */
   WS_Ctl_AlreadyOn,      /* start within a region: nothing changed */
   WS_Ctl_AlreadyOff,     /* stop while not measuring */
   WS_Ctl_BadValue        /* a parameter's value out of its range */
} WS_CtlResult;

/* |at| (if not NULL): the time of the change. */
WS_CtlResult WS_(ctl_start)(ULong* at);
WS_CtlResult WS_(ctl_stop)(ULong* at);

/* A parameter that may change while the program runs ("ws set", v.clo,
   VALGRIND_CLO_CHANGE) and is given at start-up as an option.  Its
   value is the module's that uses it (the sampler's T and tau, the
   peaks' threshold); this table is the one way to it. */
typedef struct {
   const HChar* name;       /* as "ws set" takes it: "tau" */
   const HChar* option;     /* "--ws-tau" */
   ULong        lo, hi;     /* the whole numbers accepted */
   ULong      (*get)(void); /* the current value */
   void       (*set)(ULong);  /* the change from now on (before
                                 start-up: the option's value) */
   const HChar* help;       /* for "ws help", with lo and hi as %llu;
                               NULL: the next parameter's */
} WS_Param;
extern const WS_Param WS_(params)[];
extern const UInt     WS_(n_params);
/* Whether |s| is a whole number (decimal digits only, the only form
   any door takes) from |lo| to |hi|; if so it is stored in |out|. */
Bool WS_(whole_number)(const HChar* s, ULong lo, ULong hi, ULong* out);
/* Whether |text| is a value |p| accepts; if so it is stored in |out|. */
Bool WS_(param_value)(const WS_Param* p, const HChar* text, ULong* out);
/* Sets |p| to |text| from now on, an event in the output file
   (WS_Ctl_BadValue: nothing changed); |old| and |now| get the values
   before and after. */
WS_CtlResult WS_(ctl_set)(const WS_Param* p, const HChar* text,
                          ULong* old, ULong* now);

/* Labels are at most this many characters (the NUL not counted). */
#define WS_LABEL_MAX  255

typedef enum {
   WS_Label_OK, WS_Label_Empty, WS_Label_Control, WS_Label_TooLong
} WS_LabelCheck;
/* Makes |s| fit an event line (blanks trimmed and folded, in place)
   and says whether it may be used. */
WS_LabelCheck WS_(ctl_label)(HChar* s);
/* A mark event now, if the label (tidied in place) may be used; it
   names the open region. */
WS_LabelCheck WS_(ctl_mark)(HChar* label);

/* The state "ws status" shows. */
typedef struct {
   Bool         measuring;
   ULong        now;          /* in the time unit */
   WS_TimeUnit  unit;
   ULong        tau, every;
   UInt         pagesize;
   ULong        sizes[2];     /* the current window's pages per kind */
   UInt         linesize;     /* 0: lines off */
   ULong        lines[2];     /* ...and its lines */
   ULong        samples, peaks;
   const HChar* out_name;     /* NULL: no output file */
} WS_CtlStatus;
void WS_(ctl_status)(WS_CtlStatus* st);

/* One page of a dump of the current window. */
typedef struct {
   WS_Kind  kind;
   Addr     addr;
   ULong    since;        /* the epoch of its last access began then */
   ULong    accesses;
   Addr     first_ip;     /* its first access */
   const struct _WS_Owner* owner;   /* data pages only (ws_owners.c) */
} WS_DumpPage;
typedef void (*WS_DumpVisitor)(const WS_DumpPage* p, void* opaque);
/* WS_DUMP(label): the current window's pages into the output file,
   after a "dump label" event, if the label may be used. */
WS_LabelCheck WS_(ctl_dump_label)(HChar* label);
/* "ws dump": event "dump monitor", then every page of the window to
   |visit|, instruction pages first, each kind by address; |n| gets the
   count per kind. */
void WS_(ctl_dump_to)(WS_DumpVisitor visit, void* opaque, ULong n[2]);
/* "ws dump <file>": the pages into a dump file of that name (%p,
   %q{VAR}, %n expanded), then event "dump file <path>". */
typedef enum {
   WS_Dump_OK,
   WS_Dump_BadName,       /* |why| says what is wrong with the name */
   WS_Dump_CannotCreate,  /* |reason| says why |path| cannot be made */
   WS_Dump_Incomplete     /* a write to |path| failed */
} WS_DumpResult;
typedef struct {
   HChar*       path;         /* the name expanded; VG_(free) it */
   const HChar* why;
   HChar        reason[512];
   ULong        n[2];         /* pages written per kind */
} WS_DumpFile;
WS_DumpResult WS_(ctl_dump_file)(const HChar* name, WS_DumpFile* d);

/* Registered with VG_(needs_client_requests): the WS_* requests of
   include/valgrind/ws.h and VG_USERREQ__GDB_MONITOR_COMMAND. */
Bool WS_(handle_client_request)(ThreadId tid, UWord* arg, UWord* ret);
/* At start-up: the instrumentation pass that lets a start or a stop
   hand the run over to the other threads. */
void WS_(clientreq_init)(void);
/* True if |req| was a ws command (answered, even if refused). */
Bool WS_(handle_monitor_command)(const HChar* req);


#endif /* __WS_CONTROL_H */

/*--------------------------------------------------------------------*/
/*--- end                                             ws_control.h ---*/
/*--------------------------------------------------------------------*/
