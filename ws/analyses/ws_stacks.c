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
   file and dump files (the "stack" blocks and their "frame" and
   "inline" lines, and the "ip location function" of one address,
   docs/output-format.md, "Stacks") and for people (the monitor's
   replies).  Each formatter writes to the WS_File it is given.  It
   records no stacks itself: callers hand it ExeContexts, which the
   core keeps unique, so a stack's ECU names it.  It writes each stack
   into a file (a WS_StackFile) once, before the first line that
   refers to it, and remembers the id it gave it there.

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
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_deduppoolalloc.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_vki.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_guest.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- Taking stacks                                        ---*/
/*------------------------------------------------------------*/

/* Whether |ip| can be a frame's code address: in a mapping that may be
   executed.  The unwinder follows the frame pointers and CFI it finds;
   past the real outermost frame (the dynamic linker's entry, a
   thread's start routine) it reads whatever the stack holds there,
   argc and argv and the environment: "frames" at 0x2 or on the stack
   itself.

   Every heap block's stack asks this of a dozen frames, nearly all in
   a few mappings (the program, libc), so the last code mappings found
   are remembered, until the next system call: only a system call
   (mmap, munmap, mprotect, mremap, brk, shmdt) takes code away, and a
   mapping that grows (a stack) keeps what it held. */
#define CODE_RANGES 4
static struct { Addr start, end; } code_ranges[CODE_RANGES];
static UInt n_code_ranges = 0, next_code_range = 0;

void WS_(stacks_forget_mappings)(void)
{
   n_code_ranges = 0;
}

static Bool is_code(Addr ip)
{
   NSegment const* seg;
   UInt i;
   for (i = 0; i < n_code_ranges; i++)
      if (ip - code_ranges[i].start <= code_ranges[i].end
                                       - code_ranges[i].start)
         return True;
   seg = VG_(am_find_nsegment)(ip);
   if (seg == NULL || !seg->hasX
       || (seg->kind != SkFileC && seg->kind != SkAnonC))
      return False;
   code_ranges[next_code_range].start = seg->start;
   code_ranges[next_code_range].end = seg->end;
   next_code_range = (next_code_range + 1) % CODE_RANGES;
   if (n_code_ranges < CODE_RANGES)
      n_code_ranges++;
   return True;
}

UInt WS_(real_stack_depth)(const Addr* ips, UInt n)
{
   UInt i;
   for (i = 1; i < n; i++)
      if (!is_code(ips[i]))
         return i;
   return n;
}

ExeContext* WS_(stack_here)(Addr ip)
{
   ThreadId tid = VG_(get_running_tid)();
   Addr     ips[VG_(clo_backtrace_size)];
   Addr     saved, stack_min, stack_max;
   UInt     n;
#if defined(VGA_amd64)
   PtrdiffT rip = offsetof(VexGuestArchState, guest_RIP);
#else
   PtrdiffT rip = offsetof(VexGuestArchState, guest_EIP);
#endif
   if (tid == VG_INVALID_THREADID) {
      /* None runs (a monitor command while the program waits in a
         system call): the first thread, where it waits. */
      VG_(thread_stack_reset_iter)(&tid);
      if (!VG_(thread_stack_next)(&tid, &stack_min, &stack_max))
         return NULL;
      ip = 0;
   }
   /* The guest state's instruction pointer is brought up to date only
      where an instruction may fault, and not at all in code a
      superblock chased into (a called function): unwinding from a
      stale one with the current stack pointer reads the wrong return
      addresses.  The caller knows the instruction. */
   if (ip != 0) {
      VG_(get_shadow_regs_area)(tid, (UChar*)&saved, 0, rip, sizeof saved);
      VG_(set_shadow_regs_area)(tid, 0, rip, sizeof ip, (const UChar*)&ip);
   }
   n = VG_(get_StackTrace)(tid, ips, VG_(clo_backtrace_size), NULL, NULL, 0);
   if (ip != 0)
      VG_(set_shadow_regs_area)(tid, 0, rip, sizeof saved,
                                (const UChar*)&saved);
   if (n == 0)
      return NULL;
   return VG_(make_ExeContext_from_StackTrace)(ips,
                                              WS_(real_stack_depth)(ips, n));
}

