/*--------------------------------------------------------------------*/
/*--- ws: call stacks and code locations.             ws_stacks.c ---*/
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

/* Owns how code addresses and call stacks are named: in the output
   file (the "stack" blocks and their "frame" and "inline" lines, and
   the "ip location function" of one address, docs/output-format.md,
   "Stacks") and on the gdb/vgdb output.  It records no stacks itself:
   callers hand it ExeContexts, which the core keeps unique, so a
   stack's ECU names it.  It writes each stack into the output file
   once, before the first line that refers to it, and remembers the id
   it gave it.

   One address can stand for several levels: the function it is in,
   and the calls the compiler inlined there (innermost first).  The
   core describes them one at a time through an InlIPCursor, but only
   as text (VG_(describe_IP): "0xIP: function (file:line)"); the
   function of an inlined level, and the call site of every level but
   the innermost, are taken from that text.  The innermost location
   and the real function's name are asked for directly, so that an
   option that changes VG_(describe_IP)'s text (--sym-offsets,
   --fullpath-after) does not change the output. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "ws_global.h"

/*------------------------------------------------------------*/
/*--- Describing one code address                          ---*/
/*------------------------------------------------------------*/

/* One level of a code address: a function activation, or a call the
   compiler inlined into the next level. */
typedef struct {
   Bool         inlined;
   const HChar* function;  /* demangled, or "???" */
   const HChar* file;      /* source file (may include a directory), or
                              NULL when there is no line information */
   UInt         line;
   const HChar* object;    /* without line information: the object
                              file, or NULL if unknown too */
} Level;

/* A location in the output: a file's base name (NAME_MAX is 255),
   escaped, with ":line", or "(object)" naming one, fits. */
#define WS_LOCATION_MAX 1100

static const HChar* base_name(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   return slash ? slash + 1 : path;
}

/* The location as a single word for the output file: "file:line" with
   the file's base name, "(object)", or "???"; the names escaped as
   words (docs/output-format.md, "Escaping"), so that the location
   stays one word whatever the name holds. */
static void format_location(const Level* l, HChar* buf)
{
   SizeT n;
   if (l->file) {
      n = WS_(escape_into)(base_name(l->file), WS_EscWord, buf,
                           WS_LOCATION_MAX - 16);
      VG_(sprintf)(buf + n, ":%u", l->line);
   } else if (l->object) {
      buf[0] = '(';
      n = WS_(escape_into)(base_name(l->object), WS_EscWord, buf + 1,
                           WS_LOCATION_MAX - 3);
      buf[n + 1] = ')';
      buf[n + 2] = '\0';
   } else {
      VG_(strcpy)(buf, "???");
   }
}

/* Fills |l| for the level of |ip| whose VG_(describe_IP) text is
   |text| (a copy, which this cuts up).  |top|: the innermost level;
   |bottom|: the function the code belongs to, i.e. not inlined.  The
   text is "0xIP: function (where)", where "where" is "file:line" for
   every level but the top, whose location is asked for directly. */
static void describe_level(DiEpoch ep, Addr ip, HChar* text, Bool top,
                           Bool bottom, Level* l)
{
   /* The last " (": a function name may contain " (" (a parameter
      that is a function pointer), a file name hardly ever does. */
   HChar* open = NULL;
   HChar* s;
   for (s = VG_(strstr)(text, " ("); s; s = VG_(strstr)(s + 1, " ("))
      open = s;

   l->inlined = !bottom;
   if (bottom) {
      if (!VG_(get_fnname)(ep, ip, &l->function))
         l->function = "???";
   } else {
      /* An inlined level always has a name and a location. */
      HChar* colon = VG_(strstr)(text, ": ");
      tl_assert(colon && open);
      *open = '\0';
      l->function = colon + 2;
   }

   l->file = NULL;
   l->object = NULL;
   l->line = 0;
   if (top) {
      const HChar* dir;
      if (!VG_(get_filename_linenum)(ep, ip, &l->file, &dir, &l->line)) {
         l->file = NULL;
         if (!VG_(get_objname)(ep, ip, &l->object))
            l->object = NULL;
      }
   } else {
      /* "(file:line)": the call site of the level above. */
      HChar* where = open + 2;
      HChar* colon = VG_(strrchr)(where, ':');
      tl_assert(colon);
      *colon = '\0';
      l->file = where;
      l->line = VG_(strtoll10)(colon + 1, NULL);
   }
}