/* The program's own code: the executable Valgrind started (its file's
   device and inode, found at start-up), not the libraries it uses. */
static Bool  exe_known = False;
static ULong exe_dev, exe_ino;

static Bool found_exe(const HChar* path)
{
   struct vg_stat st;
   SysRes res = VG_(stat)(path, &st);
   if (sr_isError(res) || !VKI_S_ISREG(st.mode))
      return False;
   exe_known = True;
   exe_dev = st.dev;
   exe_ino = st.ino;
   return True;
}

/* The name as typed, looked up in $PATH when it has no '/', as the
   launcher does. */
void WS_(stacks_init)(void)
{
   const HChar* exe = VG_(args_the_exename);
   const HChar* path = VG_(getenv)("PATH");
   if (exe == NULL)
      return;
   if (VG_(strchr)(exe, '/') != NULL || path == NULL) {
      found_exe(exe);
      return;
   }
   while (*path) {
      const HChar* end = VG_(strchr)(path, ':');
      SizeT len = end ? (SizeT)(end - path) : VG_(strlen)(path);
      HChar full[len + VG_(strlen)(exe) + 3];
      if (len == 0) {
         VG_(strcpy)(full, ".");
      } else {
         VG_(memcpy)(full, path, len);
         full[len] = '\0';
      }
      VG_(strcat)(full, "/");
      VG_(strcat)(full, exe);
      if (found_exe(full))
         return;
      path += len + (end ? 1 : 0);
   }
}

static Bool in_executable(Addr ip)
{
   NSegment const* seg = VG_(am_find_nsegment)(ip);
   return exe_known && seg != NULL && seg->kind == SkFileC
          && seg->dev == exe_dev && seg->ino == exe_ino;
}

/* Demangled names of data symbols: the debug info demangles function
   names only, and the core's demangler is not the tools'; ws_demangle.c
   demangles them, unless --demangle=no.  That option is the core's and
   tools cannot read its variable, so it is read where the core read it,
   among the options the core was given (the last one wins; the core has
   refused any value but yes and no). */
static Bool demangling(void)
{
   static Int on = -1;
   Word i;
   if (on < 0) {
      on = 1;
      for (i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); i++) {
         const HChar* a = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
         if (VG_(strncmp)(a, "--demangle=", 11) == 0)
            on = VG_STREQ(a + 11, "yes");
      }
   }
   return on;
}

/* Names kept for the rest of the run, one copy each: an owner's name
   must outlive the debug info's and the demangler's buffers. */
static DedupPoolAlloc* names = NULL;

const HChar* WS_(intern)(const HChar* s)
{
   if (names == NULL)
      names = VG_(newDedupPA)(16384, 1, VG_(malloc), "ws.stacks.names",
                              VG_(free));
   return VG_(allocEltDedupPA)(names, VG_(strlen)(s) + 1, s);
}

const HChar* WS_(demangled)(const HChar* name)
{
   HChar* d = demangling() ? WS_(demangle)(name) : NULL;
   const HChar* kept = WS_(intern)(d != NULL ? d : name);
   if (d != NULL)
      VG_(free)(d);
   return kept;
}

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

/* Whether a level is code of the program's own sources rather than of
   a header: C++ templates and inline functions of the standard library
   (std::vector's growth, an allocator) end up in the program's own
   file, with their own lines; the program's own code is what its
   source files hold.  Without line information the function's name
   tells library code apart. */
static Bool is_source_level(const Level* l)
{
   static const HChar* const headers[] = {
      "h", "hh", "hpp", "hxx", "h++", "tcc", "inl", "ipp", "tpp"
   };
   static const HChar* const library[] = {
      "std::", "__gnu_cxx::", "__cxxabiv1::", "operator new",
      "operator delete"
   };
   const HChar* name;
   const HChar* dot;
   UInt i;
   if (l->file == NULL) {
      for (i = 0; i < sizeof library / sizeof library[0]; i++)
         if (VG_(strncmp)(l->function, library[i],
                          VG_(strlen)(library[i])) == 0)
            return False;
      return True;
   }
   name = VG_(strrchr)(l->file, '/') ? VG_(strrchr)(l->file, '/') + 1
                                     : l->file;
   dot = VG_(strrchr)(name, '.');
   if (dot == NULL)               /* <vector>, <memory>, ... */
      return False;
   for (i = 0; i < sizeof headers / sizeof headers[0]; i++)
      if (VG_(strcasecmp)(dot + 1, headers[i]) == 0)
         return False;
   return True;
}