typedef void (*LevelAction)(Addr ip, const Level* l, void* opaque);

/* Calls |action| on each level of |ip|, innermost first, or only on
   the innermost.  The strings it is given live until it returns. */
static void for_each_level(DiEpoch ep, Addr ip, Bool innermost_only,
                           LevelAction action, void* opaque)
{
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   Bool top = True, more;
   do {
      const HChar* described = VG_(describe_IP)(ep, ip, iipc);
      HChar text[VG_(strlen)(described) + 1];
      Level l;
      VG_(strcpy)(text, described);
      more = VG_(next_IIPC)(iipc);
      describe_level(ep, ip, text, top, !more, &l);
      action(ip, &l, opaque);
      top = False;
   } while (more && !innermost_only);
   VG_(delete_IIPC)(iipc);
}

static UInt count_levels(DiEpoch ep, Addr ip)
{
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   UInt n = 1;
   while (VG_(next_IIPC)(iipc))
      n++;
   VG_(delete_IIPC)(iipc);
   return n;
}

/*------------------------------------------------------------*/
/*--- The frames of a stack                                ---*/
/*------------------------------------------------------------*/

/* The code addresses of a stack, innermost first, without the frames
   below main (as Valgrind shows stacks, unless --show-below-main). */
typedef struct {
   Addr* ips;
   UInt  n;
} Frames;

static void collect_ip(UInt i, DiEpoch ep, Addr ip, void* opaque)
{
   Frames* f = opaque;
   f->ips[f->n++] = ip;
}

/*------------------------------------------------------------*/
/*--- Stack blocks in the output file and dump files       ---*/
/*------------------------------------------------------------*/

/* A stack's id in a file: ECU -> id. */
typedef struct {
   VgHashNode top;      /* key: the ExeContext's ECU */
   UInt       id;
} WrittenStack;

static void sf_printf(WS_StackFile* sf, const HChar* format, ...)
   PRINTF_CHECK(2, 3);
static void sf_printf(WS_StackFile* sf, const HChar* format, ...)
{
   va_list vargs;
   va_start(vargs, format);
   VG_(vcbprintf)(sf->put_char, sf->opaque, format, vargs);
   va_end(vargs);
}

static void put_level(Addr ip, const Level* l, void* opaque)
{
   WS_StackFile* sf = opaque;
   HChar loc[WS_LOCATION_MAX];
   format_location(l, loc);
   sf_printf(sf, "%s 0x%lx %s ", l->inlined ? "inline" : "frame", ip, loc);
   WS_(escape)(l->function[0] ? l->function : "???", WS_EscText,
               sf->put_char, sf->opaque);
   sf->put_char('\n', sf->opaque);
}

UInt WS_(stack_id)(WS_StackFile* sf, ExeContext* ec)
{
   UInt          ecu = VG_(get_ECU_from_ExeContext)(ec);
   DiEpoch       ep = VG_(get_ExeContext_epoch)(ec);
   Addr          ips[VG_(get_ExeContext_n_ips)(ec)];
   Frames        f = { ips, 0 };
   UInt          lines = 0, i;
   WrittenStack* w;

   if (sf->written == NULL)
      sf->written = VG_(HT_construct)("ws.stacks.written");
   w = VG_(HT_lookup)(sf->written, ecu);
   if (w != NULL)
      return w->id;

   VG_(apply_ExeContext)(collect_ip, &f, ec);
   for (i = 0; i < f.n; i++)
      lines += count_levels(ep, f.ips[i]);
   w = VG_(malloc)("ws.stacks.node", sizeof *w);
   w->top.key = ecu;
   w->id = sf->next_id++;
   VG_(HT_add_node)(sf->written, w);

   sf_printf(sf, "stack %u %u\n", w->id, lines);
   for (i = 0; i < f.n; i++)
      for_each_level(ep, f.ips[i], False, put_level, sf);
   return w->id;
}