typedef struct {
   Int  level;      /* levels seen so far */
   Int  own;        /* the first own one, or -1 */
   Bool in_exe;     /* the current ip is in the executable */
} OwnSearch;

static void own_level(Addr ip, const Level* l, void* opaque)
{
   OwnSearch* o = opaque;
   if (o->own < 0 && o->in_exe && is_source_level(l))
      o->own = o->level;
   o->level++;
}

Int WS_(own_level)(ExeContext* ec)
{
   DiEpoch   ep = VG_(get_ExeContext_epoch)(ec);
   Addr      ips[VG_(get_ExeContext_n_ips)(ec)];
   Frames    f = { ips, 0 };
   OwnSearch o = { 0, -1, False };
   UInt      i;
   VG_(apply_ExeContext)(collect_ip, &f, ec);
   for (i = 0; i < f.n && o.own < 0; i++) {
      o.in_exe = in_executable(f.ips[i]);
      for_each_level(ep, f.ips[i], False, own_level, &o);
   }
   return o.own;
}

/*------------------------------------------------------------*/
/*--- Stack blocks in the output file and dump files       ---*/
/*------------------------------------------------------------*/

/* A stack's id in a file: ECU -> id. */
typedef struct {
   VgHashNode top;      /* key: the ExeContext's ECU */
   UInt       id;
} WrittenStack;

static Bool unnamed(const Level* l);
static const DebugInfo* object_of(DiEpoch ep, Addr ip);
static void unnamed_code(DiEpoch ep, Addr ip, HChar* buf, SizeT size);

/* Room for an object's base name and an offset. */
#define WS_UNNAMED_MAX 300

/* The function of a line in a file: its name; for code without a
   symbol in an object, the name people see for it (unnamed_code), so
   that two such routines, sites or frames stay two in every viewer;
   "???" for code in no object.  |buf| holds the name made. */
static const HChar* file_function(DiEpoch ep, Addr ip, const Level* l,
                                  HChar buf[WS_UNNAMED_MAX])
{
   if (!unnamed(l))
      return l->function;
   if (object_of(ep, ip) == NULL)
      return "???";
   unnamed_code(ep, ip, buf, WS_UNNAMED_MAX);
   return buf;
}

typedef struct {
   WS_StackFile* sf;
   DiEpoch       ep;
} StackLines;

static void put_level(Addr ip, const Level* l, void* opaque)
{
   StackLines* sl = opaque;
   HChar loc[WS_LOCATION_MAX], made[WS_UNNAMED_MAX];
   format_location(l, loc);
   WS_(file_printf)(sl->sf->file, "%s 0x%lx %s ",
                    l->inlined ? "inline" : "frame", ip, loc);
   WS_(file_text)(sl->sf->file, file_function(sl->ep, ip, l, made),
                  WS_EscText);
   WS_(file_put_char)('\n', sl->sf->file);
}

UInt WS_(stack_id)(WS_StackFile* sf, ExeContext* ec)
{
   UInt          ecu = VG_(get_ECU_from_ExeContext)(ec);
   DiEpoch       ep = VG_(get_ExeContext_epoch)(ec);
   Addr          ips[VG_(get_ExeContext_n_ips)(ec)];
   Frames        f = { ips, 0 };
   StackLines    sl = { sf, ep };
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

   WS_(file_printf)(sf->file, "stack %u %u\n", w->id, lines);
   for (i = 0; i < f.n; i++)
      for_each_level(ep, f.ips[i], False, put_level, &sl);
   return w->id;
}

void WS_(stack_file_forget)(WS_StackFile* sf)
{
   if (sf->written != NULL)
      VG_(HT_destruct)(sf->written, VG_(free));
   sf->written = NULL;
   sf->next_id = 1;
}

/* The output file's stacks. */
static WS_StackFile out_stacks = { NULL, 1, NULL };

WS_StackFile* WS_(out_stacks)(void)
{
   out_stacks.file = WS_(out_file)();
   return &out_stacks;
}

UInt WS_(out_stack)(ExeContext* ec)
{
   return WS_(stack_id)(WS_(out_stacks)(), ec);
}

void WS_(out_stacks_forget)(void)
{
   WS_(stack_file_forget)(&out_stacks);
}

/*------------------------------------------------------------*/
/*--- One code address in a line                           ---*/
/*------------------------------------------------------------*/

/* Room for " <ip> <location> <function>", the function cut if need be. */
#define WS_TEXT_MAX 4096

typedef struct {
   HChar*  buf;
   SizeT   size;
   DiEpoch ep;
} WhereText;

static void where_text_level(Addr ip, const Level* l, void* opaque)
{
   WhereText* w = opaque;
   HChar loc[WS_LOCATION_MAX], made[WS_UNNAMED_MAX];
   SizeT n;
   format_location(l, loc);
   n = VG_(snprintf)(w->buf, w->size, "0x%lx %s ", ip, loc);
   if (n + 4 < w->size)
      WS_(escape_into)(file_function(w->ep, ip, l, made), WS_EscText,
                       w->buf + n, w->size - n);
   else
      VG_(snprintf)(w->buf, w->size, "0x%lx ??? ???", ip);
}

static void where_text(Addr ip, HChar* buf, SizeT size)
{
   WhereText w = { buf, size, VG_(current_DiEpoch)() };
   buf[0] = '\0';
   for_each_level(w.ep, ip, True, where_text_level, &w);
}

void WS_(write_where)(WS_File* f, Addr ip)
{
   HChar text[WS_TEXT_MAX];
   where_text(ip, text, sizeof text);
   WS_(file_printf)(f, " %s", text);
}

/*------------------------------------------------------------*/
/*--- Stacks for people                                    ---*/
/*------------------------------------------------------------*/

/* A stack for people, in the layout Valgrind's own messages use:
   "at 0xIP: function (file:line)", then "by ..." for each caller. */
typedef struct {
   WS_File*     f;
   const HChar* indent;
   Int          level;     /* lines shown so far */
   Int          own;       /* the line to mark, or -1 */
   DiEpoch      ep;
} ShownStack;

static Bool unnamed(const Level* l)
{
   return VG_STREQ(l->function, "???") || l->function[0] == '\0';
}

static void show_level(Addr ip, const Level* l, void* opaque)
{
   ShownStack* m = opaque;
   HChar       name[WS_LOCATION_MAX];
   WS_(file_printf)(m->f, "%s%s 0x%lx: ", m->indent,
                    m->level ? "by" : "at", ip);
   if (unnamed(l)) {
      unnamed_code(m->ep, ip, name, sizeof name);
      WS_(file_printf)(m->f, "%s", name);
   } else
      WS_(file_printf)(m->f, "%s", l->function);
   if (l->file)
      WS_(file_printf)(m->f, " (%s:%u)", base_name(l->file), l->line);
   else if (l->object && !unnamed(l))
      WS_(file_printf)(m->f, " (in %s)", l->object);
   WS_(file_printf)(m->f, "%s\n", m->level == m->own
                                 ? "   <- first in the program's code" : "");
   m->level++;
}

void WS_(show_stack)(WS_File* f, ExeContext* ec, const HChar* indent,
                     Int own)
{
   DiEpoch    ep = VG_(get_ExeContext_epoch)(ec);
   Addr       ips[VG_(get_ExeContext_n_ips)(ec)];
   Frames     fr = { ips, 0 };
   ShownStack m = { f, indent, 0, own, ep };
   UInt       i;
   VG_(apply_ExeContext)(collect_ip, &fr, ec);
   for (i = 0; i < fr.n; i++)
      for_each_level(ep, fr.ips[i], False, show_level, &m);
}

/*------------------------------------------------------------*/
/*--- One line of code for people                          ---*/
/*------------------------------------------------------------*/