void WS_(stack_file_forget)(WS_StackFile* sf)
{
   if (sf->written != NULL)
      VG_(HT_destruct)(sf->written, VG_(free));
   sf->written = NULL;
   sf->next_id = 1;
}

static WS_StackFile output_stacks = { NULL, 1, WS_(out_put_char), NULL };

WS_StackFile* WS_(out_stacks)(void)
{
   return &output_stacks;
}

UInt WS_(out_stack)(ExeContext* ec)
{
   return WS_(stack_id)(&output_stacks, ec);
}

typedef struct {
   HChar* buf;
   SizeT  size;
} WhereText;

static void where_text_level(Addr ip, const Level* l, void* opaque)
{
   WhereText* w = opaque;
   HChar loc[WS_LOCATION_MAX];
   SizeT n;
   format_location(l, loc);
   n = VG_(snprintf)(w->buf, w->size, "0x%lx %s ", ip, loc);
   if (n + 4 < w->size)
      WS_(escape_into)(l->function[0] ? l->function : "???", WS_EscText,
                       w->buf + n, w->size - n);
   else
      VG_(snprintf)(w->buf, w->size, "0x%lx ??? ???", ip);
}

void WS_(where_text)(Addr ip, HChar* buf, SizeT size)
{
   WhereText w = { buf, size };
   buf[0] = '\0';
   for_each_level(VG_(current_DiEpoch)(), ip, True, where_text_level, &w);
}

void WS_(out_where)(Addr ip)
{
   HChar text[WS_TEXT_MAX];
   WS_(where_text)(ip, text, sizeof text);
   WS_(out_printf)(" %s", text);
}

/*------------------------------------------------------------*/
/*--- The gdb/vgdb output                                  ---*/
/*------------------------------------------------------------*/

void WS_(monitor_where)(Addr ip)
{
   HChar text[WS_TEXT_MAX];
   WS_(where_text)(ip, text, sizeof text);
   VG_(gdb_printf)(" %s", text);
}

/* A stack for people, in the layout Valgrind's own messages use:
   "at 0xIP: function (file:line)", then "by ..." for each caller. */
typedef struct {
   const HChar* indent;
   Bool         first;
} MonitorStack;

static void monitor_stack_level(Addr ip, const Level* l, void* opaque)
{
   MonitorStack* m = opaque;
   VG_(gdb_printf)("%s%s 0x%lx: %s", m->indent, m->first ? "at" : "by", ip,
                   l->function);
   if (l->file)
      VG_(gdb_printf)(" (%s:%u)\n", base_name(l->file), l->line);
   else if (l->object)
      VG_(gdb_printf)(" (in %s)\n", l->object);
   else
      VG_(gdb_printf)("\n");
   m->first = False;
}

void WS_(monitor_stack)(ExeContext* ec, const HChar* indent)
{
   DiEpoch      ep = VG_(get_ExeContext_epoch)(ec);
   Addr         ips[VG_(get_ExeContext_n_ips)(ec)];
   Frames       f = { ips, 0 };
   MonitorStack m = { indent, True };
   UInt         i;
   VG_(apply_ExeContext)(collect_ip, &f, ec);
   for (i = 0; i < f.n; i++)
      for_each_level(ep, f.ips[i], False, monitor_stack_level, &m);
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_stacks.c ---*/
/*--------------------------------------------------------------------*/