/* Code without a symbol: its object's base name and its address inside
   the object, which is the address minus the object's load bias: it
   does not move with where the object loads, and it is what addr2line
   and objdump take for that object.  Two pieces of code never share a
   name this way, as they all would share "???".  Code in no object
   (made at run time) has only its address. */
static const DebugInfo* object_of(DiEpoch ep, Addr ip)
{
   const DebugInfo* di = VG_(find_DebugInfo)(ep, ip);
   const HChar* object;
   if (di != NULL || !VG_(get_objname)(ep, ip, &object))
      return di;
   /* outside the object's text (its PLT): found by its name */
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di))
      if (VG_(DebugInfo_get_filename)(di) != NULL
          && VG_STREQ(VG_(DebugInfo_get_filename)(di), object))
         return di;
   return NULL;
}

static void unnamed_code(DiEpoch ep, Addr ip, HChar* buf, SizeT size)
{
   const DebugInfo* di = object_of(ep, ip);
   const HChar* file = di ? VG_(DebugInfo_get_filename)(di) : NULL;
   if (file == NULL) {
      VG_(snprintf)(buf, size, "0x%lx (in no object)", ip);
      return;
   }
   VG_(snprintf)(buf, size, "%s+0x%lx", base_name(file),
                 ip - (Addr)VG_(DebugInfo_get_text_bias)(di));
}

static void level_line(DiEpoch ep, Addr ip, const Level* l, HChar* buf,
                       SizeT size)
{
   if (unnamed(l))
      unnamed_code(ep, ip, buf, size);
   else if (l->file)
      VG_(snprintf)(buf, size, "%s (%s:%u)", l->function,
                    base_name(l->file), l->line);
   else if (l->object)
      VG_(snprintf)(buf, size, "%s (in %s)", l->function,
                    base_name(l->object));
   else
      VG_(snprintf)(buf, size, "%s", l->function);
}

/* Room for a function's name cut short, and its place. */
#define WS_CODE_LINE_MAX 512

typedef struct {
   DiEpoch ep;
   Int     want;       /* the level to name */
   Bool    named_only; /* only if it has a name */
   Int     level;
   HChar*  buf;        /* "" until named */
} SiteLine;

static void site_level(Addr ip, const Level* l, void* opaque)
{
   SiteLine* s = opaque;
   if (s->level == s->want && s->buf[0] == '\0'
       && !(s->named_only && VG_STREQ(l->function, "???")))
      level_line(s->ep, ip, l, s->buf, WS_CODE_LINE_MAX);
   s->level++;
}

const HChar* WS_(code_line)(Addr ip)
{
   HChar    buf[WS_CODE_LINE_MAX] = "";
   SiteLine s = { VG_(current_DiEpoch)(), 0, False, 0, buf };
   for_each_level(s.ep, ip, True, site_level, &s);
   return WS_(intern)(buf);
}

/* The program's own level if it has a name; else the innermost frame,
   which names the code that called the allocation function: in a
   stripped program the program's own frame would be the same for all
   the blocks that one of its calls into a library allocated, and a
   library's frames further out (below main) say nothing. */
const HChar* WS_(site_line)(ExeContext* ec)
{
   HChar    buf[WS_CODE_LINE_MAX] = "";
   Addr     ips[VG_(get_ExeContext_n_ips)(ec)];
   Frames   f = { ips, 0 };
   SiteLine s = { VG_(get_ExeContext_epoch)(ec), WS_(own_level)(ec), True,
                  0, buf };
   UInt     i;
   VG_(apply_ExeContext)(collect_ip, &f, ec);
   for (i = 0; i < f.n && s.want >= 0 && buf[0] == '\0'; i++)
      for_each_level(s.ep, f.ips[i], False, site_level, &s);
   if (buf[0] == '\0' && f.n > 0) {
      s.want = s.level = 0;
      s.named_only = False;
      for_each_level(s.ep, f.ips[0], True, site_level, &s);
   }
   return WS_(intern)(buf[0] ? buf : "???");
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_stacks.c ---*/
/*--------------------------------------------------------------------*/
